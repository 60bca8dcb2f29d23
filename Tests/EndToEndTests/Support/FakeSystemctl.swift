import Foundation
import XCTest

/// A stand-in for `systemctl --user`, put first on the PATH of a test's pwnvault: no user manager can
/// run in the test session (nor in a container), so this answers as a running one does (`show`,
/// `daemon-reload`, `enable --now`, `disable --now`, with the timer's state kept in a file), records
/// every call, and, once `down` is called, fails with exactly the words systemctl prints when no
/// manager answers. It stands for the manager only: the units pwnvault writes are still checked by
/// the real `systemd-analyze verify`.
final class FakeSystemctl {
    /// The folder to put first on PATH (it holds `systemctl`).
    let bin: String
    private let state: String

    init(in folder: URL) throws {
        state = folder.path
        bin = folder.appendingPathComponent("bin").path
        try FileManager.default.createDirectory(atPath: bin, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        let script = #"""
            #!/bin/sh
            # Test stand-in for `systemctl --user` (Tests/EndToEndTests/Support/FakeSystemctl.swift).
            state=${0%/*}/..
            printf '%s\n' "$*" >> "$state/calls"
            if [ -f "$state/down" ]; then
              while IFS= read -r line; do printf '%s\n' "$line" >&2; done < "$state/down"
              exit 1
            fi
            if [ "$1" != --user ] || [ "$2" != --no-pager ]; then echo "unexpected: $*" >&2; exit 64; fi
            shift 2
            case "$1 $2" in
              "show --property=Version") echo 252 ;;
              "show pwnvault-watch.timer")
                if [ -f "$state/enabled" ]; then
                  printf 'ActiveState=active\nUnitFileState=enabled\nNextElapseUSecRealtime=@1893456000\nLoadState=loaded\n'
                else
                  printf 'ActiveState=inactive\nUnitFileState=disabled\nNextElapseUSecRealtime=\nLoadState=loaded\n'
                fi ;;
              "show pwnvault-watch.service")
                if [ -f "$state/service" ]; then
                  while IFS= read -r line; do printf '%s\n' "$line"; done < "$state/service"
                else
                  printf 'Result=success\nExecMainStatus=0\nExecMainExitTimestamp=\nExecMainCode=0\n'
                fi ;;
              "daemon-reload ") ;;
              "enable --now") : > "$state/enabled" ;;
              "disable --now") /bin/rm -f "$state/enabled" ;;
              *) echo "unexpected: $*" >&2; exit 64 ;;
            esac
            """#
        let path = bin + "/systemctl"
        XCTAssertTrue(FileManager.default.createFile(atPath: path, contents: Data((script + "\n").utf8), attributes: [.posixPermissions: 0o755]))
    }

    /// From now on no manager answers: every call fails, printing `said` (systemctl's words) on stderr.
    func down(_ said: String) {
        try? (said + "\n").write(toFile: state + "/down", atomically: true, encoding: .utf8)
    }

    /// The manager answers again.
    func up() { try? FileManager.default.removeItem(atPath: state + "/down") }

    /// The timer stopped and disabled by hand (`systemctl --user disable --now`).
    func disableTimer() { try? FileManager.default.removeItem(atPath: state + "/enabled") }

    /// What the manager remembers of the service's last run: systemd's result word, the exit status, when.
    func lastRun(result: String, status: Int, at seconds: Int) {
        let text = "Result=\(result)\nExecMainStatus=\(status)\nExecMainExitTimestamp=@\(seconds)\nExecMainCode=1\n"
        try? text.write(toFile: state + "/service", atomically: true, encoding: .utf8)
    }

    /// Every call's arguments, one string each, in order.
    func calls() -> [String] {
        ((try? String(contentsOfFile: state + "/calls", encoding: .utf8)) ?? "").split(separator: "\n").map(String.init)
    }
}
