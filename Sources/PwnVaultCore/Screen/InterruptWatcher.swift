import Dispatch
import Glibc

/// Runs async work that Ctrl-C, SIGTERM or SIGHUP should stop cleanly rather than kill: while it
/// runs, those signals cancel the work (which then keeps what it finished) instead of ending the
/// process. The signals' previous dispositions are restored afterwards.
public final class InterruptWatcher: @unchecked Sendable {
    public static let signals: [Int32] = [SIGINT, SIGTERM, SIGHUP]
    public private(set) var receivedSignal: Int32?

    public init() {}

    /// Runs `work` to completion (or cancellation) and returns its result.
    public func run<T: Sendable>(_ work: @escaping @Sendable () async throws -> T) -> Result<T, Error> {
        let box = Box<T>()
        let done = DispatchSemaphore(value: 0)
        let task = Task {
            do { box.result = .success(try await work()) } catch { box.result = .failure(error) }
            done.signal()
        }
        var previous: [Int32: sighandler_t?] = [:]
        var sources: [DispatchSourceSignal] = []
        let queue = DispatchQueue(label: "pwnvault.interrupts")
        for sig in Self.signals {
            previous[sig] = signal(sig, SIG_IGN)   // the dispatch source sees it; the default action does not run
            let source = DispatchSource.makeSignalSource(signal: sig, queue: queue)
            source.setEventHandler { [weak self] in
                if self?.receivedSignal == nil { self?.receivedSignal = sig }
                task.cancel()
            }
            source.resume()
            sources.append(source)
        }
        done.wait()
        for source in sources { source.cancel() }
        for (sig, handler) in previous { signal(sig, handler ?? SIG_DFL) }
        return box.result ?? .failure(CancellationError())
    }

    private final class Box<T>: @unchecked Sendable { var result: Result<T, Error>? }
}
