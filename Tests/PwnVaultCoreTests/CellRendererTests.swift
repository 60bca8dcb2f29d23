@testable import PwnVaultCore
import XCTest

/// The full-screen interface's drawing and key decoding, byte for byte.
final class CellRendererTests: XCTestCase {
    private func text(_ bytes: [UInt8]) -> String { String(decoding: bytes, as: UTF8.self) }

    func testTheFirstFrameClearsAndDrawsOnlyWhatIsNotBlank() {
        var r = CellRenderer(colors: true)
        let out = text(r.frame(["ab", "", "c"], columns: 10, rows: 3))
        XCTAssertEqual(out, "\u{1B}[0m\u{1B}[H\u{1B}[2J\u{1B}[1;1H\u{1B}[0mab\u{1B}[3;1Hc")
    }

    func testAnUnchangedFrameSendsNothingAndAChangeOnlyItsCells() {
        var r = CellRenderer(colors: true)
        _ = r.frame(["hello world", "second"], columns: 20, rows: 2)
        XCTAssertEqual(r.frame(["hello world", "second"], columns: 20, rows: 2), [])
        XCTAssertEqual(text(r.frame(["hello there", "second"], columns: 20, rows: 2)), "\u{1B}[1;7H\u{1B}[0mthere")
    }

    func testMovingASelectionRedrawsTwoRowsOnly() {
        var r = CellRenderer(colors: true)
        let rows = (0..<5).map { "row \($0)" }
        var first = rows; first[1] = "\u{1B}[7m" + first[1] + "\u{1B}[0m"
        var second = rows; second[2] = "\u{1B}[7m" + second[2] + "\u{1B}[0m"
        _ = r.frame(first, columns: 10, rows: 5)
        let out = text(r.frame(second, columns: 10, rows: 5))
        XCTAssertEqual(out, "\u{1B}[2;1H\u{1B}[0mrow 1\u{1B}[3;1H\u{1B}[0;7mrow 2\u{1B}[0m")
    }

    func testWideCharactersTakeTwoCellsAndAreNeverSplit() {
        var r = CellRenderer(colors: true)
        _ = r.frame(["日本x"], columns: 5, rows: 1)
        // The second wide character changes: the redraw starts at its first cell, not its second.
        XCTAssertEqual(text(r.frame(["日語x"], columns: 5, rows: 1)), "\u{1B}[1;3H\u{1B}[0m語")
        // A wide character that would not fit at the end of the row is left out.
        let grid = CellRenderer.grid(["abcd日"], columns: 5, rows: 1, colors: true)
        XCTAssertEqual(grid[0].map(\.text).joined(), "abcd ")
        // Combining marks join the character before them.
        XCTAssertEqual(CellRenderer.grid(["e\u{301}x"], columns: 3, rows: 1, colors: true)[0][0].text, "e\u{301}")
    }

    func testWithoutColorsOnlyBoldDimAndReverseRemain() {
        var r = CellRenderer(colors: false)
        let out = text(r.frame(["\u{1B}[31mred\u{1B}[0m \u{1B}[7msel\u{1B}[0m"], columns: 8, rows: 1))
        XCTAssertFalse(out.contains("31"), out)
        XCTAssertTrue(out.contains("\u{1B}[0;7msel"), out)
        var colored = CellRenderer(colors: true)
        XCTAssertTrue(text(colored.frame(["\u{1B}[31mred"], columns: 8, rows: 1)).contains("\u{1B}[0;31mred"))
    }

    func testControlCharactersAndForeignSequencesNeverReachTheTerminal() {
        let grid = CellRenderer.grid(["a\u{07}b\u{1B}]0;title\u{07}c\u{9B}d"], columns: 20, rows: 1, colors: true)
        let shown = grid[0].map(\.text).joined()
        XCTAssertFalse(shown.contains("\u{07}") || shown.contains("\u{1B}") || shown.contains("\u{9B}"), shown)
    }

    func testNothingIsDrawnBeyondTheScreen() {
        var r = CellRenderer(colors: true)
        let out = text(r.frame(["0123456789", "x", "y", "z"], columns: 4, rows: 2))
        XCTAssertFalse(out.contains("4") && out.contains("0123 4"), out)
        XCTAssertFalse(out.contains("y"), out)
        XCTAssertTrue(out.contains("0123"), out)
        XCTAssertFalse(out.contains("\n"), "cursor addressing only: the screen never scrolls")
    }

    func testKeysArrowsUTF8FocusAndMouse() {
        var d = UIKeyDecoder()
        XCTAssertEqual(d.feed(Array("j\u{1B}[A\u{1B}[B\u{1B}OC\u{1B}[5~\u{1B}[6~\r\u{7F}".utf8)),
                       [.char("j"), .up, .down, .right, .pageUp, .pageDown, .enter, .backspace])
        XCTAssertEqual(d.feed(Array("é日".utf8)), [.char("é"), .char("日")])
        XCTAssertEqual(d.feed(Array("\u{1B}[O\u{1B}[I".utf8)), [.focusOut, .focusIn])
        XCTAssertEqual(d.feed(Array("\u{1B}[<0;5;3M\u{1B}[<0;5;3m\u{1B}[<64;1;1M\u{1B}[<65;1;1M".utf8)),
                       [.click(column: 4, row: 2), .other, .wheelUp, .wheelDown])
        XCTAssertEqual(d.feed([0x1B]), [])
        XCTAssertTrue(d.isWaitingAfterEscape)
        XCTAssertEqual(d.flush(), [.escape])
        XCTAssertEqual(d.feed([0x03]), [.interrupt])
        // The answers to the focus question the ui asks on opening.
        XCTAssertEqual(d.feed(Array("\u{1B}[?1004;1$y\u{1B}[?1;2c\u{1B}[?1004;0$y".utf8)),
                       [.modeReport(mode: 1004, setting: 1), .deviceAttributes, .modeReport(mode: 1004, setting: 0)])
    }

    func testBackgroundsOnlyWithColors() {
        var colored = CellRenderer(colors: true)
        XCTAssertTrue(text(colored.frame(["\u{1B}[1;30;43m SHARE "], columns: 8, rows: 1)).contains("\u{1B}[0;1;30;43m SHARE"))
        var plain = CellRenderer(colors: false)
        XCTAssertFalse(text(plain.frame(["\u{1B}[1;30;43m SHARE "], columns: 8, rows: 1)).contains("43"))
    }
}
