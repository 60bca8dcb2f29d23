import PwnVaultCore
import XCTest

final class TerminalCellsTests: XCTestCase {
    func testCellsOfCJKEmojiAndCombiningMarks() {
        XCTAssertEqual(TerminalCells.width("abc"), 3)
        XCTAssertEqual(TerminalCells.width("张三（工作）"), 12, "CJK and fullwidth brackets take two cells")
        XCTAssertEqual(TerminalCells.width("집꾸미기"), 8, "Hangul syllables are wide")
        XCTAssertEqual(TerminalCells.width("🙂 emoji"), 8)
        XCTAssertEqual(TerminalCells.width("e\u{301}"), 1, "a combining accent takes no cell")
        XCTAssertEqual(TerminalCells.width("Café Lumière"), 12)
        XCTAssertEqual(TerminalCells.width("\u{2764}\u{FE0F}"), 2, "VS16 makes a text emoji wide")
    }

    func testTruncateAndPadCountCells() {
        XCTAssertEqual(TerminalCells.truncate("张三（工作）", to: 7), "张三（…")
        XCTAssertEqual(TerminalCells.width(TerminalCells.truncate("张三（工作）", to: 7)), 7)
        XCTAssertEqual(TerminalCells.truncate("short", to: 10), "short")
        XCTAssertEqual(TerminalCells.pad("集", to: 4), "集  ")
    }

    func testWrapBreaksAtSpacesWithinTheWidthAndHangs() {
        let lines = TerminalCells.wrap("Email addresses, IP addresses, Names, Passwords, Phone numbers", to: 20)
        XCTAssertTrue(lines.allSatisfy { TerminalCells.width($0) <= 20 }, "\(lines)")
        XCTAssertEqual(lines.joined(separator: " "), "Email addresses, IP addresses, Names, Passwords, Phone numbers")
        let hung = TerminalCells.hanging("exposed:  ", "Email addresses, IP addresses, Names, Passwords", width: 30)
        XCTAssertEqual(hung, ["exposed:  Email addresses, IP", "          addresses, Names,", "          Passwords"])
        XCTAssertEqual(TerminalCells.hanging("x: ", "a b c", width: nil), ["x: a b c"], "no width: one line")
        XCTAssertEqual(TerminalCells.wrap("집꾸미기 집꾸미기 집", to: 17), ["집꾸미기 집꾸미기", "집"], "8 + 1 + 8 cells fill 17")
        XCTAssertEqual(TerminalCells.wrap("see https://example.com/long now", to: 10), ["see", "https://example.com/long", "now"],
                       "a word longer than the line is not cut")
    }
}
