import Synchronization

/// A mutual-exclusion lock with `lock()`/`unlock()` as NSLock had them (ScreenGuard releases it on other
/// paths than the one that took it, which `Mutex.withLock` cannot express), built on
/// `Synchronization.Mutex` (a futex on Linux). Not recursive, like NSLock.
public final class Lock: Sendable {
    private let mutex = Mutex<Void>(())

    public init() {}

    public func lock() { mutex._unsafeLock() }

    public func unlock() { mutex._unsafeUnlock() }

    public func withLock<T>(_ body: () throws -> T) rethrows -> T {
        lock()
        defer { unlock() }
        return try body()
    }
}
