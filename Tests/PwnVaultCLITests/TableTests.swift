@testable import PwnVaultCLI
import PwnVaultCore
import XCTest

final class TableTests: XCTestCase {
    let table = Table(header: ["DATE", "TITLE", "ACCOUNTS", "NAME"],
                      rows: [["2020-08-20", "집꾸미기 Interior Design Community", "1,193,206", "Jipkkumigi"],
                             ["2013-10-04", "Adobe", "152,445,165", "Adobe"]],
                      keep: [0, 2], shrinkFirst: [3])

    func testUnwrappedWithoutAWidth() {
        let lines = table.render()
        XCTAssertTrue(lines[1].contains("집꾸미기 Interior Design Community"))
        let starts = zip(lines.dropFirst(), ["1,193,206", "152,445,165"]).map { line, count in
            TerminalCells.width(String(line[..<line.range(of: count)!.lowerBound]))
        }
        XCTAssertEqual(starts[0], starts[1], "the ACCOUNTS column starts in the same cell on every row: \(lines)")
    }

    func testShrinksToTheWidthCuttingWithAnEllipsisButNeverKeptColumns() {
        for width in [40, 50, 60] {
            let lines = table.render(width: width)
            for line in lines { XCTAssertLessThanOrEqual(TerminalCells.width(line), width, line) }
            XCTAssertTrue(lines[1].contains("…"), lines[1])
            XCTAssertTrue(lines[2].contains("152,445,165") && lines[1].hasPrefix("2020-08-20"), "\(lines)")
        }
    }

    /// Columns give way in the order stated (a label before a status before the name commands take),
    /// each only as far as needed; a removed column takes its cells and rules with it.
    func testColumnsGiveWayInTheStatedOrder() {
        var t = Table(header: ["ID", "NAME", "LABEL", "STATUS"], keep: [0],
                      giveWay: [(2, 5), (3, 8), (1, 6)])
        t.rows = [["#1", "CollectionNumberOne", "Grandmother's phone", "breached (3, 1 to acknowledge)"]]
        let natural = TerminalCells.width(t.render()[1])
        let a = t.render(width: natural - 10)[1]
        XCTAssertTrue(a.contains("CollectionNumberOne") && a.contains("breached (3, 1 to acknowledge)"), "the label first: \(a)")
        let b = t.render(width: natural - 30)[1]
        XCTAssertTrue(b.contains("CollectionNumberOne") && !b.contains("to acknowledge"), "then the status: \(b)")
        XCTAssertTrue(t.keepsWhole(1, at: natural - 30))
        XCTAssertFalse(t.keepsWhole(1, at: 30), "the name last")
        let without = t.removing(column: 2)
        XCTAssertEqual(without.header, ["ID", "NAME", "STATUS"])
        XCTAssertEqual(without.rows[0], ["#1", "CollectionNumberOne", "breached (3, 1 to acknowledge)"])
        XCTAssertTrue(without.keepsWhole(1, at: natural - 30))
    }

    // MARK: issue 32: the column that matters

    /// `list` at 60 and 80 columns: the date takes its shorter forms first, then the label gives way,
    /// then the status wraps onto the row below; the id and the status words are never cut.
    func testDatesShortenFirstThenTheLabelAndTheStatusWrapsRatherThanBeingCut() {
        var t = Table(header: ["ID", "ACCOUNT", "LABEL", "STATUS", "CHECKED"], keep: [0, 4],
                      giveWay: [(2, 8), (3, 20), (2, 3), (3, 3), (1, 12)], wraps: [3])
        t.rows = [["#1", "p•••3@g•••.com", "My forum account", "breached (3, 3 to acknowledge)", "2026-12-03 14:33"],
                  ["#10", "u•••", "-", "clean", "2026-11-02 09:10"]]
        t.forms = [4: [["today 14:33", "today"], ["11-02 09:10", "11-02"]]]
        let natural = t.render()
        XCTAssertTrue(natural[1].hasSuffix("2026-12-03 14:33"), "no width: the full date: \(natural)")
        // Just too wide: the date takes its next form, nothing else changes.
        let width = TerminalCells.width(natural[1]) - 3
        let a = t.render(width: width)
        XCTAssertTrue(a[1].hasSuffix("today 14:33") && a[1].contains("My forum account"), "\(a)")
        // At 60: the shortest date, the label cut, the status whole over two rows.
        let b = t.render(width: 60)
        for line in b { XCTAssertLessThanOrEqual(TerminalCells.width(line), 60, line) }
        XCTAssertTrue(b[1].hasPrefix("#1 ") && b[1].hasSuffix("today"), "\(b)")
        XCTAssertFalse(b.joined().contains("14:33"), "\(b)")
        XCTAssertEqual(b.count, 4, "the status continues on one more row: \(b)")
        func cellsBefore(_ text: String, in line: String) -> Int? {
            line.range(of: text).map { TerminalCells.width(String(line[..<$0.lowerBound])) }
        }
        let column = cellsBefore("STATUS", in: b[0])
        XCTAssertEqual(cellsBefore("breached (3", in: b[1]), column, "\(b)")
        XCTAssertEqual(cellsBefore("acknowledge)", in: b[2]), column, "the status continues in its column: \(b)")
        XCTAssertEqual(b[1].components(separatedBy: "breached (")[1].split(separator: " ").prefix(3).joined(separator: " ")
                       + " " + String(b[2].drop(while: { $0 == " " })), "3, 3 to acknowledge)", "\(b)")
        XCTAssertTrue(b.contains { $0.contains("My fo") && $0.contains("…") }, "the label gave way: \(b)")
        XCTAssertTrue(b[3].hasPrefix("#10 "), "the next row starts after the continuation: \(b)")
        // The row groups keep the rows apart (list colours each account's lines).
        XCTAssertEqual(t.renderRows(width: 60).map(\.count), [1, 2, 1])
    }

    /// `breaches` at 60 columns: a name too wide for its column moves whole onto the row below,
    /// within the width, never cut; the others stay in their column.
    func testANameTooWideForItsColumnMovesWholeToTheNextRow() {
        var t = Table(header: ["DATE", "TITLE", "ACCOUNTS", "NAME"], keep: [0, 2],
                      giveWay: [(1, 12), (3, 16), (1, 8), (3, 3)], spills: 3)
        t.rows = [["2019-07-28", "Provincial Travel Recipes Revenue", "1,445", "ProvincialTravelRecipesRevenue"],
                  ["2013-10-04", "Adobe", "152,445,165", "Adobe"]]
        t.forms = [0: [["2019-07", "2019"], ["2013-10", "2013"]]]
        for width in [40, 50, 60] {
            let lines = t.render(width: width)
            for line in lines { XCTAssertLessThanOrEqual(TerminalCells.width(line), width, "\(width): \(lines)") }
            XCTAssertTrue(lines.contains { $0.hasSuffix(" ProvincialTravelRecipesRevenue") }, "\(width): \(lines)")
            XCTAssertTrue(lines.last!.hasSuffix("  Adobe"), "\(width): \(lines)")
            XCTAssertFalse(lines.joined().contains("ProvincialTravelRecipesRevenue…"))
        }
        XCTAssertEqual(t.render(width: 120).count, 3, "wide enough: one row each, nothing moved")
        XCTAssertTrue(t.render(width: 120)[1].hasPrefix("2019-07-28"), "wide enough: the full date")
    }
}

/// Issue 32: every message on stderr goes through one writer: wrapped at spaces to the window under a
/// hanging indent, a command to copy whole, one line when stderr is no terminal.
final class MessageWriterTests: XCTestCase {
    func testNotesWarningsAndHintsWrapUnderTheirTextAndKeepCommandsWhole() {
        let text = "the vault is empty; add accounts with 'pwnvault add ACCOUNT' or 'pwnvault import contacts.vcf'"
        XCTAssertEqual(Console.messageLines("pwnvault: ", text, width: nil), "pwnvault: " + text + "\n", "piped: one line")
        for width in [40, 60, 80] {
            let lines = Console.messageLines("pwnvault: hint: ", text, width: width).split(separator: "\n").map(String.init)
            for line in lines { XCTAssertLessThanOrEqual(TerminalCells.width(line), width, "\(width): \(lines)") }
            XCTAssertTrue(lines.contains { $0.contains("'pwnvault add ACCOUNT'") }, "\(width): \(lines)")
            XCTAssertTrue(lines.contains { $0.contains("'pwnvault import contacts.vcf'") }, "\(width): \(lines)")
            // Hanging under the text, or less for a command wider than what is left beside the prefix.
            for line in lines.dropFirst() {
                XCTAssertTrue(line.hasPrefix(String(repeating: " ", count: 16)) || TerminalCells.width(line) == width, "hanging: \(lines)")
            }
        }
        // A console's notes and warnings use it.
        let written = Locked<[String]>([])
        let console = Console(terminal: TerminalCapabilities(stdoutIsTerminal: false, stderrIsTerminal: true, stdinIsTerminal: true,
                                                             colorsOnStdout: false, colorsOnStderr: false, columns: nil, stderrColumns: 40),
                              policy: DisplayPolicy(terminal: false, shareMode: false), colorsAllowed: false,
                              writeOut: { _ in }, writeErr: { text in written.withLock { $0.append(text) } })
        console.note(text)
        console.warning("add 'set -g focus-events on' to ~/.tmux.conf, then restart tmux")
        let all = written.value.joined().split(separator: "\n").map(String.init)
        for line in all { XCTAssertLessThanOrEqual(TerminalCells.width(line), 40, "\(all)") }
        XCTAssertTrue(all.contains { $0.contains("'set -g focus-events on'") }, "\(all)")
    }
}
