/// What a check session tells its caller, in order: `started`, then (any number of) `waiting`,
/// `notice`, `saved` and `result`, then `finished` last. Commands only render these; the session
/// never prints.
public enum CheckSessionEvent: @unchecked Sendable {
    // Safe: the payloads are values built once and only read after.

    /// Why the session waits.
    public enum WaitReason: Sendable, Equatable {
        /// HIBP asked to slow down (429) while the key's rate was asked, before any account.
        case rateQuestion
        /// HIBP asked to slow down (429) during the checks.
        case checks
        /// HIBP asked to slow down (429) for a single request (`one`: a domain search).
        case request
    }

    /// Something the run goes on after, that the user should hear about.
    public enum Notice: @unchecked Sendable {
        /// HIBP did not say the key's rate: the run starts at the 10-a-minute guess.
        case rateUnknown
        /// The key may not search stealer logs: the rest goes on without them (once per run).
        case stealerLogsRefused(HIBPError)
        /// The k-anonymity search was refused, or the server has none (`HIBPError.noRangeSearch`):
        /// addresses are sent whole from here on. Told once per key (`KAnonymityCache`), never where
        /// the plan said it lacks the search.
        case kAnonymityRefused(HIBPError)
    }

    /// The checks start, `total` accounts.
    case started(total: Int)
    /// A wait longer than the retry policy's `announceAfter` begins.
    case waiting(reason: WaitReason, duration: Duration)
    case notice(Notice)
    /// Results of these vault accounts were saved (one vault update).
    case saved(accountIDs: [Int])
    /// One account's outcome, once the save that holds it completed.
    case result(AccountCheck)
    /// Everything handed over is saved and reported.
    case finished(CheckRunReport)
}
