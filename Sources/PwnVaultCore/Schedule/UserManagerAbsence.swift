/// Why no systemd user manager answers, in pwnvault's words: one sentence and a hint. systemctl's
/// own text names D-Bus internals ("Process org.freedesktop.systemd1 exited with status 1", "Failed
/// to connect to bus: No medium found") that tell a user nothing about what to do; it is read here
/// and never shown.
public struct UserManagerAbsence: Sendable, Equatable {
    /// One sentence, lower-case, no full stop.
    public let reason: String
    /// What to do about it.
    public let hint: String

    static var lingerHint: String {
        msg("run 'loginctl enable-linger' once (systemd then keeps a user manager running for you), log in again, and run 'pwnvault schedule enable' again")
    }

    /// `systemctl` is not on `PATH`.
    static var notInstalled: UserManagerAbsence {
        UserManagerAbsence(reason: msg("systemctl is not installed, so no systemd user manager can run the schedule"),
                           hint: msg("install systemd, or run the watch from cron"))
    }

    /// `systemctl --user` did not finish within its time limit.
    static func timedOut(seconds: Double) -> UserManagerAbsence {
        UserManagerAbsence(reason: msg("the systemd user manager did not answer within {1} s", Int(seconds)),
                           hint: msg("see 'systemctl --user status', then run it again"))
    }

    /// What `systemctl --user` said (its error output) and its exit status, translated.
    static func reading(errorOutput: String, status: Int32) -> UserManagerAbsence {
        recognizing(errorOutput) ?? UserManagerAbsence(
            reason: msg("the systemd user manager did not answer (systemctl --user exited with status {1})", status),
            hint: msg("'systemctl --user status' shows why"))
    }

    static var noSystemd: UserManagerAbsence {
        UserManagerAbsence(reason: msg("this system does not run systemd, so there is no user manager"),
                           hint: msg("run the watch from cron instead"))
    }
    static var noSession: UserManagerAbsence {
        UserManagerAbsence(reason: msg("this login has no user session (XDG_RUNTIME_DIR is not set), so no user manager can be reached"),
                           hint: msg("log in through a display manager or ssh, which start your user manager, or {1}", lingerHint))
    }
    static var busWithoutManager: UserManagerAbsence {
        UserManagerAbsence(reason: msg("the session bus has no systemd user manager behind it (the bus was started without systemd)"),
                           hint: lingerHint)
    }
    static var noManager: UserManagerAbsence {
        UserManagerAbsence(reason: msg("no systemd user manager runs for this login"), hint: lingerHint)
    }
    static var refused: UserManagerAbsence {
        UserManagerAbsence(reason: msg("the systemd user manager refused to answer (permission denied)"),
                           hint: msg("run pwnvault as the user whose schedule it is; 'systemctl --user status' shows more"))
    }

    /// The absence systemctl's error output names, when it is one pwnvault knows.
    static func recognizing(_ errorOutput: String) -> UserManagerAbsence? {
        let said = errorOutput.lowercased()
        if said.contains("not been booted with systemd") || said.contains("systemd as init system") { return noSystemd }
        if said.contains("xdg_runtime_dir") && (said.contains("not defined") || said.contains("not set")) { return noSession }
        if said.contains("org.freedesktop.systemd1") { return busWithoutManager }
        if said.contains("failed to connect to bus") || said.contains("no medium found") || said.contains("connection refused") {
            return noManager
        }
        if said.contains("access denied") || said.contains("permission denied") { return refused }
        return nil
    }

    /// The reason of a known absence kept in English (`ScheduleError.systemctlFailed`), in the
    /// reader's language; any other text as it is.
    static func text(ofReason english: String) -> String {
        let known: () -> [UserManagerAbsence] = { [notInstalled, noSystemd, noSession, busWithoutManager, noManager, refused] }
        guard let index = Messages.english({ known().firstIndex { $0.reason == english } }) else { return english }
        return known()[index].reason
    }
}
