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

/// Issue 21, item 2: labels that spelled an account in disguise were accepted, then printed unmasked
/// in pipes, JSON, share mode, completions and notifications.
final class LabelScreenFoldingTests: XCTestCase {
    func vault() throws -> [Account] {
        try ["alice@example.com", "alice@example.org", "+44 7700 900125"].enumerated().map { i, raw in
            Account(id: i + 1, parsed: try AccountParser.parse(raw), label: nil, addedAt: Date(timeIntervalSince1970: 0))
        }
    }

    /// Every form the issue found accepted, each refused with or without ICU's skeletons.
    static let disguised = ["７７００９００１２４", "+４４ ７７００ ９００１２３", "٠٧٧٠٠٩٠٠١٢٣", "۰۷۷۰۰۹۰۰۱۲۳", "carol＠example.com",
                            "carol﹫example.com", "alice at example dot com", "alice(at)example(dot)org", "alice [at] example [dot] org",
                            "a l i c e @ e x a m p l e . c o m", "mailto:alice%40example.com", "alice@example", "alice@",
                            "@example.org", "Dad 900125", "Dad 7700 900125", "alice @ example . com", "𝐚𝐥𝐢𝐜𝐞@𝐞𝐱𝐚𝐦𝐩𝐥𝐞.𝐜𝐨𝐦",
                            "alice\u{200B}@example.com", "ALICE AT EXAMPLE DOT COM"]

    func testEveryDisguisedAccountIsFound() throws {
        let accounts = try vault()
        let checker = try? ICUSpoofChecker.load()
        for label in Self.disguised {
            XCTAssertNotNil(LabelScreen.finding(in: label, accounts: accounts), label)
            XCTAssertNotNil(LabelScreen.finding(in: label, accounts: accounts, checker: checker), label)
            XCTAssertThrowsError(try AccountLabel.screened(label, accounts: accounts), label)
        }
    }

    func testTheReasonNamesThePartByIdOnly() throws {
        let accounts = try vault()
        XCTAssertEqual(LabelScreen.finding(in: "alice@example", accounts: accounts), .partOfVaultAccount(id: 1))
        XCTAssertEqual(LabelScreen.finding(in: "@example.org", accounts: accounts), .partOfVaultAccount(id: 2))
        XCTAssertEqual(LabelScreen.finding(in: "Dad 900125", accounts: accounts), .partOfVaultAccount(id: 3))
        XCTAssertEqual(LabelScreen.finding(in: "Dad 900125", adding: [try AccountParser.parse("+44 7700 900125")]), .partOfAccountAdded)
        XCTAssertEqual(LabelScreen.finding(in: "７７００９００１２４"), .phoneNumber)
        XCTAssertEqual(LabelScreen.finding(in: "alice at example dot com"), .emailAddress)
        for finding in [LabelScreen.Finding.partOfVaultAccount(id: 3), .partOfAccountAdded, .emailAddress, .phoneNumber] {
            XCTAssertFalse(finding.reason.contains("alice") || finding.reason.contains("900"), finding.reason)
        }
    }

    /// Look-alike letters need ICU's skeleton; where ICU is missing, nothing else changes.
    func testLookalikeLettersAreFoundWithICU() throws {
        guard let checker = try? ICUSpoofChecker.load() else { throw XCTSkip("Debian's ICU is not installed") }
        XCTAssertNotNil(LabelScreen.finding(in: "my \u{0430}lice@ex\u{0430}mple", accounts: try vault(), checker: checker))
    }

    func testNamesAndProseStayAllowed() throws {
        let accounts = try vault()
        let checker = try? ICUSpoofChecker.load()
        for label in ["Alice", "Mum's e-mail", "Alice (work)", "Work at Acme", "Lunch at 12.30", "Team @ home", "A B Smith",
                      "Dr. Smith at St. Mary's", "Born 1970-01-01", "Room 123456", "Marie Lefèvre", "Иван Иванов", "Example Ltd"] {
            XCTAssertNil(LabelScreen.finding(in: label, accounts: accounts), label)
            XCTAssertNil(LabelScreen.finding(in: label, accounts: accounts, checker: checker), label)
        }
    }

    func testAFirstNameEqualToALocalPartIsAllowedWithACaution() throws {
        let accounts = try vault()
        let label = try XCTUnwrap(try AccountLabel.screened("Alice", accounts: accounts))
        XCTAssertEqual(label.caution(accounts: accounts), .localPartOfVaultAccount(id: 1))
        XCTAssertEqual(try AccountLabel.screened("ＢＯＢ")?.caution(adding: [try AccountParser.parse("bob@example.net")]), .localPartOfAccountAdded)
        XCTAssertNil(label.caution(adding: [try AccountParser.parse("alicia@example.net")]))
        XCTAssertFalse(LabelScreen.Caution.localPartOfVaultAccount(id: 1).text.contains("alice"))
    }

    /// A label written before this screen (an old vault) is masked whole where it is shown, in every mode.
    func testAnOldLabelThatFailsTheScreenIsMaskedWhole() throws {
        let phone = Account(id: 3, parsed: try AccountParser.parse("+44 7700 900124"), label: nil, addedAt: Date(timeIntervalSince1970: 0))
        let mail = Account(id: 1, parsed: try AccountParser.parse("alice@example.com"), label: nil, addedAt: Date(timeIntervalSince1970: 0))
        for (account, label) in [(phone, "７７００９００１２４"), (phone, "Dad 900124"), (mail, "alice at example dot com"), (mail, "alice@"),
                                 (mail, "mailto:alice%40example.com")] {
            var old = account
            old.label = label
            for policy in [DisplayPolicy(terminal: false), DisplayPolicy(terminal: true), DisplayPolicy(terminal: true, shareMode: true)] {
                let gate = Disclosure(policy: policy)
                XCTAssertEqual(gate.label(old), Masking.bullets, label)
                XCTAssertFalse(gate.account(old).contains("alice") || gate.account(old).contains("900"), label)
            }
            let note = Disclosure.notificationText([(old, [])], catalog: nil, countOnly: false).body
            XCTAssertFalse(note.contains(label), note)
        }
        var named = mail
        named.label = "Alice"
        XCTAssertEqual(Disclosure(policy: DisplayPolicy(terminal: false)).label(named), "Alice")
        named.label = "Dad +44 7700 900123"
        XCTAssertEqual(Disclosure(policy: DisplayPolicy(terminal: false)).label(named), "Dad •••")
    }
}

/// Issue 30, item 4: labels that spell an account by what they say, however they are written.
final class LabelSpellingTests: XCTestCase {
    static let phone = "+44 7700 900123", username = "zorglubvictim", email = "alice.smith@victim-domain.example"

    /// The phone number's forms the issue found accepted.
    static let phoneForms = [
        "7700–900–123", "+44–7700–900–123", "7700,900,123", "7700·900·123", "7700:900:123", "7700|900|123",
        "7700−900−123", "7700‐900‐123", "7700‑900‑123",
        "⁺⁴⁴ ⁷⁷⁰⁰ ⁹⁰⁰¹²³", "₊₄₄ ₇₇₀₀ ₉₀₀₁₂₃", "④④ ⑦⑦⓪⓪ ⑨⓪⓪①②③", "➍➍ ➐➐⓿⓿ ➒⓿⓿➊➋➌", "❼❼⓿⓿❾⓿⓿❶❷❸",
        "7\u{FE0F}\u{20E3}7\u{FE0F}\u{20E3}0\u{FE0F}\u{20E3}0\u{FE0F}\u{20E3}9\u{FE0F}\u{20E3}0\u{FE0F}\u{20E3}0\u{FE0F}\u{20E3}1\u{FE0F}\u{20E3}2\u{FE0F}\u{20E3}3\u{FE0F}\u{20E3}",
        "7\u{0336}7\u{0336}0\u{0336}0\u{0336}9\u{0336}0\u{0336}0\u{0336}1\u{0336}2\u{0336}3\u{0336}",
        "7\u{0301}7\u{0301}0\u{0301}0\u{0301} 9\u{0301}0\u{0301}0\u{0301}1\u{0301}2\u{0301}3\u{0301}",
        "77OO 9OO 123", "77oo 9oo l23", "Dad 900–123", "Dad 900½123", "Dad 321 009", "Dad 900-I23",
    ]
    /// The username's.
    static let usernameForms = [
        "zorglub victim", "zorglub-victim", "zorg.lub.victim", "zo\u{301}rglu\u{301}b vi\u{301}cti\u{301}m", "zórglúb víctím",
        "ᴢᴏʀɢʟᴜʙᴠɪᴄᴛɪᴍ", "ⓩⓞⓡⓖⓛⓤⓑⓥⓘⓒⓣⓘⓜ", "ⓏⓄⓇⒼⓁⓊⒷⓋⒾⒸⓉⒾⓂ", "⒵⒪⒭⒢⒧⒰⒝⒱⒤⒞⒯⒤⒨", "zorglub\u{FFF9}victim", "zorglub\u{1D173}victim",
        "mitcivbulgroz", "Mitciv Bulgroz", "My ZorglubVictim login",
    ]
    /// The address's.
    static let emailForms = [
        "alice.smith victim-domain", "alice.smith ⓐ victim-domain·example", "alice.smith arroba victim-domain punto example",
        "ᴀʟɪᴄᴇ.ꜱᴍɪᴛʜ ᴀᴛ ᴠɪᴄᴛɪᴍ-ᴅᴏᴍᴀɪɴ ᴅᴏᴛ ᴇxᴀᴍᴘʟᴇ", "ⓐⓛⓘⓒⓔ.ⓢⓜⓘⓣⓗ ⓐⓣ ⓥⓘⓒⓣⓘⓜ-ⓓⓞⓜⓐⓘⓝ ⓓⓞⓣ ⓔⓧⓐⓜⓟⓛⓔ",
        "alice.smith艾特victim-domain点example", "alice.smith chez victim-domain point example", "victim domain, alice smith",
        "niamod mitciv htims ecila",
    ]
    /// Forms the screen already refused, which must stay refused.
    static let alreadyRefused = [
        "７７００ ９００１２３", "٧٧٠٠٩٠٠١٢٣", "๗๗๐๐๙๐๐๑๒๓", "7٧0๐9००123", "zorglub\u{200D}victim", "zorglub\u{E0041}victim",
        "zorglub\u{202E}victim", "alice.smith@victim-domain.example", "ALICE.SMITH AT VICTIM-DOMAIN DOT EXAMPLE",
    ]
    /// Forms only ICU's skeleton reads: look-alike letters of other scripts, `0` for `o`.
    static let lookalikeForms = ["z\u{043E}rglubvictim", "z\u{03BF}rglubvictim", "z0rglubvictim", "\u{0430}lice.smith victim-domain"]

    static let allowed = ["Dad", "Mum", "Alice (work)", "Mum's phone", "妈妈的手机", "张三（工作）", "Zorglub", "Victim", "Alice Smith",
                          "Work at Acme", "Lunch at 12.30", "Born 1970-01-01", "Room 123456", "Flat 12", "Chez Paul", "A point of view",
                          "Иван Иванов", "Marie Lefèvre", "victim-domain support", "Alice.smith (home)", "Ⅻ Club", "½ price"]

    func vault() throws -> [Account] {
        try [Self.email, Self.username, Self.phone].enumerated().map { i, raw in
            Account(id: i + 1, parsed: try AccountParser.parse(raw), label: nil, addedAt: Date(timeIntervalSince1970: 0))
        }
    }

    func testEveryFormOfThePhoneNumberIsRefused() throws {
        let accounts = try vault(), checker = try? ICUSpoofChecker.load()
        for label in Self.phoneForms {
            XCTAssertNotNil(LabelScreen.finding(in: label, accounts: accounts), label)
            XCTAssertNotNil(LabelScreen.finding(in: label, accounts: accounts, checker: checker), label)
            XCTAssertNotNil(LabelScreen.finding(in: label, adding: [try AccountParser.parse(Self.phone)]), label)
            XCTAssertThrowsError(try AccountLabel.screened(label, accounts: accounts), label)
        }
        XCTAssertEqual(LabelScreen.finding(in: "Dad 900–123", accounts: try vault()), .partOfVaultAccount(id: 3))
        XCTAssertEqual(LabelScreen.finding(in: "77OO 9OO 123", adding: [try AccountParser.parse(Self.phone)]), .partOfAccountAdded)
        XCTAssertEqual(LabelScreen.finding(in: "+44 77OO 9OO 123", adding: [try AccountParser.parse(Self.phone)]), .accountAdded)
    }

    func testEveryFormOfTheUsernameIsRefused() throws {
        let accounts = try vault(), checker = try? ICUSpoofChecker.load()
        for label in Self.usernameForms {
            XCTAssertEqual(LabelScreen.finding(in: label, accounts: accounts), .vaultAccount(id: 2), label)
            XCTAssertNotNil(LabelScreen.finding(in: label, accounts: accounts, checker: checker), label)
            XCTAssertEqual(LabelScreen.finding(in: label, adding: [try AccountParser.parse(Self.username)]), .accountAdded, label)
        }
    }

    func testEveryFormOfTheAddressIsRefused() throws {
        let accounts = try vault(), checker = try? ICUSpoofChecker.load()
        for label in Self.emailForms {
            XCTAssertNotNil(LabelScreen.finding(in: label, accounts: accounts), label)
            XCTAssertNotNil(LabelScreen.finding(in: label, accounts: accounts, checker: checker), label)
            XCTAssertNotNil(LabelScreen.finding(in: label, adding: [try AccountParser.parse(Self.email)]), label)
        }
        XCTAssertEqual(LabelScreen.finding(in: "alice.smith victim-domain", accounts: accounts), .partOfVaultAccount(id: 1))
    }

    /// A whole address spelt with at/dot words of other languages is refused even when it is no account.
    func testAnAddressSpeltInOtherLanguagesIsRefusedWithoutAnyAccount() {
        for label in ["bob arroba example punto com", "bob艾特example点com", "bob chez example point fr", "bob at example punkt de",
                      "bob ⓐ example·org", "bob (arroba) example (punto) es", "bob AT example DOT com"] {
            XCTAssertEqual(LabelScreen.finding(in: label), .emailAddress, label)
        }
    }

    func testWhatWasRefusedStaysRefused() throws {
        let accounts = try vault()
        for label in Self.alreadyRefused {
            XCTAssertThrowsError(try AccountLabel.screened(label, accounts: accounts), label)
        }
        XCTAssertThrowsError(try AccountLabel.screened("alice.smith\u{7}@victim-domain.example", accounts: accounts))
    }

    func testLookalikeLettersAreRefusedWithICU() throws {
        guard let checker = try? ICUSpoofChecker.load() else { throw XCTSkip("Debian's ICU is not installed") }
        for label in Self.lookalikeForms {
            XCTAssertNotNil(LabelScreen.finding(in: label, accounts: try vault(), checker: checker), label)
        }
    }

    func testOrdinaryLabelsStayAllowed() throws {
        let accounts = try vault(), checker = try? ICUSpoofChecker.load()
        for label in Self.allowed {
            XCTAssertNil(LabelScreen.finding(in: label, accounts: accounts), label)
            XCTAssertNil(LabelScreen.finding(in: label, accounts: accounts, checker: checker), label)
            XCTAssertNil(LabelScreen.finding(in: label, adding: try vault().map { try AccountParser.parse($0.normalized) }, checker: checker), label)
        }
        // A first name equal to the part before '@' is kept, with its warning.
        let bob = try AccountParser.parse("bob.smith@example.net")
        let label = try XCTUnwrap(try AccountLabel.screened("Bob.Smith", adding: [bob], checker: checker))
        XCTAssertEqual(label.caution(adding: [bob]), .localPartOfAccountAdded)
    }

    /// A label of an old vault that spells its account in one of these forms is masked whole, in every mode.
    func testAStoredLabelThatSpellsItsAccountIsMasked() throws {
        let accounts = try vault()
        for (account, forms) in [(accounts[2], Self.phoneForms), (accounts[1], Self.usernameForms), (accounts[0], Self.emailForms)] {
            for label in forms {
                var old = account
                old.label = label
                for policy in [DisplayPolicy(terminal: false), DisplayPolicy(terminal: true), DisplayPolicy(terminal: true, shareMode: true)] {
                    // Masked whole, or its number masked as a number is: what is shown spells nothing.
                    let shown = Disclosure(policy: policy).label(old)
                    XCTAssertNotEqual(shown, label)
                    XCTAssertNil(LabelScreen.finding(in: shown ?? "", accounts: accounts), label + " shown as " + (shown ?? "nil"))
                }
            }
        }
        var named = accounts[1]
        named.label = "Zorglub"
        XCTAssertEqual(Disclosure(policy: DisplayPolicy(terminal: false)).label(named), "Zorglub")
    }

    func testTheReadingOfEachDisguise() {
        func read(_ s: String) -> String { LabelSpelling(s).string }
        XCTAssertEqual(read("⁷₇⑦➐❼٧७๗７𝟕"), "7777777777")
        XCTAssertEqual(read("⑫ Ⅻ ½"), "1212")
        XCTAssertEqual(read("ᴢᴏʀɢ ⓩⓞ ⒵⒪ 𝐳𝐨 ｚｏ Zó ø ı ﬁ ℓ"), "zorgzozozozozooifil")
        XCTAssertEqual(read("妈妈的手机"), "妈妈的手机")
        XCTAssertEqual(LabelSpelling.digitRuns(LabelSpelling("77OO 9OO l23 x o1 2o").letters), [[7, 7, 0, 0, 9, 0, 0, 1, 2, 3], [1, 2]])
    }
}
