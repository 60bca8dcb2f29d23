/// Runs a helper command with an environment; returns its standard output, or nil when it is missing,
/// failed or took too long. `SystemCommand.run` is the real one.
public typealias CommandRunner = (_ arguments: [String], _ environment: [String: String]) -> String?

/// Decides whether the terminal is, as far as can be seen, shared with someone or recorded, so that
/// accounts are shown only by label or id (share mode) and `reveal` refuses.
///
/// Checked in this order, the first hit wins:
/// 1. `ASCIINEMA_REC` set (asciinema 2.x is recording);
/// 2. `TMUX` pointing into a `tmate-UID` folder (tmate shares the session over the network);
/// 3. tmux (`TMUX` set): more than one client attached to the session, or the pane piped
///    (`pipe-pane`), asked through `tmux display -p -t "$TMUX_PANE" '#{session_attached} #{pane_pipe}'`;
///    then, for each attached client, whether *its* terminal is held by a recorder (`script` running
///    `tmux attach`);
/// 4. GNU screen (`STY` set) in multi-user mode: `screen -ls` lists the session as `Multi`;
/// 5. the process holding the master side of our pseudo-terminal, or one of its ancestors, is a known
///    recorder or sharer (`script`, `asciinema`, `ttyrec`, `tmate`, `ttyd`, …); this needs no variable,
///    so it also works when the environment was stripped.
///
/// What cannot be seen: a terminal emulator or SSH server that records by itself, a screen-sharing
/// call, a camera. A helper that fails or times out counts as "nothing seen" (no false alarm from a
/// stale `TMUX`); the process scan and each helper are bounded in time.
public struct ShareModeDetector {
    /// Command names (as in `/proc/PID/comm`, at most 15 bytes) of programs that record or share the
    /// terminal whose master side they hold, with the phrase used in the reason.
    public static let recorders: [String: String] = [
        "script": "util-linux script", "asciinema": "asciinema", "ttyrec": "ttyrec", "termrec": "termrec",
        "tlog-rec": "tlog", "tlog-rec-sessio": "tlog", "tmate": "tmate", "ttyd": "ttyd", "gotty": "gotty",
        "tty-share": "tty-share", "upterm": "upterm", "sshx": "sshx", "vhs": "vhs",
    ]
    /// How far up the process tree to look from a master holder.
    static let maximumAncestors = 16

    private let processes: ProcessTable
    private let runCommand: CommandRunner

    /// A detector asking `processes` about processes and running helpers through `runCommand`.
    public init(processes: ProcessTable = SystemProcessTable(),
                runCommand: @escaping CommandRunner = { SystemCommand.run($0, environment: $1) }) {
        self.processes = processes
        self.runCommand = runCommand
    }

    /// The first sign that the terminal is shared or recorded, or nil when none was seen.
    public func detect(environment: [String: String]) -> ShareModeReason? {
        func value(_ name: String) -> String? { environment[name].flatMap { $0.isEmpty ? nil : $0 } }

        if value("ASCIINEMA_REC") != nil {
            return ShareModeReason { msg("asciinema is recording this terminal (ASCIINEMA_REC is set)") }
        }
        if let tmux = value("TMUX") {
            let socket = tmux.split(separator: ",", omittingEmptySubsequences: false).first.map(String.init) ?? tmux
            if socket.contains("/tmate-") {
                return ShareModeReason { msg("this is a tmate session, shared over the network") }
            }
            if let reason = tmuxReason(pane: value("TMUX_PANE"), environment: environment) { return reason }
        }
        if let sty = value("STY"), let listing = runCommand(["screen", "-ls"], environment) {
            let multi = listing.split(separator: "\n").contains { $0.contains(sty) && $0.contains("Multi") }
            if multi { return ShareModeReason { msg("this GNU screen session is in multi-user mode") } }
        }
        if let index = processes.ownPseudoTerminalIndex(), let recorder = recorder(holding: index) {
            return ShareModeReason { msg("this terminal is recorded or shared by {1}", recorder) }
        }
        return nil
    }

    private func tmuxReason(pane: String?, environment: [String: String]) -> ShareModeReason? {
        let target = pane.map { ["-t", $0] } ?? []
        guard let answer = runCommand(["tmux", "display-message", "-p"] + target
                                      + ["#{session_attached} #{pane_pipe} #{session_id}"], environment) else { return nil }
        let fields = answer.split(whereSeparator: { $0 == " " || $0 == "\n" })
        guard fields.count >= 3 else { return nil }
        if let attached = Int(fields[0]), attached > 1 {
            return ShareModeReason {
                msg(one: "this tmux session has {1} client attached", many: "this tmux session has {1} clients attached", count: attached, attached)
            }
        }
        if fields[1] == "1" {
            return ShareModeReason { msg("this tmux pane is piped to a program (pipe-pane)") }
        }
        // One client: is its own terminal recorded (`script -c "tmux attach"`)?
        guard let clients = runCommand(["tmux", "list-clients", "-t", String(fields[2]), "-F", "#{client_tty}"], environment) else {
            return nil
        }
        for line in clients.split(separator: "\n") where line.hasPrefix("/dev/pts/") {
            if let index = Int(line.dropFirst("/dev/pts/".count)), let recorder = recorder(holding: index) {
                return ShareModeReason { msg("the terminal of this tmux session's client is recorded or shared by {1}", recorder) }
            }
        }
        return nil
    }

    /// The recorder holding the master side of `/dev/pts/index`, looking at each holder and its ancestors.
    private func recorder(holding index: Int) -> String? {
        for holder in processes.masterHolders(ofPseudoTerminal: index) {
            var pid: Int32? = holder
            var steps = 0
            while let current = pid, current > 1, steps < ShareModeDetector.maximumAncestors {
                if let name = processes.name(of: current), let recorder = ShareModeDetector.recorders[name] {
                    return recorder
                }
                pid = processes.parent(of: current)
                steps += 1
            }
        }
        return nil
    }
}
