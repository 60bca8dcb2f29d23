/// Key material that lives in guarded, locked memory (`sodium_malloc`) and is wiped when it goes away.
///
/// It cannot be copied by accident (it is a class with no public copy), it never prints its contents,
/// and it compares in constant time. Hand its bytes to C through `withUnsafeBytes` only.
///
/// Unchecked Sendable: `base` and `count` are `let`s; the bytes are written only by the code that
/// makes the secret (before it is shared) and read after, never written by two threads.
public final class SecretBytes: CustomStringConvertible, CustomDebugStringConvertible, @unchecked Sendable {
    let base: UnsafeMutableRawPointer
    /// The number of bytes held.
    public let count: Int

    /// Fresh zeroed secret memory of `count` bytes.
    public init(count: Int) {
        Sodium.ensureInitialized()
        self.count = count
        self.base = Sodium.secureAllocate(count)
    }

    /// `count` random bytes from the system's CSPRNG.
    public static func random(count: Int) -> SecretBytes {
        let s = SecretBytes(count: count)
        Sodium.randomBytes(s.base, count)
        return s
    }

    /// Copies `bytes` into secret memory. The caller remains responsible for wiping its own copy.
    public convenience init<C: Collection>(copying bytes: C) where C.Element == UInt8 {
        self.init(count: bytes.count)
        var i = 0
        for b in bytes { base.storeBytes(of: b, toByteOffset: i, as: UInt8.self); i += 1 }
    }

    deinit { Sodium.secureFree(base) }   // sodium_free zeroes before releasing

    public func withUnsafeBytes<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        try body(UnsafeRawBufferPointer(start: base, count: count))
    }

    public func withUnsafeMutableBytes<R>(_ body: (UnsafeMutableRawBufferPointer) throws -> R) rethrows -> R {
        try body(UnsafeMutableRawBufferPointer(start: base, count: count))
    }

    /// Constant-time comparison.
    public func isEqual(to other: SecretBytes) -> Bool {
        count == other.count && Sodium.constantTimeEqual(base, other.base, count)
    }

    public var description: String { "SecretBytes(\(count) bytes, redacted)" }
    public var debugDescription: String { description }
}
