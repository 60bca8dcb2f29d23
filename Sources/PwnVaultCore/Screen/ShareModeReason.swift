/// Why the screen looks shared or recorded: one short, lower-case phrase for a notice such as
/// "share mode: this tmux session has 2 clients attached".
public struct ShareModeReason: Equatable, Sendable, CustomStringConvertible {
    /// In the reader's language.
    public let description: String
    /// The same in English, for what machines read (`status --json`, `doctor --json`).
    public let english: String

    public init(_ description: String) { self.description = description; self.english = description }

    /// `text` made twice: in the reader's language, and in English.
    init(_ text: () -> String) { self.description = text(); self.english = Messages.english(text) }
}
