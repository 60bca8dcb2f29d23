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
}
