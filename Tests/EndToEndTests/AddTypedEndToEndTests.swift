import Foundation
import XCTest

/// `add -` with stdin on a terminal (issue 21, item 5): each account is asked for and read with echo
/// off, and said back masked, so the typed account never reaches the screen or its scrollback.
final class AddTypedEndToEndTests: XCTestCase {
    var s: Sandbox!

    override func setUpWithError() throws {
        s = try Sandbox(inProcess: true, keyring: false)
        s.initVault()
    }

    override func tearDown() { s = nil }

    func testTypedAccountsAreNeverEchoedAndAreSaidBackMasked() throws {
        let r = s.runOnTerminal(["add", "-"], steps: [
            ("account 1: ", "secret.typed@example.com\\n"),
            ("account 2: ", "not@an@account\\n"),
            ("account 2: ", "+44 7700 900555\\n"),
            ("account 3: ", "quiet_username\\n"),
            ("account 4: ", "\\n"),
        ])
        XCTAssertEqual(r.status, 0, r.all)
        for typed in ["secret.typed", "not@an", "900555", "7700", "quiet_username"] {
            XCTAssertFalse(r.stdout.contains(typed), "'\(typed)' appeared in the transcript:\n\(r.stdout)")
        }
        XCTAssertTrue(r.stdout.contains("not shown as you type"), r.stdout)
        XCTAssertTrue(r.stdout.contains("account 1: s•••d@e•••.com"), r.stdout)
        XCTAssertTrue(r.stdout.contains("that is not an account"), r.stdout)
        let rows = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(s.run(["list", "--json"]).stdout.utf8)) as? [[String: Any]])
        XCTAssertEqual(rows.count, 3, "\(rows)")
        let revealed = s.run(["reveal", "--unredacted", "--passphrase-file", s.passphraseFile])
        XCTAssertTrue(revealed.stdout.contains("secret.typed@example.com"), revealed.all)
        XCTAssertTrue(revealed.stdout.contains("900555") && revealed.stdout.contains("quiet_username"), revealed.all)
    }

    func testCtrlDEndsTheListAndInShareModeOnlyTheKindIsSaid() throws {
        let r = s.runOnTerminal(["add", "-", "--share"], steps: [
            ("account 1: ", "share.typed@example.com\\n"),
            ("account 2: ", "\\x04"),
        ])
        XCTAssertEqual(r.status, 0, r.all)
        XCTAssertFalse(r.stdout.contains("share.typed"), r.stdout)
        XCTAssertFalse(r.stdout.contains("s•••d@e•••.com"), "share mode shows no masked account: \(r.stdout)")
        XCTAssertTrue(r.stdout.contains("account 1: e-mail address"), r.stdout)
        XCTAssertEqual(s.run(["list", "--json"]).stdout.components(separatedBy: "\"id\"").count - 1, 1)
    }

    func testPipedStdinIsReadAsBefore() throws {
        let r = s.run(["add", "-"], input: "piped.one@example.com\n# comment\n\npiped.two@example.com\n")
        XCTAssertEqual(r.status, 0, r.all)
        XCTAssertEqual(s.run(["list", "--json"]).stdout.components(separatedBy: "\"id\"").count - 1, 2)
    }
}
