/// How a `CheckScheduler` run ended when it went through every item.
public struct CheckRunSummary: Sendable, Equatable {
    /// Items whose lookup succeeded.
    public var succeeded: Int
    /// Items reported as failed after their retries.
    public var failed: Int
    /// Requests sent in all, retries included.
    public var requests: Int
    /// E-mail addresses looked up by k-anonymity (`AccountCheckRun`), and sent whole.
    public var kAnonymityLookups = 0
    public var wholeAddressLookups = 0

    public init(succeeded: Int, failed: Int, requests: Int) {
        self.succeeded = succeeded; self.failed = failed; self.requests = requests
    }
}
