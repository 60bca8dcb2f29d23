/// Reads and writes vault files, format version 1 (Docs/VAULT_FORMAT.md). Pure functions on bytes:
/// no file system, no keyring, no prompt. Every function either returns a fully checked value or
/// throws `VaultFormatError`.
///
/// Reading with the keyring: `readHeader` → look up `header.vaultIDHex` → `open(bytes, key:)`.
/// Reading with the passphrase: `readHeader` → `unwrapKey` → `open(bytes, key:)`.
/// Saving: `seal(payload, header:, key:)`. Changing the passphrase: `rewrap` → `seal`.
public enum VaultFile {
    /// The `crypto_kdf` context of both subkeys of the vault key.
    static let kdfContext = "PWNVAULT"
    /// Subkey id of the header MAC key `Kh`.
    static let headerMACSubkeyID: UInt64 = 1
    /// Subkey id of the payload key `Kp`.
    static let payloadSubkeyID: UInt64 = 2

    // MARK: Creating

    /// A new vault: a random 32-byte vault key, random salt, vault id and nonces, the key wrapped
    /// under `passphrase` with Argon2id at `kdf`, and `payload` sealed. Runs Argon2id once.
    ///
    /// Returns the file's bytes, the vault key (for the keyring) and the header.
    public static func create(passphrase: SecretBytes, kdf: KDFParameters = .default,
                              payload: VaultPayload) throws -> (bytes: [UInt8], key: SecretBytes, header: VaultHeader) {
        try create(passphrase: passphrase, kdf: kdf, payload: payload,
                   key: SecretBytes.random(count: Sodium.keyBytes), salt: Sodium.randomData(Sodium.saltBytes),
                   vaultID: Sodium.randomData(VaultHeader.vaultIDSize), wrapNonce: Sodium.randomData(Sodium.nonceBytes),
                   payloadNonce: Sodium.randomData(Sodium.nonceBytes))
    }

    /// `create` with every random input given: deterministic, for the test vectors of appendix A.
    static func create(passphrase: SecretBytes, kdf: KDFParameters, payload: VaultPayload, key: SecretBytes,
                       salt: [UInt8], vaultID: [UInt8], wrapNonce: [UInt8],
                       payloadNonce: [UInt8]) throws -> (bytes: [UInt8], key: SecretBytes, header: VaultHeader) {
        precondition(key.count == Sodium.keyBytes, "a vault key has \(Sodium.keyBytes) bytes")
        guard kdf.isWithinBounds else { throw VaultFormatError.kdfParametersOutOfBounds(kdf) }
        let wrappedKey = try wrap(key, passphrase: passphrase, kdf: kdf, salt: salt, nonce: wrapNonce)
        let unsealed = VaultHeader(kdf: kdf, salt: salt, vaultID: vaultID, wrapNonce: wrapNonce, wrappedKey: wrappedKey,
                                   payloadNonce: payloadNonce, payloadBoxLength: 0,
                                   mac: [UInt8](repeating: 0, count: VaultHeader.macSize))
        let (bytes, header) = try assemble(payload, header: unsealed, key: key, payloadNonce: payloadNonce)
        return (bytes, key, header)
    }

    // MARK: Reading

    /// The header of the vault file `bytes` (the whole file), after every check that needs no key
    /// (§9 steps 1–8): magic, version, flags, KDF id, reserved bytes, Argon2id bounds, payload length,
    /// file length. Nothing in it is authenticated yet.
    public static func readHeader(_ bytes: [UInt8]) throws -> VaultHeader {
        let header = try VaultHeader(validating: bytes)
        guard bytes.count >= header.fileLength else { throw VaultFormatError.truncated }
        guard bytes.count == header.fileLength else {
            throw VaultFormatError.damaged(reason: "\(bytes.count - header.fileLength) unexpected bytes follow the payload")
        }
        return header
    }

    /// The vault key, unwrapped with `passphrase` (runs Argon2id at the header's limits).
    ///
    /// Throws `.wrongPassphrase` when the wrapped key does not open; an altered salt, wrap nonce or
    /// limit looks exactly the same (§9). The key returned is also checked against the header MAC:
    /// when it opens the wrap but not the MAC, the header was altered (`.tampered`).
    public static func unwrapKey(_ header: VaultHeader, passphrase: SecretBytes) throws -> SecretBytes {
        guard header.kdf.isWithinBounds else {
            throw VaultFormatError.tampered(reason: "Argon2id limits \(header.kdf.summary) are out of bounds")
        }
        guard let kek = Sodium.deriveKey(passphrase: passphrase, salt: header.salt, opslimit: header.kdf.opslimit,
                                         memlimit: header.kdf.memlimit) else {
            throw VaultFormatError.keyDerivationFailed(header.kdf)
        }
        let key = SecretBytes(count: Sodium.keyBytes)
        let opened = header.wrappedKey.withUnsafeBytes { box in
            key.withUnsafeMutableBytes { Sodium.open(box, nonce: header.wrapNonce, key: kek, into: $0) }
        }
        guard opened else { throw VaultFormatError.wrongPassphrase }
        guard authenticates(header, key: key) else {
            throw VaultFormatError.tampered(reason: phrase("the header does not match the key it wraps"))
        }
        return key
    }

    /// Whether `key` is this vault's key: the header MAC, compared in constant time. Nothing else in the
    /// header may be trusted before this returns true.
    public static func authenticates(_ header: VaultHeader, key: SecretBytes) -> Bool {
        guard key.count == Sodium.keyBytes else { return false }
        return Sodium.constantTimeEqual(headerMAC(header.authenticatedBytes, key: key), header.mac)
    }

    /// The header and the accounts of the vault file `bytes`, opened with `key`.
    ///
    /// Checks the header MAC before decrypting anything (`.keyMismatch`), then the payload box and the
    /// plaintext (`.damaged`) and the schema (`.unsupportedSchema`). The plaintext is decrypted into
    /// guarded memory and wiped.
    public static func open(_ bytes: [UInt8], key: SecretBytes) throws -> (header: VaultHeader, payload: VaultPayload) {
        let header = try readHeader(bytes)
        guard authenticates(header, key: key) else { throw VaultFormatError.keyMismatch }
        let payloadKey = Sodium.deriveSubkey(from: key, id: payloadSubkeyID, context: kdfContext)
        let plaintext = SecretBytes(count: Int(header.payloadBoxLength) - Sodium.macBytes)
        let opened = bytes.withUnsafeBytes { file in
            plaintext.withUnsafeMutableBytes { out in
                Sodium.open(UnsafeRawBufferPointer(rebasing: file[VaultHeader.size...]), nonce: header.payloadNonce,
                            key: payloadKey, into: out)
            }
        }
        guard opened else { throw VaultFormatError.damaged(reason: phrase("the payload does not decrypt")) }
        let payload = try plaintext.withUnsafeBytes { try PayloadCodec.decode($0) }
        return (header, payload)
    }

    // MARK: Writing

    /// The vault file holding `payload`, under the same key, vault id and passphrase wrap as `header`,
    /// with a fresh payload nonce and a recomputed MAC.
    ///
    /// Throws `.keyMismatch` when `key` does not authenticate `header` (the file would otherwise wrap
    /// one key and be sealed with another), and `.unwritablePayload` when the payload breaks schema 1.
    public static func seal(_ payload: VaultPayload, header: VaultHeader, key: SecretBytes) throws -> [UInt8] {
        try seal(payload, header: header, key: key, payloadNonce: Sodium.randomData(Sodium.nonceBytes))
    }

    /// `seal` with the payload nonce given.
    static func seal(_ payload: VaultPayload, header: VaultHeader, key: SecretBytes, payloadNonce: [UInt8]) throws -> [UInt8] {
        guard authenticates(header, key: key) else { throw VaultFormatError.keyMismatch }
        return try assemble(payload, header: header, key: key, payloadNonce: payloadNonce).bytes
    }

    /// A header with the same vault key wrapped under `newPassphrase` at `kdf`: new salt, new wrap
    /// nonce, same vault id, MAC recomputed. Runs Argon2id once.
    ///
    /// The returned header authenticates under `key` and still describes the current payload box, so
    /// `header.bytes + oldFile[200...]` is a valid file; the usual next step is
    /// `seal(payload, header: newHeader, key: key)`, which also refreshes the payload nonce.
    /// Throws `.keyMismatch` when `key` does not authenticate `header`.
    public static func rewrap(_ header: VaultHeader, key: SecretBytes, newPassphrase: SecretBytes,
                              kdf: KDFParameters = .default) throws -> VaultHeader {
        try rewrap(header, key: key, newPassphrase: newPassphrase, kdf: kdf,
                   salt: Sodium.randomData(Sodium.saltBytes), wrapNonce: Sodium.randomData(Sodium.nonceBytes))
    }

    /// `rewrap` with the salt and the wrap nonce given.
    static func rewrap(_ header: VaultHeader, key: SecretBytes, newPassphrase: SecretBytes, kdf: KDFParameters,
                       salt: [UInt8], wrapNonce: [UInt8]) throws -> VaultHeader {
        guard kdf.isWithinBounds else { throw VaultFormatError.kdfParametersOutOfBounds(kdf) }
        guard authenticates(header, key: key) else { throw VaultFormatError.keyMismatch }
        let wrappedKey = try wrap(key, passphrase: newPassphrase, kdf: kdf, salt: salt, nonce: wrapNonce)
        let unsealed = header.replacing(kdf: kdf, salt: salt, wrapNonce: wrapNonce, wrappedKey: wrappedKey)
        return unsealed.replacing(mac: headerMAC(unsealed.authenticatedBytes, key: key))
    }

    // MARK: Pieces

    /// `crypto_secretbox_easy(key, nonce, Argon2id(passphrase, salt, kdf))`: the 48-byte wrapped key.
    private static func wrap(_ key: SecretBytes, passphrase: SecretBytes, kdf: KDFParameters, salt: [UInt8],
                             nonce: [UInt8]) throws -> [UInt8] {
        guard let kek = Sodium.deriveKey(passphrase: passphrase, salt: salt, opslimit: kdf.opslimit,
                                         memlimit: kdf.memlimit) else {
            throw VaultFormatError.keyDerivationFailed(kdf)
        }
        return key.withUnsafeBytes { Sodium.seal($0, nonce: nonce, key: kek) }
    }

    /// Keyed BLAKE2b-256 of the header's first 168 bytes under `Kh` (subkey 1 of the vault key).
    static func headerMAC(_ authenticatedBytes: [UInt8], key: SecretBytes) -> [UInt8] {
        let macKey = Sodium.deriveSubkey(from: key, id: headerMACSubkeyID, context: kdfContext)
        return authenticatedBytes.withUnsafeBytes { Sodium.blake2b($0, key: macKey) }
    }

    /// Encodes and pads `payload`, fills in the payload nonce, box length and MAC of `header`, and seals
    /// the box under `Kp` (subkey 2). The caller has made sure `key` is the vault's key.
    private static func assemble(_ payload: VaultPayload, header: VaultHeader, key: SecretBytes,
                                 payloadNonce: [UInt8]) throws -> (bytes: [UInt8], header: VaultHeader) {
        let plaintext = try PayloadCodec.encode(payload)
        let unsealed = header.replacing(payloadNonce: payloadNonce,
                                        payloadBoxLength: UInt64(plaintext.count + Sodium.macBytes))
        let sealed = unsealed.replacing(mac: headerMAC(unsealed.authenticatedBytes, key: key))
        let payloadKey = Sodium.deriveSubkey(from: key, id: payloadSubkeyID, context: kdfContext)
        let box = plaintext.withUnsafeBytes { Sodium.seal($0, nonce: payloadNonce, key: payloadKey) }
        var bytes = sealed.bytes
        bytes.reserveCapacity(sealed.fileLength)
        bytes += box
        return (bytes, sealed)
    }
}
