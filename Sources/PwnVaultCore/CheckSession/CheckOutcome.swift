import FoundationEssentials

/// One account's outcome in a check session. For a vault account, `known` is the saved account after
/// this attempt (its last good answer kept when the attempt failed); `news` what this attempt found first.
public struct CheckOutcome: @unchecked Sendable {
    // Safe: built once (by the saver once the result is saved) and only read after.
    public let entry: CheckEntry
    public let known: Account?
    public let result: CheckResult
    /// Why this attempt failed, in English: as the vault keeps it and `--json` writes it.
    public let attemptError: String?
    /// The same in the reader's language, for a person (the English one when only that is known).
    public let attemptErrorText: String?
    public let news: [Finding]
    /// Findings not acknowledged that this answer no longer lists (`Finding.unlistedSince` set now).
    public let unlisted: [Finding]
    public let saved: Bool
    /// This attempt alone, as HIBP answered it (for a caller that records it itself: the ui).
    public let attempt: CheckAttempt

    public init(entry: CheckEntry, known: Account?, result: CheckResult, attemptError: String?, attemptErrorText: String? = nil,
                news: [Finding], unlisted: [Finding] = [], saved: Bool, attempt: CheckAttempt) {
        self.entry = entry; self.known = known; self.result = result; self.attemptError = attemptError
        self.attemptErrorText = attemptError == nil ? nil : attemptErrorText ?? attemptError
        self.news = news; self.unlisted = unlisted; self.saved = saved; self.attempt = attempt
    }

    public var attemptFailed: Bool { attemptError != nil }
    public var attemptBreached: Bool { attemptError == nil && result.status == .breached }
    public var attemptClean: Bool { attemptError == nil && result.status == .clean }
}
