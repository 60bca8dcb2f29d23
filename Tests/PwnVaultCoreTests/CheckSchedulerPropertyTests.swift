import TestSupport
import XCTest
@testable import PwnVaultCore

/// Properties of `CheckScheduler` over seeded random runs (issue 12), and how it adapts to a key
/// whose real allowance is below the pace it was given (issue 10). Virtual time, no timing assertions.
extension CheckSchedulerTests {

    /// SplitMix64: small, seedable, the same numbers on every machine.
    struct SeededRandom {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
        mutating func int(_ range: ClosedRange<Int>) -> Int {
            range.lowerBound + Int(next() % UInt64(range.upperBound - range.lowerBound + 1))
        }
        /// The value for one (account, attempt) of a seed: independent of the order requests run in.
        static func pick(_ seed: UInt64, _ account: String, _ attempt: Int, _ salt: UInt64) -> SeededRandom {
            var h: UInt64 = seed ^ (salt &* 0x1000_0000_01B3)
            for b in account.utf8 { h = (h ^ UInt64(b)) &* 0x100_0000_01B3 }
            var r = SeededRandom(state: h ^ UInt64(attempt) &* 0xD6E8_FEB8_6659_FD93)
            _ = r.next()
            return r
        }
    }

    /// A server on the virtual clock whose answers and latencies are drawn per (account, attempt).
    /// Unchecked: its mutable state is only touched with `lock` held.
    final class RandomHIBP: HTTPTransport, @unchecked Sendable {
        struct Start { let account: String; let at: Duration; let attempt: Int; let latency: Duration; let retryAfter: Int? }
        private let lock = NSLock()
        private var starts: [Start] = []
        private var attempts: [String: Int] = [:]
        let clock: VirtualClock
        let seed: UInt64
        let maxLatency: Int

        init(clock: VirtualClock, seed: UInt64, maxLatencyMilliseconds: Int) {
            self.clock = clock; self.seed = seed; self.maxLatency = maxLatencyMilliseconds
        }

        func send(_ request: HTTPRequest) async throws -> HTTPResponse {
            let account = request.url.lastPathComponent
            let attempt: Int = lock.withLock { attempts[account, default: 0] += 1; return attempts[account]! }
            var r = SeededRandom.pick(seed, account, attempt, 1)
            let latency = Duration.milliseconds(r.int(0...maxLatency))
            let roll = r.int(0...99)
            let retryAfter: Int? = roll < 8 ? r.int(0...3) : nil     // 0: a 429 without retry-after
            lock.withLock { starts.append(Start(account: account, at: clock.now(), attempt: attempt, latency: latency,
                                                retryAfter: retryAfter)) }
            if latency > .zero { try await clock.sleep(for: latency) }
            switch roll {
            case 0..<8:
                return HTTPResponse(status: 429, headers: retryAfter! > 0 ? ["retry-after": "\(retryAfter!)"] : [:])
            case 8..<16: return HTTPResponse(status: 503)
            case 16..<19: return HTTPResponse(status: 500)
            case 19..<21: return HTTPResponse(status: 400)
            case 21..<24: throw HTTPTransportError.connection(reason: "the connection was lost")
            case 24..<26: throw HTTPTransportError.timeout
            case 26..<50: return HTTPResponse(status: 200, body: Data(#"[{"Name":"Adobe"}]"#.utf8))
            default: return HTTPResponse(status: 404)
            }
        }

        var log: [Start] { lock.withLock { starts } }
    }

    func testTheSchedulerNeverStartsTwoRequestsCloserThanTheIntervalForRandomLatenciesAndFailures() async throws {
        var seeds = SeededRandom(state: 0x5EED_0010)
        for run in 0..<24 {
            let seed = seeds.next()
            var r = SeededRandom(state: seed)
            let rpm = [10, 60, 600, 1000, 3000, 12_000][r.int(0...5)]
            let count = r.int(1...40)
            let maxInFlight = r.int(1...16)
            let interval = RateLimiter(requestsPerMinute: rpm).interval
            let maxLatency = r.int(0...2000)
            let clock = VirtualClock()
            let hibp = RandomHIBP(clock: clock, seed: seed, maxLatencyMilliseconds: maxLatency)
            let results = Results()
            let scheduler = CheckScheduler(requestsPerMinute: rpm, maxInFlight: maxInFlight, clock: clock,
                                           random: { Double.random(in: 0..<1) })
            let client = client(hibp)
            let list = accounts(count)
            let outcome: Result<CheckRunReport, Error> = try await onVirtualTime(clock) {
                do {
                    return .success(try await scheduler.run(list, perform: { try await client.breachedAccount($0) },
                                                            onResult: { index, result, attempts in
                        results.add(.init(item: list[index], result: result, attempts: attempts), at: clock.now())
                    }))
                } catch { return .failure(error) }
            }
            let context = "run \(run): seed \(seed), rpm \(rpm), \(count) accounts, \(maxInFlight) in flight, latency ≤ \(maxLatency) ms"
            let summary = try outcome.get()
            let starts = hibp.log
            XCTAssertEqual(summary.requests, starts.count, context)
            // The property: no two starts closer than the interval, whatever came before.
            for (a, b) in zip(starts, starts.dropFirst()) {
                XCTAssertGreaterThanOrEqual(b.at - a.at, interval, "\(context): \(a.account)#\(a.attempt) then \(b.account)#\(b.attempt)")
            }
            // Once a 429 has been answered, the room it taught stays: the absolute margin at least
            // doubled, whatever the pace does after.
            let taught = RateLimiter.interval(rpm: rpm, marginPercent: RateLimiter.defaultMarginPercent,
                                              absoluteMargin: RateLimiter.defaultAbsoluteMargin * 2)
            if let firstAnswer = starts.filter({ $0.retryAfter != nil }).map({ $0.at + $0.latency }).min() {
                for (a, b) in zip(starts, starts.dropFirst()) where a.at > firstAnswer {
                    XCTAssertGreaterThanOrEqual(b.at - a.at, taught, "\(context): \(a.account)#\(a.attempt) then \(b.account)#\(b.attempt) after a 429")
                }
            }
            // Nor inside a 429's hold (from its answer to retry-after plus the margin).
            for limited in starts where limited.retryAfter != nil {
                let from = limited.at + limited.latency
                let wait = RetryPolicy.standard.rateLimitWait(retryAfter: limited.retryAfter! > 0 ? Double(limited.retryAfter!) : nil)
                for s in starts where s.at > from && s.at < from + wait {
                    XCTFail("\(context): \(s.account)#\(s.attempt) started inside the hold of \(limited.account)#\(limited.attempt)")
                }
            }
            // Every account exactly once, none given up because of a 429.
            XCTAssertEqual(results.all.map(\.account).sorted(), list.sorted(), context)
            XCTAssertEqual(summary.lookupsAnswered + summary.lookupsFailed, count, context)
            for result in results.all {
                if case let .failure(error) = result.result, case .rateLimited = error {
                    XCTFail("\(context): \(result.account) given up because of 429s")
                }
            }
        }
    }

    /// A strict limiter (a bucket of one, full at the start) on the virtual clock, allowing `rpm`.
    /// Unchecked: its mutable state is only touched with `lock` held.
    final class BucketHIBP: HTTPTransport, @unchecked Sendable {
        private let lock = NSLock()
        private var tokens = 1.0
        private var last: Duration = .zero
        private(set) var starts: [Duration] = []
        private(set) var refused = 0
        let clock: VirtualClock
        let perSecond: Double

        init(clock: VirtualClock, rpm: Int) { self.clock = clock; self.perSecond = Double(rpm) / 60 }

        func send(_ request: HTTPRequest) async throws -> HTTPResponse {
            let now = clock.now()
            let wait: Int? = lock.withLock {
                let elapsed = Double((now - last).components.attoseconds) / 1e18 + Double((now - last).components.seconds)
                tokens = min(1, tokens + elapsed * perSecond)
                last = now
                starts.append(now)
                if tokens >= 1 - 1e-9 { tokens -= 1; return nil }
                refused += 1
                return max(1, Int(((1 - tokens) / perSecond).rounded(.up)))
            }
            try await clock.sleep(for: .milliseconds(100))
            if let wait { return HTTPResponse(status: 429, headers: ["retry-after": "\(wait)"]) }
            return HTTPResponse(status: 404)
        }
    }

    func testAPaceAboveTheKeysRealAllowanceSlowsDownRecoversAndGivesNoAccountUp() async throws {
        // A key shared with a client spending half of it, and an --rpm ten times the key's plan.
        for (real, told) in [(300, 600), (600, 6000)] {
            let clock = VirtualClock()
            let hibp = BucketHIBP(clock: clock, rpm: real)
            let results = Results()
            let scheduler = CheckScheduler(requestsPerMinute: told, clock: clock, rateFromUser: told != real * 2)
            let client = client(hibp)
            let list = accounts(120)
            let outcome: Result<CheckRunReport, Error> = try await onVirtualTime(clock) {
                do {
                    return .success(try await scheduler.run(list, perform: { try await client.breachedAccount($0) },
                                                            onResult: { index, result, attempts in
                        results.add(.init(item: list[index], result: result, attempts: attempts), at: clock.now())
                    }))
                } catch { return .failure(error) }
            }
            let summary = try outcome.get()
            XCTAssertEqual(summary.lookupsAnswered, 120, "every account answered (\(real)/min told \(told))")
            XCTAssertEqual(summary.lookupsFailed, 0)
            // The requests already in flight when the first 429 comes back (100 ms at the told pace)
            // are refused too; after that, a few while the pace settles; not one per request.
            XCTAssertLessThanOrEqual(hibp.refused, 40, "\(real)/min told \(told)")
            // Settled: the last 40 starts run at no more than the real rate and at least a third of it
            // (a probe past the real rate still meets a 429 and its hold now and then).
            let tail = Array(hibp.starts.suffix(40))
            let span = tail.last! - tail.first!
            let perMinute = Double(tail.count - 1) / (Double(span.components.seconds) + Double(span.components.attoseconds) / 1e18) * 60
            XCTAssertLessThanOrEqual(perMinute, Double(real) * 1.001, "\(real)/min told \(told)")
            XCTAssertGreaterThanOrEqual(perMinute, Double(real) / 3, "\(real)/min told \(told)")
        }
    }
}
