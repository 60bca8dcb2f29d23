import Foundation

/// Where an account is about to be shown, which decides how much of it may appear.
public struct DisplayPolicy: Equatable, Sendable {
    /// The output is a terminal a person looks at (see `TerminalCapabilities`).
    public var terminal: Bool
    /// The screen is shared or recorded (`--share`, or detected): only labels and ids appear.
    public var shareMode: Bool

    public init(terminal: Bool, shareMode: Bool = false) {
        self.terminal = terminal; self.shareMode = shareMode
    }
}

/// THE rule for how an account appears anywhere on screen or in output.
public enum AccountDisplay {
    /// - not a terminal (pipe, file, `TERM=dumb`): `#ID` only, no character of the account or its label;
    /// - terminal in share mode: the cleaned label, or `#ID` when there is none;
    /// - terminal: the masked form (`a•••e@e•••.com`).
    public static func display(_ account: Account, policy: DisplayPolicy) -> String {
        let id = "#\(account.id)"
        guard policy.terminal else { return id }
        if policy.shareMode { return labelText(account) ?? id }
        return Masking.mask(account.normalized, kind: account.kind)
    }

    /// The same rule for an account that is not in the vault (`check x@y` without --save): masked on a
    /// terminal outside share mode, otherwise `position` (where it was given, e.g. "argument 2").
    public static func display(_ parsed: ParsedAccount, position: String, policy: DisplayPolicy) -> String {
        policy.terminal && !policy.shareMode ? Masking.mask(parsed.normalized, kind: parsed.kind) : position
    }

    /// The account's label cleaned for one line of terminal output; nil when it has none or nothing
    /// printable is left of it.
    public static func labelText(_ account: Account) -> String? {
        guard let label = account.label else { return nil }
        let cleaned = Sanitizer.singleLine(label).trimmingCharacters(in: .whitespaces)
        return cleaned.isEmpty ? nil : cleaned
    }
}
