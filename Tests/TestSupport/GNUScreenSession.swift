import Foundation
import XCTest

/// A detached GNU screen session of its own (`screen -c RC -dmS NAME`, sockets in a private
/// `SCREENDIR`) running `bash --norc --noprofile` with the prompt "gs$ ", driven as the issue's
/// reporter did: `screen -X stuff` types, `screen -X hardcopy [-h]` reads the window (and its
/// scrollback). `altscreen` is the one setting the rc file holds besides the quiet start; screen's own
/// default is off. `close()` quits it (call it in tearDown).
public final class GNUScreenSession {
    public static var isAvailable: Bool {
        ["/usr/bin/screen", "/usr/local/bin/screen", "/bin/screen"].contains { FileManager.default.isExecutableFile(atPath: $0) }
    }

    public let name = "pwnvault-test-\(getpid())-\(UUID().uuidString.prefix(8))"
    private let directory: URL
    private let environment: [String: String]
    private var copies = 0

    /// `environment` is the whole environment of the session's shell (plus TERM, SCREENDIR and PS1).
    public init(altscreen: Bool, environment: [String: String]) throws {
        guard GNUScreenSession.isAvailable else { throw XCTSkip("GNU screen is not installed") }
        directory = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("gnu-screen-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: directory.appendingPathComponent("sockets"), withIntermediateDirectories: true,
                                                attributes: [.posixPermissions: 0o700])
        chmod(directory.path, 0o700)
        let rc = directory.appendingPathComponent("screenrc")
        try "startup_message off\naltscreen \(altscreen ? "on" : "off")\nhardcopy_append off\n".write(to: rc, atomically: true, encoding: .utf8)
        var env = environment
        env["TERM"] = "xterm-256color"
        env["SCREENDIR"] = directory.appendingPathComponent("sockets").path
        env["PS1"] = "gs$ "
        env.removeValue(forKey: "STY")
        env.removeValue(forKey: "TMUX")
        self.environment = env
        let started = call(["-c", rc.path, "-dmS", name, "bash", "--norc", "--noprofile"])
        guard started.status == 0 else {
            throw NSError(domain: "GNUScreenSession", code: 1, userInfo: [NSLocalizedDescriptionKey: "screen did not start: \(started.output)"])
        }
        guard wait(for: "gs$") else {
            close()
            throw NSError(domain: "GNUScreenSession", code: 2, userInfo: [NSLocalizedDescriptionKey: "no prompt in screen: \(window)"])
        }
    }

    deinit { close() }

    @discardableResult
    private func call(_ arguments: [String]) -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["screen"] + arguments
        process.environment = environment
        let out = Pipe()
        process.standardOutput = out
        process.standardError = out
        process.standardInput = FileHandle.nullDevice
        do { try process.run() } catch { return (-1, "\(error)") }
        let output = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: output, as: UTF8.self))
    }

    /// Types `text` into the window (bytes as given: "\r" is Enter, "\u{1A}" Ctrl-Z).
    public func stuff(_ text: String) { call(["-S", name, "-p", "0", "-X", "stuff", text]) }
    /// Types `command` and Enter at the shell.
    public func run(_ command: String) { stuff(command + "\r") }

    /// What `hardcopy` writes: the window as shown; with `history`, screen's scrollback before it.
    public func hardcopy(history: Bool) -> String {
        copies += 1
        let file = directory.appendingPathComponent("copy-\(copies)").path
        call(["-S", name, "-p", "0", "-X", "hardcopy"] + (history ? ["-h"] : []) + [file])
        var last = ""
        for _ in 0..<60 {   // the session writes it after the command returns: wait until it is whole
            usleep(50_000)
            guard let data = FileManager.default.contents(atPath: file) else { continue }
            let text = String(decoding: data, as: UTF8.self)   // screen writes what it holds, UTF-8 or not
            if text == last && !text.isEmpty { return text }
            last = text
        }
        return last
    }

    /// The window as shown now.
    public var window: String { hardcopy(history: false) }
    /// screen's scrollback and the window.
    public var history: String { hardcopy(history: true) }

    /// Waits (polling, up to `seconds`) until the window shows `text`.
    @discardableResult
    public func wait(for text: String, seconds: Double = 10) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if window.contains(text) { return true }
            usleep(100_000)
        }
        return false
    }

    /// Waits until the window no longer shows `text`.
    @discardableResult
    public func waitUntilGone(_ text: String, seconds: Double = 10) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if !window.contains(text) { return true }
            usleep(100_000)
        }
        return false
    }

    public func close() {
        call(["-S", name, "-X", "quit"])
        try? FileManager.default.removeItem(at: directory)
    }
}
