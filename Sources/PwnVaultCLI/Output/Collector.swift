import PwnVaultCore

/// Shared state for concurrent callbacks.
enum Collector {
    final class Box<T>: @unchecked Sendable {
        // Safe: every access to `stored` holds `lock`.
        private var stored: T?
        private let lock = Lock()
        init(initial: T? = nil) { stored = initial }
        /// Sets the value unless one is set already (the first error wins).
        func set(_ v: T) { lock.lock(); if stored == nil { stored = v }; lock.unlock() }
        func update(_ change: (inout T) -> Void) {
            lock.lock(); defer { lock.unlock() }
            if var v = stored { change(&v); stored = v }
        }
        var value: T? { lock.lock(); defer { lock.unlock() }; return stored }
    }
}
