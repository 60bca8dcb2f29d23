import XCTest
@testable import PwnVaultCore

/// `CheckScheduler` on virtual time: a clock that jumps to the next deadline once every task of the
/// run is waiting, and a single-threaded executor that says exactly when that is. No real waiting,
/// no timing assertions: only the order and the virtual times of what happened.
final class CheckSchedulerTests: XCTestCase {

    // MARK: the harness

    /// Runs jobs one at a time on its own thread and knows when none is queued or running.
    /// Unchecked: its queue and flags are only touched with `condition` locked.
    final class SteppingExecutor: TaskExecutor, @unchecked Sendable {
        private let condition = NSCondition()
        private var queue: [UnownedJob] = []
        private var running = false
        private var stopped = false

        init() {
            let thread = Thread { self.loop() }   // strong: the thread keeps it alive until stop()
            thread.start()
        }

        func enqueue(_ job: consuming ExecutorJob) {
            let job = UnownedJob(job)
            condition.lock(); queue.append(job); condition.broadcast(); condition.unlock()
        }

        private func loop() {
            while true {
                condition.lock()
                while queue.isEmpty && !stopped { condition.wait() }
                if stopped { condition.unlock(); return }
                let job = queue.removeFirst()
                running = true
                condition.unlock()
                job.runSynchronously(on: asUnownedTaskExecutor())
                condition.lock(); running = false; condition.broadcast(); condition.unlock()
            }
        }

        /// Blocks until no job is queued or running.
        func waitUntilIdle() {
            condition.lock()
            while !queue.isEmpty || running { condition.wait() }
            condition.unlock()
        }

        func stop() { condition.lock(); stopped = true; condition.broadcast(); condition.unlock() }
    }

    /// Virtual time: `sleep` parks the task; `advance()` jumps to the earliest deadline.
    /// Unchecked: its mutable state is only touched with `lock` held.
    final class VirtualClock: SchedulerClock, @unchecked Sendable {
        private let lock = NSLock()
        private var current: Duration = .zero
        private var nextID = 0
        private var sleepers: [(id: Int, deadline: Duration, continuation: CheckedContinuation<Void, Error>)] = []

        func now() -> Duration { lock.withLock { current } }

        func sleep(until deadline: Duration) async throws {
            let id: Int = lock.withLock { nextID += 1; return nextID }
            try await withTaskCancellationHandler {
                try await withCheckedThrowingContinuation { (c: CheckedContinuation<Void, Error>) in
                    lock.lock()
                    if Task.isCancelled { lock.unlock(); c.resume(throwing: CancellationError()); return }
                    if deadline <= current { lock.unlock(); c.resume(); return }
                    sleepers.append((id, deadline, c))
                    lock.unlock()
                }
            } onCancel: {
                lock.lock()
                let index = sleepers.firstIndex { $0.id == id }
                let sleeper = index.map { sleepers.remove(at: $0) }
                lock.unlock()
                sleeper?.continuation.resume(throwing: CancellationError())
            }
        }

        func sleep(for duration: Duration) async throws { try await sleep(until: now() + duration) }

        /// Moves to the earliest deadline and wakes everyone due then; false when nobody sleeps.
        func advance() -> Bool {
            lock.lock()
            guard let next = sleepers.map(\.deadline).min() else { lock.unlock(); return false }
            current = max(current, next)
            let due = sleepers.filter { $0.deadline <= current }
            sleepers.removeAll { $0.deadline <= current }
            lock.unlock()
            for sleeper in due.sorted(by: { ($0.deadline, $0.id) < ($1.deadline, $1.id) }) { sleeper.continuation.resume() }
            return true
        }
    }

    /// Runs `body` on the stepping executor, advancing the virtual clock whenever everything waits.
    func onVirtualTime<T: Sendable>(_ clock: VirtualClock, _ body: @escaping @Sendable () async throws -> T) async throws -> T {
        let executor = SteppingExecutor()
        defer { executor.stop() }
        let done = Flag()
        let task = Task(executorPreference: executor) { () async throws -> T in
            defer { done.set() }
            return try await body()
        }
        Self.step(clock, executor, until: done, cancel: { task.cancel() })
        return try await task.value
    }

    /// Lets `executor` run what is queued and advances `clock` whenever everything waits, until `done`;
    /// a run where nothing runs and nothing sleeps for about 2 s is cancelled and fails the test.
    static func step(_ clock: VirtualClock, _ executor: SteppingExecutor, until done: Flag, cancel: () -> Void) {
        var idleRounds = 0
        while !done.isSet {
            executor.waitUntilIdle()
            if done.isSet { break }
            if clock.advance() { idleRounds = 0; continue }
            // Nothing queued, nobody asleep, not done: a job may be on its way from another thread.
            idleRounds += 1
            if idleRounds > 2000 { cancel(); XCTFail("the run is stuck: nothing runs and nothing sleeps"); break }
            usleep(1000)
        }
    }

    /// Unchecked: its mutable state is only touched with `lock` held.
    final class Flag: @unchecked Sendable {
        private let lock = NSLock()
        private var value = false
        func set() { lock.withLock { value = true } }
        var isSet: Bool { lock.withLock { value } }
    }

    /// An HIBP stand-in on the virtual clock: records when each request starts, waits `latency`,
    /// answers with `script(account, attempt)` (attempts count from 1 per account).
    /// Unchecked: its mutable state is only touched with `lock` held.
    final class ScriptedHIBP: HTTPTransport, @unchecked Sendable {
        struct Start: Equatable { let account: String; let at: Duration; let attempt: Int }
        private let lock = NSLock()
        private var starts: [Start] = []
        private var attempts: [String: Int] = [:]
        private var active = 0
        private var maxActive = 0
        let clock: VirtualClock
        let latency: Duration
        let script: @Sendable (String, Int) -> HTTPResponse

        init(clock: VirtualClock, latency: Duration = .zero,
             script: @escaping @Sendable (String, Int) -> HTTPResponse = { _, _ in HTTPResponse(status: 404) }) {
            self.clock = clock; self.latency = latency; self.script = script
        }

        func send(_ request: HTTPRequest) async throws -> HTTPResponse {
            let account = request.url.lastPathComponent
            let attempt: Int = lock.withLock {
                attempts[account, default: 0] += 1
                starts.append(Start(account: account, at: clock.now(), attempt: attempts[account]!))
                active += 1; maxActive = max(maxActive, active)
                return attempts[account]!
            }
            defer { lock.withLock { active -= 1 } }
            if latency > .zero { try await clock.sleep(for: latency) }
            return script(account, attempt)
        }

        var log: [Start] { lock.withLock { starts } }
        var mostInFlight: Int { lock.withLock { maxActive } }
    }

    /// One result as the scheduler hands it over: the account (by its position in the list), its
    /// answer or failure, and the requests it took.
    struct Delivered: Sendable {
        let item: String
        let result: Result<AccountLookup, HIBPError>
        let attempts: Int
    }

    /// Collects delivered results with the virtual time of delivery.
    /// Unchecked: its mutable state is only touched with `lock` held.
    final class Results: @unchecked Sendable {
        private let lock = NSLock()
        private var items: [(account: String, result: Result<AccountLookup, HIBPError>, attempts: Int, at: Duration)] = []
        func add(_ r: Delivered, at: Duration) {
            lock.withLock { items.append((r.item, r.result, r.attempts, at)) }
        }
        var all: [(account: String, result: Result<AccountLookup, HIBPError>, attempts: Int, at: Duration)] { lock.withLock { items } }
    }

    static let key = SecretBytes(copying: Array("11111111111111111111111111111111".utf8))

    func client(_ transport: any HTTPTransport) -> HIBPClient {
        HIBPClient(baseURL: URL(string: "https://hibp.test/api/v3/")!, apiKey: Self.key, version: "0.1.0", transport: transport)
    }

    func accounts(_ n: Int) -> [String] { (0..<n).map { "a\($0)" } }

    /// Runs a whole check of `accounts` and returns the summary (or the error) with the results.
    func check(_ accounts: [String], rpm: Int?, latency: Duration = .zero, maxInFlight: Int = 16,
               random: @escaping @Sendable () -> Double = { 0.5 },
               script: @escaping @Sendable (String, Int) -> HTTPResponse = { _, _ in HTTPResponse(status: 404) },
               retryPolicy: RetryPolicy = .standard, onLongWait: @escaping @Sendable (Duration) -> Void = { _ in },
               onEach: (@Sendable (Delivered) -> Void)? = nil)
    async throws -> (outcome: Result<CheckRunReport, Error>, hibp: ScriptedHIBP, results: Results, clock: VirtualClock) {
        let clock = VirtualClock()
        let hibp = ScriptedHIBP(clock: clock, latency: latency, script: script)
        let results = Results()
        let scheduler = CheckScheduler(requestsPerMinute: rpm, maxInFlight: maxInFlight, retryPolicy: retryPolicy,
                                       clock: clock, random: random, onLongWait: onLongWait)
        let client = client(hibp)
        let outcome: Result<CheckRunReport, Error> = try await onVirtualTime(clock) {
            do {
                return .success(try await scheduler.run(accounts, perform: { try await client.breachedAccount($0) },
                                                        onResult: { index, result, attempts in
                    let delivered = Delivered(item: accounts[index], result: result, attempts: attempts)
                    results.add(delivered, at: clock.now())
                    onEach?(delivered)
                }))
            } catch { return .failure(error) }
        }
        return (outcome, hibp, results, clock)
    }

    func assertEachDeliveredOnce(_ results: Results, _ accounts: [String], file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertEqual(results.all.map(\.account).sorted(), accounts.sorted(), "every account exactly once", file: file, line: line)
    }

    // MARK: pacing

    func testStartsAreEvenlySpacedAtTheKeysRate() async throws {
        for (rpm, count) in [(10, 8), (600, 40), (3000, 120)] {
            let (outcome, hibp, results, _) = try await check(accounts(count), rpm: rpm)
            XCTAssertEqual(try outcome.get().totals, RunTotals(succeeded: count, failed: 0, requests: count))
            let interval = RateLimiter(requestsPerMinute: rpm).interval
            XCTAssertEqual(hibp.log.map(\.at), (0..<count).map { interval * $0 }, "rpm \(rpm)")
            XCTAssertEqual(hibp.log.map(\.account), accounts(count), "in the order given")
            assertEachDeliveredOnce(results, accounts(count))
            // Never more than the key's rate in any minute.
            let times = hibp.log.map(\.at)
            for (i, t) in times.enumerated() {
                XCTAssertLessThanOrEqual(times[i...].prefix { $0 < t + .seconds(60) }.count, rpm)
            }
        }
    }

    func testUnknownRateStartsAtTenPerMinute() async throws {
        let (_, hibp, _, _) = try await check(accounts(3), rpm: nil)
        XCTAssertEqual(hibp.log.map(\.at), [.zero, .milliseconds(6061), .milliseconds(12_122)])   // 6 s × 1.01 + 1 ms
    }

    func testInFlightGrowsWhenTheServerIsSlow() async throws {
        let fast = try await check(accounts(30), rpm: 1000, latency: .milliseconds(10))
        XCTAssertEqual(fast.hibp.mostInFlight, 1, "a fast server needs one request at a time")

        let slow = try await check(accounts(30), rpm: 1000, latency: .milliseconds(200))
        let interval = RateLimiter(requestsPerMinute: 1000).interval
        XCTAssertEqual(slow.hibp.log.map(\.at), (0..<30).map { interval * $0 }, "the pace holds despite the latency")
        XCTAssertEqual(slow.hibp.mostInFlight, 4, "200 ms / 61.2 ms: four in flight")
        assertEachDeliveredOnce(slow.results, accounts(30))

        let crawling = try await check(accounts(40), rpm: 1000, latency: .seconds(2))
        XCTAssertEqual(crawling.hibp.mostInFlight, 16, "capped at 16")
        let starts = crawling.hibp.log.map(\.at)
        for (a, b) in zip(starts, starts.dropFirst()) { XCTAssertGreaterThanOrEqual(b - a, interval) }
        XCTAssertEqual(starts[16], .seconds(2), "the 17th waits for the first to finish")
    }

    // MARK: 429

    func testRateLimitedRequestIsRetriedAfterRetryAfterAndHoldsEveryStart() async throws {
        let (outcome, hibp, results, _) = try await check(accounts(6), rpm: 600, script: { account, attempt in
            if account == "a2", attempt == 1 { return HTTPResponse(status: 429, headers: ["Retry-After": "2"]) }
            return account == "a4" ? HTTPResponse(status: 200, body: Data(#"[{"Name":"Adobe"}]"#.utf8)) : HTTPResponse(status: 404)
        })
        XCTAssertEqual(try outcome.get().totals, RunTotals(succeeded: 6, failed: 0, requests: 7))
        let interval = RateLimiter(requestsPerMinute: 600).interval
        let resume = interval * 2 + .milliseconds(2250)                      // retry-after 2 s + 250 ms margin
        XCTAssertEqual(hibp.log.prefix(4), [
            .init(account: "a0", at: .zero, attempt: 1),
            .init(account: "a1", at: interval, attempt: 1),
            .init(account: "a2", at: interval * 2, attempt: 1),
            .init(account: "a2", at: resume, attempt: 2),                     // the same request first
        ])
        XCTAssertEqual(hibp.log.dropFirst(4).map(\.account), ["a3", "a4", "a5"], "nothing else started meanwhile")
        // The 429 cut the pace (to half: HIBP gave the rate, so another client must share the key);
        // each success brings it back by a step.
        let gaps = zip(hibp.log.dropFirst(3), hibp.log.dropFirst(4)).map { $1.at - $0.at }
        XCTAssertEqual(gaps.first, RateLimiter(requestsPerMinute: 300, absoluteMargin: .milliseconds(2)).interval)
        for (a, b) in zip(gaps, gaps.dropFirst()) { XCTAssertLessThan(b, a, "speeding up again") }
        XCTAssertTrue(gaps.allSatisfy { $0 > interval })
        assertEachDeliveredOnce(results, accounts(6))
        let a2 = results.all.first { $0.account == "a2" }
        XCTAssertEqual(a2?.attempts, 2)
        XCTAssertEqual(try a2?.result.get(), .clean)
        XCTAssertEqual(try results.all.first { $0.account == "a4" }?.result.get().breachNames, ["Adobe"])
    }

    func testRateLimitUnderConcurrencyLosesAndDuplicatesNothing() async throws {
        let list = accounts(60)
        let (outcome, hibp, results, _) = try await check(list, rpm: 3000, latency: .milliseconds(300), script: { account, attempt in
            let n = Int(account.dropFirst())!
            if n % 7 == 0, attempt <= 2 { return HTTPResponse(status: 429, headers: ["retry-after": "1"]) }
            if n % 11 == 0, attempt == 1 { return HTTPResponse(status: 503) }
            return HTTPResponse(status: 404)
        })
        XCTAssertEqual(try outcome.get().lookupsAnswered, 60)
        assertEachDeliveredOnce(results, list)
        // Every 429 held back every start from its arrival until its retry-after had passed.
        let starts = hibp.log
        let holds = starts.filter { Int($0.account.dropFirst())! % 7 == 0 && $0.attempt <= 2 }
            .map { ($0.at + .milliseconds(300))..<($0.at + .milliseconds(300) + .milliseconds(1250)) }
        XCTAssertEqual(holds.count, 18)
        for start in starts {
            for hold in holds { XCTAssertFalse(hold.contains(start.at), "\(start.account) started inside a hold") }
        }
        let interval = RateLimiter(requestsPerMinute: 3000).interval
        for (a, b) in zip(starts, starts.dropFirst()) { XCTAssertGreaterThanOrEqual(b.at - a.at, interval) }
    }

    // MARK: backoff

    func testServerErrorsAreRetriedWithExponentialBackoffThenReported() async throws {
        let (outcome, hibp, results, _) = try await check(["a0"], rpm: 600, script: { _, _ in HTTPResponse(status: 503) })
        XCTAssertEqual(try outcome.get().totals, RunTotals(succeeded: 0, failed: 1, requests: 4))
        XCTAssertEqual(hibp.log.map(\.at), [.zero, .seconds(1), .seconds(3), .seconds(7)], "1 s, 2 s, 4 s apart")
        XCTAssertEqual(results.all.count, 1)
        XCTAssertEqual(results.all[0].attempts, 4)
        XCTAssertThrowsError(try results.all[0].result.get()) { XCTAssertEqual($0 as? HIBPError, .unavailable) }
    }

    func testBackoffIsJittered() async throws {
        let (_, low, _, _) = try await check(["a0"], rpm: 600, random: { 0 }, script: { _, _ in HTTPResponse(status: 503) })
        XCTAssertEqual(low.log.map(\.at), [.zero, .milliseconds(750), .milliseconds(2250), .milliseconds(5250)])
        let (_, high, _, _) = try await check(["a0"], rpm: 600, random: { 0.999_999 }, script: { _, _ in HTTPResponse(status: 502) })
        let gaps = zip(high.log.dropFirst(), high.log).map { $0.at - $1.at }
        XCTAssertEqual(gaps.count, 3)
        for (gap, base) in zip(gaps, [1.0, 2.0, 4.0]) {
            XCTAssertGreaterThan(gap, .seconds(base * 1.24))
            XCTAssertLessThanOrEqual(gap, .seconds(base * 1.25))
        }
    }

    func testFailingAccountDoesNotStopTheOthers() async throws {
        let (outcome, _, results, _) = try await check(accounts(5), rpm: 600, script: { account, _ in
            account == "a1" ? HTTPResponse(status: 400) : HTTPResponse(status: 404)
        })
        XCTAssertEqual(try outcome.get().totals, RunTotals(succeeded: 4, failed: 1, requests: 5), "400 is not retried")
        assertEachDeliveredOnce(results, accounts(5))
        XCTAssertThrowsError(try results.all.first { $0.account == "a1" }!.result.get()) {
            XCTAssertEqual($0 as? HIBPError, .badRequest(.account))
        }
    }

    // MARK: stopping

    func testUnauthorizedStopsTheRun() async throws {
        let (outcome, hibp, results, _) = try await check(accounts(20), rpm: 600, latency: .milliseconds(250), script: { account, _ in
            account == "a3" ? HTTPResponse(status: 401, body: Data("Access denied due to invalid hibp-api-key.".utf8)) : HTTPResponse(status: 404)
        })
        guard case let .failure(error) = outcome else { return XCTFail("the run must stop") }
        XCTAssertEqual(error as? HIBPError, .unauthorized(detail: "Access denied due to invalid hibp-api-key."))
        let interval = RateLimiter(requestsPerMinute: 600).interval
        let stoppedAt = interval * 3 + .milliseconds(250)
        XCTAssertTrue(hibp.log.allSatisfy { $0.at < stoppedAt }, "nothing starts after the 401")
        XCTAssertLessThan(hibp.log.count, 20)
        XCTAssertEqual(results.all.map(\.account), ["a0", "a1", "a2"], "finished ones are kept, the rest are not reported")
    }

    func testForbiddenStopsTheRun() async throws {
        let (outcome, hibp, _, _) = try await check(accounts(10), rpm: 600, script: { _, _ in
            HTTPResponse(status: 403, headers: ["cf-ray": "abc123-AMS"], body: Data("<html>blocked</html>".utf8))
        })
        guard case let .failure(error) = outcome else { return XCTFail("the run must stop") }
        XCTAssertEqual(error as? HIBPError, .forbidden(cfRay: "abc123-AMS", detail: ""))
        XCTAssertEqual(hibp.log.count, 1)
    }

    func testCancellationStopsNewStarts() async throws {
        let (outcome, hibp, results, _) = try await check(accounts(50), rpm: 600, onEach: { result in
            if result.item == "a2" { withUnsafeCurrentTask { $0?.cancel() } }
        })
        guard case let .failure(error) = outcome else { return XCTFail("a cancelled run must say so") }
        XCTAssertTrue(error is CancellationError, "\(error)")
        XCTAssertEqual(hibp.log.map(\.account), ["a0", "a1", "a2"], "no start after the cancellation")
        XCTAssertEqual(results.all.map(\.account), ["a0", "a1", "a2"])
    }

    func testEndlessRateLimitingStopsTheRunButGivesNoAccountUp() async throws {
        // (A limit of an hour: the rounds end this run, before the limit would; MaxWait tests the limit.)
        let (outcome, hibp, results, clock) = try await check(accounts(5), rpm: 600, script: { account, _ in
            HTTPResponse(status: 429, headers: ["retry-after": "60"])
        }, retryPolicy: RetryPolicy(maxWait: .seconds(3600)), onEach: { _ in })
        // Every attempt is limited: the run would go on for hours of virtual time. It must stop after
        // maxRateLimitRetries rounds of 429s without a success, not spin, and not report any account
        // as failed (a 429 says nothing about the account).
        guard case let .failure(error) = outcome else { return XCTFail("the run must stop") }
        XCTAssertEqual(error as? HIBPError, .rateLimited(retryAfter: 60))
        XCTAssertEqual(results.all.count, 0)
        XCTAssertEqual(hibp.log.filter { $0.account == "a0" }.count, 11)
        XCTAssertGreaterThan(clock.now(), .seconds(600))
    }

    func testARetryAfterLongerThanTheLimitStopsTheRunAndKeepsWhatWasDelivered() async throws {
        let waits = Waits()
        let (outcome, hibp, results, clock) = try await check(accounts(5), rpm: 600, script: { account, _ in
            account == "a2" ? HTTPResponse(status: 429, headers: ["retry-after": "999999"]) : HTTPResponse(status: 404)
        }, onLongWait: { waits.add($0) })
        guard case let .failure(error) = outcome else { return XCTFail("the run must stop") }
        XCTAssertEqual(error as? HIBPError, .waitTooLong(seconds: 999999, limit: 60))
        XCTAssertEqual(results.all.map(\.account), ["a0", "a1"], "finished results were delivered; a2 is not reported")
        XCTAssertEqual(hibp.log.map(\.account), ["a0", "a1", "a2"], "nothing starts after it")
        XCTAssertLessThan(clock.now(), .seconds(5), "and nothing waited")
        XCTAssertEqual(waits.all, [])
        // the limit is the policy's
        let (allowed, _, _, _) = try await check(["a0"], rpm: 600, script: { _, attempt in
            attempt == 1 ? HTTPResponse(status: 429, headers: ["retry-after": "90"]) : HTTPResponse(status: 404)
        }, retryPolicy: RetryPolicy(maxWait: .seconds(120)))
        XCTAssertEqual(try allowed.get().lookupsAnswered, 1)
    }

    func testWaitsLongerThanFiveSecondsAreReportedOnceEach() async throws {
        let waits = Waits()
        let (outcome, _, _, _) = try await check(["a0"], rpm: 600, script: { _, attempt in
            switch attempt {
            case 1: return HTTPResponse(status: 429, headers: ["retry-after": "10"])
            case 2: return HTTPResponse(status: 429, headers: ["retry-after": "3"])
            case 3: return HTTPResponse(status: 429, headers: ["retry-after": "30"])
            default: return HTTPResponse(status: 404)
            }
        }, onLongWait: { waits.add($0) })
        XCTAssertEqual(try outcome.get().lookupsAnswered, 1)
        XCTAssertEqual(waits.all, [.milliseconds(10_250), .milliseconds(30_250)], "the 3 s wait is not announced")
    }
}

/// Waits reported by `onLongWait`, from any thread.
/// Unchecked: its mutable state is only touched with `lock` held.
final class Waits: @unchecked Sendable {
    private var stored: [Duration] = []
    private let lock = NSLock()
    func add(_ d: Duration) { lock.lock(); stored.append(d); lock.unlock() }
    var all: [Duration] { lock.lock(); defer { lock.unlock() }; return stored }
}

/// The request totals of a scheduler run, compared in one assertion.
struct RunTotals: Equatable {
    var succeeded: Int
    var failed: Int
    var requests: Int
}

extension CheckRunReport {
    var totals: RunTotals { RunTotals(succeeded: lookupsAnswered, failed: lookupsFailed, requests: requests) }
}
