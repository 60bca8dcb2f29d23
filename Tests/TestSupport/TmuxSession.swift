import Foundation
import XCTest

/// A private tmux server with a shell in one pane, driven through `Tests/Support/tmux-session.sh`.
/// The shell gets `environment` (names starting with `PWNVAULT_` or `TEST_`); the server is killed by
/// `close()` (call it in a `defer`).
public final class TmuxSession {
    public static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Support/tmux-session.sh").path

    /// Whether tmux is installed; tests that need it skip otherwise.
    public static var isAvailable: Bool {
        ["/usr/bin/tmux", "/usr/local/bin/tmux", "/bin/tmux"].contains { FileManager.default.isExecutableFile(atPath: $0) }
    }

    public let socket = "pwnvault-test-\(getpid())-\(UUID().uuidString.prefix(8))"
    private var clients: [Int32] = []

    public init(columns: Int = 100, rows: Int = 30, environment: [String: String] = [:]) throws {
        guard TmuxSession.isAvailable else { throw XCTSkip("tmux is not installed") }
        let result = call(["start", socket, "\(columns)", "\(rows)"], environment: environment)
        guard result.status == 0 else {
            close()
            throw NSError(domain: "TmuxSession", code: 1, userInfo: [NSLocalizedDescriptionKey: "tmux did not start: \(result.error)"])
        }
    }

    /// Runs the harness; returns its status, standard output and standard error.
    @discardableResult
    public func call(_ arguments: [String], environment: [String: String] = [:]) -> (status: Int32, output: String, error: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/bash")
        process.arguments = [TmuxSession.script] + arguments
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = FileHandle.nullDevice
        do { try process.run() } catch { return (-1, "", "\(error)") }
        let output = out.fileHandleForReading.readDataToEndOfFile()
        let error = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: output, as: UTF8.self), String(decoding: error, as: UTF8.self))
    }

    /// Types `command` and Enter at the shell.
    public func run(_ command: String) { call(["run", socket, command]) }
    /// Types `text` literally; `\e` and the like are interpreted (printf %b).
    public func type(_ text: String) { call(["type", socket, text]) }
    /// Sends named keys (`C-z`, `C-c`, `Enter`).
    public func key(_ names: String...) { call(["key", socket] + names) }
    /// Any tmux command against this server.
    public func tmux(_ arguments: String...) { call(["tmux", socket] + arguments) }

    /// Waits until the visible screen shows `text`; fails the test (with the screen) when it does not.
    @discardableResult
    public func wait(for text: String, seconds: Int = 10, file: StaticString = #filePath, line: UInt = #line) -> Bool {
        let r = call(["wait", socket, text, "\(seconds)"])
        XCTAssertEqual(r.status, 0, r.error, file: file, line: line)
        return r.status == 0
    }

    @discardableResult
    public func waitUntilGone(_ text: String, seconds: Int = 10, file: StaticString = #filePath, line: UInt = #line) -> Bool {
        let r = call(["wait-gone", socket, text, "\(seconds)"])
        XCTAssertEqual(r.status, 0, r.error, file: file, line: line)
        return r.status == 0
    }

    /// Waits until the shell's prompt has appeared `count` times in all (history and screen).
    @discardableResult
    public func waitForPrompt(_ count: Int, seconds: Int = 15, file: StaticString = #filePath, line: UInt = #line) -> Bool {
        let r = call(["wait-prompt", socket, "\(count)", "\(seconds)"])
        XCTAssertEqual(r.status, 0, r.error, file: file, line: line)
        return r.status == 0
    }

    /// Resizes the window and waits until the pane's terminal has the new size (tmux passes it on a
    /// moment after `resize-window` returns), so that what runs next sees it.
    @discardableResult
    public func resize(columns: Int, rows: Int, seconds: Int = 10, file: StaticString = #filePath, line: UInt = #line) -> Bool {
        let r = call(["resize", socket, "\(columns)", "\(rows)", "\(seconds)"])
        XCTAssertEqual(r.status, 0, r.error, file: file, line: line)
        return r.status == 0
    }

    public var screen: String { call(["screen", socket]).output }
    public var history: String { call(["history", socket]).output }
    public func display(_ format: String) -> String {
        call(["display", socket, format]).output.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Attaches one more client (on a pseudo-terminal of its own).
    public func attachClient() {
        let r = call(["attach", socket])
        XCTAssertEqual(r.status, 0, r.error)
        if let pid = Int32(r.output.trimmingCharacters(in: .whitespacesAndNewlines)) { clients.append(pid) }
    }

    public func close() {
        call(["kill", socket])
        for pid in clients { kill(pid, SIGTERM) }
        clients = []
    }
}
