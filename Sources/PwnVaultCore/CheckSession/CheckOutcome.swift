import FoundationEssentials

/// One account's outcome in a check session. For a vault account, `known` is the saved account after
/// this attempt (its last good answer kept when the attempt failed); `news` what this attempt found first.
public struct CheckOutcome: @unchecked Sendable {
    // Safe: built once (by the saver once the result is saved) and only read after.
    public let entry: CheckEntry
    public let known: Account?
    public let result: CheckResult
    public let attemptError: String?
    public let news: [Finding]
    public let saved: Bool
    /// This attempt alone, as HIBP answered it (for a caller that records it itself: the ui).
    public let attempt: CheckAttempt

    public init(entry: CheckEntry, known: Account?, result: CheckResult, attemptError: String?, news: [Finding], saved: Bool,
                attempt: CheckAttempt) {
        self.entry = entry; self.known = known; self.result = result; self.attemptError = attemptError
        self.news = news; self.saved = saved; self.attempt = attempt
    }

    public var attemptFailed: Bool { attemptError != nil }
    public var attemptBreached: Bool { attemptError == nil && result.status == .breached }
    public var attemptClean: Bool { attemptError == nil && result.status == .clean }
}
