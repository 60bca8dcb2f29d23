import FoundationEssentials

/// What a check session checks: a vault account (its result saved) or an account given on the command
/// line that is not in the vault (shown only). `source` says where the latter came from ("argument 2"),
/// for messages that must not name the account.
public struct CheckEntry: @unchecked Sendable {
    // Safe: immutable values, only read after they are built.
    public let account: Account?
    public let parsed: ParsedAccount?
    public let source: String?

    public init(account: Account) { self.account = account; parsed = nil; source = nil }
    public init(parsed: ParsedAccount, source: String?) { account = nil; self.parsed = parsed; self.source = source }

    public var kind: AccountKind { account?.kind ?? parsed!.kind }
    public var isOnTestDomain: Bool { account?.isOnTestDomain ?? parsed!.isOnTestDomain }

    func target(_ index: Int) -> AccountCheckRun.Target {
        account.map { .init(index: index, account: $0) } ?? .init(index: index, parsed: parsed!)
    }
}
