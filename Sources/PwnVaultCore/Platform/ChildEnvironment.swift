import FoundationEssentials
import Glibc

/// The environment pwnvault hands to programs it starts (the pager, xdg-open, tmux and screen for
/// share-mode detection): the caller's, less the variables that carry or point to secrets. Child
/// processes are dumpable; their environment would otherwise be readable in /proc/PID/environ.
public enum ChildEnvironment {
    /// Variables never passed on.
    public static let withheld: Set<String> = [Settings.apiKeyVariable, Settings.passphraseFileVariable]

    public static func sanitized(_ environment: [String: String]) -> [String: String] {
        environment.filter { !withheld.contains($0.key) }
    }

    /// `sanitized(ProcessInfo.processInfo.environment)` as `NAME=value` C strings for posix_spawn
    /// (strdup'ed; free them after the spawn).
    static func cStrings() -> [UnsafeMutablePointer<CChar>?] {
        sanitized(ProcessInfo.processInfo.environment).map { strdup("\($0.key)=\($0.value)") } + [nil]
    }
}
