import Foundation
import XCTest

/// A real Secret Service provider (KeePassXC, KWallet, GNOME Keyring, one that never answers, or
/// none) on a private D-Bus session bus of its own, with a virtual X display for its dialogs:
/// Tests/Support/provider-session.py, held up for one test. pwnvault is pointed at it through
/// `environment` (the bus address); its dialogs are answered with `dialog(_:)`.
final class ProviderSession {
    enum Provider: String { case keepassxc, kwallet, gnomeKeyring = "gnome-keyring", hung, none }

    /// The database password of the KeePassXC session (what `dialog("unlock")` types).
    static let databasePassword = "pwnvault-test-keyring"

    let provider: Provider
    let bus: String
    let display: String
    let pid: Int32?
    private let process = Process()
    private let input = Pipe()
    private let dir: URL

    /// Starts the provider and waits until it serves. Skips (fails under CI) when the provider's
    /// programs are not installed: scripts/setup.sh installs them.
    init(_ provider: Provider, options: [String] = [], file: StaticString = #filePath, line: UInt = #line) throws {
        self.provider = provider
        let programs: [Provider: String] = [.keepassxc: "keepassxc", .kwallet: "kwalletd5", .gnomeKeyring: "gnome-keyring-daemon"]
        for program in ["Xvfb", "dbus-daemon", programs[provider]].compactMap({ $0 }) where !Self.installed(program) {
            let message = "\(program) is not installed: run scripts/setup.sh"
            if ProcessInfo.processInfo.environment["CI"] != nil { XCTFail(message, file: file, line: line) }
            throw XCTSkip(message)
        }
        dir = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("pwnvault-provider-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        process.arguments = [Paths.support("provider-session.py"), "start", provider.rawValue] + options + ["--dir", dir.path]
        let output = Pipe(), errors = Pipe()
        process.standardInput = input
        process.standardOutput = output
        process.standardError = errors
        // The caller's keyring session must not leak in.
        var environment = ProcessInfo.processInfo.environment
        environment.removeValue(forKey: "DBUS_SESSION_BUS_ADDRESS")
        environment.removeValue(forKey: "DISPLAY")
        process.environment = environment
        try process.run()
        // The first line on stdout says where everything is, once the provider serves.
        var line = Data()
        let handle = output.fileHandleForReading
        while true {
            let byte = handle.readData(ofLength: 1)
            if byte.isEmpty || byte == Data([0x0A]) { break }
            line += byte
        }
        guard let ready = try? JSONSerialization.jsonObject(with: line) as? [String: Any],
              let bus = ready["bus"] as? String, let display = ready["display"] as? String else {
            process.waitUntilExit()
            let reason = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            try? FileManager.default.removeItem(at: dir)
            throw ProviderSessionError(description: "\(provider.rawValue) did not come up: \(reason)")
        }
        self.bus = bus
        self.display = display
        pid = (ready["pid"] as? NSNumber).map { Int32(truncating: $0) }
    }

    deinit {
        try? input.fileHandleForWriting.close()   // EOF: the session tears everything down
        process.waitUntilExit()
        try? FileManager.default.removeItem(at: dir)
    }

    /// What pwnvault and secret-tool need to talk to this provider and nothing else.
    var environment: [String: String] { ["DBUS_SESSION_BUS_ADDRESS": bus] }

    /// Starts answering the provider's dialog in the background (`allow`, `deny`, `unlock`,
    /// `cancel-unlock`, …); `wait()` on the result gives how it went.
    func answer(_ action: String, timeout: Double = 20) throws -> Process {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        p.arguments = [Paths.support("provider-session.py"), "dialog", action, "--display", display,
                       "--timeout", String(timeout), "--password", Self.databasePassword]
        p.standardOutput = FileHandle.nullDevice
        p.standardError = FileHandle.nullDevice
        try p.run()
        return p
    }

    /// Runs a dialog action to its end and returns what it printed.
    @discardableResult
    func dialog(_ action: String, timeout: Double = 5) -> RunResult {
        Sandbox.exec("/usr/bin/python3", [Paths.support("provider-session.py"), "dialog", action, "--display", display,
                                          "--timeout", String(timeout), "--password", Self.databasePassword],
                     input: nil, environment: ProcessInfo.processInfo.environment)
    }

    /// How many of the provider's dialogs are on the display now.
    func dialogsOnScreen() -> Int {
        Int(dialog("count").stdout.trimmingCharacters(in: .whitespacesAndNewlines)) ?? -1
    }

    /// Drives the provider's state over D-Bus: `lock`, `close`, `unlock-db`.
    @discardableResult
    func call(_ action: String) -> RunResult {
        Sandbox.exec("/usr/bin/python3", [Paths.support("provider-session.py"), "call", "--bus", bus, action,
                                          "--password", Self.databasePassword],
                     input: nil, environment: ProcessInfo.processInfo.environment)
    }

    /// `secret-tool search --all application pwnvault` against this provider: what anyone who lists
    /// the keyring sees (labels and attributes, and the secrets, base64).
    func secretToolListing() -> RunResult {
        Sandbox.exec("/usr/bin/env", ["secret-tool", "search", "--all", "application", "pwnvault"], input: nil,
                     environment: ["PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin",
                                   "DBUS_SESSION_BUS_ADDRESS": bus])
    }

    private static func installed(_ program: String) -> Bool {
        (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":").contains {
            FileManager.default.isExecutableFile(atPath: "\($0)/\(program)")
        }
    }
}

struct ProviderSessionError: Error, CustomStringConvertible { let description: String }
