/// How a `CheckScheduler` run ended when it went through every item.
public struct CheckRunSummary: Sendable, Equatable {
    /// Items whose lookup succeeded.
    public var succeeded: Int
    /// Items reported as failed after their retries.
    public var failed: Int
    /// Requests sent in all, retries included.
    public var requests: Int

    public init(succeeded: Int, failed: Int, requests: Int) {
        self.succeeded = succeeded; self.failed = failed; self.requests = requests
    }
}
