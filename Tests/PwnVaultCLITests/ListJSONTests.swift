@testable import PwnVaultCLI
import Foundation
import PwnVaultCore
import TestSupport
import XCTest

/// `list --json` is written by hand (`ListCommand.json`, `PrettyJSON`, `JSONBytes`): its bytes must be
/// exactly what JSONEncoder, which wrote it before, makes of the same rows.
final class ListJSONTests: XCTestCase {
    /// What `Console.json(_:)` printed for the rows before the hand-written writer (its `out` added the new line).
    func encoded(_ rows: [ListCommand.Row]) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .iso8601
        return String(decoding: try encoder.encode(rows), as: UTF8.self) + "\n"
    }

    func assertSameAsTheEncoder(_ rows: [ListCommand.Row], file: StaticString = #filePath, line: UInt = #line) throws {
        let expected = try encoded(rows), written = ListCommand.json(rows)
        XCTAssertEqual(written, expected, file: file, line: line)
        XCTAssertEqual(Console.escapingInvisibles(written), Console.escapingInvisibles(expected), file: file, line: line)
    }

    /// Characters that each need something: escapes, C0 and C1 controls, DEL, bidi and line
    /// separators (escaped afterwards by `escapingInvisibles`), slashes, multi-byte and combining ones.
    let alphabet: [Character] = ["a", "Z", "0", " ", "/", "\"", "\\", "\u{0}", "\u{8}", "\t", "\n", "\u{C}", "\r", "\u{1B}",
                                 "\u{1F}", "\u{7F}", "\u{85}", "\u{9B}", "é", "e\u{301}", "ß", "•", "집", "😀", "👩‍👩‍👧",
                                 "\u{200E}", "\u{2028}", "\u{202E}", "\u{2066}", "\u{FEFF}", "\u{FFFD}"]

    func randomText<G: RandomNumberGenerator>(_ g: inout G) -> String {
        String((0..<Int.random(in: 0...12, using: &g)).map { _ in alphabet.randomElement(using: &g)! })
    }

    /// Millisecond dates around now, around 1970, both sides of the Gregorian reform, and beyond 9999.
    func randomDate<G: RandomNumberGenerator>(_ g: inout G) -> Date {
        let seconds: Double
        switch Int.random(in: 0..<6, using: &g) {
        case 0: seconds = Double(Int64.random(in: 1_500_000_000_000...2_000_000_000_000, using: &g)) / 1000
        case 1: seconds = Double(Int64.random(in: -100_000_000...100_000_000, using: &g)) / 1000
        case 2: seconds = Double(Int64.random(in: -12_300_000_000_000 ... -12_100_000_000_000, using: &g)) / 1000   // 1580-1586
        case 3: seconds = Double(Int64.random(in: -62_000_000_000_000 ... -13_000_000_000_000, using: &g)) / 1000
        case 4: seconds = Double(Int64.random(in: 253_402_200_000_000...253_402_400_000_000, using: &g)) / 1000   // around 9999/10000
        default: seconds = Double(Int64.random(in: -62_135_596_800_000...253_402_300_799_999, using: &g)) / 1000
        }
        return Date(timeIntervalSince1970: seconds)
    }

    func randomRow<G: RandomNumberGenerator>(_ g: inout G) -> ListCommand.Row {
        let failure = Bool.random(using: &g) ? CheckFailure(at: randomDate(&g), message: randomText(&g)) : nil
        return ListCommand.Row(id: Int.random(in: 0...Int.max, using: &g),
                               kind: AccountKind.allCases.randomElement(using: &g)!,
                               label: Bool.random(using: &g) ? randomText(&g) : nil,
                               status: [CheckStatus.neverChecked, .clean, .breached, .error].randomElement(using: &g)!,
                               checkedAt: Bool.random(using: &g) ? randomDate(&g) : nil,
                               breaches: (0..<Int.random(in: 0...3, using: &g)).map { _ in randomText(&g) },
                               breachCount: Int.random(in: 0...1_000, using: &g), sensitiveBreaches: Int.random(in: 0...9, using: &g),
                               unnamedBreaches: Int.random(in: 0...9, using: &g),
                               pasteCount: Bool.random(using: &g) ? Int.random(in: -1...100_000, using: &g) : nil,
                               addedAt: randomDate(&g), lastFailure: FailureRow(failure),
                               new: Int.random(in: 0...50, using: &g), unacknowledged: Int.random(in: 0...50, using: &g),
                               unlisted: Int.random(in: 0...9, using: &g),
                               unlistedBreaches: (0..<Int.random(in: 0...2, using: &g)).map { _ in randomText(&g) })
    }

    func testNoRowsIsTheEncodersEmptyArray() throws {
        try assertSameAsTheEncoder([])
        XCTAssertEqual(ListCommand.json([]), "[\n\n]\n")
    }

    func testRandomRowsAreByteForByteTheEncoders() throws {
        var g = SplitMix64(seed: 0x1157_150A)
        for _ in 0..<300 {
            try assertSameAsTheEncoder((0..<Int.random(in: 1...4, using: &g)).map { _ in randomRow(&g) })
        }
    }

    func testDatesAreTheEncodersAtTheEdges() throws {
        var g = SplitMix64(seed: 0x1157_150A)
        let edges: [Double] = [0, -0.001, 0.999, -1, 59.999, 951_782_400, 4_107_542_400,   // 2000-02-29, 2100-02-29 is no date
                               -12_219_292_800, -12_219_292_800.001, -12_212_553_600, -12_212_553_600.001,   // the reform, 1583
                               -62_135_596_800, 253_402_300_799.999, 253_402_300_800]
        for seconds in edges {
            var row = randomRow(&g)
            row = ListCommand.Row(id: row.id, kind: row.kind, label: nil, status: row.status,
                                  checkedAt: Date(timeIntervalSince1970: seconds), breaches: [], breachCount: 0,
                                  sensitiveBreaches: 0, unnamedBreaches: 0, pasteCount: nil,
                                  addedAt: Date(timeIntervalSince1970: seconds), lastFailure: nil, new: 0, unacknowledged: 0,
                                  unlisted: 0, unlistedBreaches: [])
            try assertSameAsTheEncoder([row])
        }
    }
}
