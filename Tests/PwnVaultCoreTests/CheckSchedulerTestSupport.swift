import PwnVaultCore

// What the scheduler's unit tests build themselves: the sources build the schedule and the retry
// policy once, in `CheckSession` (OneConstructionTests).

extension RetryPolicy {
    /// The policy a session builds for the default `--max-wait` (60 s).
    static let standard = RetryPolicy()
}

extension CheckScheduler {
    /// A scheduler on a schedule of its own.
    /// - Parameters:
    ///   - requestsPerMinute: the key's `Rpm`; nil when unknown (10 is assumed).
    ///   - lastRequestAt: when (on `clock`) a request counted by the key's limit last started, if one did.
    ///   - rateFromUser: the rate came from the user (`--rpm`): 429s may cut it to 1/16 instead of 1/2.
    init(requestsPerMinute: Int?, maxInFlight: Int = CheckScheduler.defaultMaxInFlight,
         retryPolicy: RetryPolicy = .standard, clock: any SchedulerClock = SystemSchedulerClock(),
         random: @escaping @Sendable () -> Double = { Double.random(in: 0..<1) },
         lastRequestAt: Duration? = nil, rateFromUser: Bool = false,
         onLongWait: @escaping @Sendable (Duration) -> Void = { _ in }) {
        let schedule = RequestSchedule(requestsPerMinute: requestsPerMinute, rateFromUser: rateFromUser, clock: clock)
        if let lastRequestAt { schedule.update { $0.recordStart(at: lastRequestAt) } }
        self.init(schedule: schedule, maxInFlight: maxInFlight, retryPolicy: retryPolicy, random: random, onLongWait: onLongWait)
    }
}
