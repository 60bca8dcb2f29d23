/// Where vault data is about to go, which decides how much of it may appear: the output mode of the
/// one disclosure gate (`Disclosure`).
public struct DisplayPolicy: Equatable, Sendable {
    /// The output is a terminal a person looks at (see `TerminalCapabilities`), and not `--json`.
    public var terminal: Bool
    /// The screen is shared or recorded (`--share`, `PWNVAULT_SHARE`, or detected): only labels and ids appear.
    public var shareMode: Bool

    public init(terminal: Bool, shareMode: Bool = false) {
        self.terminal = terminal; self.shareMode = shareMode
    }

    /// Whether any character of an account (masked) may appear: on a terminal, outside share mode.
    public var showsMaskedAccounts: Bool { terminal && !shareMode }
}
