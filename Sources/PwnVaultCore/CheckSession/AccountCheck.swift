import FoundationEssentials

/// One account's result from one check: HIBP's answer (breaches, and pastes and stealer-log websites
/// when asked) or why there was none, with what saving it and printing it need.
///
/// The check makes it (`AccountCheckRun`, a domain search: `answer` and what was seen); the session
/// adds what was checked (`entry`) and, once the vault holds it, the account as saved and what this
/// answer changed in it (`known`, `news`, `unlisted`, `saved`). `Account.recordChanges(_:)` records it.
public struct AccountCheck: @unchecked Sendable {
    // Safe: values built once (by the check, then by the saver) and only read after.

    /// This check alone, as the vault records it: a good answer (`CheckResult.answer`) or a failure
    /// (`CheckResult.failure`, its message in English: as the vault keeps it and `--json` writes it).
    public var answer: CheckResult
    /// `Source/Id` of every paste listed, when pastes were asked for and answered.
    var pastes: [String]?
    /// The website domains of the stealer logs, when asked for and answered.
    var stealerLogSites: [String]?
    /// Whether the search lists sensitive breaches (a domain search does; `breachedaccount` never):
    /// only such an answer can say that HIBP stopped listing a sensitive breach.
    var listsSensitive = false
    /// Why the check failed, as HIBP or the network said it (nil: answered, or only the message is known).
    public var error: HIBPError?

    /// What was checked: a vault account or one from the command line (nil until the session says).
    public var entry: CheckEntry?
    /// For a vault account, the account as saved after this check (its last good answer kept when the
    /// check failed); nil outside the vault.
    public var known: Account?
    /// What this check found first (findings dated at the answer).
    public var news: [Finding] = []
    /// Findings not acknowledged that this answer no longer lists (`Finding.unlistedSince` set now).
    public var unlisted: [Finding] = []
    /// Whether the vault holds this check.
    public var saved = false

    init(answer: CheckResult, pastes: [String]? = nil, stealerLogSites: [String]? = nil, listsSensitive: Bool = false) {
        self.answer = answer; self.pastes = pastes; self.stealerLogSites = stealerLogSites; self.listsSensitive = listsSensitive
    }

    /// A failed check: nothing seen. `message` in English (as the vault keeps it); `error` the reason.
    public static func failure(_ message: String, error: HIBPError? = nil, at date: Date) -> AccountCheck {
        var check = AccountCheck(answer: .failure(message, at: date))
        check.error = error
        return check
    }

    /// A good answer from a search that names breaches only (a domain search, which lists sensitive
    /// breaches too): no pastes, no stealer logs asked.
    static func domainAnswer(breaches: [String], at date: Date) -> AccountCheck {
        AccountCheck(answer: .answer(breaches: breaches, pasteCount: nil, at: date), listsSensitive: true)
    }

    /// What is known of the account after this check: the saved account's result, or (outside the
    /// vault) this answer alone.
    public var result: CheckResult { known?.result ?? CheckResult.neverChecked.recording(answer) }

    /// Why this check failed, in English (nil: it was answered).
    public var attemptError: String? { answer.hasAnswer ? nil : answer.errorMessage ?? "error" }
    /// The same in the reader's language, for a person (the English one when only that is known).
    public var attemptErrorText: String? { attemptError.map { error?.message ?? $0 } }

    public var attemptFailed: Bool { attemptError != nil }
    public var attemptBreached: Bool { attemptError == nil && result.status == .breached }
    public var attemptClean: Bool { attemptError == nil && result.status == .clean }
}
