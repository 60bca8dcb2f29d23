/// What `ShareModeDetector` asks about processes and terminals. The system answers through `/proc`
/// (`SystemProcessTable`); tests answer with a made-up table.
public protocol ProcessTable {
    /// N of the pseudo-terminal `/dev/pts/N` this process shows its output on; nil when it has none.
    func ownPseudoTerminalIndex() -> Int?
    /// The processes that hold the master side of `/dev/pts/N` (the terminal emulator, tmux, `script`).
    func masterHolders(ofPseudoTerminal index: Int) -> [Int32]
    /// The parent of `pid`; nil for pid 1, or when it cannot be read.
    func parent(of pid: Int32) -> Int32?
    /// The command name of `pid` (`/proc/PID/comm`: at most 15 bytes); nil when it cannot be read.
    func name(of pid: Int32) -> String?
}
