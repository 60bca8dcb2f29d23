@testable import PwnVaultCore
import XCTest

/// The pager of reveal's private screen, with no terminal: wrapping in cells, scrolling, find.
final class TextPagerTests: XCTestCase {
    private func numbered(_ n: Int) -> [TextPager.Line] { (1...n).map { TextPager.Line("item \($0)", indent: 2) } }

    func testWrapBreaksAtSpacesAndSplitsOnlyWordsWiderThanALine() {
        XCTAssertEqual(TextPager.wrap("alpha beta gamma", to: 10), ["alpha beta", "gamma"])
        XCTAssertEqual(TextPager.wrap("abcdefghijklmno", to: 6), ["abcdef", "ghijkl", "mno"])
        XCTAssertEqual(TextPager.wrap("", to: 6), [""])
        // Wide characters take two cells and are never split: 5 of them in rows of 4 cells.
        let wide = TextPager.wrap("漢字漢字漢", to: 4)
        XCTAssertEqual(wide, ["漢字", "漢字", "漢"])
        XCTAssertEqual(TextPager.wrap("漢字漢", to: 5), ["漢字", "漢"], "a 2-cell character does not go in the 1 cell left")
        // Combining marks stay with their letter.
        XCTAssertEqual(TextPager.wrap("e\u{301}e\u{301}e\u{301}", to: 2), ["e\u{301}e\u{301}", "e\u{301}"])
        XCTAssertEqual(TextPager.wrap("aaa bbbbbb", to: 4, then: 3), ["aaa", "bbb", "bbb"])
    }

    func testEveryRowFitsAndNothingIsLostAtAnyWidth() {
        let lines = [TextPager.Line("#1 verylongaccountname.with.no.spaces@example-subdomain.example.com (Label)  breached (40)"),
                     TextPager.Line("Some Breach With A Long Title (sensitive)", indent: 4),
                     TextPager.Line("漢字のサイト名前.example.jp", indent: 4)]
        for columns in 1...90 {
            let pager = TextPager(lines: lines)
            let rows = pager.wrapped(columns: columns)
            for r in rows { XCTAssertLessThanOrEqual(TerminalCells.width(r.text), max(columns, 2), "\(columns): \(r.text)") }
            for (i, line) in lines.enumerated() {
                let joined = rows.filter { $0.line == i }.map(\.text).joined().filter { $0 != " " }
                XCTAssertEqual(joined, line.text.filter { $0 != " " }, "width \(columns)")
            }
        }
    }

    func testViewHasTheHeaderTheRowsAndAStatusLineAtTheBottom() {
        let pager = TextPager(header: ["title", ""], lines: numbered(40))
        let view = pager.view(columns: 80, rows: 10)
        XCTAssertEqual(view.count, 10)
        XCTAssertEqual(view[0], "title")
        XCTAssertEqual(view[2], "  item 1")
        XCTAssertEqual(view[8], "  item 7")
        XCTAssertTrue(view[9].hasPrefix("lines 1-7 of 40"), view[9])
        let short = TextPager(lines: numbered(2)).view(columns: 80, rows: 10)
        XCTAssertEqual(short.count, 10)
        XCTAssertEqual(short[9], "lines 1-2 of 2  / find  q close")
    }

    func testKeysScrollWithinTheText() {
        var pager = TextPager(header: ["title"], lines: numbered(40))
        func firstShown() -> String { pager.view(columns: 80, rows: 10)[1] }
        XCTAssertFalse(pager.take(.up, columns: 80, rows: 10), "already at the top")
        XCTAssertTrue(pager.take(.down, columns: 80, rows: 10))
        XCTAssertEqual(firstShown(), "  item 2")
        pager.take(.char("k"), columns: 80, rows: 10)
        XCTAssertEqual(firstShown(), "  item 1")
        pager.take(.pageDown, columns: 80, rows: 10)
        XCTAssertEqual(firstShown(), "  item 9", "a page is the 8 rows between header and status")
        pager.take(.char(" "), columns: 80, rows: 10)
        XCTAssertEqual(firstShown(), "  item 17")
        pager.take(.pageUp, columns: 80, rows: 10)
        XCTAssertEqual(firstShown(), "  item 9")
        pager.take(.end, columns: 80, rows: 10)
        XCTAssertEqual(firstShown(), "  item 33")
        XCTAssertEqual(pager.view(columns: 80, rows: 10)[8], "  item 40")
        XCTAssertFalse(pager.take(.char("j"), columns: 80, rows: 10), "already at the end")
        pager.take(.home, columns: 80, rows: 10)
        XCTAssertEqual(firstShown(), "  item 1")
        XCTAssertFalse(pager.take(.char("x"), columns: 80, rows: 10), "unused keys change nothing")
    }

    func testEveryLineIsReachableByPagingDown() {
        var pager = TextPager(header: ["h", ""], lines: numbered(100))
        var seen = Set<String>()
        for _ in 0..<30 {
            seen.formUnion(pager.view(columns: 80, rows: 24))
            pager.take(.pageDown, columns: 80, rows: 24)
        }
        for i in 1...100 { XCTAssertTrue(seen.contains("  item \(i)"), "item \(i)") }
    }

    func testFindTypesASearchAndJumpsToMatchesGoingRound() {
        var pager = TextPager(header: ["title"], lines: numbered(40))
        XCTAssertTrue(pager.take(.char("/"), columns: 80, rows: 10))
        XCTAssertTrue(pager.isTyping)
        for c in "ITEM 3q" { pager.take(.char(c), columns: 80, rows: 10) }
        XCTAssertEqual(pager.view(columns: 80, rows: 10)[9], "find: ITEM 3q_")
        pager.take(.backspace, columns: 80, rows: 10)
        pager.take(.enter, columns: 80, rows: 10)
        XCTAssertFalse(pager.isTyping)
        // "item 3" matches items 3 and 30-39, ignoring case; the first is scrolled to the top.
        XCTAssertEqual(pager.view(columns: 80, rows: 10)[1], "  item 3")
        XCTAssertTrue(pager.view(columns: 80, rows: 10)[9].hasPrefix("\"ITEM 3\": match 1 of 11"))
        pager.take(.char("n"), columns: 80, rows: 10)
        XCTAssertEqual(pager.found, 29)
        XCTAssertEqual(pager.view(columns: 80, rows: 10)[1], "  item 30")
        for _ in 0..<10 { pager.take(.char("n"), columns: 80, rows: 10) }
        XCTAssertEqual(pager.found, 2, "round to the start")
        pager.take(.char("N"), columns: 80, rows: 10)
        XCTAssertEqual(pager.found, 38)
        XCTAssertEqual(pager.view(columns: 80, rows: 10)[8], "  item 40", "near the end the view stops at the last row")

        pager.take(.char("/"), columns: 80, rows: 10)
        for c in "nothing" { pager.take(.char(c), columns: 80, rows: 10) }
        pager.take(.enter, columns: 80, rows: 10)
        XCTAssertEqual(pager.view(columns: 80, rows: 10)[9], "\"nothing\" not found")
        // Backspace on an empty search gives up typing.
        pager.take(.char("/"), columns: 80, rows: 10)
        pager.take(.backspace, columns: 80, rows: 10)
        XCTAssertFalse(pager.isTyping)
    }

    func testAFindFromTheMiddleStartsAtTheView() {
        var pager = TextPager(lines: numbered(40))
        pager.take(.char("G"), columns: 80, rows: 10)
        pager.take(.char("/"), columns: 80, rows: 10)
        for c in "item 1" { pager.take(.char(c), columns: 80, rows: 10) }
        pager.take(.enter, columns: 80, rows: 10)
        XCTAssertEqual(pager.found, 0, "from item 32 on nothing matches 'item 1': round to item 1")
    }

    func testANarrowScreenStillShowsEverythingWrapped() {
        let pager = TextPager(header: ["pwnvault reveal: 1 account; closes in 30 s or on q or Esc"],
                              lines: [TextPager.Line("averyveryverylongstealerlogwebsite.example.com", indent: 4)])
        let view = pager.view(columns: 12, rows: 20)
        for row in view { XCTAssertLessThanOrEqual(TerminalCells.width(row), 12, row) }
        XCTAssertTrue(view.joined().replacingOccurrences(of: " ", with: "").contains("averyveryverylongstealerlogwebsite.example.com"), "\(view)")
    }

    func testChineseRowsBreakBetweenIdeographsWithinTheWidth() {
        let text = "这个账户出现在四十次数据泄露中，其中六次是敏感的。"
        let rows = TextPager.wrap(text, to: 11)
        XCTAssertTrue(rows.allSatisfy { TerminalCells.width($0) <= 11 }, "\(rows)")
        XCTAssertEqual(rows.joined(), text)
        XCTAssertFalse(rows.dropFirst().contains { "，。".contains($0.first!) }, "\(rows)")
    }
}
