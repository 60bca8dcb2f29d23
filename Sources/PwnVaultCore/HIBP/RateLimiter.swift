/// Paces request starts for one API key: evenly, slightly below the key's requests per minute.
///
/// The interval between starts is `60 s / rpm × (1 + margin)`, with a margin of 2 % by default:
/// HIBP asks clients to stay below the limit, and 2 % absorbs clock drift between us and the server
/// and the jitter of when a request actually leaves. Even spacing means no 60-second window ever
/// holds more than `rpm` starts, whatever window the server counts in.
/// An unknown rate (`rpm == nil`) is taken as 10, the smallest plan.
///
/// A 429 puts the whole key on hold (`hold(until:)`): no start before that moment.
/// A value type with no clock of its own: `CheckScheduler` asks it, tests reason about it directly.
public struct RateLimiter: Sendable, Equatable {
    /// The smallest HIBP plan, assumed when the key's rate is unknown.
    public static let defaultRequestsPerMinute = 10
    /// How far below the key's rate to stay, in percent.
    public static let defaultMarginPercent = 2
    /// The highest rate believed, whatever a server says (HIBP's largest plans are around 12,000).
    public static let maximumRequestsPerMinute = 1_000_000

    /// The rate the key allows, as used (unknown or non-positive became the default).
    public let requestsPerMinute: Int
    /// Time between two starts.
    public let interval: Duration
    /// No start before this moment (the later of the next paced slot and any hold).
    public private(set) var nextStart: Duration = .zero
    /// The end of the current 429 hold, or zero.
    public private(set) var heldUntil: Duration = .zero

    public init(requestsPerMinute: Int?, marginPercent: Int = RateLimiter.defaultMarginPercent) {
        // A rate comes from a server (or a cache of its answer): clamp it to what any plan offers, so a
        // nonsense value can neither overflow the arithmetic below nor mean "no limit".
        let rpm = min(requestsPerMinute.flatMap { $0 > 0 ? $0 : nil } ?? Self.defaultRequestsPerMinute, Self.maximumRequestsPerMinute)
        self.requestsPerMinute = rpm
        // In whole nanoseconds, rounded up: never faster than the rate, and exact in tests.
        let numerator = 60_000_000_000 as Int64 * Int64(100 + max(0, marginPercent))
        let denominator = Int64(100 * rpm)
        interval = .nanoseconds((numerator + denominator - 1) / denominator)
    }

    /// The earliest moment, not before `now`, at which a request may start.
    public func earliestStart(now: Duration) -> Duration { max(now, nextStart, heldUntil) }

    /// Records a start at `time`; the next may start one interval later.
    public mutating func recordStart(at time: Duration) {
        nextStart = max(nextStart, time + interval)
    }

    /// Holds every start until `time` (a 429's `retry-after`). A shorter hold never shortens a longer one.
    public mutating func hold(until time: Duration) {
        heldUntil = max(heldUntil, time)
        nextStart = max(nextStart, time)
    }
}
