import Foundation
import TestSupport
import XCTest

/// Issue 21, "reveal shows everything its owner needs": an account in 40 breaches (6 sensitive), 3
/// pastes and 5 stealer-log websites, revealed on an 80×24 terminal: every one reachable by scrolling
/// and by find, nothing of it outside the alternate screen; `--unredacted` holds them too; stealer-log
/// websites named nowhere but reveal.
final class RevealScrollEndToEndTests: XCTestCase {
    static let account = "clean-scroll.owner@hibp-integration-tests.com"
    static let breaches = (1...40).map { String(format: "ScrollLeak%02d", $0) }
    static let sensitive: Set<String> = ["ScrollLeak05", "ScrollLeak12", "ScrollLeak19", "ScrollLeak26", "ScrollLeak33", "ScrollLeak40"]
    /// The third is longer than the window: it must wrap, not be cut.
    static let pasteIDs = ["PasteAlpha01", "PasteBravo02", "PasteCharlie03" + String(repeating: "x", count: 90) + "END"]
    static let pastes = pasteIDs.map { "Pastebin/" + $0 }
    static let sites = ["siteone-steal.example", "sitetwo-steal.example", "sitethree-steal.example", "sitefour-steal.example", "sitefive-steal.example"]

    var server: FakeHIBP!
    var s: Sandbox!

    override func setUpWithError() throws {
        server = try FakeHIBP()
        s = try Sandbox(keyring: false)
        s.use(server)
        for (i, name) in Self.breaches.enumerated() {
            let date = String(format: "2020-01-%02d", 1 + i % 28)
            server.control("/__control/breaches", #"{"Name": "\#(name)", "Title": "\#(name)", "BreachDate": "\#(date)", "IsSensitive": \#(Self.sensitive.contains(name))}"#)
        }
        let names = Self.breaches.map { "\"\($0)\"" }.joined(separator: ",")
        let pastes = Self.pasteIDs.map { #"{"Source": "Pastebin", "Id": "\#($0)"}"# }.joined(separator: ",")
        let sites = Self.sites.map { "\"\($0)\"" }.joined(separator: ",")
        server.control("/__control/accounts", #"{"account": "\#(Self.account)", "breaches": [\#(names)], "pastes": [\#(pastes)], "stealerLogs": [\#(sites)], "ownerVerified": true}"#)
        s.initVault()
        XCTAssertEqual(s.run(["add", Self.account, "--label", "Owner"]).status, 0)
        let check = s.run(["check", "--all", "--pastes", "--stealer-logs"])
        XCTAssertEqual(check.status, 1, check.all)
        XCTAssertTrue(check.stdout.contains("in info-stealer logs of 5 websites (5 NEW)"), check.stdout)
    }

    override func tearDown() { server = nil; s = nil }

    /// Everything reveal must show, as it appears on the screen.
    var everything: [String] {
        Self.breaches.map { Self.sensitive.contains($0) ? $0 + " (sensitive)" : $0 } + Self.pastes.prefix(2) + Self.sites
    }

    func testEverythingIsReachableByScrollingAt80x24AndNothingIsLeftOutsideTheAlternateScreen() throws {
        let tmux = try TmuxSession(columns: 80, rows: 24, environment: [
            "PWNVAULT_VAULT": s.vault, "PWNVAULT_KEYRING": "none", "PWNVAULT_API_URL": server.apiURL,
            "TEST_BIN": Paths.binary, "HOME": s.home.path,
        ])
        defer { tmux.close() }
        tmux.run("\"$TEST_BIN\" reveal --timeout 600")
        tmux.wait(for: "Passphrase for")
        tmux.type(Sandbox.passphrase)
        tmux.key("Enter")
        // With no client attached tmux reports the pane unfocused: a focus-in shows it.
        let shownBy = Date().addingTimeInterval(15)
        while Date() < shownBy, !tmux.screen.contains("clean-scroll") {
            if tmux.screen.contains("hidden: focus lost") { tmux.type("\\e[I") }
            usleep(100_000)
        }
        var screen = tmux.screen
        XCTAssertTrue(screen.contains(Self.account + " (Owner)"), screen)
        var seen = screen

        /// Presses `key` and waits until the screen is another one (or 10 s pass: the check after it fails).
        func press(_ key: String, literally: Bool = false) -> String {
            let before = tmux.screen
            if literally { tmux.type(key) } else { tmux.key(key) }
            let until = Date().addingTimeInterval(10)
            var now = tmux.screen
            while now == before && Date() < until { usleep(50_000); now = tmux.screen }
            seen += "\n" + now
            return now
        }
        func rows(_ screen: String) -> [String] { screen.components(separatedBy: "\n") }
        func firstTextRow(_ screen: String) -> String { rows(screen).count > 2 ? rows(screen)[2] : "" }

        // One line down and up again with the arrows, j and k.
        let top = firstTextRow(screen)
        let down = press("Down")
        XCTAssertEqual(firstTextRow(down), rows(screen)[3], "↓ moves one line: \(down)")
        XCTAssertNotEqual(firstTextRow(press("k", literally: true)), firstTextRow(down))
        XCTAssertEqual(firstTextRow(tmux.screen), top)

        // Page down to the end: every step a full screen of at most 80 cells a row.
        var pages = 0
        while !atEnd(screen) && pages < 20 {
            screen = press(pages % 2 == 0 ? "NPage" : "Space")
            pages += 1
            for row in rows(screen) { XCTAssertLessThanOrEqual(row.count, 80, row) }
        }
        XCTAssertTrue(atEnd(screen), screen)
        XCTAssertEqual(pages, 2, "53 rows in screens of 21: \(screen)")
        for item in everything { XCTAssertTrue(seen.contains(item), "\(item) never appeared while scrolling") }
        // The long paste id is wrapped over rows, never cut.
        let flat = seen.replacingOccurrences(of: "\n", with: "").replacingOccurrences(of: " ", with: "")
        XCTAssertTrue(flat.contains(Self.pastes[2]), "the long paste id is whole across rows")
        XCTAssertTrue(seen.contains("40 breaches, 6 sensitive:") && seen.contains("3 pastes") && seen.contains("5 websites in info-stealer logs"), seen)

        // Home, End; find with / and n.
        XCTAssertTrue(press("Home").contains(Self.account))
        XCTAssertTrue(press("End").contains("sitefive-steal.example"))
        XCTAssertFalse(press("Home").contains("ScrollLeak33"), "not on the first screen")
        _ = press("/", literally: true)
        tmux.type("scrollleak33")
        tmux.key("Enter")
        XCTAssertTrue(tmux.wait(for: "match 1 of 1"))
        XCTAssertTrue(tmux.screen.contains("    ScrollLeak33 (sensitive)"), "find brings the line into view: \(tmux.screen)")
        _ = press("/", literally: true)
        tmux.type("quokka-steal")   // a q typed into a search does not close the screen
        XCTAssertTrue(tmux.wait(for: "find: quokka-steal_"))
        tmux.key("Enter")
        XCTAssertTrue(tmux.wait(for: "\"quokka-steal\" not found"))
        _ = press("/", literally: true)
        tmux.type("-steal.example")
        tmux.key("Enter")
        XCTAssertTrue(tmux.wait(for: "match 1 of 5"))
        tmux.type("n")
        XCTAssertTrue(tmux.wait(for: "match 2 of 5"))

        // Esc closes the screen even while a search is typed.
        _ = press("/", literally: true)
        tmux.type("qq")
        XCTAssertTrue(tmux.wait(for: "find: qq_"))
        tmux.key("Escape")
        XCTAssertTrue(tmux.waitForPrompt(2))
        let history = tmux.history
        XCTAssertFalse(history.contains(Self.account), history)
        for item in Self.breaches + Self.pasteIDs + Self.sites { XCTAssertFalse(history.contains(item), "\(item) left in: \(history)") }
    }

    /// Whether the status line says the last row is shown: `lines a-N of N`.
    private func atEnd(_ screen: String) -> Bool {
        guard let status = screen.components(separatedBy: "\n").last(where: { $0.hasPrefix("lines ") }),
              let dash = status.firstIndex(of: "-"), let of = status.range(of: " of ") else { return false }
        let last = status[status.index(after: dash)..<of.lowerBound]
        return Int(last) != nil && Int(last) == Int(status[of.upperBound...].prefix { $0.isNumber })
    }

    func testOnAPseudoTerminalEveryByteOfTheFindingsIsInsideTheAlternateScreen() throws {
        // ptyrun plays an 80×24 terminal that reports focus; End shows the rest, then q.
        let steps: [(String, String)] = [("\\x1b[?1004$p", "\\x1b[?1004;1$y\\x1b[?1;2c"),
                                         ("Passphrase for", Sandbox.passphrase + "\\n"),
                                         ("ScrollLeak", "\\x1b[6~"), ("lines 22-", "\\x1b[F"), ("sitefive-steal", "q")]
        var driver = [Paths.support("ptyrun.py"), "--timeout", "60", "--cols", "80", "--rows", "24"]
        for step in steps { driver += ["--expect", step.0, "--send", step.1] }
        driver += ["--", Paths.binary, "reveal", "--timeout", "600"]
        let r = Sandbox.exec(Paths.python, driver, input: nil, environment: s.environment)
        XCTAssertEqual(r.status, 0, r.stdout)
        let out = r.stdout
        let enter = "\u{1B}[?1049h", leave = "\u{1B}[?1049l"
        for item in [Self.account] + Self.breaches + Self.sites {
            var searchFrom = out.startIndex
            var found = 0
            while let hit = out.range(of: item, range: searchFrom..<out.endIndex) {
                found += 1
                let before = out[..<hit.lowerBound]
                let entered = before.range(of: enter, options: .backwards)?.lowerBound
                let left = before.range(of: leave, options: .backwards)?.lowerBound
                XCTAssertNotNil(entered, "\(item) written before the alternate screen")
                if let entered, let left { XCTAssertLessThan(left, entered, "\(item) written after leaving the alternate screen") }
                searchFrom = hit.upperBound
            }
            XCTAssertGreaterThan(found, 0, "\(item) was shown: \(out)")
        }
    }

    func testUnredactedHoldsPastesAndStealerSitesAndNothingElseNamesTheSites() throws {
        let json = s.run(["reveal", "--unredacted", "--json", "--passphrase-file", s.passphraseFile])
        XCTAssertEqual(json.status, 0, json.all)
        let rows = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [[String: Any]])
        let row = try XCTUnwrap(rows.first)
        XCTAssertEqual(row["account"] as? String, Self.account)
        XCTAssertEqual(Set(row["breaches"] as? [String] ?? []), Set(Self.breaches))
        XCTAssertEqual(row["pastes"] as? [String], Self.pastes)
        XCTAssertEqual(Set(row["stealerLogSites"] as? [String] ?? []), Set(Self.sites))

        let text = s.run(["reveal", "--unredacted", "--passphrase-file", s.passphraseFile])
        XCTAssertEqual(text.status, 0, text.all)
        let fields = text.stdout.trimmingCharacters(in: .newlines).components(separatedBy: "\t")
        XCTAssertTrue(fields.contains("pastes: " + Self.pastes.joined(separator: ", ")), text.stdout)
        XCTAssertTrue(fields.contains { $0.hasPrefix("stealer-log websites: ") && Self.sites.allSatisfy($0.contains) }, text.stdout)
        XCTAssertTrue(fields.contains { $0.contains("ScrollLeak40 (sensitive)") }, text.stdout)

        // Everywhere else the sites are counted: piped, JSON, on a terminal, with the passphrase given.
        let elsewhere = [s.run(["show", "#1"]), s.run(["show", "#1", "--json"]), s.run(["list", "--json"]), s.run(["list"]),
                         s.run(["status", "--json"]), s.run(["check", "#1", "--json"]), s.run(["check", "--all", "--force", "--stealer-logs"]),
                         s.runOnTerminal(["show", "#1"], env: ["PAGER": "cat"]), s.runOnTerminal(["list"])]
        for r in elsewhere {
            for site in Self.sites { XCTAssertFalse(r.all.contains(site), "\(site) named outside reveal: \(r.all)") }
        }
        XCTAssertTrue(elsewhere[0].stdout.contains("info-stealer logs of 5 websites"), elsewhere[0].stdout)
    }
}
