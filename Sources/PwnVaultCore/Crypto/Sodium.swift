// The only file that imports libsodium. Every call into it is made here and its return code mapped once.
internal import CSodium
import FoundationEssentials

/// Thin, typed access to the libsodium primitives pwnvault uses.
public enum Sodium {
    public static let keyBytes = Int(crypto_secretbox_KEYBYTES)
    public static let nonceBytes = Int(crypto_secretbox_NONCEBYTES)
    public static let macBytes = Int(crypto_secretbox_MACBYTES)
    public static let saltBytes = Int(crypto_pwhash_SALTBYTES)
    public static let argon2id13 = Int32(crypto_pwhash_ALG_ARGON2ID13)
    public static let opsInteractive = UInt64(crypto_pwhash_OPSLIMIT_INTERACTIVE)
    public static let memInteractive = UInt64(crypto_pwhash_MEMLIMIT_INTERACTIVE)
    public static let opsModerate = UInt64(crypto_pwhash_OPSLIMIT_MODERATE)
    public static let memModerate = UInt64(crypto_pwhash_MEMLIMIT_MODERATE)
    public static let opsSensitive = UInt64(crypto_pwhash_OPSLIMIT_SENSITIVE)
    public static let memSensitive = UInt64(crypto_pwhash_MEMLIMIT_SENSITIVE)

    private static let initOnce: Bool = {
        precondition(sodium_init() >= 0, "libsodium could not be initialised")
        return true
    }()

    /// `sodium_init` once per process; safe to call from anywhere.
    public static func ensureInitialized() { _ = initOnce }

    static func secureAllocate(_ count: Int) -> UnsafeMutableRawPointer {
        ensureInitialized()
        guard let p = sodium_malloc(max(count, 1)) else { fatalError("sodium_malloc failed: out of memory") }
        sodium_memzero(p, max(count, 1))
        return p
    }

    static func secureFree(_ p: UnsafeMutableRawPointer) { sodium_free(p) }

    static func randomBytes(_ p: UnsafeMutableRawPointer, _ count: Int) {
        ensureInitialized()
        randombytes_buf(p, count)
    }

    /// Random bytes that are not secret (nonces, salts, ids).
    public static func randomData(_ count: Int) -> [UInt8] {
        ensureInitialized()
        var out = [UInt8](repeating: 0, count: count)
        out.withUnsafeMutableBytes { randombytes_buf($0.baseAddress!, count) }
        return out
    }

    static func constantTimeEqual(_ a: UnsafeRawPointer, _ b: UnsafeRawPointer, _ count: Int) -> Bool {
        sodium_memcmp(a, b, count) == 0
    }

    /// Overwrites `bytes` with zeros in a way the compiler cannot optimise away.
    public static func wipe(_ bytes: inout [UInt8]) {
        let n = bytes.count
        bytes.withUnsafeMutableBytes { if let p = $0.baseAddress { sodium_memzero(p, n) } }
    }

    /// Overwrites the memory of `buffer` with zeros in a way the compiler cannot optimise away.
    static func wipe(_ buffer: UnsafeMutableRawBufferPointer) {
        if let p = buffer.baseAddress { sodium_memzero(p, buffer.count) }
    }

    /// Overwrites `data` with zeros.
    public static func wipe(_ data: inout Data) {
        let n = data.count
        data.withUnsafeMutableBytes { if let p = $0.baseAddress { sodium_memzero(p, n) } }
    }

    // MARK: secretbox (XSalsa20-Poly1305)

    /// `crypto_secretbox_easy`: returns MAC ‖ ciphertext (`plaintext.count + macBytes` bytes).
    public static func seal(_ plaintext: UnsafeRawBufferPointer, nonce: [UInt8], key: SecretBytes) -> [UInt8] {
        precondition(nonce.count == nonceBytes && key.count == keyBytes)
        ensureInitialized()
        var out = [UInt8](repeating: 0, count: plaintext.count + macBytes)
        let rc = out.withUnsafeMutableBytes { o in
            key.withUnsafeBytes { k in
                crypto_secretbox_easy(o.baseAddress!.assumingMemoryBound(to: UInt8.self),
                                      plaintext.baseAddress?.assumingMemoryBound(to: UInt8.self) ?? UnsafePointer(bitPattern: 1)!,
                                      UInt64(plaintext.count), nonce, k.baseAddress!.assumingMemoryBound(to: UInt8.self))
            }
        }
        precondition(rc == 0, "crypto_secretbox_easy failed")
        return out
    }

    /// `crypto_secretbox_open_easy` into caller-provided memory of `box.count - macBytes` bytes.
    /// Returns false when the box does not authenticate under `key` and `nonce`.
    public static func open(_ box: UnsafeRawBufferPointer, nonce: [UInt8], key: SecretBytes,
                            into out: UnsafeMutableRawBufferPointer) -> Bool {
        precondition(nonce.count == nonceBytes && key.count == keyBytes)
        guard box.count >= macBytes, out.count == box.count - macBytes else { return false }
        ensureInitialized()
        var scratch: UInt8 = 0
        let rc = key.withUnsafeBytes { k in
            withUnsafeMutablePointer(to: &scratch) { s in
                crypto_secretbox_open_easy(out.baseAddress?.assumingMemoryBound(to: UInt8.self) ?? s,
                                           box.baseAddress!.assumingMemoryBound(to: UInt8.self),
                                           UInt64(box.count), nonce, k.baseAddress!.assumingMemoryBound(to: UInt8.self))
            }
        }
        return rc == 0
    }

    // MARK: Argon2id

    /// `crypto_pwhash` with Argon2id v1.3. Returns nil when libsodium refuses (out of memory, limits out of range).
    public static func deriveKey(passphrase: SecretBytes, salt: [UInt8], opslimit: UInt64, memlimit: UInt64) -> SecretBytes? {
        precondition(salt.count == saltBytes)
        ensureInitialized()
        let out = SecretBytes(count: keyBytes)
        let rc = out.withUnsafeMutableBytes { o in
            passphrase.withUnsafeBytes { p in
                crypto_pwhash(o.baseAddress!.assumingMemoryBound(to: UInt8.self), UInt64(keyBytes),
                              p.baseAddress!.assumingMemoryBound(to: CChar.self), UInt64(p.count),
                              salt, opslimit, Int(memlimit), argon2id13)
            }
        }
        return rc == 0 ? out : nil
    }


    // MARK: keyed BLAKE2b, key derivation

    /// `crypto_kdf_derive_from_key`: a 32-byte subkey of `key` for `id` under an 8-character `context`.
    public static func deriveSubkey(from key: SecretBytes, id: UInt64, context: String) -> SecretBytes {
        let ctx = Array(context.utf8)
        precondition(ctx.count == Int(crypto_kdf_CONTEXTBYTES) && key.count == Int(crypto_kdf_KEYBYTES))
        let out = SecretBytes(count: 32)
        let rc = out.withUnsafeMutableBytes { o in
            key.withUnsafeBytes { k in
                ctx.map { CChar(bitPattern: $0) }.withUnsafeBufferPointer { c in
                    crypto_kdf_derive_from_key(o.baseAddress!.assumingMemoryBound(to: UInt8.self), 32, id,
                                               c.baseAddress!, k.baseAddress!.assumingMemoryBound(to: UInt8.self))
                }
            }
        }
        precondition(rc == 0, "crypto_kdf_derive_from_key failed")
        return out
    }

    /// `crypto_generichash` (BLAKE2b) with a 32-byte output, keyed when `key` is given: a MAC.
    public static func blake2b(_ message: UnsafeRawBufferPointer, key: SecretBytes?) -> [UInt8] {
        ensureInitialized()
        var out = [UInt8](repeating: 0, count: 32)
        let m = message.baseAddress?.assumingMemoryBound(to: UInt8.self)
        let rc: Int32 = out.withUnsafeMutableBytes { o in
            let op = o.baseAddress!.assumingMemoryBound(to: UInt8.self)
            if let key {
                return key.withUnsafeBytes { k in
                    crypto_generichash(op, 32, m, UInt64(message.count), k.baseAddress!.assumingMemoryBound(to: UInt8.self), k.count)
                }
            }
            return crypto_generichash(op, 32, m, UInt64(message.count), nil, 0)
        }
        precondition(rc == 0, "crypto_generichash failed")
        return out
    }

    /// Constant-time comparison of two public byte arrays (tags).
    public static func constantTimeEqual(_ a: [UInt8], _ b: [UInt8]) -> Bool {
        guard a.count == b.count else { return false }
        return a.withUnsafeBytes { x in b.withUnsafeBytes { y in sodium_memcmp(x.baseAddress!, y.baseAddress!, a.count) == 0 } }
    }

    /// `sodium_is_zero`: whether every byte of `bytes` is zero, in time that depends only on the length
    /// (used to check the vault payload's padding without branching on its content).
    public static func isZero(_ bytes: UnsafeRawBufferPointer) -> Bool {
        guard let p = bytes.baseAddress, bytes.count > 0 else { return true }
        ensureInitialized()
        return sodium_is_zero(p.assumingMemoryBound(to: UInt8.self), bytes.count) == 1
    }

    /// `sodium_bin2base64` / hex helpers for public values.
    public static func hex(_ bytes: [UInt8]) -> String {
        bytes.map { $0.padded(width: 2, radix: 16) }.joined()
    }
}
