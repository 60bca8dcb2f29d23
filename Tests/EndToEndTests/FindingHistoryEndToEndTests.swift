import Foundation
@testable import PwnVaultCore
import TestSupport
import XCTest

/// Issue 29, "saved findings are history, not a cache", against the fake HIBP server, which stops
/// listing an account between two requests (`/__control/unlist`: an opt-out, a removed breach, a wrong
/// answer): the findings stay, marked no longer listed with the date, in show, show --json, list --json,
/// reveal and the status text; check, watch and the notification say the change once; a retired
/// breach is said as such. And what a clean answer covers for a phone number or a username.
final class FindingHistoryEndToEndTests: XCTestCase {
    /// An account the server lists in two breaches until told otherwise.
    static let two = "clean-two@example.com"

    var server: FakeHIBP!
    var s: Sandbox!

    override func setUpWithError() throws {
        server = try FakeHIBP()
        s = try Sandbox(inProcess: true)
        s.use(server)
    }

    override func tearDown() { server = nil; s = nil }

    private func object(_ text: String, file: StaticString = #filePath, line: UInt = #line) throws -> [String: Any] {
        try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any], text, file: file, line: line)
    }

    private func listRows(file: StaticString = #filePath, line: UInt = #line) throws -> [[String: Any]] {
        let r = s.run(["list", "--json"])
        XCTAssertEqual(r.status, 0, r.stderr, file: file, line: line)
        return try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [[String: Any]], file: file, line: line)
    }

    /// Changes the vault as an earlier run would have left it.
    private func edit(_ change: (inout VaultPayload) -> Void) throws {
        let session = try VaultSession.open(at: try VaultLocation(path: s.vault), keyring: DisabledKeyring()) { _ in
            SecretBytes(copying: Array(Sandbox.passphrase.utf8))
        }
        try session.update { change(&$0) }
    }

    /// A vault whose #1 was found in Adobe and Brightmere by a first check.
    private func vaultInTwoBreaches() {
        server.control("/__control/accounts", #"{"account": "\#(Self.two)", "breaches": ["Adobe", "Brightmere"]}"#)
        s.initVault()
        XCTAssertEqual(s.run(["add", Self.two, "--label", "Work"]).status, 0)
        let first = s.run(["check", "#1"])
        XCTAssertEqual(first.status, 1, first.all)
        XCTAssertTrue(first.stdout.contains("pwned in 2 breaches"), first.stdout)
    }

    /// The breaches of `show --json`, by name.
    private func shownBreaches(file: StaticString = #filePath, line: UInt = #line) throws -> (report: [String: Any], byName: [String: [String: Any]]) {
        let r = s.run(["show", "#1", "--json"])
        XCTAssertEqual(r.status, 0, r.all, file: file, line: line)
        let report = try object(r.stdout, file: file, line: line)
        var byName: [String: [String: Any]] = [:]
        for b in report["breaches"] as? [[String: Any]] ?? [] { byName[b["name"] as? String ?? ""] = b }
        return (report, byName)
    }

    // MARK: check

    func testAnAccountHIBPNoLongerListsKeepsBothBreachesAndCheckSaysSoOnce() throws {
        vaultInTwoBreaches()
        server.control("/__control/unlist", #"{"account": "\#(Self.two)"}"#)

        let forced = s.run(["check", "--all", "--force"])
        XCTAssertTrue(forced.stdout.contains("#1  Work  HIBP lists no breach for it now; no longer listed by HIBP: "), forced.all)
        XCTAssertTrue(forced.stdout.contains("Adobe") && forced.stdout.contains("Brightmere"), forced.all)
        XCTAssertFalse(forced.stdout.contains("no breach found"), "not clean: it was in two breaches: \(forced.all)")
        XCTAssertEqual(forced.status, 1, "both findings still wait to be acknowledged: \(forced.all)")

        let (report, byName) = try shownBreaches()
        XCTAssertEqual(report["status"] as? String, "clean", "the status is the latest answer's")
        XCTAssertEqual(report["breachCount"] as? Int, 0, "breachCount: what the latest answer lists")
        XCTAssertEqual(report["unlisted"] as? Int, 2)
        XCTAssertEqual(Set(byName.keys), ["Adobe", "Brightmere"], "both kept: \(report)")
        for (name, b) in byName {
            XCTAssertEqual(b["listed"] as? Bool, false, name)
            XCTAssertNotNil(b["unlistedSince"] as? String, name)
            XCTAssertEqual(b["new"] as? Bool, false, "found earlier: not new (\(name))")
        }

        let show = s.run(["show", "#1"])
        XCTAssertTrue(show.stdout.contains("HIBP lists no breach for it now"), show.stdout)
        XCTAssertTrue(show.stdout.contains("found earlier in 2 breaches that HIBP no longer lists"), show.stdout)
        XCTAssertTrue(show.stdout.contains("(no longer listed by HIBP since "), show.stdout)
        XCTAssertFalse(show.stdout.contains("no breach found"), show.stdout)

        let row = try XCTUnwrap(try listRows().first)
        XCTAssertEqual(row["breaches"] as? [String], [], "the latest answer's breaches")
        XCTAssertEqual(row["unlisted"] as? Int, 2, "\(row)")
        XCTAssertEqual(Set(row["unlistedBreaches"] as? [String] ?? []), ["Adobe", "Brightmere"], "\(row)")
        XCTAssertTrue(s.run(["list"]).stdout.contains("clean (2 to acknowledge) · 2 no longer listed"), s.run(["list"]).stdout)

        // A second check does not say it again, and still does not say clean.
        let again = s.run(["check", "#1"])
        XCTAssertFalse(again.stdout.contains("no longer listed by HIBP:"), "said once: \(again.all)")
        XCTAssertTrue(again.stdout.contains("HIBP lists no breach for it now · 2 no longer listed"), again.all)
        XCTAssertEqual(again.status, 1, again.all)

        // Acknowledged, the account no longer makes check exit 1; the history stays.
        XCTAssertEqual(s.run(["ack", "#1"]).status, 0)
        XCTAssertEqual(s.run(["check", "#1"]).status, 0)
        XCTAssertEqual(try shownBreaches().byName.count, 2)
    }

    func testListedAgainIsNotNewAndCheckJSONSaysWhatStoppedBeingListed() throws {
        vaultInTwoBreaches()
        server.control("/__control/unlist", #"{"account": "\#(Self.two)", "breaches": ["Brightmere"]}"#)
        let r = s.run(["check", "#1", "--json"])
        let row = try XCTUnwrap((try object(r.stdout)["results"] as? [[String: Any]])?.first, r.all)
        XCTAssertEqual(row["breaches"] as? [String], ["Adobe"], "\(row)")
        XCTAssertEqual(row["newlyUnlisted"] as? Int, 1, "\(row)")
        XCTAssertEqual(row["newlyUnlistedBreaches"] as? [String], ["Brightmere"], "\(row)")
        XCTAssertEqual(row["unlisted"] as? Int, 1, "\(row)")

        let text = s.run(["check", "#1"])
        XCTAssertTrue(text.stdout.contains("pwned in 1 breach · 1 no longer listed: Adobe"), text.all)

        server.control("/__control/unlist", #"{"account": "\#(Self.two)", "relist": true}"#)
        let back = s.run(["check", "#1"])
        XCTAssertTrue(back.stdout.contains("pwned in 2 breaches"), back.all)
        XCTAssertFalse(back.stdout.contains("NEW"), "listed again is not new: \(back.all)")
        XCTAssertFalse(back.stdout.contains("no longer listed"), back.all)
        let (report, byName) = try shownBreaches()
        XCTAssertEqual(report["unlisted"] as? Int, 0)
        XCTAssertEqual(byName["Brightmere"]?["listed"] as? Bool, true, "\(report)")
        XCTAssertNil(byName["Brightmere"]?["unlistedSince"], "\(report)")
    }

    func testARetiredBreachIsSaidAsSuch() throws {
        vaultInTwoBreaches()
        // HIBP retires Brightmere: its catalog entry says so, and no answer lists it any more.
        server.control("/__control/breaches", #"{"Name": "Brightmere", "IsRetired": true}"#)
        let r = s.run(["check", "#1", "--refresh"])
        XCTAssertTrue(r.stdout.contains("retired by HIBP: Brightmere"), r.all)
        let show = s.run(["show", "#1"])
        XCTAssertTrue(show.stdout.contains("(retired by HIBP, no longer listed since "), show.stdout)
        XCTAssertTrue(show.stdout.contains("pwned in 1 breach"), show.stdout)
    }

    // MARK: reveal

    func testRevealNamesWhatIsNoLongerListed() throws {
        vaultInTwoBreaches()
        server.control("/__control/unlist", #"{"account": "\#(Self.two)", "breaches": ["Adobe"]}"#)
        XCTAssertEqual(s.run(["check", "#1"]).status, 1)
        let text = s.run(["reveal", "--unredacted", "--passphrase-file", s.passphraseFile])
        XCTAssertEqual(text.status, 0, text.all)
        XCTAssertTrue(text.stdout.contains("no longer listed by HIBP: Adobe (no longer listed since "), text.stdout)
        let json = s.run(["reveal", "--unredacted", "--json", "--passphrase-file", s.passphraseFile])
        let rows = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [[String: Any]], json.all)
        XCTAssertEqual(rows.first?["breaches"] as? [String], ["Brightmere"])
        XCTAssertEqual(rows.first?["unlistedBreaches"] as? [String], ["Adobe"])
    }

    func testRevealsPrivateScreenListsThemInAGroupOfTheirOwn() throws {
        vaultInTwoBreaches()
        server.control("/__control/unlist", #"{"account": "\#(Self.two)", "breaches": ["Adobe"]}"#)
        XCTAssertEqual(s.run(["check", "#1"]).status, 1)
        // ptyrun plays an 80×24 terminal that reports focus; the passphrase, then the screen, then q.
        let steps: [(String, String)] = [("\\x1b[?1004$p", "\\x1b[?1004;1$y\\x1b[?1;2c"),
                                         ("Passphrase for", Sandbox.passphrase + "\\n"),
                                         ("1 breach no longer listed by HIBP:", "q")]
        var driver = [Paths.support("ptyrun.py"), "--timeout", "60", "--cols", "80", "--rows", "24"]
        for step in steps { driver += ["--expect", step.0, "--send", step.1] }
        driver += ["--", Paths.binary, "reveal", "--timeout", "600"]
        let r = Sandbox.exec(Paths.python, driver, input: nil, environment: s.environment)
        XCTAssertEqual(r.status, 0, r.stdout)
        XCTAssertTrue(r.stdout.contains("Adobe (no longer listed since "), r.stdout)
        XCTAssertTrue(r.stdout.contains(Self.two), "reveal shows the account itself: \(r.stdout)")
    }

    // MARK: watch and the notification

    func testWatchReportsItOnceAndTheNotificationNamesNoAccount() throws {
        let notifications = try NotificationServer(markup: true)
        defer { notifications.stop() }
        server.control("/__control/accounts", #"{"account": "\#(Self.two)", "breaches": ["Adobe", "Brightmere"]}"#)
        s.initVault()
        XCTAssertEqual(s.run(["add", Self.two]).status, 0)
        let first = s.run(["watch", "--notify", "--rpm", "600"])
        XCTAssertEqual(first.status, 1, first.all)
        XCTAssertEqual(notifications.notifications().count, 1, notifications.recording())

        server.control("/__control/unlist", #"{"account": "\#(Self.two)"}"#)
        // The last full check a week ago: this run checks every account again.
        try edit { $0.monitor?.lastFullCheck = Date(timeIntervalSinceNow: -8 * 86_400) }
        let changed = s.run(["watch", "--notify", "--rpm", "600"])
        XCTAssertEqual(changed.status, 1, "news: \(changed.all)")
        XCTAssertTrue(changed.stdout.contains("#1: no longer listed by HIBP: "), changed.stdout)
        XCTAssertFalse(changed.stdout.contains("NEW"), "found earlier, not new: \(changed.stdout)")
        let sent = notifications.notifications()
        XCTAssertEqual(sent.count, 2, notifications.recording())
        XCTAssertEqual(sent.last?["summary"] as? String, "pwnvault: news for 1 account")
        let body = sent.last?["body"] as? String ?? ""
        XCTAssertTrue(body.hasPrefix("#1: no longer listed by HIBP: "), body)
        XCTAssertTrue(body.contains("Adobe") && body.contains("Brightmere"), body)
        XCTAssertFalse(notifications.recording().contains("clean-two"), "no account in a notification: \(notifications.recording())")
        XCTAssertFalse(notifications.recording().contains("example.com"), notifications.recording())

        try edit { $0.monitor?.lastFullCheck = Date(timeIntervalSinceNow: -8 * 86_400) }
        let again = s.run(["watch", "--notify", "--rpm", "600"])
        XCTAssertEqual(again.stdout, "", "said once: \(again.all)")
        XCTAssertEqual(notifications.notifications().count, 2, "notified once")
    }

    // MARK: what a clean answer covers

    func testShowCheckAndDoctorSayWhatNoBreachFoundCoversForPhonesAndUsernames() throws {
        s.initVault()
        XCTAssertEqual(s.run(["add", "+44 7700 900123"]).status, 0)
        XCTAssertEqual(s.run(["add", "clean-ann@example.com"]).status, 0)
        let phoneLine = "for a phone number, \"no breach found\" covers only the few breaches HIBP loaded with phone numbers"
        let check = s.run(["check", "--all"])
        XCTAssertEqual(check.status, 0, check.all)
        XCTAssertEqual(check.stdout.components(separatedBy: phoneLine).count - 1, 1, "once per run: \(check.all)")
        let phone = s.run(["show", "#1"])
        XCTAssertTrue(phone.stdout.contains("no breach found"), phone.all)
        XCTAssertTrue(phone.stdout.contains(phoneLine), phone.stdout)
        XCTAssertFalse(s.run(["show", "#2"]).stdout.contains("covers only"), "an e-mail address: every breach")

        let zh = try ChineseLocale.chinese()
        XCTAssertTrue(s.run(["show", "#1"], env: zh).stdout.contains("对电话号码而言，“未发现数据泄露”只涵盖"), s.run(["show", "#1"], env: zh).all)
        XCTAssertTrue(s.run(["check", "#1"], env: zh).stdout.contains("对电话号码而言"), s.run(["check", "#1"], env: zh).all)
        XCTAssertEqual(s.run(["doctor"], env: zh).stdout.components(separatedBy: "对电话号码而言").count - 1, 1)

        XCTAssertEqual(s.run(["add", "ann_the_admin"]).status, 0)
        let doctor = s.run(["doctor"])
        XCTAssertEqual(doctor.stdout.components(separatedBy: "for phone numbers and usernames, \"no breach found\" covers only").count - 1, 1,
                       "once for the vault: \(doctor.all)")
    }
}
