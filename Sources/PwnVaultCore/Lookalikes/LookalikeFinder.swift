/// Finds accounts that look like others (UTS #39 confusables) or mix scripts, as they are added.
///
/// - Parts: an e-mail address is checked part by part (the local part and each domain label are
///   separate identifiers, as browsers check IDN labels); a username as a whole. Phone numbers are
///   digits and are not checked.
/// - Mixed scripts: a part is suspicious when ICU's spoof checker says it is looser than UTS #39's
///   Moderately Restrictive level (Latin with Cyrillic or Greek, or two non-Latin scripts, in one
///   part) or is a mixed-script confusable. A part written wholly in one script (`иван`, `пример`)
///   is not: that is how people write in their own language. Latin with one other script in one part
///   (`tanaka田中`) is allowed by that level.
/// - Look-alikes: two accounts of the same kind whose lower-cased forms have the same UTS #39
///   skeleton (`alice@example.com`, `аlice@example.com` and an all-Cyrillic spelling alike) look
///   the same on screen and when masked.
public struct LookalikeFinder {
    private let checker: ICUSpoofChecker
    /// "kind:skeleton" → ids, in the order they were added.
    private var bySkeleton: [String: [Int]] = [:]
    private var normalizedOf: [Int: String] = [:]

    /// Records the skeletons of the accounts already in the vault.
    public init(checker: ICUSpoofChecker, existing: [Account]) {
        self.checker = checker
        for account in existing { record(account) }
    }

    /// Checks `account` against every account recorded so far, then records it. Nil when it neither
    /// mixes scripts nor looks like another account.
    public mutating func examine(_ account: Account) -> Lookalike? {
        guard account.kind != .phone else { return nil }
        let key = skeletonKey(account)
        let matches = (key.flatMap { bySkeleton[$0] } ?? []).filter { $0 != account.id }
        record(account)
        let mixed = mixedScripts(account)
        guard !mixed.isEmpty || !matches.isEmpty else { return nil }
        return Lookalike(id: account.id, scripts: checker.scripts(of: account.normalized), mixedScripts: mixed,
                         resembles: matches.map { Lookalike.Match(id: $0, scripts: checker.scripts(of: normalizedOf[$0] ?? "")) })
    }

    private mutating func record(_ account: Account) {
        guard account.kind != .phone, let key = skeletonKey(account) else { return }
        bySkeleton[key, default: []].append(account.id)
        normalizedOf[account.id] = account.normalized
    }

    private func skeletonKey(_ account: Account) -> String? {
        checker.skeleton(account.dedupKey.value).map { account.kind.rawValue + ":" + $0 }
    }

    /// The scripts of the parts that mix them suspiciously, in order of first use; empty if none does.
    private func mixedScripts(_ account: Account) -> [String] {
        var scripts: [String] = []
        for part in Self.parts(of: account) where !part.unicodeScalars.allSatisfy(\.isASCII) && checker.isSuspicious(part) {
            for s in checker.scripts(of: part) where !scripts.contains(s) { scripts.append(s) }
        }
        return scripts
    }

    /// The identifiers an account is made of: local part and domain labels, or the username.
    static func parts(of account: Account) -> [String] {
        switch account.kind {
        case .phone: return []
        case .username: return [account.normalized]
        case .email:
            guard let at = account.normalized.lastIndex(of: "@") else { return [account.normalized] }
            let local = String(account.normalized[..<at])
            let labels = account.normalized[account.normalized.index(after: at)...].split(separator: ".").map(String.init)
            return [local] + labels
        }
    }
}

/// The finder keeps the vault's accounts and their skeletons: it prints as a count.
extension LookalikeFinder: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    public var description: String { "LookalikeFinder(\(normalizedOf.count) accounts, redacted)" }
    public var debugDescription: String { description }
    public var customMirror: Mirror { Mirror(self, children: ["accountCount": normalizedOf.count]) }
}
