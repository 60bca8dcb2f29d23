import Glibc

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
