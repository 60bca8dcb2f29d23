/// The time source of `CheckScheduler`: now, and sleeping until a moment. Injected so tests drive
/// the scheduler on virtual time without real waiting.
///
/// Times are durations since an origin the clock chooses; they only ever grow.
public protocol SchedulerClock: Sendable {
    /// Time elapsed since the clock's origin.
    func now() -> Duration
    /// Returns once `now() >= deadline` (at once if it already is); throws `CancellationError`
    /// when the calling task is cancelled.
    func sleep(until deadline: Duration) async throws
}
