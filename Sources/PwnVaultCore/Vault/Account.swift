import Foundation

/// What kind of identifier an account is. HIBP searches e-mail addresses; usernames and phone
/// numbers are searched the same way (the API treats them as "accounts").
public enum AccountKind: String, Codable, Sendable, CaseIterable {
    case email
    case username
    case phone
}

/// One watched account, as stored in the vault payload.
public struct Account: Codable, Equatable, Sendable {
    /// Short stable id, shown as `#3`. Never reused within a vault.
    public var id: Int
    /// The account exactly as the user entered it (trimmed).
    public var entered: String
    /// The normalised form used for comparisons and API queries.
    public var normalized: String
    public var kind: AccountKind
    /// Optional human label ("Mum's e-mail"); stands in for the account on screen.
    public var label: String?
    public var addedAt: Date
    /// The latest check result; `.neverChecked` until the first check.
    public var result: CheckResult

    public init(id: Int, entered: String, normalized: String, kind: AccountKind, label: String?,
                addedAt: Date, result: CheckResult = .neverChecked) {
        self.id = id; self.entered = entered; self.normalized = normalized; self.kind = kind
        self.label = label; self.addedAt = addedAt; self.result = result
    }
}

extension Account {
    /// What two accounts are "the same" by: the normalised form, lower-cased (HIBP is case-insensitive).
    /// The same rule as `ParsedAccount.dedupKey`, without parsing again.
    public var dedupKey: String { normalized.lowercased() }
}

/// The status of an account's latest check.
public enum CheckStatus: String, Codable, Sendable {
    case neverChecked = "never-checked"
    case clean
    case breached
    case error
}

/// The latest result of checking one account against HIBP.
public struct CheckResult: Codable, Equatable, Sendable {
    public var status: CheckStatus
    public var checkedAt: Date?
    /// Breach `Name`s (the catalog key), as returned by `breachedaccount`.
    public var breaches: [String]
    /// Number of pastes, when pastes were checked; nil when not checked.
    public var pasteCount: Int?
    /// A short cleaned description of the failure, for `.error`.
    public var errorMessage: String?

    public init(status: CheckStatus, checkedAt: Date? = nil, breaches: [String] = [], pasteCount: Int? = nil,
                errorMessage: String? = nil) {
        self.status = status; self.checkedAt = checkedAt; self.breaches = breaches
        self.pasteCount = pasteCount; self.errorMessage = errorMessage
    }

    public static let neverChecked = CheckResult(status: .neverChecked)
}

/// The plaintext content of a vault (sealed inside the file; see Docs/VAULT_FORMAT.md).
public struct VaultPayload: Codable, Equatable, Sendable {
    /// Payload schema version, independent of the file format version.
    public var schema: Int
    /// The id the next added account receives.
    public var nextID: Int
    public var accounts: [Account]

    public init(schema: Int = 1, nextID: Int = 1, accounts: [Account] = []) {
        self.schema = schema; self.nextID = nextID; self.accounts = accounts
    }
}
