import Foundation
import XCTest

/// The recording notification server (Tests/Support/notification-server.py) on the private session
/// bus of Tests/Support/keyring-session.sh: owns `org.freedesktop.Notifications` and keeps every
/// Notify call it receives, exactly as received. One per test; `stop()` (or deinit) ends it and
/// waits until the bus name is free again.
///
///     let server = try NotificationServer()
///     … send …
///     XCTAssertEqual(server.notifications().first?["summary"] as? String, "…")
public final class NotificationServer {
    public static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Support/notification-server.py").path
    /// Debian's python3, which has python3-gi; a pyenv python3 earlier on PATH may not.
    public static let python = "/usr/bin/python3"
    public static let busName = "org.freedesktop.Notifications"

    public let process = Process()
    public let recordPath: String
    private let dir: URL
    private var stopped = false

    public var pid: Int32 { process.processIdentifier }

    /// Starts the server and waits (at most 10 s) until it owns the bus name.
    /// - Parameter markup: whether it lists `body-markup` among its capabilities.
    /// - Throws: `XCTSkip` outside a private keyring session or without python3-gi.
    public init(markup: Bool = true) throws {
        let environment = ProcessInfo.processInfo.environment
        guard environment["DBUS_SESSION_BUS_ADDRESS"] != nil, environment["PWNVAULT_KEYRING_SESSION"] != nil else {
            throw XCTSkip("no private D-Bus session: run the tests through Tests/Support/keyring-session.sh")
        }
        guard Self.hasPythonGI() else { throw XCTSkip("\(Self.python) cannot import gi: install python3-gi (scripts/setup.sh)") }
        Self.waitUntilNameIsFree()
        dir = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("notification-server-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        recordPath = dir.appendingPathComponent("notifications.jsonl").path
        let ready = dir.appendingPathComponent("ready").path
        process.executableURL = URL(fileURLWithPath: Self.python)
        process.arguments = [Self.script, "--record", recordPath, "--ready", ready] + (markup ? [] : ["--no-markup"])
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        let deadline = Date().addingTimeInterval(10)
        while !FileManager.default.fileExists(atPath: ready) {
            guard Date() < deadline, process.isRunning else {
                stop()
                throw NSError(domain: "NotificationServer", code: 1,
                              userInfo: [NSLocalizedDescriptionKey: "the notification server did not take its bus name"])
            }
            usleep(20_000)
        }
    }

    deinit { stop() }

    /// Every Notify call received so far, oldest first, as the JSON objects the server wrote.
    public func notifications() -> [[String: Any]] {
        guard let text = try? String(contentsOfFile: recordPath, encoding: .utf8) else { return [] }
        return text.split(separator: "\n").compactMap {
            try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
        }
    }

    /// The raw recording (one JSON line per Notify call), for assertions on the exact bytes.
    public func recording() -> String { (try? String(contentsOfFile: recordPath, encoding: .utf8)) ?? "" }

    /// Stops the server as a wedged daemon would be (SIGSTOP): it keeps its bus name but never answers.
    public func freeze() { kill(pid, SIGSTOP) }

    /// Ends the server (even a frozen one) and waits until the bus has let go of its name.
    public func stop() {
        guard !stopped else { return }
        stopped = true
        if process.isRunning {
            kill(pid, SIGKILL)
            process.waitUntilExit()
        }
        Self.waitUntilNameIsFree()
        try? FileManager.default.removeItem(at: dir)
    }

    /// Whether anything owns `org.freedesktop.Notifications` on the session bus (asked with gdbus).
    public static func nameHasOwner() -> Bool {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/gdbus")
        p.arguments = ["call", "--session", "--dest", "org.freedesktop.DBus", "--object-path", "/org/freedesktop/DBus",
                       "--method", "org.freedesktop.DBus.NameHasOwner", busName]
        let out = Pipe()
        p.standardOutput = out
        p.standardError = FileHandle.nullDevice
        guard (try? p.run()) != nil else { return false }
        let text = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        p.waitUntilExit()
        return text.contains("true")
    }

    /// Waits (at most 5 s) until no process owns the name: the bus notices a dead server a moment later.
    public static func waitUntilNameIsFree() {
        let deadline = Date().addingTimeInterval(5)
        while nameHasOwner() && Date() < deadline { usleep(20_000) }
    }

    private static func hasPythonGI() -> Bool {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: python)
        p.arguments = ["-c", "from gi.repository import Gio"]
        p.standardOutput = FileHandle.nullDevice
        p.standardError = FileHandle.nullDevice
        guard (try? p.run()) != nil else { return false }
        p.waitUntilExit()
        return p.terminationStatus == 0
    }
}
