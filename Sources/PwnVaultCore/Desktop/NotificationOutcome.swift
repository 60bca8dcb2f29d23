/// What became of one desktop notification.
public enum NotificationOutcome: Sendable, Equatable {
    /// The notification service took it and gave it this id.
    case sent(id: UInt32)
    /// No notification could be shown here: no session bus, no notification service, no answer in
    /// time, or the service refused. `reason` is one short, lower-case line, safe to print.
    case unavailable(reason: String)
}
