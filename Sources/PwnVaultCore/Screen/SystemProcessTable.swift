import FoundationEssentials

/// `ProcessTable` answered by `/proc`, within a time limit.
///
/// Finding who holds a terminal's master side means looking at every open file of every process:
/// `/proc/*/fd` links to `/dev/ptmx` (or `/dev/pts/ptmx`), and `/proc/PID/fdinfo/FD` names the
/// terminal in its `tty-index:` line. Processes of other users cannot be looked into (that is fine: a
/// recorder of our terminal runs as us, or as root when we are root). The scan stops at `timeLimit`
/// seconds and after `maximumDescriptors` descriptors, and then reports what it found so far.
public struct SystemProcessTable: ProcessTable {
    /// The descriptors whose terminal is "ours", tried in order: output first, it is what is shown.
    public var terminalDescriptors: [Int32]
    public var timeLimit: Double
    public var maximumDescriptors: Int

    public init(terminalDescriptors: [Int32] = [1, 2, 0], timeLimit: Double = 0.5, maximumDescriptors: Int = 100_000) {
        self.terminalDescriptors = terminalDescriptors
        self.timeLimit = timeLimit
        self.maximumDescriptors = maximumDescriptors
    }

    public func ownPseudoTerminalIndex() -> Int? {
        for fd in terminalDescriptors {
            if let index = TerminalIO.ptyIndex(ofDescriptor: fd) { return index }
        }
        return nil
    }

    public func masterHolders(ofPseudoTerminal index: Int) -> [Int32] {
        let deadline = TerminalIO.secondsSinceBoot() + timeLimit
        var budget = maximumDescriptors
        var holders: [Int32] = []
        for entry in TerminalIO.directoryEntries("/proc") {
            guard let pid = Int32(entry), pid > 0 else { continue }
            if budget <= 0 || TerminalIO.secondsSinceBoot() > deadline { break }
            for fd in TerminalIO.directoryEntries("/proc/\(pid)/fd") {
                budget -= 1
                guard let target = TerminalIO.readLink("/proc/\(pid)/fd/\(fd)"),
                      target == "/dev/ptmx" || target.hasSuffix("/pts/ptmx") else { continue }
                guard let info = TerminalIO.readSmallFile("/proc/\(pid)/fdinfo/\(fd)"),
                      SystemProcessTable.ttyIndex(inFDInfo: info) == index else { continue }
                holders.append(pid)
                break
            }
        }
        return holders
    }

    public func parent(of pid: Int32) -> Int32? {
        guard let stat = TerminalIO.readSmallFile("/proc/\(pid)/stat") else { return nil }
        return SystemProcessTable.parent(inStat: stat)
    }

    public func name(of pid: Int32) -> String? {
        guard let comm = TerminalIO.readSmallFile("/proc/\(pid)/comm", limit: 64) else { return nil }
        let name = comm.hasSuffix("\n") ? String(comm.dropLast()) : comm
        return name.isEmpty ? nil : name
    }

    /// The number after `tty-index:` in an fdinfo file.
    static func ttyIndex(inFDInfo info: String) -> Int? {
        for line in info.split(separator: "\n") where line.hasPrefix("tty-index:") {
            return Int(line.dropFirst("tty-index:".count).trimmingWhitespace())
        }
        return nil
    }

    /// The parent pid in `/proc/PID/stat`: the 2nd field after the command name, which is in
    /// parentheses and may itself contain spaces and parentheses (so read after the last `)`).
    static func parent(inStat stat: String) -> Int32? {
        guard let close = stat.lastIndex(of: ")") else { return nil }
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        guard fields.count >= 2, let ppid = Int32(fields[1]), ppid > 0 else { return nil }
        return ppid
    }
}
