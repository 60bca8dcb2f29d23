import TestSupport
import XCTest
@testable import PwnVaultCore

final class SanitizerTests: XCTestCase {
    private let esc = "\u{1B}"

    private func assertClean(_ s: String, file: StaticString = #filePath, line: UInt = #line) {
        for scalar in s.unicodeScalars {
            let v = scalar.value
            let isControl = v < 0x20 && v != 0x0A || (0x7F...0x9F).contains(v)
            let isBidi = [0x061C, 0x200E, 0x200F].contains(v) || (0x202A...0x202E).contains(v) || (0x2066...0x2069).contains(v)
            XCTAssertFalse(isControl || isBidi, "U+\(String(v, radix: 16, uppercase: true)) left in \(s.debugDescription)",
                           file: file, line: line)
        }
    }

    func testPlainTextIsUntouched() {
        let text = "Adobe — 152 445 165 accounts, “quotes”, émoji 👨‍👩‍👧, 漢字, עברית"
        XCTAssertEqual(Sanitizer.singleLine(text), text)
        XCTAssertEqual(Sanitizer.multiLine(text), text)
    }

    func testTitleSettingOSC() {
        XCTAssertEqual(Sanitizer.singleLine("a\(esc)]0;pwned\u{7}b"), "ab")
        XCTAssertEqual(Sanitizer.singleLine("a\(esc)]2;pwned\(esc)\\b"), "ab")
        XCTAssertEqual(Sanitizer.singleLine("a\u{9D}0;pwned\u{9C}b"), "ab")
        // OSC 8 hyperlinks and OSC 52 clipboard writes go the same way.
        XCTAssertEqual(Sanitizer.singleLine("\(esc)]8;;https://evil.example\(esc)\\click\(esc)]8;;\(esc)\\"), "click")
        XCTAssertEqual(Sanitizer.singleLine("x\(esc)]52;c;cm0gLXJmIH4=\u{7}y"), "xy")
    }

    func testScreenClearsAndCursorMoves() {
        XCTAssertEqual(Sanitizer.singleLine("\(esc)[H\(esc)[2J\(esc)[3Jfresh"), "fresh")
        XCTAssertEqual(Sanitizer.singleLine("ok\(esc)[1A\(esc)[2Kfake line"), "okfake line")
        XCTAssertEqual(Sanitizer.singleLine("\(esc)[31;1mred\(esc)[0m"), "red")
        XCTAssertEqual(Sanitizer.singleLine("\(esc)[?1049hhidden\(esc)[?1049l"), "hidden")
        XCTAssertEqual(Sanitizer.singleLine("a\(esc)[ qb"), "ab")   // intermediate byte before the final
        XCTAssertEqual(Sanitizer.singleLine("\(esc)7saved\(esc)8\(esc)cRIS\(esc)Mup"), "savedRISup")
        XCTAssertEqual(Sanitizer.singleLine("\(esc)(Bcharset\(esc)#8"), "charset")
    }

    func testEightBitCSI() {
        XCTAssertEqual(Sanitizer.singleLine("a\u{9B}2Jb"), "ab")
        XCTAssertEqual(Sanitizer.singleLine("a\u{9B}31mred\u{9B}0m"), "ared")
        XCTAssertEqual(Sanitizer.singleLine("a\u{85}b\u{84}c\u{80}d\u{9F}"), "a bcd")
    }

    func testStringSequencesDCSAndFriends() {
        XCTAssertEqual(Sanitizer.singleLine("a\(esc)Pq#0;2;0;0;0\(esc)\\b"), "ab")   // sixel DCS
        XCTAssertEqual(Sanitizer.singleLine("a\(esc)Xsos\(esc)\\b\(esc)^pm\(esc)\\c\(esc)_apc\(esc)\\d"), "abcd")
        XCTAssertEqual(Sanitizer.singleLine("a\u{90}dcs\u{9C}b\u{98}sos\u{9C}c\u{9E}pm\u{9C}d\u{9F}apc\u{9C}e"), "abcde")
        // BEL ends an OSC but not a DCS.
        XCTAssertEqual(Sanitizer.singleLine("a\(esc)Pdcs\u{7}still dcs\(esc)\\b"), "ab")
    }

    func testNestedAndUnterminatedSequences() {
        // An ESC inside a sequence ends it and starts the next one.
        XCTAssertEqual(Sanitizer.singleLine("a\(esc)[12\(esc)[2Jb"), "ab")
        XCTAssertEqual(Sanitizer.singleLine("a\(esc)]0;one\(esc)]0;two\u{7}b"), "ab")
        XCTAssertEqual(Sanitizer.singleLine("a\(esc)]0;x\(esc)[31mb"), "ab")
        // Unterminated: a string swallows the rest, as a terminal would; a CSI ends where it breaks.
        XCTAssertEqual(Sanitizer.singleLine("safe\(esc)]0;title without end"), "safe")
        XCTAssertEqual(Sanitizer.singleLine("safe\(esc)P unterminated dcs"), "safe")
        XCTAssertEqual(Sanitizer.singleLine("safe\(esc)[12;"), "safe")
        XCTAssertEqual(Sanitizer.singleLine("safe\(esc)[31é"), "safeé")
        XCTAssertEqual(Sanitizer.singleLine("lone \(esc)"), "lone ")
        XCTAssertEqual(Sanitizer.singleLine("\(esc)\(esc)\(esc)[mX"), "X")
        // CAN and SUB cancel a sequence.
        XCTAssertEqual(Sanitizer.singleLine("a\(esc)[12\u{18}b\(esc)]0;t\u{1A}c"), "abc")
        XCTAssertEqual(Sanitizer.singleLine("\(esc)\u{9B}\(esc)]"), "")
    }

    func testControlsAndBidi() {
        XCTAssertEqual(Sanitizer.singleLine("a\u{0}b\u{7}c\u{8}d\u{7F}e\u{C}f\u{B}g"), "abcdefg")
        XCTAssertEqual(Sanitizer.singleLine("invoice\u{202E}fdp.exe"), "invoicefdp.exe")
        XCTAssertEqual(Sanitizer.singleLine("\u{2066}a\u{2067}b\u{2068}c\u{2069}\u{202A}\u{202B}\u{202C}\u{202D}d"), "abcd")
        XCTAssertEqual(Sanitizer.singleLine("\u{200E}l\u{200F}r\u{61C}"), "lr")
    }

    func testLinesAndTabs() {
        XCTAssertEqual(Sanitizer.singleLine("one\ntwo\r\nthree\rfour\tfive"), "one two three four five")
        XCTAssertEqual(Sanitizer.singleLine("a\u{2028}b\u{2029}c"), "a b c")
        XCTAssertEqual(Sanitizer.multiLine("one\ntwo\r\nthree\rfour\tfive"), "one\ntwo\nthree\nfour five")
        XCTAssertEqual(Sanitizer.multiLine("a\n\nb"), "a\n\nb")
        XCTAssertEqual(Sanitizer.multiLine("a\u{1B}[2J\nb"), "a\nb")
    }

    func testRandomBytesNeverLeaveAControl() {
        var g = SplitMix64(seed: 42)
        let pieces: [String] = ["\u{1B}", "[", "]", "P", "\\", "\u{7}", "\u{9B}", "\u{9C}", "\u{9D}", "\u{90}", "\u{18}",
                                "0", ";", "m", "a", "é", "\n", "\r", "\t", "\u{202E}", "\u{7F}", "\u{0}", "?", " "]
        for _ in 0..<3000 {
            let s = (0..<Int.random(in: 0...24, using: &g)).map { _ in pieces.randomElement(using: &g)! }.joined()
            let single = Sanitizer.singleLine(s), multi = Sanitizer.multiLine(s)
            assertClean(single)
            assertClean(multi)
            XCTAssertFalse(single.contains("\n"))
            // Cleaning clean text changes nothing.
            XCTAssertEqual(Sanitizer.singleLine(single), single)
            XCTAssertEqual(Sanitizer.multiLine(multi), multi)
        }
    }
}
