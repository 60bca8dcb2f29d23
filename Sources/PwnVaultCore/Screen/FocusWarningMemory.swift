import FoundationEssentials

/// Which tmux servers were already told that they keep focus changes away (issue 32): the warning and
/// its fix are said once per server, not on every `reveal`. Remembered in pwnvault's cache folder
/// (`focus-warned`, 0600 in the 0700 folder), one server per line (`socket,pid`, no account, no
/// secret); a server started again has a new pid and is told again. Best effort: a cache that cannot
/// be read or written means the warning is said.
public struct FocusWarningMemory: Sendable {
    static let fileName = "focus-warned"
    static let kept = 32
    let folder: PrivateCacheFolder

    public init(directory: URL) { folder = PrivateCacheFolder(directory: directory) }

    /// Whether `obstacle` should be said now: always for one without a server; for a tmux server, only
    /// the first time (and then it is remembered).
    public func shouldWarn(_ obstacle: FocusObstacle) -> Bool {
        guard let server = obstacle.tmuxServer.map(Sanitizer.singleLine), !server.isEmpty else { return true }
        let known = folder.read(Self.fileName, maxBytes: 64 * 1024)
            .map { String(decoding: $0, as: UTF8.self).split(separator: "\n").map(String.init) } ?? []
        if known.contains(server) { return false }
        let lines = Array((known + [server]).suffix(Self.kept))
        try? folder.write(Data((lines.joined(separator: "\n") + "\n").utf8), as: Self.fileName)
        return true
    }
}
