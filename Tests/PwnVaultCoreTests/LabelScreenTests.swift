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

    /// Found by the disclosure property test: a phone number inside an address, or two addresses that
    /// share characters, made overlapping runs, and replacing one moved the other past the end of the
    /// label (a crash of `list` on such a label in an old vault).
    func testOverlappingRunsAreRedactedOnce() {
        let bullets: (String, AccountKind) -> String = { _, _ in "•••" }
        XCTAssertEqual(LabelScreen.redacting("ab12345678@example.com x", own: nil, replacement: bullets), "••• x")
        XCTAssertEqual(LabelScreen.redacting("see a@b.co@d.org", own: nil, replacement: bullets), "see •••")
        XCTAssertEqual(LabelScreen.redacting("+44 7700 900123@example.org", own: nil, replacement: { _, kind in "<\(kind)>" }), "<username>")
        // On a terminal the union is masked as a username: an address's mask would show the glued phone number.
        let masked = LabelScreen.redacting("✉other@example.netold41(306) 601-9241", own: nil) { Masking.mask($0, kind: $1) }
        XCTAssertFalse(masked.contains("601"), masked)
        XCTAssertEqual(LabelScreen.redacting("Dad 07700900123 and mum@example.org", own: nil, replacement: { _, kind in "<\(kind)>" }),
                       "Dad <phone> and <email>")
    }

    /// Found by the disclosure property test: a phone number written next to other digits makes a run of
    /// more than 15 digits, which is no phone number by itself, so the gate showed it whole.
    func testAPhoneNumberInALongerRunOfDigitsIsRedacted() {
        let bullets: (String, AccountKind) -> String = { _, _ in "•••" }
        XCTAssertEqual(LabelScreen.redacting("Room 123456 (555) 123-4567", own: nil, replacement: bullets), "Room •••")
        XCTAssertEqual(LabelScreen.redacting("2024-01-15 (555) 123-4567", own: nil, replacement: bullets), "•••")
        XCTAssertEqual(LabelScreen.redacting("born 2024-01-15", own: nil, replacement: bullets), "born 2024-01-15")
        // Screening at `add` still names only what can be a phone number (7 to 15 digits).
        XCTAssertNil(LabelScreen.finding(in: "card 4111 1111 1111 1111"))
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
