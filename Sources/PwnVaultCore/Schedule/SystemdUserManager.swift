import Foundation

/// The user's systemd manager, through `systemctl --user` (found on `PATH`). Each call is given a
/// time limit; a manager that is not running, or a `systemctl` that is not installed, is an answer
/// (`availability`), not a failure.
public struct SystemdUserManager: Sendable {
    public enum Availability: Sendable, Equatable {
        case running
        /// Why not, in one short line (systemctl's own words, cleaned).
        case notRunning(reason: String)
    }

    /// What one `systemctl` run gave back.
    struct Outcome { let status: Int32; let output: String; let errorOutput: String }

    public let environment: [String: String]
    /// Seconds one `systemctl` call may take before it is killed.
    public let timeLimit: Double

    public init(environment: [String: String], timeLimit: Double = 20) {
        self.environment = environment
        self.timeLimit = timeLimit
    }

    /// Whether a user manager answers (`systemctl --user show --property=Version`).
    public func availability() -> Availability {
        guard let outcome = systemctl(["show", "--property=Version", "--value"]) else {
            return .notRunning(reason: SystemCommand.locate("systemctl", path: environment["PATH"]) == nil
                               ? "systemctl is not installed" : "systemctl --user did not answer in time")
        }
        guard outcome.status == 0, !outcome.output.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty else {
            return .notRunning(reason: "systemctl --user: " + Self.firstLine(outcome.errorOutput, otherwise: "exit status \(outcome.status)"))
        }
        return .running
    }

    /// Runs `systemctl --user ARGUMENTS`; throws `ScheduleError.systemctlFailed` unless it succeeds.
    public func run(_ arguments: [String]) throws {
        guard let outcome = systemctl(arguments) else {
            throw ScheduleError.systemctlFailed(arguments: arguments.joined(separator: " "), reason: "it did not finish in time")
        }
        guard outcome.status == 0 else {
            throw ScheduleError.systemctlFailed(arguments: arguments.joined(separator: " "),
                                                reason: Self.firstLine(outcome.errorOutput, otherwise: "exit status \(outcome.status)"))
        }
    }

    /// `systemctl --user show UNIT --property=…` with timestamps as `@SECONDS`: name → value.
    /// Empty when the manager cannot say.
    public func properties(of unit: String, _ names: [String]) -> [String: String] {
        guard let outcome = systemctl(["show", unit, "--timestamp=unix"] + names.map { "--property=\($0)" }),
              outcome.status == 0 else { return [:] }
        return Self.parseProperties(outcome.output)
    }

    /// `Name=value` lines into a dictionary (values may contain `=`).
    static func parseProperties(_ text: String) -> [String: String] {
        var values: [String: String] = [:]
        for line in text.split(separator: "\n") {
            guard let eq = line.firstIndex(of: "=") else { continue }
            values[String(line[..<eq])] = String(line[line.index(after: eq)...])
        }
        return values
    }

    /// A `--timestamp=unix` value (`@1764547200`) as a date; nil for an empty or unset one.
    public static func date(_ value: String?) -> Date? {
        guard let value, value.hasPrefix("@"), let seconds = Double(value.dropFirst()), seconds > 0 else { return nil }
        return Date(timeIntervalSince1970: seconds)
    }

    private static func firstLine(_ text: String, otherwise: String) -> String {
        let line = Sanitizer.singleLine(String(text.split(separator: "\n").first ?? "")).trimmingCharacters(in: .whitespaces)
        guard !line.isEmpty else { return otherwise }
        let cut = line.count > 160 ? String(line.prefix(159)) + "…" : line
        return cut.prefix(1).lowercased() + cut.dropFirst()
    }

    /// Runs `systemctl --user --no-pager ARGUMENTS`; nil when it cannot be started or takes too long.
    private func systemctl(_ arguments: [String]) -> Outcome? {
        guard let executable = SystemCommand.locate("systemctl", path: environment["PATH"]) else { return nil }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = ["--user", "--no-pager"] + arguments
        process.environment = ChildEnvironment.sanitized(environment)
        process.standardInput = FileHandle.nullDevice
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        let exited = DispatchSemaphore(value: 0)
        process.terminationHandler = { _ in exited.signal() }
        do { try process.run() } catch { return nil }
        // Read both pipes while it runs, so neither can fill up and stall it.
        let group = DispatchGroup()
        // Safe: each buffer is written by its one reader block only, and read here only after
        // `group.wait` has returned success, which orders the accesses (on a timeout they are not read).
        nonisolated(unsafe) var errorData = Data()
        group.enter()
        DispatchQueue.global().async { errorData = err.fileHandleForReading.readDataToEndOfFile(); group.leave() }
        nonisolated(unsafe) var outputData = Data()
        group.enter()
        DispatchQueue.global().async { outputData = out.fileHandleForReading.readDataToEndOfFile(); group.leave() }
        if exited.wait(timeout: .now() + timeLimit) == .timedOut {
            kill(process.processIdentifier, SIGKILL)
            exited.wait()
            return nil
        }
        // A child of systemctl (a pager, an agent) could hold the pipes open: do not wait for it long.
        guard group.wait(timeout: .now() + 2) == .success else { return nil }
        return Outcome(status: process.terminationReason == .exit ? process.terminationStatus : 128 + process.terminationStatus,
                       output: String(decoding: outputData, as: UTF8.self),
                       errorOutput: String(decoding: errorData, as: UTF8.self))
    }
}
