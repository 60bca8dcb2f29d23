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
    /// The latest check result; `.neverChecked` until the first check.
    public var result: CheckResult

    init(id: Int, entered: String, normalized: String, kind: AccountKind, label: String?,
         addedAt: Date, result: CheckResult = .neverChecked) {
        self.id = id; self.entered = entered; self.normalized = normalized; self.kind = kind
        self.label = label; self.addedAt = addedAt; self.result = result
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
    public var description: String { "Account(#\(id), redacted)" }
    public var debugDescription: String { description }
    public var customMirror: Mirror { Mirror(self, children: ["id": id, "kind": kind]) }
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
    /// Breach `Name`s (the catalog key), as returned by `breachedaccount`. Internal: which breaches an
    /// account is in leaves the process only through `Disclosure.breaches` (sensitive ones counted).
    var breaches: [String]
    /// Number of pastes, when pastes were checked; nil when not checked.
    public var pasteCount: Int?
    /// A short cleaned description of the failure, for `.error`.
    public var errorMessage: String?

    /// How many breaches the account was found in.
    public var breachCount: Int { breaches.count }

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
