import Foundation

/// A one-line progress bar on stderr, drawn only when stderr is a terminal. Result lines printed
/// while it is shown go through `print`, which clears the bar first and redraws it after.
final class Progress: @unchecked Sendable {
    private let console: Console
    private let enabled: Bool
    private let total: Int
    private let started: Date
    private var done = 0
    private var breached = 0
    private var visible = false
    private let lock = NSLock()

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
        console.out(line)
        draw()
    }

    /// Removes the bar (before the summary, on exit, on Ctrl-Z).
    func clear() {
        lock.lock(); defer { lock.unlock() }
        clearLocked()
    }

    private func clearLocked() {
        guard visible else { return }
        console.errRaw("\r\u{1B}[2K")
        visible = false
    }

    private func draw() {
        guard enabled, total > 0 else { return }
        let width = 24
        let filled = done * width / total
        let bar = String(repeating: "█", count: filled) + String(repeating: "░", count: width - filled)
        var line = "\r\u{1B}[2K\(bar) \(done)/\(total)  breached \(breached)"
        if done > 0 && done < total {
            let elapsed = Date().timeIntervalSince(started)
            let left = elapsed / Double(done) * Double(total - done)
            line += "  about \(Self.duration(left)) left"
        }
        console.errRaw(line)
        visible = true
    }

    static func duration(_ seconds: TimeInterval) -> String {
        let s = Int(seconds.rounded())
        if s < 60 { return "\(s)s" }
        if s < 3600 { return "\(s / 60)m\(String(format: "%02d", s % 60))s" }
        return "\(s / 3600)h\(String(format: "%02d", s / 60 % 60))m"
    }
}
