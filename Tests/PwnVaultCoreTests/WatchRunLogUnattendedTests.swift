import Foundation
@testable import PwnVaultCore
import XCTest

/// The run record's `unattended` line (VAULT_FORMAT §10): the last run with no terminal, kept apart
/// from the last run of any kind, read back, and ignored by what does not know it.
final class WatchRunLogUnattendedTests: XCTestCase {
    func testTheLastUnattendedRunIsWrittenAndReadBack() throws {
        var log = WatchRunLog(lastRun: .init(at: Date(timeIntervalSince1970: 2_000), exitStatus: 0, reason: nil))
        log.lastUnattended = .init(at: Date(timeIntervalSince1970: 1_000), exitStatus: 5, reason: nil)
        XCTAssertEqual(log.text, "pwnvault-watch 1\nrun 2000 0\nunattended 1000 5\n")
        let back = try XCTUnwrap(WatchRunLog(text: log.text))
        XCTAssertEqual(back, log)
        XCTAssertEqual(back.lastUnattended?.exitStatus, 5)
        XCTAssertNil(WatchRunLog(text: "pwnvault-watch 1\nrun 2000 0\n")?.lastUnattended, "a record written before the line")
    }
}
