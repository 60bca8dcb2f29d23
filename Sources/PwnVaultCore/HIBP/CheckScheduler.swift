/// Runs many lookups "as fast as the key allows, never faster".
///
/// - Request **starts** are paced by a `RateLimiter` (evenly, 1 % and 1 ms below the key's rate; 10
///   per minute when the rate is unknown), each one interval after the previous actual start: a late
///   start never lets the next catch up; the transport keeps the same spacing on the wire: `perform`
///   is handed the spacing of its slot, to put on its request (`HIBPClient.spaced`,
///   `HTTPRequest.wireSpacing`). As many requests are in flight as it takes to keep that pace
///   when the server is slow (1,000 per minute against a 200 ms server keeps about 4 in flight), up
///   to `maxInFlight` (16).
/// - Every keyed request of a run takes its slot from one `RequestSchedule`, shared by every
///   scheduler (and command) of the run: the rate question, domain searches and checks never follow
///   each other closer than the interval, and a retry takes the next free slot like any request.
/// - 429 (decided by `RateLimitResponse`, the one place that does): the same request is retried after
///   `retry-after` (plus a margin), and no other request starts before then: the limit belongs to the key. The pace halves (once per burst of 429s) and
///   climbs back with each success (`RateLimiter.slowDown`, `speedUp`). With a guessed rate, the
///   first 429 since a success re-anchors the schedule at the hold's end (HIBP said when; the guess
///   did not), and each further round halves the pace. No account is ever given up
///   because of 429s; only when `RetryPolicy.maxRateLimitRetries` rounds of 429s in a row meet no
///   success in between does the run stop (`.rateLimited`), keeping every result delivered.
/// - 503, timeouts, transport failures, other 5xx: the request is retried with jittered exponential
///   backoff (`RetryPolicy`), then reported as failed; the run goes on.
/// - 401, 403, a missing key, HIBP unreachable (refused, DNS, TLS), a 429 asking to wait longer than
///   `RetryPolicy.maxWait`: nothing more starts, requests in flight are cancelled, and `run` throws
///   that error once every result already final has been delivered. The item that met it is not
///   reported: the error is about the run, not about that account.
/// - A retry that must wait longer than `RetryPolicy.announceAfter` is passed to `onLongWait`
///   before the wait begins (once per wait), so the caller can say so; so is the first wait that
///   takes a run of 429s past `announceAfter` in all, however short each wait (once per run of
///   429s). The scheduler never prints.
/// - Cancelling the calling task stops new starts at once; `run` then throws `CancellationError`.
///
/// Each result is handed to `onResult` as soon as it is final (the item's position in the list, its value
/// or why it failed after its retries, and how many requests it took), one at a time and in completion order,
/// so the caller can save it at once (a Ctrl-C midway keeps every finished one). No item is reported
/// twice. `onResult` should return promptly: no request starts while it runs.
///
/// The clock and the jitter source are injected: tests run it on virtual time.
public struct CheckScheduler: Sendable {
    /// The most requests in flight at once.
    public static let defaultMaxInFlight = 16

    /// The schedule every keyed request of the run takes its slot from (shared with other schedulers
    /// and commands of the same run when given).
    public let schedule: RequestSchedule
    public let retryPolicy: RetryPolicy
    public let maxInFlight: Int
    private let clock: any SchedulerClock
    private let random: @Sendable () -> Double
    private let onLongWait: @Sendable (Duration) -> Void

    /// A scheduler that takes its slots from `schedule` (and its clock): the one schedule of a run,
    /// shared by every request the run makes (`CheckSession.scheduler` builds it: the run's retry
    /// policy, long waits told).
    /// - Parameters:
    ///   - random: uniform in 0..<1, for the backoff jitter.
    ///   - onLongWait: told how long, when a retry must wait longer than `retryPolicy.announceAfter`.
    public init(schedule: RequestSchedule, maxInFlight: Int = CheckScheduler.defaultMaxInFlight,
                retryPolicy: RetryPolicy, random: @escaping @Sendable () -> Double = { Double.random(in: 0..<1) },
                onLongWait: @escaping @Sendable (Duration) -> Void) {
        self.onLongWait = onLongWait
        self.schedule = schedule
        self.retryPolicy = retryPolicy
        self.maxInFlight = max(1, maxInFlight)
        self.clock = schedule.clock
        self.random = random
    }

    /// One request under the same policy as a run (429s waited for and announced, 5xx and timeouts
    /// retried with backoff): for the commands that make one keyed request (domain, config api-key).
    /// `perform` is handed its slot's wire spacing. Throws the request's final `HIBPError`, or the
    /// run-stopping one.
    public func one<Value: Sendable>(_ perform: @escaping @Sendable (_ wireSpacing: Duration) async throws -> Value) async throws -> Value {
        let outcome = Locked<Result<Value, HIBPError>?>(nil)
        try await run([()], spacedPerform: { _, spacing in try await perform(spacing) }, onResult: { _, result, _ in outcome.withLock { $0 = result } })
        guard let result = outcome.value else { throw CancellationError() }
        return try result.get()
    }

    /// Looks up every item with `perform`, which must make exactly one rate-limited request
    /// (for breaches and pastes of one account, give two items).
    ///
    /// `perform` should throw `HIBPError` (as `HIBPClient` does); anything else counts as a
    /// transport failure. Returns when every item has a final result; throws the run-stopping
    /// `HIBPError`, or `CancellationError`. The report holds the request totals only.
    @discardableResult
    public func run<Item: Sendable, Value: Sendable>(
        _ items: [Item],
        perform: @escaping @Sendable (Item) async throws -> Value,
        onResult: @escaping @Sendable (_ index: Int, _ result: Result<Value, HIBPError>, _ attempts: Int) async -> Void
    ) async throws -> CheckRunReport {
        try await run(items, spacedPerform: { item, _ in try await perform(item) }, onResult: onResult)
    }

    /// As `run(_:perform:onResult:)`, `perform` handed the spacing of each request's slot, for the
    /// transport to keep on the wire (`HIBPClient.spaced`).
    @discardableResult
    public func run<Item: Sendable, Value: Sendable>(
        _ items: [Item],
        spacedPerform perform: @escaping @Sendable (Item, _ wireSpacing: Duration) async throws -> Value,
        onResult: @escaping @Sendable (_ index: Int, _ result: Result<Value, HIBPError>, _ attempts: Int) async -> Void
    ) async throws -> CheckRunReport {
        var state = RunState(total: items.count, rateLimits: RateLimitResponse(policy: retryPolicy))
        var stopError: HIBPError?

        await withTaskGroup(of: Event<Value>.self) { group in
            while !Task.isCancelled {
                startWhatIsDue(&state, items: items, group: &group, perform: perform)
                if state.isFinished { break }
                guard let event = await group.next() else { break }
                switch event {
                case let .timer(deadline):
                    if state.armedTimer == deadline { state.armedTimer = nil }
                case .cancelled:
                    state.inFlight -= 1
                case let .finished(job, result):
                    state.inFlight -= 1
                    if case let .failure(error) = result, let stop = stopping(error) {
                        stopError = stop
                    } else if let final = settle(job, result, &state) {
                        await onResult(job.index, final, job.attempts)
                    } else if let stop = state.stop {
                        // 429s in a row would hold the run up too long, or never end (RateLimitResponse).
                        stopError = stop
                    }
                }
                if stopError != nil { break }
            }
            // Stopping: nothing more starts; what is in flight is cancelled, and any success that
            // still arrives is kept rather than thrown away.
            group.cancelAll()
            while let event = await group.next() {
                if case let .finished(job, .success(value)) = event {
                    state.succeeded += 1
                    await onResult(job.index, .success(value), job.attempts)
                }
            }
        }
        if let stopError { throw stopError }
        if Task.isCancelled || !state.isFinished { throw CancellationError() }
        return CheckRunReport(requests: state.requests, lookupsAnswered: state.succeeded, lookupsFailed: state.failed)
    }

    // MARK: the loop's parts

    /// One item's progress through its attempts.
    private struct Job: Sendable {
        let index: Int
        /// Requests made for it so far.
        var attempts = 0
        /// Backoff retries used (503, timeouts, transport).
        var retries = 0
        /// 429 retries used.
        var rateLimitRetries = 0
        /// It may not start before this moment.
        var notBefore: Duration = .zero
        /// When its latest request started.
        var startedAt: Duration = .zero
    }

    private enum Event<Value: Sendable>: Sendable {
        case finished(Job, Result<Value, HIBPError>)
        case cancelled
        case timer(Duration)
    }

    private struct RunState {
        let total: Int
        /// Items waiting to be retried, earliest first.
        var retries: [Job] = []
        var nextNew = 0
        var inFlight = 0
        /// The deadline of the timer child that will wake the loop, if one is pending.
        var armedTimer: Duration?
        var succeeded = 0
        var failed = 0
        var requests = 0
        /// What the run does about 429s (the run of them in a row, the decisions).
        var rateLimits: RateLimitResponse
        /// Set by `settle` when the run must stop (a run of 429s: `RateLimitResponse`).
        var stop: HIBPError?

        init(total: Int, rateLimits: RateLimitResponse) { self.total = total; self.rateLimits = rateLimits }

        var isFinished: Bool { inFlight == 0 && retries.isEmpty && nextNew == total }

        mutating func requeue(_ job: Job) {
            let at = retries.firstIndex { ($0.notBefore, $0.index) > (job.notBefore, job.index) } ?? retries.endIndex
            retries.insert(job, at: at)
        }
    }

    /// Starts every request whose time has come, within the in-flight cap; otherwise makes sure a
    /// timer will wake the loop when the next one is due.
    private func startWhatIsDue<Item: Sendable, Value: Sendable>(
        _ state: inout RunState, items: [Item], group: inout TaskGroup<Event<Value>>,
        perform: @escaping @Sendable (Item, Duration) async throws -> Value
    ) {
        while state.inFlight < maxInFlight {
            let now = clock.now()
            let slot = schedule.limiter.earliestStart(now: now)
            // A retry due by the next slot goes before new items; otherwise the next new item.
            var job: Job
            var fromRetries = false
            if let first = state.retries.first, first.notBefore <= slot || state.nextNew == state.total {
                job = first; fromRetries = true
            } else if state.nextNew < state.total {
                job = Job(index: state.nextNew)
            } else {
                return
            }
            let start = max(slot, job.notBefore)
            if start > now {
                if state.armedTimer.map({ start < $0 }) ?? true {
                    state.armedTimer = start
                    let clock = self.clock
                    group.addTask {
                        try? await clock.sleep(until: start)
                        return .timer(start)
                    }
                }
                return
            }
            // The slot is taken under the schedule's lock: another scheduler sharing it may have taken it.
            let spacing: Duration? = schedule.update { limiter in
                guard max(limiter.earliestStart(now: now), job.notBefore) <= now else { return nil }
                let spacing = limiter.wireSpacing(startingAt: now)
                limiter.recordStart(at: now)
                return spacing
            }
            guard let spacing else { continue }
            if fromRetries { state.retries.removeFirst() } else { state.nextNew += 1 }
            state.inFlight += 1
            state.requests += 1
            job.attempts += 1
            job.startedAt = now
            let item = items[job.index]
            let started = job
            group.addTask {
                do {
                    return .finished(started, .success(try await perform(item, spacing)))
                } catch let error as HIBPError {
                    return .finished(started, .failure(error))
                } catch {
                    if Task.isCancelled { return .cancelled }
                    return .finished(started, .failure(.transport(reason: phrase("the request failed"))))
                }
            }
        }
    }

    /// Decides what a finished request means: a final result to deliver, or a retry (nil).
    private func settle<Value>(_ job: Job, _ result: Result<Value, HIBPError>,
                               _ state: inout RunState) -> Result<Value, HIBPError>? {
        guard case let .failure(error) = result else {
            state.succeeded += 1
            state.rateLimits.succeeded()
            schedule.update { $0.speedUp(requestStartedAt: job.startedAt) }
            return result
        }
        var next = job
        if case .lookupChanged = error {
            // The request was answered (a refusal of the k-anonymity search): the same item is asked
            // again the other way at the next slot, before new items, with no backoff.
            next.notBefore = .zero
            state.requeue(next)
            return nil
        }
        if case let .rateLimited(retryAfter) = error {
            switch state.rateLimits.met(retryAfter: retryAfter, startedAt: job.startedAt, now: clock.now(), schedule: schedule) {
            case let .stop(stop):
                state.stop = stop
            case let .retry(notBefore, announce):
                if let announce { onLongWait(announce) }
                next.rateLimitRetries += 1
                next.notBefore = notBefore
                state.requeue(next)
            }
            return nil
        }
        if error.isRetryable, !isRateLimited(error), job.retries < retryPolicy.maxRetries {
            next.retries += 1
            // Our own backoff never waits longer than the user allows either.
            let wait = min(retryPolicy.backoff(retry: next.retries, unit: random()), retryPolicy.maxWait)
            if wait > retryPolicy.announceAfter { onLongWait(wait) }
            next.notBefore = clock.now() + wait
            state.requeue(next)
            return nil
        }
        state.failed += 1
        return result
    }

    /// The error that stops the run when a request failed with `error`, or nil when it does not.
    private func stopping(_ error: HIBPError) -> HIBPError? {
        if error.stopsRun { return error }
        if case let .rateLimited(retryAfter) = error { return RateLimitResponse(policy: retryPolicy).refusal(retryAfter: retryAfter) }
        return nil
    }

    private func isRateLimited(_ error: HIBPError) -> Bool {
        if case .rateLimited = error { return true }
        return false
    }
}
