import FoundationEssentials
import PwnVaultCore

/// A one-line progress bar on stderr, drawn only when stderr is a terminal. Result lines printed
/// while it is shown go through `print`, which clears the bar first and redraws it after.
/// The bar's state and its drawing share one lock (`Locked`), so a line and the bar never interleave.
final class Progress: Sendable {
    private let console: Console
    private let enabled: Bool
    /// Whether the bar is drawn at all (stderr is a terminal, and more than one account).
    var isEnabled: Bool { enabled }
    private let total: Int
    private let started: Date

    private struct State: Sendable {
        var done = 0
        var breached = 0
        var visible = false
        /// Set while the process is stopped (Ctrl-Z) and after an interruption: nothing is drawn.
        var hidden = false
        /// Result lines that arrived while hidden; printed by `flush` once the screen is ours again.
        var pendingLines: [String] = []
    }
    private let state = Locked(State())

    init(console: Console, total: Int, enabled: Bool) {
        self.console = console
        self.total = total
        self.enabled = enabled
        self.started = Date()
    }

    /// Counts one finished account and redraws.
    func advance(breached isBreached: Bool) {
        state.withLock { s in
            s.done += 1
            if isBreached { s.breached += 1 }
            draw(&s)
        }
    }

    /// Prints a result line on stdout without tearing the bar.
    func print(_ line: String) {
        state.withLock { s in
            clear(&s)
            if !s.hidden { console.out(line) } else { s.pendingLines.append(line) }
            draw(&s)
        }
    }

    /// Writes a note (`pwnvault: …`) on stderr without tearing the bar.
    func note(_ line: String) {
        state.withLock { s in
            clear(&s)
            console.note(line)
            draw(&s)
        }
    }

    func flush() {
        state.withLock { s in
            s.pendingLines.forEach { console.out($0) }
            s.pendingLines.removeAll()
        }
    }

    /// Removes the bar (before the summary, on exit).
    func clear() {
        state.withLock { clear(&$0) }
    }

    /// Removes the bar and draws nothing until `show` (Ctrl-Z, focus lost, an interruption); result
    /// lines that arrive meanwhile wait.
    func hide() {
        state.withLock { s in
            clear(&s)
            s.hidden = true
        }
    }

    /// Draws the bar again after `hide` (back in the foreground).
    func show() {
        state.withLock { s in
            s.hidden = false
            s.pendingLines.forEach { console.out($0) }
            s.pendingLines.removeAll()
            draw(&s)
        }
    }

    private func clear(_ s: inout State) {
        guard s.visible else { return }
        console.errRaw("\r\u{1B}[2K")
        s.visible = false
    }

    private func draw(_ s: inout State) {
        guard enabled, !s.hidden, total > 0 else { return }
        let done = s.done
        // One line that never wraps (a wrapped line cannot be redrawn in place): the bar shrinks to
        // fit the window, and the estimate goes first when even a short bar does not leave room.
        let columns = (console.width ?? 80) - 1
        var text = msg(" {1}/{2}  breached {3}", done, total, s.breached)
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
        s.visible = true
    }

    static func duration(_ seconds: TimeInterval) -> String {
        let s = Int(seconds.rounded())
        if s < 60 { return msg("{1}s", s) }
        if s < 3600 { return msg("{1}m{2}s", s / 60, (s % 60).padded(width: 2)) }
        return msg("{1}h{2}m", s / 3600, (s / 60 % 60).padded(width: 2))
    }
}
