import XCTest
@testable import PwnVaultCore

final class RateLimiterTests: XCTestCase {
    /// 60 s / rpm × 1.01 + 1 ms, computed here independently in floating point.
    func expectedInterval(_ rpm: Int) -> Double { 60.0 / Double(rpm) * 1.01 + 0.001 }

    func seconds(_ d: Duration) -> Double {
        Double(d.components.seconds) + Double(d.components.attoseconds) / 1e18
    }

    func testIntervalIsSlightlySlowerThanTheKeysRate() {
        for rpm in [10, 600, 1000, 3000, 12_000] {
            let limiter = RateLimiter(requestsPerMinute: rpm)
            XCTAssertEqual(seconds(limiter.interval), expectedInterval(rpm), accuracy: 1e-9, "rpm \(rpm)")
            XCTAssertGreaterThan(limiter.interval, .seconds(60) / rpm, "never faster than the key allows")
        }
    }

    func testTheMarginIsAbsoluteAsWellAsRelative() {
        // At 3,000/min 1 % is 0.2 ms, less than arrivals jitter: the 1 ms is what keeps them apart.
        XCTAssertEqual(RateLimiter(requestsPerMinute: 3000).interval, .microseconds(20_200) + .milliseconds(1))
        XCTAssertEqual(RateLimiter(requestsPerMinute: 3000, absoluteMargin: .zero).interval, .microseconds(20_200))
        XCTAssertEqual(RateLimiter(requestsPerMinute: 3000, absoluteMargin: .seconds(1)).absoluteMargin,
                       RateLimiter.maximumAbsoluteMargin, "clamped")
    }

    func testUnknownRateIsTheSmallestPlan() {
        XCTAssertEqual(RateLimiter(requestsPerMinute: nil).requestsPerMinute, 10)
        XCTAssertEqual(RateLimiter(requestsPerMinute: 0).interval, RateLimiter(requestsPerMinute: 10).interval)
        XCTAssertEqual(RateLimiter(requestsPerMinute: -5).requestsPerMinute, 10)
    }

    func testStartsAreSpacedByTheInterval() {
        var limiter = RateLimiter(requestsPerMinute: 600)
        var now = Duration.zero
        var starts: [Duration] = []
        for _ in 0..<5 {
            let start = limiter.earliestStart(now: now)
            starts.append(start)
            limiter.recordStart(at: start)
            now = start                              // the caller is always ready at once
        }
        XCTAssertEqual(starts, (0..<5).map { limiter.interval * $0 })
    }

    func testAnIdleCallerStartsAtOnceWithoutABurst() {
        var limiter = RateLimiter(requestsPerMinute: 600)
        limiter.recordStart(at: .zero)
        XCTAssertEqual(limiter.earliestStart(now: .seconds(10)), .seconds(10))
        limiter.recordStart(at: .seconds(10))
        XCTAssertEqual(limiter.earliestStart(now: .seconds(10)), .seconds(10) + limiter.interval,
                       "idle time is not saved up for a burst")
    }

    func testHoldDelaysEveryStart() {
        var limiter = RateLimiter(requestsPerMinute: 3000)
        limiter.recordStart(at: .zero)
        limiter.hold(until: .seconds(3))
        XCTAssertEqual(limiter.earliestStart(now: .milliseconds(100)), .seconds(3))
        limiter.hold(until: .seconds(1))
        XCTAssertEqual(limiter.heldUntil, .seconds(3), "a shorter hold never shortens a longer one")
        limiter.recordStart(at: .seconds(3))
        XCTAssertEqual(limiter.earliestStart(now: .seconds(3)), .seconds(3) + limiter.interval)
    }

    func testBackoffDoublesWithJitterBounds() {
        let policy = RetryPolicy.standard
        XCTAssertEqual(policy.backoff(retry: 1, unit: 0.5), .seconds(1))
        XCTAssertEqual(policy.backoff(retry: 2, unit: 0.5), .seconds(2))
        XCTAssertEqual(policy.backoff(retry: 3, unit: 0.5), .seconds(4))
        XCTAssertEqual(policy.backoff(retry: 1, unit: 0), .milliseconds(750))
        XCTAssertEqual(policy.backoff(retry: 3, unit: 1), .seconds(5))
        XCTAssertEqual(RetryPolicy(jitter: 0).backoff(retry: 2, unit: 0.9), .seconds(2))
    }

    func testRateLimitWaitAddsTheMargin() {
        let policy = RetryPolicy.standard
        XCTAssertEqual(policy.rateLimitWait(retryAfter: 2), .milliseconds(2250))
        XCTAssertEqual(policy.rateLimitWait(retryAfter: 0.1), .milliseconds(350))
        XCTAssertEqual(policy.rateLimitWait(retryAfter: nil), .milliseconds(2250))
    }
}

final class RateLimiterBoundsTests: XCTestCase {
    /// A server (or a cached answer) claiming an absurd rate must not crash the run or lift the limit.
    func testAnAbsurdRateIsClampedNotTrusted() {
        let limiter = RateLimiter(requestsPerMinute: 900_000_000_000_000_000)
        XCTAssertEqual(limiter.requestsPerMinute, RateLimiter.maximumRequestsPerMinute)
        XCTAssertGreaterThan(limiter.interval, .zero)
        XCTAssertEqual(RateLimiter(requestsPerMinute: -5).requestsPerMinute, RateLimiter.defaultRequestsPerMinute)
    }
}

final class RateLimiterAdaptationTests: XCTestCase {
    func testA429HalvesThePaceOncePerBurstAndSuccessesBringItBack() {
        var limiter = RateLimiter(requestsPerMinute: 600)
        let full = limiter.interval
        for _ in 0..<4 { limiter.speedUp() }   // four successes in a row prove the full pace
        XCTAssertEqual(limiter.provenRequestsPerMinute, 600)
        XCTAssertTrue(limiter.slowDown(requestStartedAt: .seconds(1), now: .seconds(2)))
        XCTAssertEqual(limiter.currentRequestsPerMinute, 300)
        XCTAssertEqual(limiter.interval, RateLimiter(requestsPerMinute: 300, absoluteMargin: .milliseconds(2)).interval,
                       "half the pace, and twice the absolute margin")
        // A request sent before the cut, at the old pace, does not cut again.
        XCTAssertFalse(limiter.slowDown(requestStartedAt: .milliseconds(1500), now: .milliseconds(2100)))
        XCTAssertEqual(limiter.currentRequestsPerMinute, 300)
        // Additive steps of 600/32 up to 95 % of the rate that failed, never above the key's rate.
        limiter.speedUp()
        XCTAssertEqual(limiter.currentRequestsPerMinute, 318)
        for _ in 0..<14 { limiter.speedUp() }
        XCTAssertEqual(limiter.currentRequestsPerMinute, 570)
        for _ in 0..<15 { limiter.speedUp() }
        XCTAssertEqual(limiter.currentRequestsPerMinute, 570, "it stays there a while")
        // After a long run of successes it probes back to the key's full rate.
        for _ in 0..<2000 { limiter.speedUp() }
        XCTAssertEqual(limiter.currentRequestsPerMinute, 600)
        XCTAssertEqual(limiter.interval, full + .milliseconds(1), "the key's full rate, with the margin the 429 taught")
    }

    func testEach429BurstDoublesTheAbsoluteMarginUpToItsMaximumAndItIsKept() {
        var limiter = RateLimiter(requestsPerMinute: 3000, deepestCut: 2)
        for _ in 0..<4 { limiter.speedUp() }
        var margins: [Duration] = []
        for t in 1...6 {
            limiter.slowDown(requestStartedAt: .seconds(t), now: .seconds(t))
            margins.append(limiter.absoluteMargin)
        }
        XCTAssertEqual(margins, [2, 4, 8, 16, 16, 16].map { .milliseconds($0) })
        // A 429 from a request sent before the last cut is of the same burst: no more room.
        limiter.slowDown(requestStartedAt: .milliseconds(5500), now: .seconds(7))
        XCTAssertEqual(limiter.absoluteMargin, .milliseconds(16))
        for _ in 0..<3000 { limiter.speedUp() }
        XCTAssertEqual(limiter.currentRequestsPerMinute, 3000)
        XCTAssertEqual(limiter.interval, RateLimiter(requestsPerMinute: 3000, absoluteMargin: .milliseconds(16)).interval)
        var none = RateLimiter(requestsPerMinute: 600, absoluteMargin: .zero)
        none.slowDown(requestStartedAt: .zero, now: .zero)
        XCTAssertEqual(none.absoluteMargin, RateLimiter.defaultAbsoluteMargin, "no margin at all grows to the default")
    }

    func testUntilAPaceIsProvenA429QuartersItAndTheCutsStopAtASixteenth() {
        var limiter = RateLimiter(requestsPerMinute: 6000)
        limiter.speedUp()
        XCTAssertTrue(limiter.slowDown(requestStartedAt: .seconds(1), now: .seconds(1)))
        XCTAssertEqual(limiter.currentRequestsPerMinute, 1500)
        XCTAssertTrue(limiter.slowDown(requestStartedAt: .seconds(2), now: .seconds(2)))
        XCTAssertEqual(limiter.currentRequestsPerMinute, 375)
        XCTAssertTrue(limiter.slowDown(requestStartedAt: .seconds(3), now: .seconds(3)))
        XCTAssertEqual(limiter.currentRequestsPerMinute, 375, "1/16 of the key's rate at least")
    }

    func testAGuessedRateHalvesEachRoundInsteadOfQuarteringDownToOneAMinute() {
        var limiter = RateLimiter(requestsPerMinute: nil)
        XCTAssertTrue(limiter.isGuess)
        var rates: [Int] = []
        for t in 1...5 {
            limiter.slowDown(requestStartedAt: .seconds(t), now: .seconds(t))
            rates.append(limiter.currentRequestsPerMinute)
        }
        XCTAssertEqual(rates, [5, 2, 1, 1, 1])
        XCTAssertFalse(RateLimiter(requestsPerMinute: 10).isGuess, "10 said by HIBP is not a guess")
    }

    func testAHoldThatRebasesLetsTheNextStartGoWhenItEnds() {
        var limiter = RateLimiter(requestsPerMinute: nil)
        limiter.recordStart(at: .zero)
        limiter.slowDown(requestStartedAt: .zero, now: .milliseconds(100))
        var rebased = limiter
        rebased.hold(until: .seconds(2), rebase: true)
        XCTAssertEqual(rebased.earliestStart(now: .seconds(1)), .seconds(2), "the guessed slot (12 s) no longer holds it")
        XCTAssertEqual(rebased.wireSpacing(startingAt: .seconds(2)), .seconds(2), "nor does the wire")
        limiter.hold(until: .seconds(2))
        XCTAssertEqual(limiter.earliestStart(now: .seconds(1)), RateLimiter(requestsPerMinute: nil).interval, "without rebase the paced slot stands")
    }

    func testAProvenPaceIsAFloorForTheCuts() {
        var limiter = RateLimiter(requestsPerMinute: 600)
        for _ in 0..<4 { limiter.speedUp() }
        for t in 1...5 { limiter.slowDown(requestStartedAt: .seconds(t), now: .seconds(t)) }
        XCTAssertEqual(limiter.currentRequestsPerMinute, 300, "collisions with another client cannot drive it below half the proven pace")
    }

    func testSuccessesNeverGoAboveTheKeysRate() {
        var limiter = RateLimiter(requestsPerMinute: 600)
        for _ in 0..<100 { limiter.speedUp() }
        XCTAssertEqual(limiter.currentRequestsPerMinute, 600)
        XCTAssertEqual(limiter.interval, RateLimiter(requestsPerMinute: 600).interval)
    }

    func testALateStartIsNotCaughtUp() {
        var limiter = RateLimiter(requestsPerMinute: 600)
        limiter.recordStart(at: .zero)
        limiter.recordStart(at: .milliseconds(180))   // late: the slot was at 102 ms
        XCTAssertEqual(limiter.earliestStart(now: .milliseconds(180)), .milliseconds(180) + limiter.interval)
    }
}
