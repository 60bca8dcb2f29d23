import FoundationEssentials

/// The user's systemd manager, through `systemctl --user` (found on `PATH`). Each call is given a
/// time limit; a manager that is not running, or a `systemctl` that is not installed, is an answer
/// (`availability`), not a failure. systemctl's own words are read, never shown: they become
/// `UserManagerAbsence`'s sentence and hint.
public struct SystemdUserManager: Sendable {
    public enum Availability: Sendable, Equatable {
        case running
        /// Why not, in one sentence, and what to do.
        case notRunning(UserManagerAbsence)

        /// `running`, or `not running: REASON`, in the reader's language (for `--json`, build it
        /// inside `Messages.english`).
        public var text: String {
            switch self {
            case .running: return msg("running")
            case let .notRunning(absence): return msg("not running: {1}", absence.reason)
            }
        }
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
            return .notRunning(SystemCommand.locate("systemctl", path: environment["PATH"]) == nil
                               ? .notInstalled : .timedOut(seconds: timeLimit))
        }
        guard outcome.status == 0, !outcome.output.trimmingWhitespaceAndNewlines().isEmpty else {
            return .notRunning(.reading(errorOutput: outcome.errorOutput, status: outcome.status))
        }
        return .running
    }

    /// Runs `systemctl --user ARGUMENTS`; throws `ScheduleError.systemctlFailed` unless it succeeds,
    /// with the manager's absence in pwnvault's words when that is what systemctl said, else its exit
    /// status (its own words are for 'systemctl --user status' and the journal, which the hint names).
    public func run(_ arguments: [String]) throws {
        guard let outcome = systemctl(arguments) else {
            throw ScheduleError.systemctlFailed(arguments: arguments.joined(separator: " "), reason: phrase("it did not finish in time"))
        }
        guard outcome.status == 0 else {
            throw ScheduleError.systemctlFailed(arguments: arguments.joined(separator: " "),
                                                reason: Messages.english { UserManagerAbsence.recognizing(outcome.errorOutput)?.reason }
                                                    ?? "it exited with status \(outcome.status)")
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

    /// Runs `systemctl --user --no-pager ARGUMENTS`; nil when it cannot be started or takes too long.
    private func systemctl(_ arguments: [String]) -> Outcome? {
        guard let executable = SystemCommand.locate("systemctl", path: environment["PATH"]) else { return nil }
        // Both pipes are read while it runs, so neither can fill up and stall it. A child of systemctl
        // (a pager, an agent) could hold them open after it exits: they are not waited for long.
        guard let result = Subprocess.run(executable, arguments: ["--user", "--no-pager"] + arguments,
                                          environment: ChildEnvironment.sanitized(environment),
                                          timeLimit: timeLimit, drainLimit: 2),
              result.outputComplete else { return nil }
        let status: Int32
        switch result.termination {
        case .exited(let code): status = code
        case .signaled(let signal): status = 128 + signal
        case .timedOut: return nil
        }
        return Outcome(status: status, output: String(decoding: result.output, as: UTF8.self),
                       errorOutput: String(decoding: result.errorOutput, as: UTF8.self))
    }
}
