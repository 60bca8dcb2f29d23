import Foundation
@testable import PwnVaultCore

// The `Codable` conformances the payload types had before `PayloadCodec` wrote its own JSON, kept here
// as wrappers for `FoundationPayloadJSON` (the independent reference the codec's bytes are compared
// with) only. The library no longer has them: a public `Encodable` on an account, a result or a
// finding let any caller write every account and sensitive breach name with `JSONEncoder`
// (GateReflectionTests). Wrappers, not retroactive conformances: a conformance added here would make
// the library's types `Encodable` at run time for every test, the gate test's check included.
// Each follows the removed conformance exactly: the members it names, optionals omitted when nil,
// `findings` omitted when empty.

/// A payload as Foundation's JSON encodes and decodes it.
struct ReferencePayload: Codable {
    let payload: VaultPayload
    init(_ payload: VaultPayload) { self.payload = payload }

    init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: VaultPayload.CodingKeys.self)
        payload = VaultPayload(schema: try c.decode(Int.self, forKey: .schema), nextID: try c.decode(Int.self, forKey: .nextID),
                               accounts: try c.decode([ReferenceAccount].self, forKey: .accounts).map(\.account),
                               monitor: try c.decodeIfPresent(MonitorState.self, forKey: .monitor))
    }

    func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: VaultPayload.CodingKeys.self)
        try c.encode(payload.schema, forKey: .schema)
        try c.encode(payload.nextID, forKey: .nextID)
        try c.encode(payload.accounts.map(ReferenceAccount.init), forKey: .accounts)
        try c.encodeIfPresent(payload.monitor, forKey: .monitor)
    }
}

struct ReferenceAccount: Codable {
    let account: Account
    init(_ account: Account) { self.account = account }

    init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: Account.CodingKeys.self)
        account = Account(id: try c.decode(Int.self, forKey: .id), entered: try c.decode(String.self, forKey: .entered),
                          normalized: try c.decode(String.self, forKey: .normalized), kind: try c.decode(AccountKind.self, forKey: .kind),
                          label: try c.decodeIfPresent(String.self, forKey: .label), addedAt: try c.decode(Date.self, forKey: .addedAt),
                          result: try c.decode(ReferenceResult.self, forKey: .result).result,
                          findings: try c.decodeIfPresent([ReferenceFinding].self, forKey: .findings)?.map(\.finding) ?? [])
    }

    func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: Account.CodingKeys.self)
        try c.encode(account.id, forKey: .id); try c.encode(account.entered, forKey: .entered)
        try c.encode(account.normalized, forKey: .normalized); try c.encode(account.kind, forKey: .kind)
        try c.encodeIfPresent(account.label, forKey: .label); try c.encode(account.addedAt, forKey: .addedAt)
        try c.encode(ReferenceResult(account.result), forKey: .result)
        if !account.findings.isEmpty { try c.encode(account.findings.map(ReferenceFinding.init), forKey: .findings) }
    }
}

struct ReferenceResult: Codable {
    let result: CheckResult
    init(_ result: CheckResult) { self.result = result }

    init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CheckResult.CodingKeys.self)
        result = CheckResult(status: try c.decode(CheckStatus.self, forKey: .status),
                             checkedAt: try c.decodeIfPresent(Date.self, forKey: .checkedAt),
                             breaches: try c.decode([String].self, forKey: .breaches),
                             pasteCount: try c.decodeIfPresent(Int.self, forKey: .pasteCount),
                             lastFailure: try c.decodeIfPresent(CheckFailure.self, forKey: .lastFailure))
    }

    func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: CheckResult.CodingKeys.self)
        try c.encode(result.status, forKey: .status)
        try c.encodeIfPresent(result.checkedAt, forKey: .checkedAt)
        try c.encode(result.breaches, forKey: .breaches)
        try c.encodeIfPresent(result.pasteCount, forKey: .pasteCount)
        try c.encodeIfPresent(result.lastFailure, forKey: .lastFailure)
    }
}

struct ReferenceFinding: Codable {
    let finding: Finding
    init(_ finding: Finding) { self.finding = finding }

    init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: Finding.CodingKeys.self)
        var finding = Finding(kind: try c.decode(FindingKind.self, forKey: .kind), key: try c.decode(String.self, forKey: .key),
                              firstSeen: try c.decode(Date.self, forKey: .firstSeen),
                              acknowledgedAt: try c.decodeIfPresent(Date.self, forKey: .acknowledgedAt))
        finding.unannounced = try c.decodeIfPresent(Bool.self, forKey: .unannounced)
        finding.unlistedSince = try c.decodeIfPresent(Date.self, forKey: .unlistedSince)
        self.finding = finding
    }

    func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: Finding.CodingKeys.self)
        try c.encode(finding.kind, forKey: .kind)
        try c.encode(finding.key, forKey: .key)
        try c.encode(finding.firstSeen, forKey: .firstSeen)
        try c.encodeIfPresent(finding.acknowledgedAt, forKey: .acknowledgedAt)
        try c.encodeIfPresent(finding.unannounced, forKey: .unannounced)
        try c.encodeIfPresent(finding.unlistedSince, forKey: .unlistedSince)
    }
}
