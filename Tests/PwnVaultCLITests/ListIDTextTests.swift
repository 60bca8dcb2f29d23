@testable import PwnVaultCLI
import XCTest

/// `list`'s `#ID` cell, written from the digits, is what interpolation wrote.
final class ListIDTextTests: XCTestCase {
    func testIDsAsInterpolationWroteThem() {
        for id in [0, 1, 9, 10, 42, 999, 1000, 123_456_789, Int.max, -1, -10, Int.min] {
            XCTAssertEqual(ListCommand.idText(id), "#\(id)")
        }
    }
}
