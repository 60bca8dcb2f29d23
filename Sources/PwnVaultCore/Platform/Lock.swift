import Glibc
// Not used here (see `Lock`), but imported so the module is linked: the static FoundationEssentials
// of a release build (-static-stdlib) calls into Synchronization's Mutex, and without an import no
// source asks the linker for it ('undefined reference to Synchronization._MutexHandle').
import Synchronization

/// A mutual-exclusion lock with `lock()`/`unlock()` as NSLock had them (ScreenGuard releases it on other
/// paths than the one that took it, which `Mutex.withLock` cannot express). Not recursive, like NSLock.
///
/// Built on `pthread_mutex_t`, as NSLock is, and not on `Synchronization.Mutex`: that one is a futex
/// inside the uninstrumented Swift runtime, so ThreadSanitizer cannot see it and reported every access
/// it guards (ScreenGuard's state between its signal thread and the drawing thread) as a race. TSan
/// intercepts the pthread calls and checks the code like any other.
public final class Lock: @unchecked Sendable {
    // Safe: the mutex lives at a fixed heap address for the lock's life and is only used through the
    // pthread calls, which synchronise by themselves.
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>

    public init() {
        mutex = .allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        pthread_mutex_init(mutex, nil)
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deinitialize(count: 1)
        mutex.deallocate()
    }

    public func lock() { pthread_mutex_lock(mutex) }

    public func unlock() { pthread_mutex_unlock(mutex) }

    public func withLock<T>(_ body: () throws -> T) rethrows -> T {
        lock()
        defer { unlock() }
        return try body()
    }
}

/// A value shared between threads or tasks, every access under its own `Lock`: the one way the code
/// keeps mutable state behind a lock (instead of a hand-written `@unchecked Sendable` class per use,
/// or `Synchronization.Mutex`, which ThreadSanitizer cannot see: see `Lock`).
public final class Locked<Value: Sendable>: @unchecked Sendable {
    // Safe: `stored` is only read or written with `lock` held.
    private let lock = Lock()
    private var stored: Value

    public init(_ value: Value) { stored = value }

    /// Reads or changes the value under the lock.
    public func withLock<R>(_ body: (inout Value) throws -> R) rethrows -> R {
        try lock.withLock { try body(&stored) }
    }

    /// A copy of the value as it is now.
    public var value: Value { lock.withLock { stored } }
}
