import XCTest
@testable import PwnVaultCore

/// `LabelScreen`'s per-account rules are looked up in an index made once (`CarriedAccounts`, issue 30):
/// the answer must be the one the account-by-account reading gave, in a vault of any size.
final class LabelScreenIndexTests: XCTestCase {
    private func account(_ id: Int, _ raw: String) throws -> Account {
        Account(id: id, parsed: try AccountParser.parse(raw), label: nil, addedAt: Date(timeIntervalSince1970: 0))
    }

    /// Among thousands of accounts, the one a label carries is found, whole or in part, and the
    /// screen made once for the whole vault (an import's) answers as the one made for the label does.
    func testAnAccountAmongThousandsIsFound() throws {
        var accounts: [Account] = []
        for i in 1...3_000 { accounts.append(try account(i, "watcher\(i)@example\(i % 97).com")) }
        accounts.append(try account(3_001, "+44 7700 900123"))
        accounts.append(try account(3_002, "bob"))
        let spelled = SpelledAccounts(accounts: accounts, adding: [], checker: nil)
        let cases: [(String, LabelScreen.Finding?)] = [
            ("Watcher2999@", .partOfVaultAccount(id: 2999)),
            ("example89.com", .partOfVaultAccount(id: 89)),
            ("Dad 900123", .partOfVaultAccount(id: 3_001)),
            ("uncle bob", .vaultAccount(id: 3_002)),
            ("Alice Smith", nil),
            ("watcher", nil),
        ]
        for (label, expected) in cases {
            XCTAssertEqual(LabelScreen.finding(in: label, accounts: accounts), expected, label)
            XCTAssertEqual(LabelScreen.finding(in: label, spelled: spelled, checker: nil), expected, label)
        }
    }

    /// Two accounts carried by one label: the first in the vault's order is named, as when each
    /// account was tried in turn; an account carried whole is named whole even when a part of it is
    /// found first.
    func testTheFirstAccountInTheVaultIsNamed() throws {
        let accounts = [try account(1, "abc"), try account(2, "xyz"), try account(3, "carol@example.org")]
        XCTAssertEqual(LabelScreen.finding(in: "xyz and abc", accounts: accounts), .vaultAccount(id: 1))
        XCTAssertEqual(LabelScreen.finding(in: "xyz and abc", accounts: Array(accounts.reversed())), .vaultAccount(id: 2))
        XCTAssertEqual(LabelScreen.finding(in: "xyz", accounts: accounts), .vaultAccount(id: 2))
        XCTAssertEqual(LabelScreen.finding(in: "example.org", accounts: accounts), .partOfVaultAccount(id: 3))
        // The added accounts come after the vault's.
        let adding = [try AccountParser.parse("abc")]
        XCTAssertEqual(LabelScreen.finding(in: "abc xyz", accounts: [accounts[1]], adding: adding), .vaultAccount(id: 2))
        XCTAssertEqual(LabelScreen.finding(in: "abc", accounts: [accounts[1]], adding: adding), .accountAdded)
    }

    /// A phone number: six of its digits in a row are a part of it, all of them the number.
    func testAPhoneNumberWholeOrInPart() throws {
        let accounts = [try account(6, "+1 202 555 0100"), try account(7, "+44 7700 900123")]
        XCTAssertEqual(LabelScreen.finding(in: "ref 900123", accounts: accounts), .partOfVaultAccount(id: 7))
        XCTAssertEqual(LabelScreen.finding(in: "ref 44770O900123", accounts: accounts), .vaultAccount(id: 7))
        XCTAssertNil(LabelScreen.finding(in: "ref 90012", accounts: accounts))
    }
}
