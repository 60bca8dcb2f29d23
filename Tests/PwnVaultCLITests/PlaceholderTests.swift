import XCTest
final class PwnVaultCLITestsPlaceholder: XCTestCase { func testBuilds() { XCTAssertTrue(true) } }
