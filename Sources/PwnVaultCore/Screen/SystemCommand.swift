import Foundation

/// Runs a small helper command (`tmux display`, `screen -ls`) and returns what it printed, within a
/// time limit: `ShareModeDetector`'s default `CommandRunner`.
public enum SystemCommand {
    /// How long a helper may take before it is killed and counted as failed.
    public static let defaultTimeLimit = 1.0
    /// At most this much of its output is kept.
    static let outputLimit = 64 * 1024

    /// Runs `arguments[0]` (looked up in `environment["PATH"]`, or the usual folders) with `environment`
    /// and no input. Returns its standard output when it exits with status 0 in time; nil otherwise
    /// (not installed, failed, killed after `timeLimit`). Standard error is discarded.
    public static func run(_ arguments: [String], environment: [String: String],
                           timeLimit: Double = defaultTimeLimit) -> String? {
        guard let name = arguments.first, let executable = locate(name, path: environment["PATH"]) else { return nil }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = Array(arguments.dropFirst())
        process.environment = ChildEnvironment.sanitized(environment)
        process.standardInput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        let output = Pipe()
        process.standardOutput = output
        let exited = DispatchSemaphore(value: 0)
        process.terminationHandler = { _ in exited.signal() }
        let deadline = TerminalIO.secondsSinceBoot() + timeLimit
        do { try process.run() } catch { return nil }
        if exited.wait(timeout: .now() + timeLimit) == .timedOut {
            kill(process.processIdentifier, SIGKILL)
            exited.wait()
            return nil
        }
        guard process.terminationReason == .exit, process.terminationStatus == 0 else { return nil }
        // Read without blocking past the deadline: a grandchild could keep the pipe open.
        let fd = output.fileHandleForReading.fileDescriptor
        var bytes: [UInt8] = []
        while bytes.count < outputLimit {
            let left = deadline - TerminalIO.secondsSinceBoot()
            guard left > 0, TerminalIO.poll([fd], milliseconds: Int32(left * 1000) + 1)[0] else { break }
            guard case let .bytes(chunk) = TerminalIO.read(fd, maximum: 4096) else { break }
            bytes += chunk
        }
        return String(decoding: bytes.prefix(outputLimit), as: UTF8.self)
    }

    /// The full path of an executable `name`, searched in `path` (colon-separated), or in the usual
    /// system folders when `path` is unset or empty.
    static func locate(_ name: String, path: String?) -> String? {
        if name.contains("/") { return FileManager.default.isExecutableFile(atPath: name) ? name : nil }
        let folders = (path?.isEmpty == false ? path! : "/usr/local/bin:/usr/bin:/bin").split(separator: ":")
        for folder in folders where folder.hasPrefix("/") {
            let candidate = "\(folder)/\(name)"
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        return nil
    }
}
