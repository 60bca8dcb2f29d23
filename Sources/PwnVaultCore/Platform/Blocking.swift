import Dispatch

/// Runs async work to completion from synchronous code (commands are synchronous; the catalog's
/// refresh runs under a lock). The one bridge from sync to async, for the CLI and the library.
public func blocking<T: Sendable>(_ work: @escaping @Sendable () async throws -> T) throws -> T {
    let box = BlockingResult<T>()
    let done = DispatchSemaphore(value: 0)
    Task {
        do { box.result = .success(try await work()) } catch { box.result = .failure(error) }
        done.signal()
    }
    done.wait()
    return try box.result!.get()
}

/// Unchecked: `result` is written by the task before it signals the semaphore and read by `blocking`
/// only after the wait returns, so the semaphore orders the two accesses.
private final class BlockingResult<T>: @unchecked Sendable {
    var result: Result<T, Error>?
}
