/// Paces request starts for one API key: evenly, slightly below the key's requests per minute,
/// slower after a 429 and back up again as requests succeed.
///
/// The interval between starts is `60 s / rate × (1 + margin) + absolute margin`: 1 % (HIBP asks
/// clients to stay slightly below the limit; clocks differ in rate by far less) plus 1 ms, since the
/// jitter of when a request reaches the server (the network, the server's own stamping) is a time,
/// not a share of the interval: 2 % alone is 0.4 ms at 3,000/min. A 429 met at a pace the key should
/// allow says the server's clock needs more room: each cut (`slowDown`) doubles the absolute margin,
/// up to `maximumAbsoluteMargin`, and it stays for the rest of the run. Even spacing means no
/// 60-second window ever holds more than `rpm` starts, whatever window the server counts in. Each start is spaced from the
/// previous *actual* start (`recordStart`), never from a schedule: a late start does not let the next
/// one catch up (HIBP's limiter is a bucket of one).
/// An unknown rate (`rpm == nil`) is taken as 10, the smallest plan: a guess (`isGuess`), which
/// 429s halve round after round (never quartered: the guess is not a pace that failed by much) down
/// to 1 a minute, and whose first 429 since a success re-anchors the schedule at the end of the
/// 429's hold (`hold(until:rebase:)`): HIBP's `retry-after` says when a request may go, which beats
/// the guessed slot (one account after one 429 waits what `retry-after` says, not 12 s).
///
/// A 429 means the key's real allowance is below the pace (a key shared with another client, an
/// `--rpm` above the key's plan): `slowDown` halves the rate and remembers the rate that failed.
/// Until a pace has been proven (`streakToProve` successes in a row at it), a 429 quarters the rate
/// instead: an `--rpm` ten times too high gets to a working pace in two 429s, not four. The cuts
/// have a floor: never below `1/deepestCut` of the rate given (1/2 when HIBP itself said the key's
/// rate: then a 429 means another client shares the key, and slowing further only hands it our
/// share; 1/16 when the user gave it with `--rpm`, which may be far too high), nor below half a proven pace, nor below 80 %
/// of the rate answers actually came back at lately (the last `recentWindow` successes): against a
/// strict limiter another client's request can take the token just before ours at any pace, so
/// 429s alone must not drive the pace towards zero when that pace is getting answers.
/// each success (`speedUp`) adds back 1/32 of the key's rate, up to 95 % of the rate that failed,
/// so the pace settles just below what the key really allows instead of meeting a 429 again at once. The remembered rate creeps
/// back up after a long run of successes, so a key that is no longer shared recovers its full rate
/// (additive increase, multiplicative decrease). The 429's own `retry-after` still holds every start
/// (`hold(until:)`).
/// A value type with no clock of its own: `CheckScheduler` asks it, tests reason about it directly.
public struct RateLimiter: Sendable, Equatable {
    /// The smallest HIBP plan, assumed when the key's rate is unknown.
    public static let defaultRequestsPerMinute = 10
    /// How far below the key's rate to stay, in percent.
    public static let defaultMarginPercent = 1
    /// The time added to every interval at first, for the jitter of arrivals.
    public static let defaultAbsoluteMargin: Duration = .milliseconds(1)
    /// The most 429s may grow the absolute margin to.
    public static let maximumAbsoluteMargin: Duration = .milliseconds(16)
    /// The highest rate believed, whatever a server says (HIBP's largest plans are around 12,000).
    public static let maximumRequestsPerMinute = 1_000_000
    /// Successes at the current ceiling before the remembered failing rate is raised by one step.
    static let successesBeforeProbing = 16

    /// The rate the key allows, as used (unknown or non-positive became the default): the ceiling.
    public let requestsPerMinute: Int
    /// The rate used now: `requestsPerMinute` until a 429, lower after one.
    public private(set) var currentRequestsPerMinute: Int
    /// Time between two starts, at the current rate.
    public private(set) var interval: Duration
    /// No start before this moment (the later of the next paced slot and any hold).
    public private(set) var nextStart: Duration = .zero
    /// The end of the current 429 hold, or zero.
    public private(set) var heldUntil: Duration = .zero
    /// The lowest rate a 429 was met at (the ceiling until then).
    public private(set) var failingRequestsPerMinute: Int
    private let marginPercent: Int
    /// Added to every interval; doubled by each cut, up to `maximumAbsoluteMargin`.
    public private(set) var absoluteMargin: Duration
    /// When the rate was last cut: 429s for requests started before it were sent at the old pace
    /// and must not cut it again.
    private var lastSlowDown: Duration?
    private var successesAtCeiling = 0
    /// Successes in a row since the last 429.
    private var streak = 0
    /// The fastest pace that ran `streakToProve` successes in a row, or 0.
    public private(set) var provenRequestsPerMinute = 0
    /// Successes in a row that prove a pace.
    static let streakToProve = 4
    /// How many recent successes measure the rate answers come back at.
    static let recentWindow = 16
    /// When the latest successful requests started, oldest first (at most `recentWindow`).
    private var recentSuccesses: [Duration] = []

    /// How far 429s may cut the rate: to `requestsPerMinute / deepestCut` at most.
    public let deepestCut: Int
    /// The rate is the 10-a-minute guess for a key whose rate is not known.
    public let isGuess: Bool
    /// When the latest request started, if one did.
    public private(set) var lastStart: Duration?

    public init(requestsPerMinute: Int?, marginPercent: Int = RateLimiter.defaultMarginPercent,
                absoluteMargin: Duration = RateLimiter.defaultAbsoluteMargin, deepestCut: Int = 16) {
        self.deepestCut = max(1, deepestCut)
        self.isGuess = requestsPerMinute.map { $0 <= 0 } ?? true
        // A rate comes from a server (or a cache of its answer): clamp it to what any plan offers, so a
        // nonsense value can neither overflow the arithmetic below nor mean "no limit".
        let rpm = min(requestsPerMinute.flatMap { $0 > 0 ? $0 : nil } ?? Self.defaultRequestsPerMinute, Self.maximumRequestsPerMinute)
        self.requestsPerMinute = rpm
        self.currentRequestsPerMinute = rpm
        self.failingRequestsPerMinute = rpm
        self.marginPercent = max(0, marginPercent)
        self.absoluteMargin = min(max(.zero, absoluteMargin), Self.maximumAbsoluteMargin)
        self.interval = Self.interval(rpm: rpm, marginPercent: self.marginPercent, absoluteMargin: self.absoluteMargin)
    }

    /// `60 s / rpm × (1 + margin) + absoluteMargin` in whole nanoseconds, rounded up: never faster
    /// than the rate, and exact in tests.
    static func interval(rpm: Int, marginPercent: Int, absoluteMargin: Duration = .zero) -> Duration {
        let numerator = 60_000_000_000 as Int64 * Int64(100 + marginPercent)
        let denominator = Int64(100 * rpm)
        return .nanoseconds((numerator + denominator - 1) / denominator) + absoluteMargin
    }

    private mutating func updateInterval() {
        interval = Self.interval(rpm: currentRequestsPerMinute, marginPercent: marginPercent, absoluteMargin: absoluteMargin)
    }

    /// The earliest moment, not before `now`, at which a request may start.
    public func earliestStart(now: Duration) -> Duration { max(now, nextStart, heldUntil) }

    /// Records a start at `time`; the next may start one interval later.
    public mutating func recordStart(at time: Duration) {
        nextStart = max(nextStart, time + interval)
        lastStart = max(lastStart ?? time, time)
    }

    /// The spacing the transport should keep on the wire before a request started at `time`: the
    /// interval, or less when the schedule let it go sooner (a hold's end that replaced a guessed
    /// slot). Never zero: a zero spacing would leave the request out of the wire's count.
    public func wireSpacing(startingAt time: Duration) -> Duration {
        max(.nanoseconds(1), lastStart.map { min(interval, time - $0) } ?? interval)
    }

    /// Holds every start until `time` (a 429's `retry-after`). A shorter hold never shortens a longer one.
    /// `rebase`: the next start may go as soon as the hold ends, even before the paced slot (a
    /// guessed rate's first 429: the server's word replaces the guess's slot).
    public mutating func hold(until time: Duration, rebase: Bool = false) {
        heldUntil = max(heldUntil, time)
        nextStart = rebase ? heldUntil : max(nextStart, time)
    }

    /// The same schedule at the rate the key turned out to have (`subscription/status`, `--rpm`):
    /// the next start one new interval after the last one, holds kept.
    public func learning(requestsPerMinute rpm: Int?, deepestCut: Int) -> RateLimiter {
        var learned = RateLimiter(requestsPerMinute: rpm, marginPercent: marginPercent, absoluteMargin: absoluteMargin,
                                  deepestCut: deepestCut)
        if let lastStart { learned.recordStart(at: lastStart) }
        learned.hold(until: heldUntil)
        return learned
    }

    /// The slowest pace 429s can bring: `1/deepestCut` of the key's rate.
    var floorRequestsPerMinute: Int { max(1, requestsPerMinute / deepestCut) }

    /// A request started at `startedAt` met a 429 (learned at `now`): halves the rate (quarters it
    /// while no pace is proven, unless the rate is a guess), once per burst of 429s (a request started before the last cut was paced at the old rate). True when
    /// the rate was cut.
    @discardableResult
    public mutating func slowDown(requestStartedAt startedAt: Duration, now: Duration) -> Bool {
        streak = 0
        if let last = lastSlowDown, startedAt < last { return false }
        let floor = min(currentRequestsPerMinute, max(floorRequestsPerMinute, provenRequestsPerMinute / 2, answeredRequestsPerMinute * 4 / 5))
        failingRequestsPerMinute = max(floor, min(failingRequestsPerMinute, currentRequestsPerMinute))
        currentRequestsPerMinute = max(floor, currentRequestsPerMinute / (provenRequestsPerMinute > 0 || isGuess ? 2 : 4))
        lastSlowDown = now
        successesAtCeiling = 0
        // The 429 may also say that arrivals jitter more than the margin allowed for: more room,
        // kept when the pace climbs back. (Doubling a zero margin starts it at the default.)
        absoluteMargin = min(Self.maximumAbsoluteMargin,
                             absoluteMargin == .zero ? Self.defaultAbsoluteMargin : absoluteMargin * 2)
        updateInterval()
        return true
    }

    /// Successful requests per minute over the last `recentWindow` successes, or 0 when too few.
    var answeredRequestsPerMinute: Int {
        guard recentSuccesses.count >= Self.streakToProve, let first = recentSuccesses.first, let last = recentSuccesses.last,
              last > first else { return 0 }
        let span = Double((last - first).components.seconds) + Double((last - first).components.attoseconds) / 1e18
        return min(requestsPerMinute, Int(Double(recentSuccesses.count - 1) / span * 60))
    }

    /// A request succeeded: one additive step back towards the rate that last failed (kept 5 %
    /// below it), and, after a long run of successes there, towards the key's own rate.
    /// `startedAt`: when the request started, for the rate answers come back at.
    public mutating func speedUp(requestStartedAt startedAt: Duration? = nil) {
        if let startedAt {
            recentSuccesses.append(startedAt)
            if recentSuccesses.count > Self.recentWindow { recentSuccesses.removeFirst() }
        }
        streak += 1
        if streak >= Self.streakToProve { provenRequestsPerMinute = max(provenRequestsPerMinute, currentRequestsPerMinute) }
        guard lastSlowDown != nil, currentRequestsPerMinute < requestsPerMinute else { return }
        let step = max(1, requestsPerMinute / 32)
        let ceiling = min(requestsPerMinute, max(1, failingRequestsPerMinute * 95 / 100))
        if currentRequestsPerMinute < ceiling {
            currentRequestsPerMinute = min(ceiling, currentRequestsPerMinute + step)
        } else {
            successesAtCeiling += 1
            if successesAtCeiling >= Self.successesBeforeProbing {
                // Probe: the other client may have stopped. Up to where the ceiling is the key's rate.
                successesAtCeiling = 0
                failingRequestsPerMinute = min(requestsPerMinute * 100 / 95 + 1, failingRequestsPerMinute + step)
            }
        }
        updateInterval()
    }
}
