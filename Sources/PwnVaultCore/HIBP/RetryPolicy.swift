/// How `CheckScheduler` retries a request that failed for a passing reason.
///
/// 503s, timeouts, transport failures and other 5xx: up to `maxRetries` more attempts after
/// `baseDelay × 2^(n-1)`, each spread by ±`jitter` (defaults: 3 retries after ~1 s, 2 s, 4 s ± 25 %),
/// then the account is reported as failed. A 429 waits its `retry-after` plus `rateLimitMargin`
/// and retries the same request, however many times it takes: no account is given up because of
/// 429s. A server that never lets up must not hold a run forever, though: after `maxRateLimitRetries`
/// rounds of 429s (each cutting the pace in half) with no success in between, the run stops. A single `retry-after` longer than `maxWait` is not waited for: the
/// run stops with `HIBPError.waitTooLong`; nor is a run of 429s in a row whose next retry (the slower
/// pace included) would come more than `maxWait` after its first 429 (`HIBPError.heldTooLong`).
/// Backoff waits are cut to `maxWait`. Waits longer than `announceAfter` are reported to the
/// scheduler's `onLongWait`, so the user is told why nothing happens.
public struct RetryPolicy: Sendable, Equatable {
    public var maxRetries: Int
    public var baseDelay: Duration
    /// The fraction each delay may vary by, up or down (0.25 = ±25 %).
    public var jitter: Double
    /// Added to every `retry-after`: HIBP rounds it, and our clock and theirs differ a little.
    public var rateLimitMargin: Duration
    /// The wait when a 429 carries no `retry-after`.
    public var defaultRetryAfter: Duration
    public var maxRateLimitRetries: Int
    /// The longest single `retry-after` waited for; a longer one stops the run.
    public var maxWait: Duration
    /// Waits longer than this are announced (through `CheckScheduler`'s `onLongWait`).
    public var announceAfter: Duration

    public static let defaultMaxWait: Duration = .seconds(60)
    public static let defaultAnnounceAfter: Duration = .seconds(5)

    public init(maxRetries: Int = 3, baseDelay: Duration = .seconds(1), jitter: Double = 0.25,
                rateLimitMargin: Duration = .milliseconds(250), defaultRetryAfter: Duration = .seconds(2),
                maxRateLimitRetries: Int = 10, maxWait: Duration = RetryPolicy.defaultMaxWait,
                announceAfter: Duration = RetryPolicy.defaultAnnounceAfter) {
        self.maxRetries = maxRetries; self.baseDelay = baseDelay; self.jitter = min(max(jitter, 0), 1)
        self.rateLimitMargin = rateLimitMargin; self.defaultRetryAfter = defaultRetryAfter
        self.maxRateLimitRetries = maxRateLimitRetries; self.maxWait = maxWait; self.announceAfter = announceAfter
    }

    /// `.waitTooLong` when a 429's `retryAfter` exceeds `maxWait`; nil when it may be waited for.
    public func refusal(retryAfter: Double?) -> HIBPError? {
        guard let retryAfter, Duration.milliseconds(Int64((retryAfter * 1000).rounded(.up))) > maxWait else { return nil }
        return .waitTooLong(seconds: Int(retryAfter.rounded(.up)), limit: Int(maxWait.components.seconds))
    }

    /// `.heldTooLong` when a run of 429s in a row would hold the run up for `held` (from its first 429
    /// to the next retry), more than `maxWait`; nil while it may go on.
    public func refusal(heldFor held: Duration) -> HIBPError? {
        guard held > maxWait else { return nil }
        let seconds = held.components.seconds + (held.components.attoseconds > 0 ? 1 : 0)
        return .heldTooLong(seconds: Int(seconds), limit: Int(maxWait.components.seconds))
    }

    /// The wait before retry number `retry` (1-based), given `unit` uniform in 0..<1 for the jitter.
    public func backoff(retry: Int, unit: Double) -> Duration {
        let exponent = max(0, min(retry - 1, 30))
        let factor = 1 + jitter * (2 * min(max(unit, 0), 1) - 1)
        return baseDelay * Double(1 << exponent) * factor
    }

    /// The wait after a 429 that said `retryAfter` seconds (or nothing).
    public func rateLimitWait(retryAfter: Double?) -> Duration {
        (retryAfter.map { Duration.milliseconds(Int64(($0 * 1000).rounded(.up))) } ?? defaultRetryAfter) + rateLimitMargin
    }
}
