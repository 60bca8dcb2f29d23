import Foundation
import XCTest
@testable import PwnVaultCore

/// `readAll` with the file's size read in one buffer: the same bytes whatever the size said (the file
/// grew or shrank since), and the limit still holds.
final class FileDescriptorReadAllTests: XCTestCase {
    private func file(_ count: Int) throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("pwnvault-readall-\(UUID().uuidString)").path
        let bytes = (0..<count).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) }
        XCTAssertTrue(FileManager.default.createFile(atPath: path, contents: Data(bytes)))
        addTeardownBlock { try? FileManager.default.removeItem(atPath: path) }
        return path
    }

    private func read(_ path: String, limit: Int = 1 << 30, expectedSize: Int) throws -> [UInt8]? {
        try FileDescriptor.openForReading(path).readAll(limit: limit, expectedSize: expectedSize)
    }

    func testTheWholeFileWhateverTheSizeSaid() throws {
        for count in [0, 1, 4095, 65_536, 200_001] {
            let path = try file(count)
            let whole = try XCTUnwrap(try read(path, expectedSize: 0))
            XCTAssertEqual(whole.count, count)
            for said in [count, max(1, count / 3), count + 1000] {
                XCTAssertEqual(try read(path, expectedSize: said), whole, "\(count) bytes, size said \(said)")
            }
        }
    }

    func testTheLimitHoldsWithTheSize() throws {
        let path = try file(10_000)
        XCTAssertNil(try read(path, limit: 9_999, expectedSize: 10_000))
        XCTAssertNil(try read(path, limit: 5_000, expectedSize: 4_000), "grown past the limit after the size was read")
        XCTAssertEqual(try read(path, limit: 10_000, expectedSize: 10_000)?.count, 10_000)
    }
}
