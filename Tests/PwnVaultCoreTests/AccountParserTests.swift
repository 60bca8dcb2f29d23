import XCTest
@testable import PwnVaultCore

final class AccountParserTests: XCTestCase {
    private func parsed(_ raw: String, file: StaticString = #filePath, line: UInt = #line) -> ParsedAccount? {
        do { return try AccountParser.parse(raw) } catch {
            XCTFail("\(raw.debugDescription) was refused: \(error)", file: file, line: line)
            return nil
        }
    }

    private func refusal(_ raw: String, file: StaticString = #filePath, line: UInt = #line) -> AccountParseError? {
        do {
            let p = try AccountParser.parse(raw)
            XCTFail("\(raw.debugDescription) was accepted as \(p.kind)", file: file, line: line)
        } catch let e as AccountParseError {
            return e
        } catch {
            XCTFail("unexpected error \(error)", file: file, line: line)
        }
        return nil
    }

    // MARK: e-mail

    func testEmailKeepsLocalPartAndLowerCasesDomain() {
        let p = parsed("  Alice.Smith+News@Example.COM \n")
        XCTAssertEqual(p?.kind, .email)
        XCTAssertEqual(p?.entered, "Alice.Smith+News@Example.COM")
        XCTAssertEqual(p?.normalized, "Alice.Smith+News@example.com")
        XCTAssertEqual(p?.dedupKey.value, "alice.smith+news@example.com")
    }

    func testEmailWithUnicodeDomainAndLocalPart() {
        XCTAssertEqual(parsed("jörg@MÜNCHEN.de")?.normalized, "jörg@münchen.de")
        XCTAssertEqual(parsed("用户@例子.广告")?.kind, .email)
        XCTAssertEqual(parsed("a@xn--mnchen-3ya.de")?.normalized, "a@xn--mnchen-3ya.de")
    }

    func testCanonicallyEquivalentSpellingsAreOneAccount() {
        let composed = parsed("jos\u{E9}@example.com"), decomposed = parsed("jose\u{301}@example.com")
        XCTAssertEqual(composed?.dedupKey, decomposed?.dedupKey)
        XCTAssertEqual(composed?.normalized.unicodeScalars.count, decomposed?.normalized.unicodeScalars.count)
    }

    func testEmailLengthLimits() {
        let local64 = String(repeating: "a", count: 64)
        XCTAssertEqual(parsed(local64 + "@example.com")?.kind, .email)
        XCTAssertEqual(refusal(local64 + "a@example.com"), .localPartTooLong)
        // 64 + 1 + 189 = 254 bytes is the most an address may have.
        let label63 = String(repeating: "b", count: 63)
        let domain189 = [label63, label63, String(repeating: "c", count: 57), "com"].joined(separator: ".")
        XCTAssertEqual(domain189.utf8.count, 189)
        XCTAssertEqual(parsed(local64 + "@" + domain189)?.normalized.utf8.count, 254)
        XCTAssertEqual(refusal(local64 + "@d." + domain189), .emailTooLong)
        XCTAssertEqual(refusal("a@" + String(repeating: "b", count: 64) + ".com"), .domainLabelTooLong)
    }

    func testEmailRefusals() {
        XCTAssertEqual(refusal("a@b@example.com"), .tooManyAtSigns)
        XCTAssertEqual(refusal("@example.com"), .emptyLocalPart)
        XCTAssertEqual(refusal("alice@"), .emptyDomain)
        XCTAssertEqual(refusal("alice@localhost"), .domainWithoutDot)
        XCTAssertEqual(refusal("alice@example..com"), .emptyDomainLabel)
        XCTAssertEqual(refusal("alice@example.com."), .emptyDomainLabel)
        XCTAssertEqual(refusal("alice@.example.com"), .emptyDomainLabel)
        XCTAssertEqual(refusal("alice@-example.com"), .domainLabelHyphen)
        XCTAssertEqual(refusal("alice@example-.com"), .domainLabelHyphen)
        XCTAssertEqual(refusal("alice@exa_mple.com"), .invalidDomainCharacter)
        XCTAssertEqual(refusal("alice@[192.168.0.1]"), .invalidDomainCharacter)
        XCTAssertEqual(refusal("alice@😀.com"), .invalidDomainCharacter)
        XCTAssertEqual(refusal("alice@192.168.0.1"), .numericTopLevelDomain)
        XCTAssertEqual(refusal("\"al ice\"@example.com"), .whitespaceInside)
        XCTAssertEqual(refusal("\"alice\"@example.com"), .invalidLocalPartCharacter)
        XCTAssertEqual(refusal("al(ice)@example.com"), .invalidLocalPartCharacter)
        XCTAssertEqual(refusal("alice smith@example.com"), .whitespaceInside)
        XCTAssertEqual(refusal("alice\u{A0}smith@example.com"), .whitespaceInside)
    }

    // MARK: phone

    func testPhoneNumbersInTheirUsualForms() {
        XCTAssertEqual(parsed("+44 20 7946 0958")?.normalized, "+442079460958")
        XCTAssertEqual(parsed("+1 (201) 555-0123")?.normalized, "+12015550123")
        XCTAssertEqual(parsed("+49 (0)30 1234567")?.normalized, "+49301234567")
        XCTAssertEqual(parsed("+33 6 12 34 56 78")?.dedupKey.value, "+33612345678")
        XCTAssertEqual(parsed("+86 138 0013 8000")?.kind, .phone)
    }

    func testPhoneDigitCountsAndShapes() {
        XCTAssertEqual(refusal("+44 123"), .phoneDigitCount(5))
        XCTAssertEqual(refusal("+1234567890123456"), .phoneDigitCount(16))
        XCTAssertEqual(refusal("(12) 34"), .phoneDigitCount(4))
        XCTAssertEqual(refusal("44+2079460958"), .phoneMisplacedPlus)
        XCTAssertEqual(refusal("++442079460958"), .phoneMisplacedPlus)
        XCTAssertEqual(refusal("+1 (555 123-4567"), .phoneParentheses)
        XCTAssertEqual(refusal("+1 ((555)) 123-4567"), .phoneParentheses)
        XCTAssertEqual(refusal("+1 )555( 123-4567"), .phoneParentheses)
        XCTAssertEqual(refusal("+44 20 7946 095812"), .phoneTooLong)
        XCTAssertEqual(refusal("+1 555 1234"), .phoneTooShort)
    }

    func testShortNumbersAreRefusedAndOtherDigitsStayUsernames() {
        XCTAssertEqual(refusal("123"), .shortNumber)
        XCTAssertEqual(refusal("123456"), .shortNumber)
        XCTAssertEqual(refusal("1"), .shortNumber)
        XCTAssertEqual(parsed("1234567890123456")?.kind, .username)
        XCTAssertEqual(parsed("2024-01")?.kind, .username)
        XCTAssertEqual(parsed("a123")?.kind, .username)
        // 7 to 15 digits are a phone number, which needs a region when written without +.
        XCTAssertEqual(refusal("555-123-4567"), .phoneWithoutRegion)
        XCTAssertEqual(refusal("(555) 123-4567"), .phoneWithoutRegion)
    }

    func testPhoneRefusalsNameNoDigitOfTheNumber() {
        for e in [AccountParseError.phoneWithoutRegion, .phoneTooShort, .phoneTooLong, .phoneInvalidLength, .phoneUnreadable, .shortNumber] {
            XCTAssertFalse(e.message.contains(where: \.isNumber), e.message)
        }
        XCTAssertTrue(AccountParseError.phoneWithoutRegion.hint!.contains("--region"))
    }

    // MARK: username

    func testUsernames() {
        let p = parsed("Dark_Knight-1.9")
        XCTAssertEqual(p?.kind, .username)
        XCTAssertEqual(p?.normalized, "Dark_Knight-1.9")
        XCTAssertEqual(p?.dedupKey.value, "dark_knight-1.9")
        XCTAssertEqual(parsed("x")?.kind, .username)
        XCTAssertEqual(parsed("Zoë")?.kind, .username)
        XCTAssertEqual(parsed("Zoe\u{308}")?.normalized, "Zo\u{EB}")
        XCTAssertEqual(parsed("пользователь")?.kind, .username)
        XCTAssertEqual(parsed(String(repeating: "é", count: 64))?.kind, .username)
        XCTAssertEqual(refusal(String(repeating: "u", count: 65)), .usernameTooLong)
        XCTAssertEqual(refusal("dark knight"), .whitespaceInside)
        XCTAssertEqual(refusal("dark!knight"), .invalidUsernameCharacter)
        XCTAssertEqual(refusal("dark😀"), .invalidUsernameCharacter)
        XCTAssertEqual(refusal("a/b"), .invalidUsernameCharacter)
    }

    // MARK: what every refusal must and must not say

    /// HIBP takes the account as a path segment, where "." and ".." are steps, not names.
    func testUsernamesOfDotsOnlyAreRefusedBecauseHIBPCannotLookThemUp() {
        for dots in [".", "..", "...", " .. ", "\u{3000}.\n"] {
            XCTAssertEqual(refusal(dots), .usernameDotsOnly, dots.debugDescription)
        }
        XCTAssertEqual(parsed(".a.")?.kind, .username)
        XCTAssertEqual(parsed("_")?.kind, .username)
        XCTAssertEqual(parsed("1.2")?.kind, .username)
        let e = AccountParseError.usernameDotsOnly
        XCTAssertFalse(e.message.contains(".."), "the message describes, it does not quote")
        XCTAssertEqual(e.exitStatus, .usage)
        XCTAssertNotEqual(e.hint, AccountParseError.empty.hint, "a hint of its own: the general one would allow '.'")
    }

    func testEmptyAndControlCharacters() {
        XCTAssertEqual(refusal(""), .empty)
        XCTAssertEqual(refusal(" \t\n "), .empty)
        XCTAssertEqual(refusal("alice\u{1B}[2J@example.com"), .controlCharacter)
        XCTAssertEqual(refusal("bob\u{0}"), .controlCharacter)
        XCTAssertEqual(refusal("bob\u{7F}by"), .controlCharacter)
        XCTAssertEqual(refusal("bob\u{9B}31m"), .controlCharacter)
        XCTAssertEqual(refusal("moc.elpmaxe@\u{202E}ecila"), .controlCharacter)
        XCTAssertEqual(refusal("ali\u{200B}ce"), .controlCharacter)
        XCTAssertEqual(refusal("line\nbreak@example.com"), .controlCharacter)
    }

    func testRefusalsNeverRepeatTheInputAndExplainTheAcceptedForms() {
        // (Inputs share no four characters with the hint's own examples.)
        let nasty = ["secretword!", "hunter2@@mybank.org", "topsecret@", "+99 secret", "seekrit value",
                     "s3cr3t\u{1B}]0;x\u{7}", String(repeating: "verysecret", count: 10), "@sekrit.org",
                     "mysecret@localhost", "(555 1234567"]
        for raw in nasty {
            guard let error = refusal(raw) else { continue }
            XCTAssertEqual(error.exitStatus, .usage)
            XCTAssertEqual(error.message, error.message.lowercased(), "message must be lower case")
            XCTAssertFalse(error.message.contains("\n"))
            let said = error.message + " " + (error.hint ?? "")
            // No run of four characters of the input may appear in what is said.
            let chars = Array(raw)
            for start in 0..<max(0, chars.count - 3) {
                let run = String(chars[start..<start + 4])
                XCTAssertFalse(said.contains(run), "\(error) repeats \(run.debugDescription) of the input")
            }
            XCTAssertTrue(error.hint?.contains("e-mail") == true && error.hint?.contains("phone") == true
                          && error.hint?.contains("username") == true)
        }
    }
}
