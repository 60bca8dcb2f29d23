import TestSupport
import XCTest
@testable import PwnVaultCore

final class MaskingTests: XCTestCase {
    private func email(_ s: String) -> String { Masking.mask(s, kind: .email) }
    private func username(_ s: String) -> String { Masking.mask(s, kind: .username) }
    private func phone(_ s: String) -> String { Masking.mask(s, kind: .phone) }

    func testEmailFromTheIssue() {
        XCTAssertEqual(email("alice@example.com"), "a•••e@e•••.com")
    }

    /// Found by fuzzing (Fuzz/corpus/account-mask/regression-bullet-first): an account that starts or
    /// ends with a bullet showed it next to the run, and `••••` tells how long the hidden part is not.
    func testABulletIsNeverShownNextToTheRun() {
        XCTAssertEqual(email("•alice•@example.com"), "•••@e•••.com")
        XCTAssertEqual(username("•bob_the_builder•"), "•••")
        XCTAssertEqual(email("x@•example.com"), "•••@•••.com")
    }

    /// Found by the account-mask fuzzer (Fuzz/corpus/account-mask/regression-bullet-with-joiner): a
    /// bullet followed by a zero-width joiner or a combining mark is one `Character` that is not "•",
    /// yet it draws as a bullet, so the run looked four long.
    func testABulletInsideALongerCharacterIsNeverShownNextToTheRun() {
        XCTAssertEqual(email("alic•\u{200D}@example.com"), "a•••@e•••.com")
        XCTAssertEqual(username("•\u{0301}bob_the_builder•\u{20DD}"), "•••")
    }

    func testShortLocalPartsRevealLess() {
        XCTAssertEqual(email("a@example.com"), "•••@e•••.com")
        XCTAssertEqual(email("al@example.com"), "a•••@e•••.com")
        XCTAssertEqual(email("ali@example.com"), "a•••@e•••.com")
        XCTAssertEqual(email("alic@example.com"), "a•••c@e•••.com")
        XCTAssertEqual(email(String(repeating: "a", count: 63) + "z@example.com"), "a•••z@e•••.com")
    }

    func testPlusTagIsNeverShown() {
        XCTAssertEqual(email("alice+news@example.com"), "a•••e@e•••.com")
        XCTAssertEqual(email("al+newsletter@example.com"), "a•••@e•••.com")
        XCTAssertEqual(email("a+verylongtag@example.com"), "•••@e•••.com")
        XCTAssertEqual(email("+tag@example.com"), "•••@e•••.com")
        XCTAssertEqual(email("alice+a+b@example.com"), "a•••e@e•••.com")
    }

    func testSubDomainsAreHiddenAndPublicSuffixesShown() {
        XCTAssertEqual(email("bob@mail.example.co.uk"), "b•••@e•••.co.uk")
        XCTAssertEqual(email("bob@example.co.uk"), "b•••@e•••.co.uk")
        XCTAssertEqual(email("bob@a.b.c.example.com"), "b•••@e•••.com")
        XCTAssertEqual(email("carol@mx.uni.ac.jp"), "c•••l@u•••.ac.jp")
        XCTAssertEqual(email("dave@shop.example.com.au"), "d•••e@e•••.com.au")
        XCTAssertEqual(email("erin@sub.example.de"), "e•••n@e•••.de")
        // A multi-label suffix with no name in front of it: the last label is the suffix.
        XCTAssertEqual(email("bob@co.uk"), "b•••@c•••.uk")
        // A one-character name is not shown (it would be all of it).
        XCTAssertEqual(email("bob@x.com"), "b•••@•••.com")
    }

    func testUnicodeIsMaskedByWholeCharacters() {
        XCTAssertEqual(email("jörg@münchen.de"), "j•••g@m•••.de")
        XCTAssertEqual(email("用户名字@例子.广告"), "用•••字@例•••.广告")
        // A decomposed é is one character: shown whole, never split from its accent.
        XCTAssertEqual(email("e\u{301}clair@example.com"), "e\u{301}•••r@e•••.com")
        XCTAssertEqual(email("ab\u{301}@example.com"), "a•••@e•••.com")
        XCTAssertEqual(username("e\u{301}e\u{301}e\u{301}"), "•••")
        // Emoji built from several scalars (ZWJ family, flag) stay whole.
        XCTAssertEqual(email("👨‍👩‍👧abc🇫🇷@example.com"), "👨‍👩‍👧•••🇫🇷@e•••.com")
        XCTAssertEqual(username("🇫🇷🇩🇪🇮🇹🇪🇸🇵🇹🇬🇧🇮🇪🇳🇱"), "🇫🇷•••🇳🇱")
    }

    func testUsernamesOfEveryLength() {
        let expected = ["", "•••", "•••", "•••", "u•••", "u•••", "u•••", "u•••"]
        for n in 1...64 {
            let name = "u" + String(repeating: "x", count: max(0, n - 2)) + (n >= 2 ? "z" : "")
            XCTAssertEqual(name.count, n)
            let want = n < expected.count ? expected[n] : "u•••z"
            XCTAssertEqual(username(name), want, "length \(n)")
        }
    }

    func testPhoneNumbersShowTheLastTwoDigits() {
        XCTAssertEqual(phone("+15551234567"), "•••67")
        XCTAssertEqual(phone("1234567"), "•••67")
        XCTAssertEqual(phone("+442079460958"), "•••58")
        XCTAssertEqual(phone("123456"), "•••")
        XCTAssertEqual(phone("+1 (555) 123-4589"), "•••89")
    }

    func testNothingShownCanActOnTheTerminal() {
        XCTAssertEqual(username("\u{1B}bcdefgh"), "•••h")
        XCTAssertEqual(username("abcdefg\u{202E}"), "a•••")
        XCTAssertEqual(email("\u{9B}lice@example.com"), "•••e@e•••.com")
        XCTAssertEqual(email("alice@example.c\u{1B}[2Jm"), "a•••e@e•••.cm")
    }

    // MARK: properties

    private static let alphabet: [Character] = Array("abcdefghijklmnopqrstuvwxyz0123456789._-éßø漢字😀") + ["e\u{301}", "👍🏽"]
    private static let suffixes = ["com", "org", "de", "co.uk", "com.au", "ac.jp", "广告"]

    private func randomText<G: RandomNumberGenerator>(_ length: Int, _ g: inout G) -> String {
        String((0..<length).map { _ in Self.alphabet.randomElement(using: &g)! })
    }

    func testMasksShowOnlyTheAllowedCharactersWhateverTheLength() {
        var g = SplitMix64(seed: 0x5EED_1234)
        for _ in 0..<2000 {
            let first = Self.alphabet.randomElement(using: &g)!, last = Self.alphabet.randomElement(using: &g)!
            let name = randomText(Int.random(in: 2...20, using: &g), &g)
            let suffix = Self.suffixes.randomElement(using: &g)!
            let subs = (0..<Int.random(in: 0...3, using: &g)).map { _ in "s" + randomText(Int.random(in: 1...8, using: &g), &g).filter { $0 != "." } + "." }
            let domain = subs.joined() + name.filter { $0 != "." } + "x." + suffix
            let tag = Bool.random(using: &g) ? "+" + String(repeating: "TAG", count: Int.random(in: 1...5, using: &g)) : ""

            // Two local parts with the same first and last characters and different hidden lengths mask the same.
            let short = String(first) + randomText(Int.random(in: 2...5, using: &g), &g) + String(last)
            let long = String(first) + randomText(Int.random(in: 6...60, using: &g), &g) + String(last)
            let a = email(short + tag + "@" + domain), b = email(long + tag + "@" + domain)
            XCTAssertEqual(a, b)
            let registrable = domain.split(separator: ".").dropLast(suffix.split(separator: ".").count).last!
            XCTAssertEqual(a, "\(first)•••\(last)@\(registrable.first!)•••.\(suffix)")
            XCTAssertFalse(a.contains("T"), "the plus tag leaked")
            XCTAssertEqual(a.filter { $0 == "•" }.count, 6)

            let user = randomText(Int.random(in: 1...64, using: &g), &g)
            let m = username(user)
            XCTAssertEqual(m.filter { $0 == "•" }.count, 3)
            let shownCount = m.count - 3
            XCTAssertEqual(shownCount, user.count <= 3 ? 0 : user.count <= 7 ? 1 : 2)
            XCTAssertTrue(shownCount == 0 || m.first == user.first)
            XCTAssertTrue(shownCount < 2 || m.last == user.last)

            let digits = String((0..<Int.random(in: 7...15, using: &g)).map { _ in "0123456789".randomElement(using: &g)! })
            XCTAssertEqual(phone("+" + digits), "•••" + digits.suffix(2))
        }
    }
}

/// The suffix comes from the real Public Suffix List (libpsl), not from an excerpt.
final class PublicSuffixListMaskingTests: XCTestCase {
    func testSuffixesTheExcerptNeverHad() {
        XCTAssertEqual(Masking.mask("joe@foo.github.io", kind: .email), "j•••@f•••.github.io", "the list's private section")
        XCTAssertEqual(Masking.mask("tom@mail.example.sch.uk", kind: .email), "t•••@m•••.example.sch.uk", "a wildcard rule: *.sch.uk")
        XCTAssertEqual(Masking.mask("bob@mail.example.co.uk", kind: .email), "b•••@e•••.co.uk")
        XCTAssertEqual(Masking.mask("ann@example.invalidtld", kind: .email), "a•••@e•••.invalidtld", "unknown: the last label")
    }
}
