/// The real `SchedulerClock`: `ContinuousClock` (monotonic, keeps counting while the machine sleeps).
public struct SystemSchedulerClock: SchedulerClock {
    private let origin: ContinuousClock.Instant

    public init() { origin = ContinuousClock.now }

    public func now() -> Duration { origin.duration(to: ContinuousClock.now) }

    public func sleep(until deadline: Duration) async throws {
        try await Task.sleep(until: origin.advanced(by: deadline), clock: .continuous)
    }
}
