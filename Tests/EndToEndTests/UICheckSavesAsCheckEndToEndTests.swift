import Foundation
import TestSupport
import XCTest

/// Issue 31: the ui's check saves exactly what `check` saves. Two twin vaults meet the same answers
/// from the fake HIBP server: a sensitive breach found by the domain search (`watch`), then a new
/// breach that the account search lists while it never lists the sensitive one. One vault is checked
/// by `check`, the other by the ui (in a real tmux): the account then reads the same in both
/// (`show --json`, times aside): the new breach found, the sensitive one still listed (a search that
/// never lists sensitive breaches cannot say it is gone), and `watch` afterwards reports nothing twice.
final class UICheckSavesAsCheckEndToEndTests: XCTestCase {
    static let cat = "clean-cat@hibp-integration-tests.com"

    var server: FakeHIBP!
    var viaCheck: Sandbox!
    var viaUI: Sandbox!
    var tmux: TmuxSession!

    override func setUpWithError() throws {
        server = try FakeHIBP()
        server.control("/__control/breaches", #"{"Name": "SecretClub", "Title": "Secret Club", "IsSensitive": true, "DataClasses": ["Email addresses"]}"#)
        server.control("/__control/breaches", #"{"Name": "OpenForum", "Title": "Open Forum", "DataClasses": ["Email addresses", "Passwords"]}"#)
        // Only the domain search (the domain owner's view) lists the sensitive breach.
        server.control("/__control/accounts", #"{"account": "\#(Self.cat)", "breaches": ["SecretClub"]}"#)
        viaCheck = try Sandbox()
        viaUI = try Sandbox()
        for s in [viaCheck!, viaUI!] {
            s.use(server)
            s.environment["PWNVAULT_K_ANONYMITY"] = "off"
            s.initVault()
            XCTAssertEqual(s.run(["add", Self.cat, "--label", "Cat"]).status, 0)
            let first = s.run(["watch"])
            XCTAssertEqual(first.status, 1, first.all)
            XCTAssertTrue(first.stdout.hasPrefix("#1  Cat  NEW: 1 sensitive breach\n"), first.all)
        }
    }

    override func tearDown() {
        tmux?.close()
        tmux = nil
        viaCheck = nil
        viaUI = nil
        server = nil
    }

    /// `show --json '#1'` with every time replaced by "T": the twins were checked seconds apart.
    private func shown(_ s: Sandbox, file: StaticString = #filePath, line: UInt = #line) -> String {
        let r = s.run(["show", "#1", "--json"])
        XCTAssertFalse(r.stdout.isEmpty, r.all, file: file, line: line)
        return r.stdout.replacingOccurrences(of: #"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z"#, with: "T", options: .regularExpression)
    }

    func testTheUIsCheckSavesWhatCheckSavesAndWatchSaysNothingTwice() throws {
        // A new breach the account search lists; the sensitive one it never lists.
        server.control("/__control/accounts", #"{"account": "\#(Self.cat)", "breaches": ["OpenForum"]}"#)

        let checked = viaCheck.run(["check", "#1"])
        XCTAssertEqual(checked.status, 1, checked.all)

        tmux = try TmuxSession(environment: [
            "PWNVAULT_VAULT": viaUI.vault, "PWNVAULT_KEYRING": "none", "PWNVAULT_PASSPHRASE_FILE": viaUI.passphraseFile,
            "PWNVAULT_API_URL": server.apiURL, "PWNVAULT_K_ANONYMITY": "off", "TEST_BIN": Paths.binary,
            "HOME": viaUI.home.path, "TEST_KEY": FakeHIBP.key,
        ])
        tmux.run("HIBP_API_KEY=$TEST_KEY \"$TEST_BIN\" ui")
        let deadline = Date().addingTimeInterval(10)
        while Date() < deadline, !tmux.screen.contains("Accounts (1)") {
            if tmux.screen.contains("hidden: focus lost") { tmux.type("\\e[I") }
            usleep(100_000)
        }
        tmux.wait(for: "Accounts (1)")
        tmux.type("r")
        tmux.wait(for: "check done: ", seconds: 20)
        tmux.key("C-c")
        tmux.waitForPrompt(2)

        let afterCheck = shown(viaCheck), afterUI = shown(viaUI)
        XCTAssertTrue(afterCheck.contains("OpenForum"), afterCheck)
        XCTAssertEqual(afterUI, afterCheck, "the ui saved what check saves")

        // What the check found is not news again; the sensitive breach is not "no longer listed".
        for s in [viaCheck!, viaUI!] {
            let watched = s.run(["watch"])
            XCTAssertEqual(watched.status, 0, watched.all)
            XCTAssertEqual(watched.stdout, "", watched.all)
            XCTAssertEqual(s.run(["watch"]).stdout, "")
        }
    }
}
