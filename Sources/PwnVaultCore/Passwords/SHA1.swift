/// SHA-1 (FIPS 180-4), for Pwned Passwords only: its corpus is indexed by the SHA-1 of each password,
/// and libsodium has no SHA-1. It is not used for anything that needs collision resistance.
///
/// The message is read in place (a password stays in its `SecretBytes`); the last, padded block and
/// the message schedule live in one scratch buffer that is wiped (`Sodium.wipe`) before returning.
/// The chaining state is in local variables, which the compiler keeps in registers and on the stack.
public enum SHA1 {
    /// The length of a digest, in bytes.
    public static let digestBytes = 20
    private static let blockBytes = 64

    /// The digest of `message`, in secret memory.
    public static func hash(_ message: SecretBytes) -> SecretBytes {
        let digest = SecretBytes(count: digestBytes)
        message.withUnsafeBytes { m in digest.withUnsafeMutableBytes { hash(m, into: $0) } }
        return digest
    }

    /// Writes the digest of `message` into `digest`, which must hold `digestBytes` bytes.
    public static func hash(_ message: UnsafeRawBufferPointer, into digest: UnsafeMutableRawBufferPointer) {
        precondition(digest.count >= digestBytes, "SHA-1 digest buffer too small")
        var h0: UInt32 = 0x6745_2301, h1: UInt32 = 0xEFCD_AB89, h2: UInt32 = 0x98BA_DCFE
        var h3: UInt32 = 0x1032_5476, h4: UInt32 = 0xC3D2_E1F0

        // Scratch: 80 schedule words (320 bytes), then two blocks for the padded tail (128 bytes).
        withUnsafeTemporaryAllocation(byteCount: 80 * 4 + 2 * blockBytes, alignment: 8) { scratch in
            defer { Sodium.wipe(scratch) }
            let w = scratch.baseAddress!.bindMemory(to: UInt32.self, capacity: 80)
            let tail = scratch.baseAddress! + 80 * 4

            func compress(_ block: UnsafeRawPointer) {
                for t in 0..<16 {
                    w[t] = UInt32(bigEndian: block.loadUnaligned(fromByteOffset: t * 4, as: UInt32.self))
                }
                for t in 16..<80 {
                    let x = w[t - 3] ^ w[t - 8] ^ w[t - 14] ^ w[t - 16]
                    w[t] = (x << 1) | (x >> 31)
                }
                var a = h0, b = h1, c = h2, d = h3, e = h4
                for t in 0..<80 {
                    let f: UInt32, k: UInt32
                    switch t {
                    case 0..<20: f = (b & c) | (~b & d); k = 0x5A82_7999
                    case 20..<40: f = b ^ c ^ d; k = 0x6ED9_EBA1
                    case 40..<60: f = (b & c) | (b & d) | (c & d); k = 0x8F1B_BCDC
                    default: f = b ^ c ^ d; k = 0xCA62_C1D6
                    }
                    let temp = ((a << 5) | (a >> 27)) &+ f &+ e &+ k &+ w[t]
                    e = d; d = c; c = (b << 30) | (b >> 2); b = a; a = temp
                }
                h0 = h0 &+ a; h1 = h1 &+ b; h2 = h2 &+ c; h3 = h3 &+ d; h4 = h4 &+ e
                a = 0; b = 0; c = 0; d = 0; e = 0
            }

            let length = message.count
            let fullBlocks = length / blockBytes
            if let base = message.baseAddress {
                for i in 0..<fullBlocks { compress(base + i * blockBytes) }
            }
            // The tail: the remaining bytes, 0x80, zeros, and the length in bits (big-endian, 64 bits).
            let rest = length - fullBlocks * blockBytes
            if rest > 0, let base = message.baseAddress {
                tail.copyMemory(from: base + fullBlocks * blockBytes, byteCount: rest)
            }
            tail.storeBytes(of: 0x80, toByteOffset: rest, as: UInt8.self)
            let tailBlocks = rest + 1 + 8 <= blockBytes ? 1 : 2
            let end = tailBlocks * blockBytes
            for i in (rest + 1)..<(end - 8) { tail.storeBytes(of: 0, toByteOffset: i, as: UInt8.self) }
            let bits = UInt64(length) &* 8
            for i in 0..<8 {
                tail.storeBytes(of: UInt8(truncatingIfNeeded: bits >> (56 - 8 * UInt64(i))),
                                toByteOffset: end - 8 + i, as: UInt8.self)
            }
            for i in 0..<tailBlocks { compress(tail + i * blockBytes) }
        }

        // Stored word by word: an array of the words would be a heap copy nobody wipes.
        digest.storeBytes(of: h0.bigEndian, toByteOffset: 0, as: UInt32.self)
        digest.storeBytes(of: h1.bigEndian, toByteOffset: 4, as: UInt32.self)
        digest.storeBytes(of: h2.bigEndian, toByteOffset: 8, as: UInt32.self)
        digest.storeBytes(of: h3.bigEndian, toByteOffset: 12, as: UInt32.self)
        digest.storeBytes(of: h4.bigEndian, toByteOffset: 16, as: UInt32.self)
        h0 = 0; h1 = 0; h2 = 0; h3 = 0; h4 = 0
    }
}
