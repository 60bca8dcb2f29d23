import FoundationEssentials
import PwnVaultCore

/// A one-line progress bar on stderr, drawn only when stderr is a terminal. Result lines printed
/// while it is shown go through `print`, which clears the bar first and redraws it after.
/// Unchecked: every mutable member is read and written with `lock` held; `console` is Sendable.
final class Progress: @unchecked Sendable {
    private let console: Console
    private let enabled: Bool
    /// Whether the bar is drawn at all (stderr is a terminal, and more than one account).
    var isEnabled: Bool { enabled }
    private let total: Int
    private let started: Date
    private var done = 0
    private var breached = 0
    private var visible = false
    /// Set while the process is stopped (Ctrl-Z) and after an interruption: nothing is drawn.
    private var hidden = false
    private let lock = Lock()

    init(console: Console, total: Int, enabled: Bool) {
        self.console = console
        self.total = total
        self.enabled = enabled
        self.started = Date()
    }

    /// Counts one finished account and redraws.
    func advance(breached isBreached: Bool) {
        lock.lock(); defer { lock.unlock() }
        done += 1
        if isBreached { breached += 1 }
        draw()
    }

    /// Prints a result line on stdout without tearing the bar.
    func print(_ line: String) {
        lock.lock(); defer { lock.unlock() }
        clearLocked()
        if !hidden { console.out(line) } else { pendingLines.append(line) }
        draw()
    }

    /// Writes a note (`pwnvault: …`) on stderr without tearing the bar.
    func note(_ line: String) {
        lock.lock(); defer { lock.unlock() }
        clearLocked()
        console.note(line)
        draw()
    }

    /// Result lines that arrived while hidden; printed by `flush` once the screen is ours again.
    private var pendingLines: [String] = []

    func flush() {
        lock.lock(); defer { lock.unlock() }
        pendingLines.forEach { console.out($0) }
        pendingLines.removeAll()
    }

    /// Removes the bar (before the summary, on exit).
    func clear() {
        lock.lock(); defer { lock.unlock() }
        clearLocked()
    }

    /// Removes the bar and draws nothing until `show` (Ctrl-Z, focus lost, an interruption); result
    /// lines that arrive meanwhile wait.
    func hide() {
        lock.lock(); defer { lock.unlock() }
        clearLocked()
        hidden = true
    }

    /// Draws the bar again after `hide` (back in the foreground).
    func show() {
        lock.lock(); defer { lock.unlock() }
        hidden = false
        pendingLines.forEach { console.out($0) }
        pendingLines.removeAll()
        draw()
    }

    private func clearLocked() {
        guard visible else { return }
        console.errRaw("\r\u{1B}[2K")
        visible = false
    }

    private func draw() {
        guard enabled, !hidden, total > 0 else { return }
        // One line that never wraps (a wrapped line cannot be redrawn in place): the bar shrinks to
        // fit the window, and the estimate goes first when even a short bar does not leave room.
        let columns = (console.width ?? 80) - 1
        var text = msg(" {1}/{2}  breached {3}", done, total, breached)
        if done > 0 && done < total {
            let elapsed = Date().timeIntervalSince(started)
            let left = elapsed / Double(done) * Double(total - done)
            let estimate = msg("  about {1} left", Self.duration(left))
            // Measured in terminal cells: a translation may hold double-width characters.
            if columns - TerminalCells.width(text) - TerminalCells.width(estimate) >= 8 { text += estimate }
        }
        let width = max(0, min(24, columns - TerminalCells.width(text)))
        let filled = width == 0 ? 0 : done * width / total
        let bar = String(repeating: "█", count: filled) + String(repeating: "░", count: width - filled)
        console.errRaw("\r\u{1B}[2K" + bar + (width == 0 ? String(text.dropFirst()) : text))
        visible = true
    }

    static func duration(_ seconds: TimeInterval) -> String {
        let s = Int(seconds.rounded())
        if s < 60 { return msg("{1}s", s) }
        if s < 3600 { return msg("{1}m{2}s", s / 60, (s % 60).padded(width: 2)) }
        return msg("{1}h{2}m", s / 3600, (s / 60 % 60).padded(width: 2))
    }
}
