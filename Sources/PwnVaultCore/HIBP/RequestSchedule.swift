/// The one schedule of a run's keyed requests: every request HIBP counts against the key
/// (`subscription/status`, account, paste, stealer-log and domain searches, the k-anonymity range)
/// takes its slot here, whichever `CheckScheduler` or command makes it, so two of them never follow
/// each other closer than the key's interval, and a 429's hold stops all of them. A retry after a 429
/// takes the next free slot of this schedule like any other request.
///
/// It starts at the key's rate when known (`--rpm`, the rate cache), else at the 10-a-minute guess;
/// `learn` moves it to the rate HIBP states, keeping when the last request started and any hold.
/// Times are on `clock`, which every scheduler sharing the schedule uses.
public final class RequestSchedule: Sendable {
    public let clock: any SchedulerClock
    private let state: Locked<RateLimiter>

    /// - Parameters:
    ///   - requestsPerMinute: the key's rate; nil when unknown (10 is guessed).
    ///   - rateFromUser: the rate came from `--rpm`, not from HIBP: 429s may cut it to 1/16.
    public init(requestsPerMinute: Int?, rateFromUser: Bool = false, clock: any SchedulerClock = SystemSchedulerClock()) {
        self.clock = clock
        state = Locked(RateLimiter(requestsPerMinute: requestsPerMinute,
                                  deepestCut: Self.deepestCut(requestsPerMinute: requestsPerMinute, rateFromUser: rateFromUser)))
    }

    /// How far 429s may cut a rate: to half of one HIBP stated (a 429 then means another client shares
    /// the key, and slowing further only hands it our share), to 1/16 of one the user gave or guessed.
    static func deepestCut(requestsPerMinute: Int?, rateFromUser: Bool) -> Int {
        rateFromUser || (requestsPerMinute ?? 0) <= 0 ? 16 : 2
    }

    /// The schedule as it stands.
    public var limiter: RateLimiter { state.withLock { $0 } }

    /// Reads or changes the schedule under its lock.
    public func update<R>(_ change: (inout RateLimiter) -> R) -> R { state.withLock { change(&$0) } }

    /// The key's rate became known: from here on the schedule paces at it (from the last start, holds kept).
    public func learn(requestsPerMinute: Int?, rateFromUser: Bool = false) {
        let cut = Self.deepestCut(requestsPerMinute: requestsPerMinute, rateFromUser: rateFromUser)
        state.withLock { $0 = $0.learning(requestsPerMinute: requestsPerMinute, deepestCut: cut) }
    }
}
