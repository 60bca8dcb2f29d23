import XCTest
final class PwnVaultCoreTestsPlaceholder: XCTestCase { func testBuilds() { XCTAssertTrue(true) } }
