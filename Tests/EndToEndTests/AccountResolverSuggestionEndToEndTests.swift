import Foundation
import XCTest

/// "did you mean" for a typed account (issue 21, item 8): only on a terminal outside share mode, and
/// only within 2 edits, so nobody can probe the vault with guesses; ids are suggested everywhere.
final class AccountResolverSuggestionEndToEndTests: XCTestCase {
    var s: Sandbox!

    override func setUpWithError() throws {
        s = try Sandbox(inProcess: true, keyring: false)
        s.initVault()
        XCTAssertEqual(s.run(["add", "jonathan.smith@example.com"]).status, 0)
    }

    override func tearDown() { s = nil }

    func testATypoTwoEditsAwayIsSuggestedOnATerminal() throws {
        let r = s.runOnTerminal(["show", "jonathon.smith@exmple.com"])
        XCTAssertEqual(r.status, 2, r.all)
        XCTAssertTrue(r.stdout.contains("did you mean '#1' (j•••h@e•••.com)?"), r.stdout)
    }

    func testAGuessThreeOrMoreEditsAwayIsNotSuggested() throws {
        for guess in ["jon.smith@example.com", "jonathan.smyth@exmple.org", "jonathan@example.com"] {
            let r = s.runOnTerminal(["show", guess])
            XCTAssertEqual(r.status, 2, r.all)
            XCTAssertFalse(r.stdout.contains("did you mean"), "\(guess): \(r.stdout)")
            XCTAssertTrue(r.stdout.contains("see what is with 'pwnvault list'"), r.stdout)
        }
    }

    func testNoSuggestionForATypedAccountInShareModeOrAPipe() throws {
        let share = s.runOnTerminal(["show", "jonathan.smith@exampl.com", "--share"])
        XCTAssertEqual(share.status, 2, share.all)
        XCTAssertFalse(share.stdout.contains("did you mean"), share.stdout)
        let piped = s.run(["show", "jonathan.smith@exampl.com"])
        XCTAssertEqual(piped.status, 2, piped.all)
        XCTAssertFalse(piped.stderr.contains("did you mean"), piped.stderr)
        let json = s.run(["show", "jonathan.smith@exampl.com", "--json"])
        XCTAssertFalse(json.all.contains("did you mean"), json.all)
    }

    func testIdsAreStillSuggestedEverywhere() throws {
        let piped = s.run(["show", "#7"])
        XCTAssertEqual(piped.status, 2, piped.all)
        XCTAssertTrue(piped.stderr.contains("did you mean '#1'?"), piped.stderr)
        XCTAssertTrue(s.runOnTerminal(["show", "#7", "--share"]).stdout.contains("did you mean '#1'?"))
    }
}
