import FoundationEssentials

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
        // Its output is read while it runs and, after it exits, until the time limit at most: a grandchild
        // could keep the pipe open.
        guard let result = Subprocess.run(executable, arguments: Array(arguments.dropFirst()),
                                          environment: ChildEnvironment.sanitized(environment),
                                          output: .capture(limit: outputLimit), error: .discard, timeLimit: timeLimit),
              result.termination == .exited(0) else { return nil }
        return String(decoding: result.output, as: UTF8.self)
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
