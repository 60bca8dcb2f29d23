/// Why the screen looks shared or recorded: one short, lower-case phrase for a notice such as
/// "share mode: this tmux session has 2 clients attached".
public struct ShareModeReason: Equatable, Sendable, CustomStringConvertible {
    /// In the reader's language; in English inside `Messages.english` (what `doctor --json` builds).
    public var description: String { Messages.inEnglish ? english : translated }
    /// The same in English, for what machines read (`status --json`, `doctor --json`).
    public let english: String
    private let translated: String

    public init(_ description: String) { self.translated = description; self.english = description }

    /// `text` made twice: in the reader's language, and in English.
    public init(_ text: () -> String) { self.translated = text(); self.english = Messages.english(text) }
}
