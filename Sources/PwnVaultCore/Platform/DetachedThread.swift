import Glibc

/// Starts `body` on a new detached POSIX thread (what `Foundation.Thread { … }.start()` did), for work
/// that blocks for a long time and so must not hold one of Dispatch's pool threads.
enum DetachedThread {
    private final class Box {
        let body: @Sendable () -> Void
        init(_ body: @escaping @Sendable () -> Void) { self.body = body }
    }

    /// False when the thread could not be created.
    @discardableResult
    static func start(_ body: @escaping @Sendable () -> Void) -> Bool {
        let box = Unmanaged.passRetained(Box(body)).toOpaque()
        var thread = pthread_t()
        let rc = pthread_create(&thread, nil, { raw in
            let box = Unmanaged<Box>.fromOpaque(raw!).takeRetainedValue()
            box.body()
            return nil
        }, box)
        guard rc == 0 else { Unmanaged<Box>.fromOpaque(box).release(); return false }
        pthread_detach(thread)
        return true
    }
}
