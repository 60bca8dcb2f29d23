import FoundationEssentials

/// A reason, known from the environment alone, why focus changes cannot reach pwnvault here: a
/// multiplexer between the terminal and us that does not pass them on.
public struct FocusObstacle: Equatable, Sendable {
    /// What stops them ("tmux does not pass focus changes on (focus-events is off)").
    public let reason: String
    /// How to fix it, or where to go instead.
    public let fix: String
    /// The tmux server this obstacle belongs to (`TMUX`'s socket and server pid): the warning is said
    /// once per server (`FocusWarningMemory`). Nil for an obstacle said every time.
    public var tmuxServer: String? = nil

    /// Asks what sits between the terminal and us: tmux (`TMUX` set) is asked for its `focus-events`
    /// option (off by default); GNU screen (`STY` set) never passes focus changes on. Nil when nothing
    /// is known to stop them (a helper that fails or takes too long counts as nothing known).
    public static func detect(environment: [String: String],
                              runCommand: ([String], [String: String]) -> String? = { SystemCommand.run($0, environment: $1) }) -> FocusObstacle? {
        func value(_ name: String) -> String? { environment[name].flatMap { $0.isEmpty ? nil : $0 } }
        if value("TMUX") != nil,
           let answer = runCommand(["tmux", "show-options", "-gv", "focus-events"], environment)?
               .trimmingWhitespaceAndNewlines(),
           answer == "off" {
            // TMUX is "socket,server pid,session": the first two name the server, whatever the session.
            let server = value("TMUX")!.split(separator: ",", omittingEmptySubsequences: false).prefix(2).joined(separator: ",")
            return FocusObstacle(reason: msg("tmux does not pass focus changes on (focus-events is off)"),
                                 fix: msg("add 'set -g focus-events on' to ~/.tmux.conf, then run: tmux source-file ~/.tmux.conf"),
                                 tmuxServer: server)
        }
        if value("STY") != nil {
            return FocusObstacle(reason: msg("GNU screen does not pass focus changes on"),
                                 fix: msg("run reveal in a terminal window of its own, outside screen"))
        }
        return nil
    }
}
