/// Why the screen looks shared or recorded: one short, lower-case phrase for a notice such as
/// "share mode: this tmux session has 2 clients attached".
public struct ShareModeReason: Equatable, Sendable, CustomStringConvertible {
    public let description: String

    public init(_ description: String) { self.description = description }
}
