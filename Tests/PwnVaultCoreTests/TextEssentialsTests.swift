import Foundation
import XCTest
@testable import PwnVaultCore

/// The string helpers that replaced Foundation's, checked against Foundation itself (tests may import it).
final class TextEssentialsTests: XCTestCase {
    private static let allScalars: [Unicode.Scalar] = (0...0x10FFFF).compactMap(Unicode.Scalar.init)

    func testWhitespaceSetsMatchFoundationForEveryScalar() {
        var differing: [String] = []
        for s in Self.allScalars {
            if s.isFoundationWhitespace != CharacterSet.whitespaces.contains(s) { differing.append("whitespaces U+\(String(s.value, radix: 16))") }
            if s.isFoundationWhitespaceOrNewline != CharacterSet.whitespacesAndNewlines.contains(s) {
                differing.append("whitespacesAndNewlines U+\(String(s.value, radix: 16))")
            }
        }
        XCTAssertEqual(differing, [])
    }

    func testAlphanumericsMatchFoundationForScalarsBothKnow() {
        // The standard library's tables are of a newer Unicode than Foundation's: letters assigned since
        // Unicode 15.1 are letters only to the former, and Foundation's supplementary-plane tables lack some
        // ideograph blocks (Tangut): compared in the Basic Multilingual Plane (the doctor only asks this of
        // a path's characters, to decide whether to quote it).
        let differing = Self.allScalars.prefix(while: { $0.value < 0x10000 }).filter {
            guard let age = $0.properties.age, age.major < 15 || (age.major == 15 && age.minor <= 1) else { return false }
            return $0.isFoundationAlphanumeric != CharacterSet.alphanumerics.contains($0)
        }
        XCTAssertEqual(differing.prefix(20).map { String($0.value, radix: 16) }, [])
    }

    func testTrimmingMatchesFoundation() {
        let samples = ["\u{00A0}a b\u{00A0}", "\u{2028}x\u{2029}", "\u{3000}全角\u{3000}", "\t\n x \r\n", "\u{0085}y\u{0085}",
                       "\u{000B}\u{000C}z", " \u{0301}e ", "", "   ", "\u{200B}zero width\u{200B}", "\u{FEFF}bom",
                       "a\u{1680}", "\u{180E}mongolian", "e\u{0301}\u{00A0}"]
        for s in samples {
            XCTAssertEqual(s.trimmingWhitespace(), s.trimmingCharacters(in: .whitespaces), s.debugDescription)
            XCTAssertEqual(s.trimmingWhitespaceAndNewlines(), s.trimmingCharacters(in: .whitespacesAndNewlines), s.debugDescription)
            XCTAssertEqual(Substring(s).trimmingWhitespace(), s.trimmingCharacters(in: .whitespaces), s.debugDescription)
        }
        XCTAssertEqual("\u{00A0}\u{2028}\u{3000}mail\u{3000}".trimmingWhitespace(), "\u{2028}\u{3000}mail")
        XCTAssertEqual("\u{00A0}\u{2028}\u{3000}mail\u{3000}".trimmingWhitespaceAndNewlines(), "mail")
    }

    func testTrailingRegexWhitespaceMatchesICU() {
        for s in ["a \t", "a\u{00A0}", "a\u{2028}", "a\u{000B}", "a\u{0085}", "a\u{3000} ", "  ", "a\u{000C}\r", "b", "a\u{200B}",
                  "a\u{180E}", "a\u{202F}\u{205F}", "a\u{FEFF}"] {
            XCTAssertEqual(s.trimmingTrailingScalars(where: \.isRegexWhitespace),
                           s.replacingOccurrences(of: "\\s+$", with: "", options: .regularExpression), s.debugDescription)
        }
    }

    func testLiteralReplacingMatchesFoundation() {
        let cases: [(String, String, String)] = [("it's Bob's", "'", #"'\''"#), ("a'\u{0301}b", "'", "\\'"), ("aaa", "aa", "b"),
                                                 ("x\u{00A0}y\u{00A0}", "\u{00A0}", " "), ("nul\0here", "\0", "\u{FFFD}"),
                                                 ("pwnvault: pwnvault: x", "pwnvault: ", ""), ("", "a", "b"), ("abc", "abcd", "x"),
                                                 ("e\u{0301}", "e", "E")]
        for (text, target, replacement) in cases {
            XCTAssertEqual(text.replacingLiterally(target, with: replacement),
                           text.replacingOccurrences(of: target, with: replacement, options: .literal), text.debugDescription)
        }
    }

    func testNumberFormattingMatchesStringFormat() {
        for n in [0, 5, 42, 999, 1234, 123456, -3] {
            XCTAssertEqual(n.padded(width: 2), String(format: "%02d", n))
            XCTAssertEqual(n.padded(width: 4), String(format: "%04d", n))
            XCTAssertEqual(n.padded(width: 3, zeroPadded: false), String(format: "%3d", n))
        }
        for b in [UInt8(0), 9, 10, 255] { XCTAssertEqual(b.padded(width: 2, radix: 16), String(format: "%02x", b)) }
        XCTAssertEqual(Sodium.hex([0, 1, 0xab, 0xff]), "0001abff")
    }

    func testPaddingMatchesFoundation() {
        for (s, n) in [("list", 8), ("exactly", 7), ("toolong", 4), ("", 3), ("é", 3)] {
            XCTAssertEqual(s.padded(toLength: n), s.padding(toLength: n, withPad: " ", startingAt: 0))
        }
    }

    func testCanonicalCompositionMatchesFoundation() {
        for s in ["e\u{0301}", "é", "A\u{030A}ngstr\u{006F}\u{0308}m", "\u{1E9B}\u{0323}", "ascii", "한\u{1100}\u{1161}"] {
            XCTAssertEqual(s.canonicallyComposed.unicodeScalars.map(\.value),
                           s.precomposedStringWithCanonicalMapping.unicodeScalars.map(\.value), s.debugDescription)
        }
    }

    func testCaseInsensitiveEqualityMatchesFoundation() {
        let pairs = [("Adobe", "adobe"), ("STRASSE", "straße"), ("LinkedIn", "LINKEDIN"), ("ǅ", "ǆ"), ("Σίσυφος", "ΣΊΣΥΦΟΣ"),
                     ("abc", "abd"), ("a", "á"), ("ﬁle", "FILE")]
        for (a, b) in pairs {
            XCTAssertEqual(a.equalsIgnoringCase(b), a.caseInsensitiveCompare(b) == .orderedSame, "\(a) \(b)")
        }
    }

    func testCaseAndDiacriticInsensitiveSearchAndOrder() {
        let options: String.CompareOptions = [.caseInsensitive, .diacriticInsensitive]
        for (text, needle) in [("Gravatar", "grav"), ("Ticketfly", "FLY"), ("Café Society", "cafe"), ("Zynga", "zz"),
                               ("Straße", "STRASSE"), ("Crédit Agricole", "credit a")] {
            XCTAssertEqual(text.rangeIgnoringCase(of: needle, ignoringDiacritics: true).map { String(text[$0]) },
                           text.range(of: needle, options: options).map { String(text[$0]) }, "\(text) \(needle)")
        }
        XCTAssertEqual("Bob's bob".rangeIgnoringCase(of: "BOB").map { "Bob's bob".distance(from: "Bob's bob".startIndex, to: $0.lowerBound) }, 0)
        let titles = ["Zynga", "adobe", "Ápple", "apple", "Éa", "eb", "Bitly", "bitly 2", "000webhost", "Ōmni"]
        XCTAssertEqual(titles.sorted { $0.comparisonKey(ignoringDiacritics: true) < $1.comparisonKey(ignoringDiacritics: true) }
                           .map { $0.comparisonKey(ignoringDiacritics: true) },
                       titles.sorted { $0.compare($1, options: options) == .orderedAscending }
                           .map { $0.comparisonKey(ignoringDiacritics: true) })
    }

    func testLastPathComponentMatchesNSString() {
        for p in ["/home/u/contacts.vcf", "contacts.vcf", "/home/u/", "/", "", "a//b//", "./x"] {
            XCTAssertEqual(p.lastPathComponent, (p as NSString).lastPathComponent, p)
        }
    }
}
