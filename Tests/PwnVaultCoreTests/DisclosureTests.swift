import TestSupport
import XCTest
@testable import PwnVaultCore

/// The disclosure gate's rules, one output mode at a time.
final class DisclosureTests: XCTestCase {
    private let terminal = Disclosure(policy: DisplayPolicy(terminal: true))
    private let share = Disclosure(policy: DisplayPolicy(terminal: true, shareMode: true))
    private let plain = Disclosure(policy: DisplayPolicy(terminal: false))

    private func account(_ raw: String, id: Int = 7, label: String? = nil, breaches: [String] = []) throws -> Account {
        let p = try AccountParser.parse(raw)
        return Account(id: id, entered: p.entered, normalized: p.normalized, kind: p.kind, label: label,
                       addedAt: Date(timeIntervalSince1970: 0),
                       result: breaches.isEmpty ? .neverChecked : CheckResult(status: .breached, breaches: breaches))
    }

    private let catalog = BreachCatalog(breaches: [
        Breach(name: "Adobe", title: "Adobe", breachDate: BreachDay(year: 2013, month: 10, day: 4)),
        Breach(name: "Velvet", title: "Velvet Rendezvous", breachDate: BreachDay(year: 2015, month: 7, day: 1), isSensitive: true),
        Breach(name: "Newer", title: "Newer One", breachDate: BreachDay(year: 2020, month: 1, day: 2)),
    ], fetchedAt: Date(timeIntervalSince1970: 0))

    func testTerminalShowsTheMask() throws {
        let a = try account("Alice@Example.com", label: "work")
        XCTAssertEqual(terminal.account(a), "A•••e@e•••.com")
        XCTAssertEqual(terminal.account(try account("+44 20 7946 0958")), "•••58")
        XCTAssertEqual(terminal.heading(a), "#7  A•••e@e•••.com  work")
    }

    func testNotATerminalShowsOnlyTheID() throws {
        let a = try account("alice@example.com", id: 12, label: "work")
        XCTAssertEqual(plain.account(a), "#12")
        XCTAssertEqual(Disclosure(policy: DisplayPolicy(terminal: false, shareMode: true)).account(a), "#12")
        XCTAssertEqual(plain.heading(a), "#12  work")
    }

    func testShareModeShowsTheLabelOrTheID() throws {
        XCTAssertEqual(share.account(try account("alice@example.com", id: 3, label: "Mum's e-mail")), "Mum's e-mail")
        XCTAssertEqual(share.account(try account("alice@example.com", id: 3)), "#3")
        XCTAssertEqual(share.account(try account("alice@example.com", id: 3, label: " \u{1B}[2J\t")), "#3")
        XCTAssertEqual(share.heading(try account("alice@example.com", id: 3, label: "Mum")), "#3  Mum")
    }

    func testLabelsAreCleaned() throws {
        let a = try account("bob_the_builder", label: "\u{1B}]0;owned\u{7}Bob's\tgame\u{202E}rs\n")
        XCTAssertEqual(terminal.label(a), "Bob's gamers")
        XCTAssertNil(terminal.label(try account("bob_the_builder")))
        XCTAssertNil(terminal.label(try account("bob_the_builder", label: "\u{7}\u{1B}[H")))
    }

    /// A vault written before labels were screened may hold a label that is an address: it is masked
    /// like an account on a terminal and replaced by bullets wherever accounts may not appear.
    func testALabelThatCarriesAnAccountIsMasked() throws {
        let a = try account("carol.secret@private.example", id: 4, label: "carol.secret@private.example")
        XCTAssertEqual(terminal.label(a), "c•••t@p•••.example")
        XCTAssertEqual(share.label(a), "•••")
        XCTAssertEqual(plain.label(a), "•••")
        XCTAssertEqual(share.account(a), "#4", "a label that is all bullets says less than the id")
        let phone = try account("dad@example.com", label: "Dad +44 7700 900123 (mobile)")
        XCTAssertEqual(plain.label(phone), "Dad ••• (mobile)")
        XCTAssertEqual(terminal.label(phone), "Dad •••23 (mobile)")
        let user = try account("DarkKnight99", label: "my darkknight99 login")
        XCTAssertEqual(plain.label(user), "my ••• login")
        XCTAssertEqual(terminal.label(try account("x@example.com", label: "Born 1970-01-01, Apt. 12")), "Born 1970-01-01, Apt. 12")
    }

    func testSensitiveAndUnknownBreachesAreCountedNotNamed() throws {
        let r = try account("a@example.com", breaches: ["Adobe", "Velvet", "Gone", "Newer"]).result
        for gate in [terminal, share, plain] {
            let d = gate.breaches(r, catalog: catalog)
            XCTAssertEqual(d.shown.map(\.name), ["Newer", "Adobe"], "newest first, sensitive and unknown left out")
            XCTAssertEqual(d.sensitive, 1)
            XCTAssertEqual(d.unnamed, 1)
            XCTAssertEqual(d.total, 4)
            XCTAssertFalse(d.countedNotes.joined().contains("Velvet"))
        }
        // Without a catalog nothing can be known to be harmless: nothing is named.
        let blind = plain.breaches(r, catalog: nil)
        XCTAssertEqual(blind.shown, [])
        XCTAssertEqual(blind.unnamed, 4)
    }

    func testRevealNamesEverythingWithAGrant() throws {
        let a = try account("Alice@Example.com", label: "alice@example.com", breaches: ["Velvet", "Adobe"])
        let grant = RevealGrant()
        XCTAssertEqual(Disclosure.revealed(a, grant: grant), "Alice@Example.com")
        XCTAssertEqual(Disclosure.revealedLabel(a, grant: grant), "alice@example.com")
        XCTAssertEqual(Disclosure.revealedBreaches(a.result, catalog: catalog, grant: grant).map(\.name), ["Velvet", "Adobe"])
    }

    func testPrintingAnAccountValueShowsNoCharacterOfIt() throws {
        let a = try account("alice.secret@example.com", label: "x")
        let p = try AccountParser.parse("bob.secret@example.com")
        for text in ["\(a)", String(reflecting: a), "\(p)", String(reflecting: p), "\(a.dedupKey)", "\(p.dedupKey)"] {
            XCTAssertFalse(text.contains("secret"), text)
        }
        var dumped = ""
        dump(a, to: &dumped); dump(p, to: &dumped)
        XCTAssertFalse(dumped.contains("secret"), dumped)
    }

    func testNonTerminalOutputCarriesNothingOfTheAccount() throws {
        var g = SplitMix64(seed: 0xD15C_0DE)
        let letters = Array("abcdefghijklmnopqrstuvwxyzéøß")
        func word(_ n: ClosedRange<Int>) -> String { String((0..<Int.random(in: n, using: &g)).map { _ in letters.randomElement(using: &g)! }) }
        for _ in 0..<500 {
            let id = Int.random(in: 1...99_999, using: &g)
            let local = word(2...30), user = word(2...40)
            // A UK mobile number (+44 7 and nine digits): libphonenumber takes every one as a possible number.
            let digits = "447" + String((0..<9).map { _ in "0123456789".randomElement(using: &g)! })
            let email = local + "@" + word(2...10) + ".com"
            // Labels that are, or hold, the account itself (as old vaults may): the gate must hide them too.
            let accounts = [try account(email, id: id, label: "x " + email),
                            try account(user, id: id, label: user), try account("+" + digits, id: id, label: "tel " + digits)]
            for (a, secret) in zip(accounts, [local, user, digits]) {
                for gate in [plain, share] {
                    let shown = [gate.account(a), gate.heading(a), gate.label(a) ?? ""].joined(separator: " ")
                    let chars = Array(secret)
                    for start in 0..<chars.count - 1 where secret.allSatisfy(\.isLetter) {
                        XCTAssertFalse(shown.contains(String(chars[start...start + 1])), "\(shown) shows part of \(a.kind)")
                    }
                    XCTAssertFalse(shown.contains(secret), "\(shown) shows the \(a.kind)")
                }
                XCTAssertEqual(plain.account(a), "#\(id)")
            }
        }
    }
}
