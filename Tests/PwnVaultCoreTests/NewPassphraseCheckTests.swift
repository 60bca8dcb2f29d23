import Foundation
import XCTest
@testable import PwnVaultCore

/// The order and the outcomes of the new-passphrase check, and zxcvbn's estimates behind the threshold.
final class NewPassphraseCheckTests: XCTestCase {
    private func secret(_ text: String) -> SecretBytes { SecretBytes(copying: Array(text.utf8)) }

    func testAWeakPassphraseIsRefusedWithoutALookup() {
        var lookups = 0
        let check = NewPassphraseCheck(lookup: { _ in lookups += 1; return 0 }, estimate: { _ in 49.9 })
        XCTAssertThrowsError(try check.check(secret("whatever it is"))) {
            XCTAssertEqual($0 as? PassphraseError, .tooWeak(bits: 49, minimum: 50))
        }
        XCTAssertEqual(lookups, 0)
    }

    func testASeenPassphraseIsRefusedWithItsCount() {
        let check = NewPassphraseCheck(lookup: { _ in 9_659_365 }, estimate: { _ in 80 })
        XCTAssertThrowsError(try check.check(secret("whatever it is"))) {
            XCTAssertEqual($0 as? PassphraseError, .seenInBreaches(times: 9_659_365))
            XCTAssertEqual(($0 as? PassphraseError)?.message,
                           "the passphrase was seen 9,659,365 times in data breaches (Pwned Passwords): it is on attackers' lists")
        }
    }

    func testWhatCouldNotBeCheckedIsANoteNotARefusal() throws {
        let offline = NewPassphraseCheck(lookup: { _ in throw HIBPError.unreachable(reason: "no route to host") }, estimate: { _ in 80 })
        let notes = try offline.check(secret("whatever it is"))
        XCTAssertEqual(notes.count, 1)
        XCTAssertTrue(notes[0].hasPrefix("the passphrase was not checked against Pwned Passwords ("), notes[0])

        let noLibrary = NewPassphraseCheck(lookup: { _ in 0 }, estimate: { _ in throw Zxcvbn.Unavailable(description: "not installed") })
        XCTAssertEqual(try noLibrary.check(secret("whatever it is")), ["the passphrase's strength was not estimated: not installed"])
    }

    /// The figures the threshold was chosen from (NewPassphraseCheck's comment); Debian's libzxcvbn 2.5.
    func testZxcvbnSeparatesGuessablePhrasesFromRandomWords() throws {
        let weak = ["password", "qwertyuiop", "1qaz2wsx3edc", "zxcvbnm,./", "correct horse", "correct horse battery",
                    "the quick brown fox", "Tr0ub4dor&3", "P@ssw0rd", "letmein123", "monkey dragon football baseball"]
        let strong = ["plum forge lantern mosaic", "glad tiny vessel orbit", "apple house water light", "sunset marble kettle drift"]
        for p in weak {
            XCTAssertLessThan(try Zxcvbn.entropyBits(secret(p)), NewPassphraseCheck.minimumBits, p)
        }
        for p in strong {
            XCTAssertGreaterThanOrEqual(try Zxcvbn.entropyBits(secret(p)), NewPassphraseCheck.minimumBits, p)
        }
        XCTAssertEqual(try Zxcvbn.entropyBits(secret("password")), 0)
    }
}
