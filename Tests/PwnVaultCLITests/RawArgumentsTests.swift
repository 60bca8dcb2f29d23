@testable import PwnVaultCLI
import XCTest

final class RawArgumentsTests: XCTestCase {
    func testValidUTF8PassesIncludingNonASCIIAndEmpty() {
        XCTAssertNil(RawArguments.firstNotUTF8([]))
        XCTAssertNil(RawArguments.firstNotUTF8([Array("add".utf8), Array("jörg@münchen.de".utf8), [], Array("用户".utf8)]))
    }

    func testTheFirstInvalidArgumentIsNamedByPositionAfterTheProgramName() {
        XCTAssertEqual(RawArguments.firstNotUTF8([Array("add".utf8), [0xFF]]), 2)
        XCTAssertEqual(RawArguments.firstNotUTF8([[0x61, 0xE9, 0x62], [0xFF]]), 1, "Latin-1 é between ASCII letters")
    }

    func testOverlongSurrogateAndTruncatedSequencesAreInvalid() {
        for bad: [UInt8] in [[0xC0, 0xAF], [0xED, 0xA0, 0x80], [0xF4, 0x90, 0x80, 0x80], [0xE2, 0x82], [0x80]] {
            XCTAssertEqual(RawArguments.firstNotUTF8([Array("ok".utf8), bad]), 2, "\(bad)")
        }
    }

    func testTheErrorNamesThePositionNeverTheBytesAndIsAUsageError() {
        let e = UsageError.notUTF8(position: 3)
        XCTAssertEqual(e.message, "argument 3 is not valid UTF-8 text; nothing was run")
        XCTAssertEqual(e.exitStatus, .usage)
        XCTAssertTrue(e.hint?.contains("UTF-8") == true)
    }
}
