/// The SHA-1 of a password as Pwned Passwords writes it: 40 upper-case hex characters, kept in
/// secret memory and wiped when this goes away.
///
/// Only `prefix` (the first five characters) is ever meant to leave the process; the rest is compared
/// in place by `PasswordRange` and `PwnedPasswordsFile`. It never prints its contents.
///
/// Unchecked Sendable: `hex` is a `let`; its bytes are written only while the hash is being made
/// (`init`), before the value can be shared, and only read after.
public final class PasswordHash: CustomStringConvertible, CustomDebugStringConvertible, @unchecked Sendable {
    /// Hex characters in a SHA-1 hash.
    public static let hexLength = 40
    /// Hex characters sent to the range API (k-anonymity: one of 1,048,576 buckets).
    public static let prefixLength = 5

    /// 40 ASCII bytes, `0-9A-F`.
    let hex: SecretBytes

    /// Hashes `password` (its bytes as typed, UTF-8, no line ending). The binary digest exists only
    /// in a scratch buffer that is wiped before this returns.
    public init(password: UnsafeRawBufferPointer) {
        hex = SecretBytes(count: Self.hexLength)
        rehash(password)
    }

    /// Hashes the password held in `password`.
    public convenience init(password: SecretBytes) {
        self.init(password: UnsafeRawBufferPointer(start: nil, count: 0))
        password.withUnsafeBytes { rehash($0) }
    }

    /// Replaces the hash held with that of `password`, in the same secret memory: checking many
    /// passwords then costs no secret allocation (each is a few system calls) per password.
    public func rehash(_ password: UnsafeRawBufferPointer) {
        withUnsafeTemporaryAllocation(byteCount: SHA1.digestBytes, alignment: 8) { digest in
            defer { Sodium.wipe(digest) }
            SHA1.hash(password, into: digest)
            hex.withUnsafeMutableBytes { out in
                let digits: StaticString = "0123456789ABCDEF"
                let d = digits.utf8Start
                for i in 0..<SHA1.digestBytes {
                    let byte = digest[i]
                    out[2 * i] = d[Int(byte >> 4)]
                    out[2 * i + 1] = d[Int(byte & 0x0F)]
                }
            }
        }
    }

    /// The first five hex characters: what the range API is asked about.
    public var prefix: String {
        hex.withUnsafeBytes { String(decoding: $0.prefix(Self.prefixLength), as: UTF8.self) }
    }

    /// Runs `body` with the 40 hex bytes, in place.
    func withHex<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        try hex.withUnsafeBytes(body)
    }

    public var description: String { "PasswordHash(redacted)" }
    public var debugDescription: String { description }
}
