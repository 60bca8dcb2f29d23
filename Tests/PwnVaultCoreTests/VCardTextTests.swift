import XCTest
@testable import PwnVaultCore

/// `VCardText`'s shortcuts for text without a backslash (issue 30, the import of 10,000 named
/// contacts) give the `Character` reading's answer, scalar for scalar.
final class VCardTextTests: XCTestCase {
    static let texts = [
        "", ";", ";;", "Smith;John;;;", "García;José;;Dr.;Jr.", "Garci\u{301}a;Jose\u{301};;;", "Иванов;Иван;;;", "李;明;;;",
        "O'Brien,Jr.;Pat", "a,b,,c", "Smith\\;Jones;Ann", "line\\nbreak", "back\\\\slash", "end\\", "Acme, Inc.;Sales",
        "CR\r\nLF;x", " spaced ; out ", "semi\u{37E}colon;greek", ";\u{301}mark", "x;y\u{301}", "tab\t;tab",
    ]

    func testTheShortcutsAnswerAsTheCharacterReading() {
        var texts = Self.texts
        let pieces = [";", ",", "a", "B", "é", "e\u{301}", "\u{301}", "\\", "\\n", " ", "\r\n", "李", "\u{37E}", "x,y", ""]
        var state: UInt64 = 30
        func next() -> Int { state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407; return Int(state >> 33) }
        for _ in 0..<2_000 { texts.append((0..<(next() % 8)).map { _ in pieces[next() % pieces.count] }.joined()) }
        for text in texts {
            for separator: Character in [";", ","] {
                XCTAssertEqual(VCardText.split(text, on: separator).map { Array($0.unicodeScalars) },
                               VCardText.characterSplit(text, on: separator).map { Array($0.unicodeScalars) }, text.debugDescription)
            }
            XCTAssertEqual(Array(VCardText.unescaped(text).unicodeScalars), Array(VCardText.characterUnescaped(text).unicodeScalars),
                           text.debugDescription)
        }
        // The shortcut is taken, and splits as it should.
        XCTAssertEqual(VCardText.split("Smith;John;;;", on: ";"), ["Smith", "John", "", "", ""])
    }
}
