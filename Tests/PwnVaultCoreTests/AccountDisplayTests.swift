import XCTest
@testable import PwnVaultCore

final class AccountDisplayTests: XCTestCase {
    private func account(_ raw: String, id: Int = 7, label: String? = nil) throws -> Account {
        let p = try AccountParser.parse(raw)
        return Account(id: id, entered: p.entered, normalized: p.normalized, kind: p.kind, label: label,
                       addedAt: Date(timeIntervalSince1970: 0))
    }

    func testTerminalShowsTheMask() throws {
        let a = try account("Alice@Example.com", label: "work")
        XCTAssertEqual(AccountDisplay.display(a, policy: DisplayPolicy(terminal: true)), "A•••e@e•••.com")
        XCTAssertEqual(AccountDisplay.display(try account("+44 20 7946 0958"), policy: DisplayPolicy(terminal: true)), "•••58")
    }

    func testNotATerminalShowsOnlyTheID() throws {
        let a = try account("alice@example.com", id: 12, label: "work")
        XCTAssertEqual(AccountDisplay.display(a, policy: DisplayPolicy(terminal: false)), "#12")
        XCTAssertEqual(AccountDisplay.display(a, policy: DisplayPolicy(terminal: false, shareMode: true)), "#12")
    }

    func testShareModeShowsTheLabelOrTheID() throws {
        let share = DisplayPolicy(terminal: true, shareMode: true)
        XCTAssertEqual(AccountDisplay.display(try account("alice@example.com", id: 3, label: "Mum's e-mail"), policy: share), "Mum's e-mail")
        XCTAssertEqual(AccountDisplay.display(try account("alice@example.com", id: 3), policy: share), "#3")
        XCTAssertEqual(AccountDisplay.display(try account("alice@example.com", id: 3, label: " \u{1B}[2J\t"), policy: share), "#3")
    }

    func testLabelsAreCleaned() throws {
        let a = try account("bob_the_builder", label: "\u{1B}]0;owned\u{7}Bob's\tgame\u{202E}rs\n")
        XCTAssertEqual(AccountDisplay.labelText(a), "Bob's gamers")
        XCTAssertNil(AccountDisplay.labelText(try account("bob_the_builder")))
        XCTAssertNil(AccountDisplay.labelText(try account("bob_the_builder", label: "\u{7}\u{1B}[H")))
    }

    func testNonTerminalOutputCarriesNothingOfTheAccount() throws {
        var g = SplitMix64(seed: 0xD15C_0DE)
        let letters = Array("abcdefghijklmnopqrstuvwxyzéøß")
        func word(_ n: ClosedRange<Int>) -> String { String((0..<Int.random(in: n, using: &g)).map { _ in letters.randomElement(using: &g)! }) }
        let plain = DisplayPolicy(terminal: false)
        for _ in 0..<500 {
            let id = Int.random(in: 1...99_999, using: &g)
            let local = word(2...30), user = word(2...40)
            let digits = String((0..<Int.random(in: 7...15, using: &g)).map { _ in "0123456789".randomElement(using: &g)! })
            let accounts = [try account(local + "@" + word(2...10) + ".com", id: id, label: word(1...9)),
                            try account(user, id: id), try account("+" + digits, id: id, label: word(1...9))]
            for (a, secret) in zip(accounts, [local, user, digits]) {
                let shown = AccountDisplay.display(a, policy: plain)
                let chars = Array(secret)
                for start in 0..<chars.count - 1 where secret.allSatisfy(\.isLetter) {
                    XCTAssertFalse(shown.contains(String(chars[start...start + 1])), "\(shown) shows part of \(a.kind)")
                }
                // Stronger, and it covers digits that may coincide with the id: the output depends on the id alone.
                XCTAssertEqual(shown, AccountDisplay.display(accounts[0], policy: plain))
                XCTAssertEqual(shown, "#\(id)")
            }
        }
    }
}
