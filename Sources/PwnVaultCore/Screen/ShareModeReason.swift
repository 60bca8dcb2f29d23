/// Why the screen looks shared or recorded: one short, lower-case phrase for a notice such as
/// "share mode: this tmux session has 2 clients attached".
public struct ShareModeReason: Equatable, Sendable, CustomStringConvertible {
    /// In the reader's language; in English inside `Messages.english` (what `doctor --json` builds).
    public var description: String { Messages.inEnglish ? english : translated }
    /// The same in English, for what machines read (`status --json`, `doctor --json`).
    public let english: String
    private let translated: String

    /// Who turned share mode on: it decides which way out a hint may offer.
    public enum Source: Sendable, Equatable {
        /// `--share` on this command line.
        case option
        /// `PWNVAULT_SHARE`: the user's own standing choice, which `--no-share` does not undo.
        case variable
        /// A shared or recorded terminal was detected; `--no-share` turns detection off for one run.
        case detected
    }
    public var source: Source = .detected

    public init(_ description: String, source: Source = .detected) {
        self.translated = description; self.english = description; self.source = source
    }

    /// `text` made twice: in the reader's language, and in English.
    public init(source: Source = .detected, _ text: () -> String) {
        self.translated = text(); self.english = Messages.english(text); self.source = source
    }
}
