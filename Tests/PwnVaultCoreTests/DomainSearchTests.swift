import Foundation
@testable import PwnVaultCore
import XCTest

/// A domain search's aliases that are not accounts: left out of `accounts`, counted by why in
/// `unusableAliases`, whose reasons never quote an alias.
final class DomainSearchTests: XCTestCase {
    func testUnusableAliasesAreCountedByReasonMostFrequentFirst() {
        let long = String(repeating: "z", count: 65)
        let search = DomainSearch(domain: "Example.COM", aliases: [
            "alice": ["Adobe"], "Bob": ["Adobe"],
            "two words": ["Adobe"], "three more words": ["Adobe"], "x@y": ["Adobe"], long: ["Adobe"],
        ])
        XCTAssertEqual(search.count, 6)
        XCTAssertEqual(search.accounts(at: Date()).map(\.account.normalized), ["alice@example.com", "bob@example.com"])
        let unusable = search.unusableAliases()
        XCTAssertEqual(unusable.map(\.count), [2, 1, 1])
        XCTAssertEqual(unusable.map(\.reason), [AccountParseError.whitespaceInside.message, AccountParseError.tooManyAtSigns.message,
                                                AccountParseError.localPartTooLong.message])
        for (reason, _) in unusable {
            for alias in ["two", "words", "x@y", "zzzz"] { XCTAssertFalse(reason.contains(alias), reason) }
        }
    }

    func testEveryAliasUsableGivesNoReason() {
        XCTAssertTrue(DomainSearch(domain: "example.com", aliases: ["a": ["X"], "b.c+d": ["Y"]]).unusableAliases().isEmpty)
    }
}
