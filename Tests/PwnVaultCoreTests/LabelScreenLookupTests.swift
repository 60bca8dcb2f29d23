import XCTest
@testable import PwnVaultCore

/// The label screen's fast paths give the slow paths' answers (issue 30, the import of 10,000 named
/// contacts): a contact's few addresses tried one by one (`.direct`) as the vault's index finds them
/// (`.indexed`), ASCII read byte by byte as by `Character`, and a label's reading kept for the run
/// (`LabelReadings`) as one made afresh, at the plan and at the gate. Each over labels in every script
/// the screen reads (ASCII, accented, Cyrillic, Greek, CJK, digits of other scripts, confusables,
/// separators) and account sets that they carry, in part, or not at all.
final class LabelScreenLookupTests: XCTestCase {
    static let labels = [
        // Names, as an address book has them.
        "Alice Smith", "Bob", "Carol & Sons", "Dr. Smith at St. Mary's", "Marie Lefèvre", "José García", "Jose\u{301} Garci\u{301}a",
        "Łukasz Nowak", "Søren Müller", "Иван Иванов", "Мария", "Άννα Παπαδόπουλος", "李明", "王伟", "Nguyễn Yamada", "O'Brien",
        "van der Berg", "Mum's e-mail", "Alice (work)", "Team @ home", "Lunch at 12.30", "Born 1970-01-01", "Room 123456",
        // The accounts below, spelled.
        "zorglubvictim", "zorglub victim", "zorglub-victim", "zorg.lub.victim", "ZORGLUB_VICTIM", "mitcivbulgroz",
        "z\u{301}o\u{301}rglubvictim", "ᴢᴏʀɢʟᴜʙᴠɪᴄᴛɪᴍ", "ⓩⓞⓡⓖⓛⓤⓑⓥⓘⓒⓣⓘⓜ", "zоrglubvictim", "zorg\u{FFF9}lubvictim",
        "alice.smith victim-domain", "alice.smith ⓐ victim-domain·example", "alice.smith arroba victim-domain punto example",
        "alice.smith@", "victim-domain.example", "alice.smith@victim-domain", "Alice.Smith", "аlice.smith vіctim-domain",
        "Dad 900123", "Dad 900–123", "Dad 900½123", "77OO 9OO 123", "⁴⁴⁷⁷⁰⁰⁹⁰⁰¹²³", "٧٧٠٠٩٠٠١٢٣", "７７００ ９００ １２３",
        "ref 90012", "ref 447700900123", "3210097744", "Wei 6543210", "rnike", "mike", "bob at example dot com",
        "carol＠example.com", "a l i c e", "alice [at] victim-domain [dot] example", "mailto:bob%40example.net",
        "Bob's 2nd", "bob@@", "0123456789", "li 1234567", "Ⅻ Ⅳ", "𝐚𝐥𝐢𝐜𝐞.𝐬𝐦𝐢𝐭𝐡 victim-domain", "", " ", "·|–",
    ]

    static let accountTexts = [
        "alice.smith@victim-domain.example", "zorglubvictim", "+44 7700 900123", "bob@example.net", "mike",
        "rnike@example.org", "+1 202 555 0100", "иван@пример.example", "carol@example.com", "bob",
        // Two accounts held at one place of a label: which one is named depends on the order kept.
        "zorglub@victim.example", "+33 6 90 01 23 45",
    ]

    private func accounts() throws -> [Account] {
        try Self.accountTexts.enumerated().map { i, raw in
            Account(id: i + 1, parsed: try AccountParser.parse(raw), label: nil, addedAt: Date(timeIntervalSince1970: 0))
        }
    }

    /// Account sets of one to `CarriedAccounts.directLimit` accounts, vault and added, in varied orders.
    private func accountSets() throws -> [(accounts: [Account], adding: [ParsedAccount])] {
        let all = try accounts()
        var sets: [(accounts: [Account], adding: [ParsedAccount])] = all.map { ([], [try! AccountParser.parse($0.entered)]) }
        sets += all.map { ([$0], []) }
        // Every pair, both ways, in the vault and one of them being added.
        for a in all {
            for b in all where a.id != b.id {
                sets.append(([a, b], []))
                sets.append(([a], [try AccountParser.parse(b.entered)]))
            }
        }
        var rng = SplitMix(seed: 30)
        for _ in 0..<24 {
            let n = Int(rng.next() % UInt64(CarriedAccounts.directLimit)) + 1
            let picked = (0..<n).map { _ in all[Int(rng.next() % UInt64(all.count))] }
            let split = Int(rng.next() % UInt64(n + 1))
            sets.append((Array(picked[..<split]), try picked[split...].map { try AccountParser.parse($0.entered) }))
        }
        return sets
    }

    /// The accounts tried one by one answer as the index does: the same finding (the same first
    /// account, whole or in part) for every label and set, with and without ICU's skeletons.
    func testTheDirectLookupAnswersAsTheIndex() throws {
        let checkers: [ICUSpoofChecker?] = [nil] + ((try? ICUSpoofChecker.load()).map { [$0] } ?? [])
        var found = 0, compared = 0
        for checker in checkers {
            for set in try accountSets() {
                let direct = SpelledAccounts(accounts: set.accounts, adding: set.adding, checker: checker, lookup: .direct)
                let indexed = SpelledAccounts(accounts: set.accounts, adding: set.adding, checker: checker, lookup: .indexed)
                XCTAssertEqual(direct.lookup, .direct)
                XCTAssertEqual(indexed.carried.lookup, .indexed)
                for label in Self.labels {
                    let expected = LabelScreen.finding(in: label, spelled: indexed, checker: checker)
                    XCTAssertEqual(LabelScreen.finding(in: label, spelled: direct, checker: checker), expected,
                                   "\(label) with \(set.accounts.map(\.id)) + \(set.adding.count) added, ICU: \(checker != nil)")
                    compared += 1
                    if expected != nil { found += 1 }
                }
            }
        }
        // Both answers occur often: a comparison of nil with nil alone would prove nothing.
        XCTAssertGreaterThan(found, compared / 10)
        XCTAssertGreaterThan(compared - found, compared / 10)
    }

    /// The per-account rules on the folded forms alone (`CarriedAccounts`), skeletons included: the
    /// two lookups name the same account, whole or in part.
    func testCarriedAccountsAnswerAlike() throws {
        let checker = try? ICUSpoofChecker.load()
        for set in try accountSets() {
            let direct = CarriedAccounts(accounts: set.accounts, adding: set.adding, checker: checker, lookup: .direct)
            let indexed = CarriedAccounts(accounts: set.accounts, adding: set.adding, checker: checker, lookup: .indexed)
            for label in Self.labels {
                let folded = FoldedLabel(label)
                let skeletons = checker.map { c in folded.forms.compactMap { c.skeleton($0)?.lowercased() }.filter { !folded.forms.contains($0) } } ?? []
                let runs = folded.forms.flatMap(LabelScreen.digitRuns)
                let a = direct.carried(forms: folded.forms, skeletons: skeletons, digitRuns: runs)
                let b = indexed.carried(forms: folded.forms, skeletons: skeletons, digitRuns: runs)
                XCTAssertEqual(a?.owner, b?.owner, label)
                XCTAssertEqual(a?.part, b?.part, label)
            }
        }
    }

    /// ASCII read byte by byte reads as the `Character` reading does, byte for byte.
    func testTheASCIIReadingIsTheCharacterReading() {
        var texts = Self.labels.map(FoldedLabel.fold).filter { $0.utf8.allSatisfy { $0 < 0x80 } }
        // Every separator and obfuscation the reading knows, mixed at random.
        let pieces = ["alice", "at", "dot", "arroba", "punto", "chez", "point", "@", ".", " ", "  ", "\t", "\r\n", "(", ")", "[", "]",
                      "{", "}", "<", ">", "\"", "'", "`", "_", "*", "a", "b", "x", "example", "com", "12", "-", "at.", ".at", "@@"]
        var rng = SplitMix(seed: 7)
        for _ in 0..<2_000 {
            texts.append((0..<Int(rng.next() % 9)).map { _ in pieces[Int(rng.next() % UInt64(pieces.count))] }.joined())
        }
        XCTAssertGreaterThan(texts.count, 2_000)
        for text in texts {
            XCTAssertEqual(Array(FoldedLabel.asciiReadable(text).utf8), Array(FoldedLabel.unicodeReadable(text).utf8), text)
        }
        XCTAssertEqual(FoldedLabel.readable("alice [at] example (dot) com"), "alice@example.com")
    }

    /// An account's last `@` and its domain's last dot, found on the bytes of ASCII text, are where
    /// the `Character` search finds them, and split the text alike.
    func testTheLastASCIICharacterIsFoundAsByCharacter() {
        let texts = Self.accountTexts + Self.labels + ["a@b@c.d", "@", "x@", "@x", "a.b.c", "é@x.example", "e\u{301}@x.example",
                                                       "a@\u{301}b", "CR\r\n@x", "\u{37E}@x"]
        for text in texts {
            for c: Character in ["@", "."] {
                let fast = text.lastIndex(ofASCII: c), slow = text.lastIndex(of: c)
                XCTAssertEqual(fast.map { text.utf8.distance(from: text.startIndex, to: $0) },
                               slow.map { text.utf8.distance(from: text.startIndex, to: $0) }, text)
                if let fast, let slow {
                    XCTAssertEqual(Array(text[..<fast].unicodeScalars), Array(text[..<slow].unicodeScalars), text)
                    XCTAssertEqual(Array(text[text.index(after: fast)...].unicodeScalars),
                                   Array(text[text.index(after: slow)...].unicodeScalars), text)
                }
            }
        }
    }

    /// A label's reading kept for the run answers as one made afresh, for the plan and at the gate, in
    /// every output mode; the gate still decides with the account it is given.
    func testAKeptReadingAnswersAsAFreshOne() throws {
        let checker = try? ICUSpoofChecker.load()
        let readings = LabelReadings()
        for set in try accountSets() {
            for label in Self.labels {
                let fresh = LabelScreen.finding(in: label, accounts: set.accounts, adding: set.adding, checker: checker)
                for _ in 0..<2 {
                    XCTAssertEqual(LabelScreen.finding(in: label, accounts: set.accounts, adding: set.adding, checker: checker,
                                                       readings: readings), fresh, label)
                }
            }
        }
        let policies = [DisplayPolicy(terminal: true), DisplayPolicy(terminal: true, shareMode: true), DisplayPolicy(terminal: false)]
        for account in try accounts() {
            for label in Self.labels {
                let labelled = Account(id: account.id, entered: account.entered, normalized: account.normalized, kind: account.kind,
                                       label: label, addedAt: account.addedAt)
                for policy in policies {
                    let gate = Disclosure(policy: policy)
                    XCTAssertEqual(gate.label(labelled, readings: readings), gate.label(labelled), "\(label) for #\(account.id)")
                }
            }
        }
        // Kept by their exact text: `José` written with a combining accent is read on its own.
        let composed = readings.reading(of: "José"), decomposed = readings.reading(of: "Jose\u{301}")
        XCTAssertNotEqual(Array(composed.folded.folded.utf8), Array(decomposed.folded.folded.utf8))
        // Readings hold labels: they print as nothing.
        for (way, text) in GateReflectionTests.renderings(of: readings) {
            XCTAssertFalse(text.contains("zorglub") || text.lowercased().contains("alice"), way)
        }
    }
}

/// A small deterministic generator (SplitMix64), so each run tries the same sets.
private struct SplitMix {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1330_11EB
        return z ^ (z >> 31)
    }
}
