import PwnVaultCore

/// The command-line front end. `main.swift` calls `run` and exits with its status.
public enum CLI {
    public static func run(_ arguments: [String]) -> Int32 {
        return ExitStatus.success.rawValue
    }
}
