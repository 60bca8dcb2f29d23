import Foundation
@testable import PwnVaultCore
import XCTest

/// The schedule's pieces that need no file system: periods, unit text, quoting, crontab fields, and
/// reading what `systemctl --user show` prints.
final class ScheduleTests: XCTestCase {
    func testOfferedPeriodsAndTheirSpellings() throws {
        let cases: [(String, String)] = [("1h", "1h"), ("2H", "2h"), ("3h", "3h"), ("4h", "4h"), ("6h", "6h"), ("8h", "8h"),
                                         ("12h", "12h"), ("24h", "1d"), ("1d", "1d"), ("7d", "7d"), ("1w", "7d"), ("168h", "7d")]
        for (text, shown) in cases { XCTAssertEqual(try ScheduleInterval(parsing: text).description, shown, text) }
        XCTAssertEqual(ScheduleInterval.offeredText, "1h, 2h, 3h, 4h, 6h, 8h, 12h, 1d or 7d")
    }

    func testOtherPeriodsAreRefusedWithTheReason() {
        let cases: [(String, String)] = [
            ("30m", "it is not a number followed by h, d or w"), ("0h", "the shortest period is 1h"),
            ("5h", "a timer can keep only periods that divide a day or a week evenly"),
            ("2d", "a timer can keep only periods that divide a day or a week evenly"), ("2w", "the longest period is 7d"),
            ("", "it is not a number followed by h, d or w"), ("1.5h", "it is not a number followed by h, d or w"),
            ("99999999999999999999h", "it is not a number followed by h, d or w"),
        ]
        for (text, reason) in cases {
            XCTAssertThrowsError(try ScheduleInterval(parsing: text), text) { error in
                XCTAssertEqual(error as? ScheduleError, .invalidPeriod(text, reason: reason), text)
            }
        }
    }

    func testAnInvalidPeriodIsEchoedOnlyWhenItIsAShortPlainWord() {
        XCTAssertEqual(ScheduleError.invalidPeriod("5h", reason: "r").message, "invalid value for '--every': '5h' is not offered (r)")
        XCTAssertEqual(ScheduleError.invalidPeriod("alice@example.com", reason: "r").message,
                       "invalid value for '--every': the value is not offered (r)")
    }

    func testCronFieldsKeepThePeriod() {
        let fixed: (Int) -> Int = { $0 - 1 }   // the largest value each time
        let expected: [(Int, String)] = [(1, "59 * * * *"), (6, "59 5-23/6 * * *"), (24, "59 23 * * *"), (168, "59 23 * * 6")]
        for (hours, fields) in expected {
            let interval = ScheduleInterval.offered.first { $0.hours == hours }!
            XCTAssertEqual(interval.cronFields(random: fixed), fields)
            XCTAssertEqual(interval.cronFields(random: { _ in 0 }).split(separator: " ").count, 5)
        }
    }

    func testSystemdQuotingKeepsEveryCharacter() {
        XCTAssertEqual(ScheduledWatch.systemdQuoted("/usr/bin/pwnvault"), "/usr/bin/pwnvault")
        XCTAssertEqual(ScheduledWatch.systemdQuoted("--notify"), "--notify")
        XCTAssertEqual(ScheduledWatch.systemdQuoted(#"/a b/100% "x" $HOME's \ v"#), #""/a b/100%% \"x\" $$HOME's \\ v""#)
        XCTAssertEqual(ScheduledWatch.systemdQuoted(""), "\"\"")
        XCTAssertEqual(ScheduledWatch.shellQuoted("it's"), #"'it'\''s'"#)
        XCTAssertEqual(ScheduledWatch.shellQuoted("/plain/path-1.2"), "/plain/path-1.2")
    }

    func testCrontabLineEscapesPercentAndSetsTheBus() throws {
        let watch = try ScheduledWatch(program: "/opt/pwn vault/pwnvault", vault: "/v/100%", interval: .daily)
        XCTAssertEqual(watch.crontabLine(busAddress: "unix:path=/run/user/1000/bus", random: { _ in 7 }),
                       #"7 7 * * * DBUS_SESSION_BUS_ADDRESS=unix:path=/run/user/1000/bus '/opt/pwn vault/pwnvault' watch --notify --vault '/v/100\%'"#)
    }

    func testTheCronBusIsTheRuntimeFoldersSocketOrARefusalWithTheReason() throws {
        XCTAssertEqual(CronSessionBus.escaped("/run/user/1000/bus"), "/run/user/1000/bus")
        XCTAssertEqual(CronSessionBus.escaped("/tmp/a b,c=d;%é"), "/tmp/a%20b%2cc%3dd%3b%25%c3%a9")
        func reason(_ environment: [String: String]) -> String? {
            do { _ = try CronSessionBus.address(environment: environment); return nil } catch {
                guard case let .noLastingBus(reason) = error else { return "\(error)" }
                return reason
            }
        }
        XCTAssertEqual(reason([:]), "XDG_RUNTIME_DIR is not set")
        XCTAssertEqual(reason(["XDG_RUNTIME_DIR": "run/user/1"]), "XDG_RUNTIME_DIR is not an absolute path")
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("pwv-bus-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        XCTAssertEqual(reason(["XDG_RUNTIME_DIR": folder.path]), "there is no session bus socket at \(folder.path)/bus")
        FileManager.default.createFile(atPath: folder.path + "/bus", contents: Data())
        XCTAssertNotNil(reason(["XDG_RUNTIME_DIR": folder.path]), "a regular file is no bus")
        try FileManager.default.removeItem(atPath: folder.path + "/bus")
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let path = Array((folder.path + "/bus").utf8)
        withUnsafeMutableBytes(of: &address.sun_path) { bytes in for (i, b) in path.enumerated() { bytes[i] = b } }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        XCTAssertEqual(bound, 0)
        XCTAssertEqual(try CronSessionBus.address(environment: ["XDG_RUNTIME_DIR": folder.path + "/"]), "unix:path=\(folder.path)/bus")
        XCTAssertEqual(ScheduleError.noLastingBus(reason: "x").exitStatus, .keyring)
    }

    func testTheWatchRunLogIsReadBackAndIgnoresWhatItDoesNotKnow() {
        let at = Date(timeIntervalSince1970: 1_764_633_600)
        let log = WatchRunLog(lastRun: .init(at: at, exitStatus: 0, reason: nil),
                              lastFailure: .init(at: at.addingTimeInterval(-86_400), exitStatus: 5, reason: "the keyring: gone"))
        XCTAssertEqual(log.text, "pwnvault-watch 1\nrun 1764633600 0\nfailed 1764547200 5 the keyring: gone\n")
        XCTAssertEqual(WatchRunLog(text: log.text), log)
        XCTAssertEqual(WatchRunLog(text: log.text + "later 1 2 3\nrun x 0\n"), log, "unknown and malformed lines are ignored")
        XCTAssertNil(WatchRunLog(text: "pwnvault-watch 2\nrun 1 0\n"))
        XCTAssertEqual(WatchRunLog(text: "pwnvault-watch 1\nfailed 1 6 a\u{1b}[31mred\n")?.lastFailure?.reason, WatchRunLog.clean("a\u{1b}[31mred"))
        XCTAssertFalse(WatchRunLog.clean("a\u{1b}[31mred").contains("\u{1b}"))
        XCTAssertEqual(WatchRunLog.clean(String(repeating: "x", count: 500)).count, 200)
        XCTAssertFalse(WatchRunLog.isFailure(.breachesFound))
        XCTAssertTrue(WatchRunLog.isFailure(.keyring))
    }

    func testControlCharactersInAPathAreRefused() {
        XCTAssertThrowsError(try ScheduledWatch(program: "/usr/bin/pwnvault", vault: "/v/a\nb", interval: .daily)) { error in
            guard case .unwritablePath(what: "vault path", _)? = error as? ScheduleError else { return XCTFail("\(error)") }
            XCTAssertFalse((error as! ScheduleError).message.contains("\n"))
        }
    }

    func testSystemctlShowOutputIsRead() {
        let text = "NextElapseUSecRealtime=@1764547200\nLastTriggerUSec=\nActiveState=active\nUnitFileState=enabled\nOdd=a=b\n"
        let values = SystemdUserManager.parseProperties(text)
        XCTAssertEqual(values["ActiveState"], "active")
        XCTAssertEqual(values["Odd"], "a=b")
        XCTAssertEqual(SystemdUserManager.date(values["NextElapseUSecRealtime"]), Date(timeIntervalSince1970: 1_764_547_200))
        XCTAssertNil(SystemdUserManager.date(values["LastTriggerUSec"]))
        XCTAssertNil(SystemdUserManager.date("n/a"))
        XCTAssertNil(SystemdUserManager.date("@0"))
    }
}
