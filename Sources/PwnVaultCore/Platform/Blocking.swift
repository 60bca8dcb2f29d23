import Dispatch

/// Runs async work to completion from synchronous code (commands are synchronous; the catalog's
/// refresh runs under a lock). The one bridge from sync to async, for the CLI and the library.
public func blocking<T: Sendable>(_ work: @escaping @Sendable () async throws -> T) throws -> T {
    let result = Locked<Result<T, Error>?>(nil)
    let done = DispatchSemaphore(value: 0)
    Task {
        let outcome: Result<T, Error>
        do { outcome = .success(try await work()) } catch { outcome = .failure(error) }
        result.withLock { $0 = outcome }
        done.signal()
    }
    done.wait()
    return try result.value!.get()
}
