/// Why no systemd user manager answers, in pwnvault's words: one sentence and a hint. systemctl's
/// own text names D-Bus internals ("Process org.freedesktop.systemd1 exited with status 1", "Failed
/// to connect to bus: No medium found") that tell a user nothing about what to do; it is read here
/// and never shown.
public struct UserManagerAbsence: Sendable, Equatable {
    /// One sentence, lower-case, no full stop.
    public let reason: String
    /// What to do about it.
    public let hint: String

    static let lingerHint = "run 'loginctl enable-linger' once (systemd then keeps a user manager running for you), "
        + "log in again, and run 'pwnvault schedule enable' again"

    /// `systemctl` is not on `PATH`.
    static let notInstalled = UserManagerAbsence(
        reason: "systemctl is not installed, so no systemd user manager can run the schedule",
        hint: "install systemd, or run the watch from cron")

    /// `systemctl --user` did not finish within its time limit.
    static func timedOut(seconds: Double) -> UserManagerAbsence {
        UserManagerAbsence(reason: "the systemd user manager did not answer within \(Int(seconds)) s",
                           hint: "see 'systemctl --user status', then run it again")
    }

    /// What `systemctl --user` said (its error output) and its exit status, translated.
    static func reading(errorOutput: String, status: Int32) -> UserManagerAbsence {
        recognizing(errorOutput) ?? UserManagerAbsence(
            reason: "the systemd user manager did not answer (systemctl --user exited with status \(status))",
            hint: "'systemctl --user status' shows why")
    }

    /// The absence systemctl's error output names, when it is one pwnvault knows.
    static func recognizing(_ errorOutput: String) -> UserManagerAbsence? {
        let said = errorOutput.lowercased()
        if said.contains("not been booted with systemd") || said.contains("systemd as init system") {
            return UserManagerAbsence(reason: "this system does not run systemd, so there is no user manager",
                                      hint: "run the watch from cron instead")
        }
        if said.contains("xdg_runtime_dir") && (said.contains("not defined") || said.contains("not set")) {
            return UserManagerAbsence(reason: "this login has no user session (XDG_RUNTIME_DIR is not set), so no user manager can be reached",
                                      hint: "log in through a display manager or ssh, which start your user manager, or " + lingerHint)
        }
        if said.contains("org.freedesktop.systemd1") {
            return UserManagerAbsence(reason: "the session bus has no systemd user manager behind it (the bus was started without systemd)",
                                      hint: lingerHint)
        }
        if said.contains("failed to connect to bus") || said.contains("no medium found") || said.contains("connection refused") {
            return UserManagerAbsence(reason: "no systemd user manager runs for this login", hint: lingerHint)
        }
        if said.contains("access denied") || said.contains("permission denied") {
            return UserManagerAbsence(reason: "the systemd user manager refused to answer (permission denied)",
                                      hint: "run pwnvault as the user whose schedule it is; 'systemctl --user status' shows more")
        }
        return nil
    }
}
