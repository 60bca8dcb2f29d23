import XCTest
@testable import PwnVaultCore

final class LabelScreenTests: XCTestCase {
    func testAddressesAndPhoneNumbersAreFound() {
        for label in ["carol.secret@private.example", "Carol <carol@example.org>", "mail: x@y.co.uk.", "Dad +44 7700 900123",
                      "(555) 123-4567", "06 12 34 56 78", "call 0612345678 now", "ÉMILE@exemple.fr"] {
            XCTAssertNotNil(LabelScreen.finding(in: label), label)
        }
    }

    func testOrdinaryNamesPass() {
        for label in ["Mum's e-mail", "Alice (work)", "张三（工作）", "🙂 emoji", "Born 1970-01-01", "15.01.2024 Bank",
                      "Flat 12", "Team @ home", "@handle", "x@y", "Room 123456"] {
            XCTAssertNil(LabelScreen.finding(in: label), label)
        }
    }

    func testTheVaultsOwnAccountsAreFound() throws {
        let p = try AccountParser.parse("DarkKnight99")
        let a = Account(id: 5, parsed: p, label: nil, addedAt: Date(timeIntervalSince1970: 0))
        XCTAssertEqual(LabelScreen.finding(in: "my darkknight99 login", accounts: [a]), .vaultAccount(id: 5))
        XCTAssertEqual(LabelScreen.finding(in: "DarkKnight99", adding: [p]), .accountAdded)
        XCTAssertNil(LabelScreen.finding(in: "Knight", accounts: [a]))
    }

    func testScreeningRefusesWithAReasonThatNeverRepeatsTheLabel() {
        XCTAssertThrowsError(try AccountLabel.screened("carol@example.com")) { error in
            let reason = (error as! AccountLabel.Problem).reason
            XCTAssertEqual(reason, "it contains an e-mail address")
        }
        XCTAssertThrowsError(try AccountLabel.screened("bell\u{7}"))
        XCTAssertThrowsError(try AccountLabel.screened(String(repeating: "a", count: 65)))
        XCTAssertNil(try AccountLabel.screened("   "))
        XCTAssertEqual(try AccountLabel.screened("  Mum ")?.text, "Mum")
    }
}
