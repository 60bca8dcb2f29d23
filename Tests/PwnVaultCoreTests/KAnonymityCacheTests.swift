import Foundation
@testable import PwnVaultCore
import XCTest

/// Issue 29: what is remembered of a key and the k-anonymity search. A fallback (a refusal, a server
/// without the range search) is remembered for a day and told once per key, ever; the plan's answer
/// (`IncludesKAnon`) for a day, absent kept as "unknown".
final class KAnonymityCacheTests: XCTestCase {
    var folder: URL!
    let key = SecretBytes(copying: Array("11111111111111111111111111111111".utf8))
    let other = SecretBytes(copying: Array("22222222222222222222222222222222".utf8))
    let start = Date(timeIntervalSince1970: 1_800_000_000)

    override func setUp() {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("pwnvault-kanon-\(UUID().uuidString)")
    }

    override func tearDown() { try? FileManager.default.removeItem(at: folder) }

    func testAFallbackIsRememberedForADayAndToldOncePerKeyEver() {
        let cache = KAnonymityCache(directory: folder)
        XCTAssertNil(cache.fallback(for: key, now: start))
        XCTAssertTrue(cache.rememberRefusal(for: key, now: start, fallback: .noRangeSearch), "told the first time")
        XCTAssertEqual(cache.fallback(for: key, now: start.addingTimeInterval(3600)), .noRangeSearch)
        XCTAssertNil(cache.fallback(for: other, now: start), "per key")
        let nextDay = start.addingTimeInterval(KAnonymityCache.maxAge + 60)
        XCTAssertNil(cache.fallback(for: key, now: nextDay), "probed again the next day")
        XCTAssertFalse(cache.rememberRefusal(for: key, now: nextDay), "the same fallback is not told again, a day later either")
        XCTAssertEqual(cache.fallback(for: key, now: nextDay), .refused)
        XCTAssertTrue(cache.rememberRefusal(for: other, now: nextDay), "another key is told")
        XCTAssertFalse(cache.rememberRefusal(for: key, now: nextDay.addingTimeInterval(30 * 86_400)))
    }

    func testThePlanIsRememberedForADayAndAbsentStaysUnknown() {
        let cache = KAnonymityCache(directory: folder)
        XCTAssertNil(cache.planIncludes(for: key, now: start))
        cache.rememberPlan(false, for: key, now: start)
        XCTAssertEqual(cache.planIncludes(for: key, now: start.addingTimeInterval(60)), false)
        cache.rememberPlan(true, for: other, now: start)
        XCTAssertEqual(cache.planIncludes(for: other, now: start), true)
        XCTAssertEqual(cache.planIncludes(for: key, now: start), false, "each key its own")
        XCTAssertNil(cache.planIncludes(for: key, now: start.addingTimeInterval(KAnonymityCache.maxAge + 1)), "asked again after a day")
        cache.rememberPlan(nil, for: key, now: start)
        XCTAssertNil(cache.planIncludes(for: key, now: start), "absent: unknown, not no")
        let text = (try? String(contentsOf: folder.appendingPathComponent(KAnonymityCache.fileName), encoding: .utf8)) ?? ""
        XCTAssertFalse(text.contains("1111111111"), "the key itself is never stored")
    }
}
