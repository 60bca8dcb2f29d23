import FoundationEssentials

/// What kind of identifier an account is. HIBP searches e-mail addresses; usernames and phone
/// numbers are searched the same way (the API treats them as "accounts").
public enum AccountKind: String, Codable, Sendable, CaseIterable {
    case email
    case username
    case phone
}

/// One watched account, as stored in the vault payload.
///
/// Not `Codable`: the vault's own codec (`PayloadJSONWriter`/`PayloadJSONReader`) is the only way it
/// becomes JSON, so no `JSONEncoder` outside the library can write the account (the tests' Foundation
/// reference codec adds the conformance in the test target). It prints as `Account(#3, email)`.
public struct Account: Equatable, Sendable {
    enum CodingKeys: String, CodingKey { case id, entered, normalized, kind, label, addedAt, result, findings }

    /// Short stable id, shown as `#3`. Never reused within a vault.
    public var id: Int
    /// The account exactly as the user entered it (trimmed). Internal: only `Disclosure` turns it into
    /// text for an output, and only the HIBP client sends it anywhere.
    var entered: String
    /// The normalised form used for comparisons and API queries (internal, as `entered`).
    var normalized: String
    public var kind: AccountKind
    /// Optional human label ("Mum's e-mail"); stands in for the account on screen. Internal: shown
    /// through `Disclosure.label`, which masks anything in it that looks like an account.
    var label: String?
    public var addedAt: Date
    /// The last good answer and the last failed attempt; `.neverChecked` until the first check.
    public var result: CheckResult
    /// Every breach, paste and stealer-log website the account was ever found in, in the order first
    /// seen (`Finding`); empty until a check finds something.
    public var findings: [Finding]
    /// Members a newer pwnvault wrote into this account; written back unchanged (§7.3).
    public var unknownMembers = UnknownJSONMembers()

    init(id: Int, entered: String, normalized: String, kind: AccountKind, label: String?,
         addedAt: Date, result: CheckResult = .neverChecked, findings: [Finding] = [],
         unknownMembers: UnknownJSONMembers = UnknownJSONMembers()) {
        self.id = id; self.entered = entered; self.normalized = normalized; self.kind = kind
        self.label = label; self.addedAt = addedAt; self.result = result; self.findings = findings
        self.unknownMembers = unknownMembers
    }
}

extension Account {
    /// A new vault account from a parsed one, with a label already screened by `AccountLabel`.
    public init(id: Int, parsed: ParsedAccount, label: AccountLabel?, addedAt: Date) {
        self.init(id: id, entered: parsed.entered, normalized: parsed.normalized, kind: parsed.kind,
                  label: label?.text, addedAt: addedAt)
    }

    /// What two accounts are "the same" by: the normalised form, lower-cased (HIBP is case-insensitive).
    /// The same rule as `ParsedAccount.dedupKey`, without parsing again.
    public var dedupKey: AccountKey { AccountKey(normalized.lowercased()) }

    /// Whether the account has a label at all (its text goes through `Disclosure.label`).
    public var hasLabel: Bool { label != nil }

    /// Whether HIBP's public test key may look this account up (`hibp-integration-tests.com`).
    public var isOnTestDomain: Bool { APIKey.allOnTestDomain([normalized]) }
}

/// An account's identity for comparisons and dictionary keys, without its characters: it hashes and
/// compares like the lower-cased normalised account but prints as `AccountKey(redacted)`.
public struct AccountKey: Hashable, Sendable, CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    let value: String
    init(_ value: String) { self.value = value }
    public var description: String { "AccountKey(redacted)" }
    public var debugDescription: String { description }
    public var customMirror: Mirror { Mirror(self, children: []) }
}

/// Interpolating, printing or dumping an account shows its id only: a forgotten `"\(account)"` in a
/// message cannot leak it.
extension Account: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    public var description: String { "Account(#\(id), \(kind.rawValue))" }
    public var debugDescription: String { description }
    public var customMirror: Mirror { Mirror(self, children: ["id": id, "kind": kind]) }
}

/// What an account's saved result says, computed from its last good answer and its last attempt.
public enum CheckStatus: String, Codable, Sendable {
    /// No answer yet, and no attempt failed.
    case neverChecked = "never-checked"
    /// The last good answer found no breach.
    case clean
    /// The last good answer found breaches.
    case breached
    /// No good answer yet, and the last attempt failed.
    case error
}

/// Why the latest attempt to check an account failed, and when. A failure never replaces a good
/// answer: it is kept next to it until the next good answer clears it.
public struct CheckFailure: Codable, Equatable, Sendable {
    /// When the failed attempt ended.
    public var at: Date
    /// A short cleaned description of the failure (never an account).
    public var message: String

    public init(at: Date, message: String) { self.at = at; self.message = message }

    enum CodingKeys: String, CodingKey { case at, message = "error" }
}

/// What is known about one account from Have I Been Pwned: the last **good** answer (its status,
/// breach names, paste count and time) and, separately, whether the latest attempt failed.
///
/// A failed attempt never erases a good answer (`recording(_:)`); a good answer clears the failure.
///
/// Not `Codable` (its breach names include sensitive ones; the vault codec writes it), and it prints
/// its status and counts only.
public struct CheckResult: Equatable, Sendable {
    /// `.clean` or `.breached` from the last good answer; `.error` when there is none and an attempt
    /// failed; `.neverChecked` otherwise. Whether the latest attempt failed is `lastFailure`.
    public var status: CheckStatus
    /// When the last good answer arrived; nil before the first one.
    public var checkedAt: Date?
    /// Breach `Name`s (the catalog key) of the last good answer, as returned by `breachedaccount`.
    /// Internal: which breaches an account is in leaves the process only through `Disclosure.breaches`
    /// (sensitive ones counted).
    var breaches: [String]
    /// Number of pastes in the last good answer, when pastes were checked; nil when not checked.
    public var pasteCount: Int?
    /// The latest attempt, when it failed after (or without) the last good answer.
    public var lastFailure: CheckFailure?
    /// Members a newer pwnvault wrote into this object; written back unchanged (§7.3).
    public var unknownMembers = UnknownJSONMembers()

    /// How many breaches the account was found in.
    public var breachCount: Int { breaches.count }

    public init(status: CheckStatus, checkedAt: Date? = nil, breaches: [String] = [], pasteCount: Int? = nil,
                lastFailure: CheckFailure? = nil) {
        self.init(status: status, checkedAt: checkedAt, breaches: breaches, pasteCount: pasteCount,
                  lastFailure: lastFailure, unknownMembers: UnknownJSONMembers())
    }

    /// With the members a newer pwnvault wrote, as the payload reader makes it (in one piece: setting
    /// `unknownMembers` afterwards made it copy the whole result).
    init(status: CheckStatus, checkedAt: Date?, breaches: [String], pasteCount: Int?,
         lastFailure: CheckFailure?, unknownMembers: UnknownJSONMembers) {
        self.status = status; self.checkedAt = checkedAt; self.breaches = breaches
        self.pasteCount = pasteCount; self.lastFailure = lastFailure; self.unknownMembers = unknownMembers
    }

    public static let neverChecked = CheckResult(status: .neverChecked)

    /// A good answer: `breaches` found (none: clean) at `date`.
    public static func answer(breaches: [String], pasteCount: Int?, at date: Date) -> CheckResult {
        CheckResult(status: breaches.isEmpty ? .clean : .breached, checkedAt: date, breaches: breaches,
                    pasteCount: pasteCount)
    }

    /// A failed attempt on its own, before it is recorded next to what was known.
    public static func failure(_ message: String, at date: Date) -> CheckResult {
        CheckResult(status: .error, lastFailure: CheckFailure(at: date, message: message))
    }

    /// Whether a good answer is saved.
    public var hasAnswer: Bool { status == .clean || status == .breached }

    /// The failure's message (kept for callers of the first model, where an error replaced the result).
    public var errorMessage: String? { lastFailure?.message }

    /// This result after `attempt` (one check's outcome, `answer` or `failure`): a good answer replaces
    /// everything and clears the failure; a failure keeps the good answer and records itself next to it.
    public func recording(_ attempt: CheckResult) -> CheckResult {
        guard let failure = attempt.lastFailure, !attempt.hasAnswer else { return attempt }
        var kept = self
        if !kept.hasAnswer { kept.status = .error }
        kept.lastFailure = failure
        return kept
    }

    enum CodingKeys: String, CodingKey { case status, checkedAt, breaches, pasteCount, lastFailure }
}

/// The plaintext content of a vault (sealed inside the file; see Docs/VAULT_FORMAT.md).
/// Not `Codable`: `PayloadCodec` is the one way it becomes bytes; it prints as counts only.
public struct VaultPayload: Equatable, Sendable {
    /// Payload schema version, independent of the file format version.
    public var schema: Int
    /// The id the next added account receives.
    public var nextID: Int
    public var accounts: [Account]
    /// What unattended monitoring (`watch`, `check --all --force`) remembers between runs.
    public var monitor: MonitorState?
    /// Members a newer pwnvault wrote at the top level; written back unchanged (§7.3).
    public var unknownMembers = UnknownJSONMembers()

    enum CodingKeys: String, CodingKey { case schema, nextID, accounts, monitor }

    public init(schema: Int = 1, nextID: Int = 1, accounts: [Account] = [], monitor: MonitorState? = nil) {
        self.schema = schema; self.nextID = nextID; self.accounts = accounts; self.monitor = monitor
    }
}

/// Printing, dumping or interpolating a result shows its status and counts, never a breach name.
extension CheckResult: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    public var description: String {
        "CheckResult(\(status.rawValue), \(breaches.count) breaches\(pasteCount.map { ", \($0) pastes" } ?? ""))"
    }
    public var debugDescription: String { description }
    public var customMirror: Mirror {
        Mirror(self, children: ["status": status, "breachCount": breaches.count, "pasteCount": pasteCount as Any,
                                "checkedAt": checkedAt as Any, "failed": lastFailure != nil])
    }
}

/// A payload prints as counts: its accounts, labels and findings never.
extension VaultPayload: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    public var description: String { "VaultPayload(schema \(schema), \(accounts.count) accounts, next #\(nextID))" }
    public var debugDescription: String { description }
    public var customMirror: Mirror {
        Mirror(self, children: ["schema": schema, "nextID": nextID, "accounts": accounts, "monitor": monitor as Any])
    }
}

/// What monitoring remembers between runs (VAULT_FORMAT §7, *monitor*). Nothing in it is an account.
public struct MonitorState: Codable, Equatable, Sendable {
    /// When every account last got a good answer in one run (`watch`'s full check, `check --all --force`).
    public var lastFullCheck: Date?
    /// The breach catalog as it was at that full check (`BreachCatalog.mark`): when it changes, `watch`
    /// checks every account again.
    public var catalogMark: String?
    /// When an unfinished `check --all --force` started: running it again continues with the accounts
    /// it had not finished, instead of starting over.
    public var forceRunStartedAt: Date?

    public init(lastFullCheck: Date? = nil, catalogMark: String? = nil, forceRunStartedAt: Date? = nil) {
        self.lastFullCheck = lastFullCheck; self.catalogMark = catalogMark; self.forceRunStartedAt = forceRunStartedAt
    }

    public var isEmpty: Bool { lastFullCheck == nil && catalogMark == nil && forceRunStartedAt == nil }

    enum CodingKeys: String, CodingKey { case catalogMark, forceRunStartedAt, lastFullCheck }
}
