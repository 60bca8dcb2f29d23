/// What a run does about HIBP's 429s ("too many requests"): the one place that decides it. The parts
/// it uses each know one thing: `RetryPolicy` how long a `retry-after` means and how long the user
/// allows (`maxWait`), `RateLimiter` (through the run's `RequestSchedule`) the pace and the hold that
/// stops every request of the key; `CheckScheduler` only asks this type and does what it answers.
///
/// The story, per 429:
/// 1. A `retry-after` longer than `maxWait`: the run stops at once (`.waitTooLong`).
/// 2. Otherwise no request of the key starts before `retry-after` (plus a margin) has passed: the
///    schedule is held. The pace halves, once per burst of 429s (a round), and climbs back with each
///    success; with a guessed rate, the first 429 since a success re-anchors the schedule at the
///    hold's end (HIBP said when; the guess did not). The same request is retried at the next free slot
///    after the hold; no account is ever given up because of 429s.
/// 3. The run of 429s in a row (from its first to the next retry, pace included) may hold the run up
///    no longer than `maxWait`: past it the run stops (`.heldTooLong`).
/// 4. More than `RetryPolicy.maxRateLimitRetries` rounds with no success in between: the key is spent
///    elsewhere; the run stops (`.rateLimited`) rather than spin.
/// 5. A long wait is said before it begins; short ones are said once they add up past
///    `announceAfter` (once per run of 429s), never a wait the run will not make.
/// A success ends the run of 429s. The request that met a stopping 429 is not reported.
struct RateLimitResponse {
    /// What to do about one 429.
    enum Decision: Equatable {
        /// Retry the request once the hold has ended (`notBefore`); `announce` the wait first, if set.
        case retry(notBefore: Duration, announce: Duration?)
        /// Stop the run with this error.
        case stop(HIBPError)
    }

    let policy: RetryPolicy
    /// Rounds of 429s (rate cuts) since the last success.
    private(set) var rounds = 0
    /// When the current run of 429s began (the first one since the last success), and whether it
    /// has been announced: short waits in a row add up to a silence the user must hear about.
    private var since: Duration?
    private var announced = false

    init(policy: RetryPolicy) { self.policy = policy }

    /// A request succeeded: the run of 429s, if any, is over.
    mutating func succeeded() {
        rounds = 0
        since = nil
        announced = false
    }

    /// The stop a 429's `retry-after` asks for by itself (step 1), before anything is held.
    func refusal(retryAfter: Double?) -> HIBPError? { policy.refusal(retryAfter: retryAfter) }

    /// A 429 (`retryAfter` as HIBP said it) met by a request that started at `startedAt`, at `now`:
    /// holds and slows `schedule` (step 2) and says what the request does next (steps 3 to 5).
    mutating func met(retryAfter: Double?, startedAt: Duration, now: Duration, schedule: RequestSchedule) -> Decision {
        let until = now + policy.rateLimitWait(retryAfter: retryAfter)
        let heldBefore = schedule.limiter.heldUntil
        // The retry goes at the next free slot of the schedule once the hold has ended: for a guessed
        // rate's first 429 since a success, the hold's end itself; after that the halved pace decides.
        var rounds = self.rounds
        let retryAt: Duration = schedule.update { limiter in
            let cut = limiter.slowDown(requestStartedAt: startedAt, now: now)
            if cut { rounds += 1 }
            limiter.hold(until: until, rebase: cut && limiter.isGuess && rounds == 1)
            return limiter.earliestStart(now: until)
        }
        self.rounds = rounds
        let since = self.since ?? now
        self.since = since
        // Every wait is bounded, not only each `retry-after` (a server answering `Retry-After: 2`
        // forever, at a pace halved round after round, was waited for without end). Our margin is not
        // counted: a `retry-after` of exactly the limit is still waited for.
        if let stop = policy.refusal(heldFor: retryAt - since - policy.rateLimitMargin) { return .stop(stop) }
        if rounds > policy.maxRateLimitRetries { return .stop(.rateLimited(retryAfter: retryAfter)) }
        // The wait said is the real one, pace included.
        let waited = retryAt - now
        let longWait = waited > policy.announceAfter
        let longSilence = !announced && retryAt - since > policy.announceAfter
        var announce: Duration?
        if (longWait || longSilence) && until > heldBefore {
            announced = true
            announce = waited
        }
        return .retry(notBefore: until, announce: announce)
    }
}
