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
}
