import XCTest
@testable import PwnVaultCore

/// One schedule for every keyed request of a run (issue 22), and a guessed rate under 429s (issue 20):
/// the pace really halves round after round, and one account after one 429 waits what `retry-after`
/// says, not a guessed slot. Virtual time, no timing assertions.
extension CheckSchedulerTests {

    /// Runs `accounts` with a scheduler on `schedule` (whose clock must be `clock`), on virtual time.
    static func run(_ accounts: [String], on schedule: RequestSchedule, client: HIBPClient, retryPolicy: RetryPolicy = .standard,
                    onLongWait: @escaping @Sendable (Duration) -> Void = { _ in }) async throws -> Result<CheckRunReport, Error> {
        let scheduler = CheckScheduler(schedule: schedule, retryPolicy: retryPolicy, random: { 0.5 }, onLongWait: onLongWait)
        do {
            return .success(try await scheduler.run(accounts, perform: { try await client.breachedAccount($0) }, onResult: { _, _, _ in }))
        } catch { return .failure(error) }
    }

    // MARK: a guessed rate

    func testAGuessedRateHalvesRoundAfterRoundOf429sAndItsFirst429WaitsOnlyRetryAfter() async throws {
        let clock = VirtualClock()
        let schedule = RequestSchedule(requestsPerMinute: nil, clock: clock)
        let rates = Waits()   // the guessed rate in force at each attempt, as requests per minute in whole seconds
        let hibp = ScriptedHIBP(clock: clock) { _, _ in
            rates.add(.seconds(schedule.limiter.currentRequestsPerMinute))
            return HTTPResponse(status: 429, headers: ["retry-after": "2"])
        }
        let waits = Waits()
        let client = client(hibp)
        // A limit of an hour: the rounds, not the limit, end this run (see the test below for the limit).
        let patient = RetryPolicy(maxWait: .seconds(3600))
        let outcome = try await onVirtualTime(clock) {
            try await Self.run(["a0"], on: schedule, client: client, retryPolicy: patient, onLongWait: { waits.add($0) })
        }
        guard case let .failure(error) = outcome else { return XCTFail("a key that never lets up stops the run") }
        XCTAssertEqual(error as? HIBPError, .rateLimited(retryAfter: 2))
        XCTAssertEqual(hibp.log.count, RetryPolicy.standard.maxRateLimitRetries + 1)
        // The rate halves with each round (rounded down), from the 10-a-minute guess to 1 a minute, never quartered.
        XCTAssertEqual(rates.all.prefix(5).map(\.components.seconds), [10, 5, 2, 1, 1])
        let starts = hibp.log.map(\.at)
        let gaps = zip(starts, starts.dropFirst()).map { $1 - $0 }
        // The first 429 since a success: HIBP said when a request may go (2 s + the 250 ms margin);
        // the guessed slot (12 s at the halved guess) does not hold the retry back.
        XCTAssertEqual(gaps[0], .milliseconds(2250))
        // After that the halved pace decides (each cut also doubles the absoluteMargin): every gap at
        // least twice the one before, down to 1 a minute.
        XCTAssertEqual(gaps[1], RateLimiter(requestsPerMinute: 5, absoluteMargin: .milliseconds(2)).interval)
        XCTAssertEqual(gaps[2], RateLimiter(requestsPerMinute: 2, absoluteMargin: .milliseconds(4)).interval)
        XCTAssertEqual(gaps[3], RateLimiter(requestsPerMinute: 1, absoluteMargin: .milliseconds(8)).interval)
        for k in 1...3 { XCTAssertGreaterThanOrEqual(gaps[k], gaps[k - 1] * 2, "round \(k + 1): \(gaps)") }
        XCTAssertTrue(gaps.dropFirst(4).allSatisfy { $0 >= .seconds(60) }, "1 a minute at the slowest: \(gaps)")
        // The run of 429s is said once it passes 5 s, and each long wait before it begins, with its real length.
        XCTAssertEqual(waits.all.first, gaps[1])
        XCTAssertEqual(waits.all.count, gaps.count - 1)
    }

    /// Issue 30: `Retry-After: 2` forever is within any limit one wait at a time, but the pace halving
    /// round after round made the waits 12, 30, 61, 61 s… whatever `maxWait` said. The run of 429s is
    /// bounded as a whole: it stops (`.heldTooLong`) before its next try would come later than `maxWait`
    /// after its first 429, and nothing it would not wait for is announced.
    func testARunOf429sStopsBeforeItOutlastsTheLongestWait() async throws {
        for limit in [3, 60] {
            let clock = VirtualClock()
            let schedule = RequestSchedule(requestsPerMinute: nil, clock: clock)
            let hibp = ScriptedHIBP(clock: clock) { _, _ in HTTPResponse(status: 429, headers: ["retry-after": "2"]) }
            let waits = Waits()
            let client = client(hibp)
            let outcome = try await onVirtualTime(clock) {
                try await Self.run(["a0"], on: schedule, client: client, retryPolicy: RetryPolicy(maxWait: .seconds(limit)),
                                   onLongWait: { waits.add($0) })
            }
            guard case let .failure(error) = outcome, case let .heldTooLong(seconds, reported)? = error as? HIBPError else {
                return XCTFail("limit \(limit): \(outcome)")
            }
            XCTAssertEqual(reported, limit)
            XCTAssertGreaterThan(seconds, limit)
            let starts = hibp.log.map(\.at)
            // Every try went within the limit of the first 429 (the first request's answer, at 0).
            XCTAssertTrue(starts.allSatisfy { $0 <= .seconds(limit) }, "limit \(limit): \(starts)")
            XCTAssertLessThan(starts.count, RetryPolicy.standard.maxRateLimitRetries + 1, "the limit ends it before the rounds do")
            XCTAssertTrue(waits.all.allSatisfy { $0 <= .seconds(limit) }, "only waits it keeps are announced: \(waits.all)")
        }
        // A backoff (503) is cut to the limit too.
        let clock = VirtualClock()
        let schedule = RequestSchedule(requestsPerMinute: 600, clock: clock)
        let hibp = ScriptedHIBP(clock: clock) { _, _ in HTTPResponse(status: 503) }
        let client = client(hibp)
        _ = try await onVirtualTime(clock) {
            try await Self.run(["a0"], on: schedule, client: client, retryPolicy: RetryPolicy(baseDelay: .seconds(2), maxWait: .seconds(3)))
        }
        let starts = hibp.log.map(\.at)
        let gaps = zip(starts, starts.dropFirst()).map { $1 - $0 }
        XCTAssertEqual(gaps.count, 3)
        XCTAssertTrue(gaps.allSatisfy { $0 <= .seconds(3) }, "\(gaps)")
        XCTAssertEqual(gaps.map(\.components.seconds), [2, 3, 3], "backoffs of 2, 4 and 8 s (no jitter at 0.5) cut to 3 s")
    }

    func testOneAccountAfterOne429AtAGuessedRateWaitsWhatRetryAfterSays() async throws {
        for (header, wait) in [(Optional("1"), Duration.milliseconds(1250)), ("3", .milliseconds(3250)), (nil, .milliseconds(2250))] {
            let (outcome, hibp, results, _) = try await check(["a0"], rpm: nil, script: { _, attempt in
                attempt == 1 ? HTTPResponse(status: 429, headers: header.map { ["retry-after": $0] } ?? [:]) : HTTPResponse(status: 404)
            })
            XCTAssertEqual(try outcome.get().totals, RunTotals(succeeded: 1, failed: 0, requests: 2))
            XCTAssertEqual(hibp.log.map(\.at), [.zero, wait], "retry-after \(header ?? "absent")")
            assertEachDeliveredOnce(results, ["a0"])
        }
        // Two accounts at the guess: the retry goes when HIBP said, the next account one halved interval later.
        let (outcome, hibp, _, _) = try await check(["a0", "a1"], rpm: nil, script: { account, attempt in
            account == "a0" && attempt == 1 ? HTTPResponse(status: 429, headers: ["retry-after": "1"]) : HTTPResponse(status: 404)
        })
        XCTAssertEqual(try outcome.get().lookupsAnswered, 2)
        XCTAssertEqual(hibp.log.map(\.account), ["a0", "a0", "a1"])
        XCTAssertEqual(hibp.log.map(\.at), [.zero, .milliseconds(1250),
                                            .milliseconds(1250) + RateLimiter(requestsPerMinute: 5, absoluteMargin: .milliseconds(2)).interval])
    }

    // MARK: one schedule

    func testEveryRequestOfARunTakesItsSlotOfOneSchedule() async throws {
        let clock = VirtualClock()
        let schedule = RequestSchedule(requestsPerMinute: 600, clock: clock)
        let interval = RateLimiter(requestsPerMinute: 600).interval
        let hibp = ScriptedHIBP(clock: clock, latency: .milliseconds(30)) { account, attempt in
            account == "d1" && attempt == 1 ? HTTPResponse(status: 429, headers: ["retry-after": "1"]) : HTTPResponse(status: 404)
        }
        // A command's requests one after the other (the domain list, then a search that meets a 429),
        // then the checks, then two runs at once: each scheduler takes its slots from the same schedule.
        let client = client(hibp)
        _ = try await onVirtualTime(clock) { () -> Bool in
            _ = try await Self.run(["d0"], on: schedule, client: client)
            _ = try await Self.run(["d1"], on: schedule, client: client)
            _ = try await Self.run(["a0", "a1", "a2"], on: schedule, client: client)
            async let left = Self.run(["b0", "b1", "b2"], on: schedule, client: client)
            async let right = Self.run(["c0", "c1", "c2"], on: schedule, client: client)
            _ = try await (left, right)
            return true
        }
        let log = hibp.log
        XCTAssertEqual(log.count, 12)
        XCTAssertEqual(log[1].at, interval, "the second command request waits its slot after the first")
        // d1's 429 (answered at interval + 30 ms) holds every start for 1.25 s; its retry goes first.
        let holdEnd = interval + .milliseconds(30) + .milliseconds(1250)
        XCTAssertEqual(log[2].account, "d1")
        XCTAssertEqual(log[2].at, holdEnd)
        XCTAssertEqual(log[3].account, "a0")
        let starts = log.map(\.at).sorted()
        for (a, b) in zip(starts, starts.dropFirst()) {
            XCTAssertGreaterThanOrEqual(b - a, interval, "no two keyed requests of the run closer than the interval")
        }
        XCTAssertEqual(Set(log.map(\.account)).count, 11)
    }

    func testLearningTheRateKeepsTheLastStartAndTheHold() {
        let clock = VirtualClock()
        let schedule = RequestSchedule(requestsPerMinute: nil, clock: clock)
        XCTAssertTrue(schedule.limiter.isGuess)
        schedule.update { $0.recordStart(at: .seconds(1)) }   // subscription/status, at the guess
        schedule.learn(requestsPerMinute: 600)
        XCTAssertFalse(schedule.limiter.isGuess)
        XCTAssertEqual(schedule.limiter.deepestCut, 2, "a rate HIBP stated is cut to half at most")
        XCTAssertEqual(schedule.limiter.earliestStart(now: .seconds(1)), .seconds(1) + RateLimiter(requestsPerMinute: 600).interval,
                       "the first check one interval of the learned rate after the question, not 6 s")
        schedule.update { $0.hold(until: .seconds(5)) }
        schedule.learn(requestsPerMinute: 3000, rateFromUser: true)
        XCTAssertEqual(schedule.limiter.earliestStart(now: .seconds(2)), .seconds(5), "a 429's hold survives")
        XCTAssertEqual(schedule.limiter.deepestCut, 16)
    }
}
