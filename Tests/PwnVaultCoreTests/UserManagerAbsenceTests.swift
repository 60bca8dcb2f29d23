@testable import PwnVaultCore
import XCTest

/// What systemctl says when no user manager answers, and what pwnvault says instead: one sentence and
/// a hint, none of systemctl's words.
final class UserManagerAbsenceTests: XCTestCase {
    func testSystemctlsWordsBecomeOneSentenceAndAHint() {
        let cases: [(String, String)] = [
            ("Failed to get properties: Process org.freedesktop.systemd1 exited with status 1",
             "the session bus has no systemd user manager behind it (the bus was started without systemd)"),
            ("Failed to get properties: The name org.freedesktop.systemd1 was not provided by any .service files",
             "the session bus has no systemd user manager behind it (the bus was started without systemd)"),
            ("Failed to connect to bus: No medium found", "no systemd user manager runs for this login"),
            ("Failed to connect to bus: No such file or directory", "no systemd user manager runs for this login"),
            ("Failed to connect to bus: $DBUS_SESSION_BUS_ADDRESS and $XDG_RUNTIME_DIR not defined (consider using --machine=<user>@.host --user to connect to bus of other user)",
             "this login has no user session (XDG_RUNTIME_DIR is not set), so no user manager can be reached"),
            ("System has not been booted with systemd as init system (PID 1). Can't operate.\nFailed to connect to bus: Host is down",
             "this system does not run systemd, so there is no user manager"),
            ("Failed to connect to bus: Permission denied", "no systemd user manager runs for this login"),
            ("Call failed: Access denied", "the systemd user manager refused to answer (permission denied)"),
            ("something entirely new\u{1B}[31m", "the systemd user manager did not answer (systemctl --user exited with status 3)"),
            ("", "the systemd user manager did not answer (systemctl --user exited with status 3)"),
        ]
        for (said, reason) in cases {
            let absence = UserManagerAbsence.reading(errorOutput: said, status: 3)
            XCTAssertEqual(absence.reason, reason, said)
            XCTAssertFalse(absence.hint.isEmpty, said)
            for word in ["org.freedesktop", "Failed to", "No medium", "\u{1B}", "entirely new"] {
                XCTAssertFalse(absence.reason.contains(word) || absence.hint.contains(word), "\(said) → \(absence)")
            }
        }
        XCTAssertNil(UserManagerAbsence.recognizing("Unit pwnvault-watch.timer not found."))
        XCTAssertEqual(SystemdUserManager.Availability.notRunning(.reading(errorOutput: "Failed to connect to bus: No medium found", status: 1)).text,
                       "not running: no systemd user manager runs for this login")
        XCTAssertEqual(SystemdUserManager.Availability.running.text, "running")
    }

    /// A systemctl that is not on PATH is an absence too, said as such.
    func testNoSystemctlOnPathIsSaidPlainly() {
        let manager = SystemdUserManager(environment: ["PATH": "/nonexistent"])
        XCTAssertEqual(manager.availability(), .notRunning(.notInstalled))
    }
}
