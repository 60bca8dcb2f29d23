import Foundation
import TestSupport
import XCTest

/// Issue 32, "one word for one thing" and "hidden, not cut": a finding nobody acknowledged is "to
/// acknowledge" in every stored view (list, show, the ui, schedule status), with the same count, after
/// the check that found it and after a later one that found nothing new; NEW is said only by the run
/// that found it. A sensitive breach is said as such on check's line on a terminal, never folded into
/// "… N more", and a one-off check of an account outside the vault prints every breach.
final class VocabularyEndToEndTests: XCTestCase {
    var server: FakeHIBP!
    var s: Sandbox!

    static let fixtures = #"""
    {"accounts": {"pwned-zanzibar@example.com": {"breaches": ["Adobe", "Quillstream"]},
                  "pwned-numbat@example.net": {"breaches": ["DuneRunner"]},
                  "hidden.kea@example.com": {"breaches": ["VelvetRendezvous", "Adobe", "CopperKettle", "EllwoodLibrary", "PaperCrane",
                                                          "RiverbendHOA", "WillowCare", "DriftwoodHotels"], "ownerVerified": true}}}
    """#

    override func setUpWithError() throws {
        server = try FakeHIBP(fixtures: Self.fixtures)
        s = try Sandbox(inProcess: true)
        s.use(server)
        s.initVault()
    }

    override func tearDown() { server = nil; s = nil }

    private func json(_ args: [String]) throws -> Any {
        let r = s.run(args)
        XCTAssertEqual(r.status, 0, r.all)
        return try JSONSerialization.jsonObject(with: Data(r.stdout.utf8))
    }

    /// `list`, `show`, `list --json`, `show --json` and `schedule status` after each of two checks: one
    /// word and one count of findings to acknowledge.
    private func assertOneWord(after what: String, file: StaticString = #filePath, line: UInt = #line) throws {
        let list = s.run(["list"])
        XCTAssertEqual(list.status, 0, list.all, file: file, line: line)
        XCTAssertTrue(list.stdout.contains("breached (2, 2 to acknowledge)"), "\(what): \(list.stdout)", file: file, line: line)
        XCTAssertTrue(list.stdout.contains("breached (1, 1 to acknowledge)"), "\(what): \(list.stdout)", file: file, line: line)
        XCTAssertFalse(list.stdout.contains(" new"), "\(what): no second word in list: \(list.stdout)", file: file, line: line)

        let show = s.run(["show", "#1"])
        XCTAssertEqual(show.status, 0, show.all, file: file, line: line)
        XCTAssertTrue(show.stdout.contains("2 findings to acknowledge (2 breaches)"), "\(what): \(show.stdout)", file: file, line: line)
        XCTAssertFalse(show.stdout.contains("NEW"), "\(what): NEW is a run's word: \(show.stdout)", file: file, line: line)
        XCTAssertFalse(show.stdout.lowercased().contains(" new"), "\(what): \(show.stdout)", file: file, line: line)

        let rows = try XCTUnwrap(try json(["list", "--json"]) as? [[String: Any]], file: file, line: line)
        XCTAssertEqual(rows.map { $0["unacknowledged"] as? Int }, [2, 0, 1], "\(what)", file: file, line: line)
        let shown = try XCTUnwrap(try json(["show", "#1", "--json"]) as? [String: Any], file: file, line: line)
        XCTAssertEqual(shown["unacknowledged"] as? Int, 2, "\(what)", file: file, line: line)

        let schedule = s.run(["schedule", "status"])
        XCTAssertTrue(schedule.stdout.contains("to acknowledge:") && schedule.stdout.contains("3 findings, in 2 accounts"),
                      "\(what): schedule status counts what list counts: \(schedule.all)", file: file, line: line)
        XCTAssertFalse(schedule.all.contains("not yet acknowledged"), "\(what): \(schedule.all)", file: file, line: line)
    }

    func testAFindingIsToAcknowledgeEverywhereAfterTheCheckThatFoundItAndAfterALaterOne() throws {
        XCTAssertEqual(s.run(["add", "pwned-zanzibar@example.com", "--label", "Quokka"]).status, 0)
        XCTAssertEqual(s.run(["add", "clean-wombat@example.org", "pwned-numbat@example.net"]).status, 0)

        // The run that found them says NEW, after each breach, whatever the account's number of breaches.
        let first = s.run(["check", "--all"])
        XCTAssertEqual(first.status, 1, first.all)
        XCTAssertTrue(first.stdout.contains("pwned in 2 breaches: Quillstream [fabricated, unverified] NEW, Adobe NEW"), first.stdout)
        XCTAssertTrue(first.stdout.contains("pwned in 1 breach: DuneRunner NEW"), first.stdout)
        try assertOneWord(after: "the first check")

        // A later check that finds nothing new: no NEW on its lines, and no word changes anywhere.
        let second = s.run(["check", "--all", "--force"])
        XCTAssertEqual(second.status, 1, "still something to acknowledge: \(second.all)")
        XCTAssertFalse(second.stdout.contains("NEW"), second.stdout)
        try assertOneWord(after: "a second check with nothing new")

        // The ui's accounts, wide enough that no column is cut: the same word, the same counts, no NEW.
        let pane = try Pane(s, server)
        defer { pane.close() }
        pane.resize(160)
        let ui = pane.open("ui", chinese: false, shows: "Accounts (3)")
        let screen = ui.lines.joined(separator: "\n")
        XCTAssertTrue(screen.contains("breached (2, 2 to acknowledge)"), screen)
        XCTAssertTrue(screen.contains("breached (1, 1 to acknowledge)"), screen)
        let rows = ui.lines.filter { $0.hasPrefix("#") }
        XCTAssertEqual(rows.count, 3, screen)
        XCTAssertFalse(rows.contains { $0.contains("NEW") || $0.contains(" new") }, "the ui is a stored view: \(screen)")
        pane.tmux.type("q")
    }

    // MARK: hidden, not cut

    func testASensitiveBreachIsSaidOnCheckLineOnATerminalAndShowPointsToReveal() throws {
        XCTAssertEqual(s.run(["add", "hidden.kea@example.com"]).status, 0)
        let pane = try Pane(s, server)
        defer { pane.close() }
        pane.resize(140)
        let wide = pane.run("check '#1'", chinese: false).lines.joined(separator: "\n")
        XCTAssertTrue(wide.contains(" more"), "the named ones are folded at 140 columns: \(wide)")
        XCTAssertTrue(wide.contains("1 sensitive breach (1 NEW; 'reveal' names it)"), "the sensitive one is said, not folded into '… N more': \(wide)")
        pane.resize(80)
        let narrow = pane.run("check '#1'", chinese: false).lines.joined(separator: "\n")
        XCTAssertTrue(narrow.contains("1 sensitive"), "said at 80 columns too: \(narrow)")

        let show = s.run(["show", "#1"])
        XCTAssertTrue(show.stdout.contains("1 sensitive breach, named only in 'pwnvault reveal'"), show.stdout)
        // What concerns the person comes once, however many breaches exposed the address.
        XCTAssertEqual(show.stdout.components(separatedBy: "expect phishing e-mails").count - 1, 1, show.stdout)
    }

    func testAOneOffCheckOutsideTheVaultPrintsEveryBreach() throws {
        let pane = try Pane(s, server)
        defer { pane.close() }
        pane.resize(60)
        let out = pane.run("check multiple-breaches@hibp-integration-tests.com", chinese: false).lines.joined(separator: "\n")
        for title in ["Adobe", "Brightmere", "Lanternfish"] {
            XCTAssertTrue(out.contains(title), "\(title) printed, not folded: \(out)")
        }
        XCTAssertFalse(out.contains("more"), "no '… N more' leading to a show that has nothing: \(out)")
        XCTAssertFalse(out.contains("pwnvault show"), out)
    }

    // MARK: hints that lead somewhere

    func testShareModeFromTheVariableIsNotToldToUseNoShare() throws {
        XCTAssertEqual(s.run(["add", "pwned-zanzibar@example.com"]).status, 0)
        let r = s.runOnTerminal(["reveal"], env: ["PWNVAULT_SHARE": "1"], passphraseFromFile: false)
        XCTAssertEqual(r.status, 2, r.stdout)
        XCTAssertTrue(r.stdout.contains("PWNVAULT_SHARE is set"), r.stdout)
        XCTAssertFalse(r.stdout.contains("--no-share turns"), "--no-share does not undo the variable: \(r.stdout)")
        XCTAssertTrue(r.stdout.contains("env -u PWNVAULT_SHARE pwnvault reveal"), r.stdout)
        // --no-share really does not undo it: the hint that would have been given leads nowhere.
        let tried = s.runOnTerminal(["reveal", "--no-share"], env: ["PWNVAULT_SHARE": "1"], passphraseFromFile: false)
        XCTAssertEqual(tried.status, 2, tried.stdout)
    }
}
