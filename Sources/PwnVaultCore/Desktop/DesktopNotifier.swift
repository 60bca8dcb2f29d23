// The only file that imports the notification shim.
internal import CNotifyShim
import FoundationEssentials

/// Sends desktop notifications through the freedesktop Notifications service
/// (`org.freedesktop.Notifications.Notify` on the D-Bus session bus). The only file that imports
/// the notification shim.
///
/// What goes out: app name `pwnvault`, no icon, no actions, the urgency hint "normal" and nothing
/// else, the gate's summary, and its body as plain text (escaped when the server interprets markup).
/// Sending is synchronous under one deadline: no bus, no service, a server that does not answer in
/// time or refuses all come back as `.unavailable(reason:)`, never as a crash or a hang.
public struct DesktopNotifier: Sendable {
    /// The application name every notification carries.
    public static let appName = "pwnvault"
    /// How long sending may take by default, from connecting to the bus to the server's answer.
    public static let defaultTimeout: Duration = .seconds(2)
    /// How long a notification stays up by default (servers may keep it in a history afterwards).
    public static let defaultExpiry: Duration = .seconds(10)

    /// The D-Bus address used, or nil for the session bus as GLib finds it
    /// (`DBUS_SESSION_BUS_ADDRESS`, then `$XDG_RUNTIME_DIR/bus`).
    public let busAddress: String?
    /// The deadline for one `send`.
    public let timeout: Duration
    /// How long the notification stays up; nil leaves it to the server.
    public let expiry: Duration?

    public init(busAddress: String? = nil, timeout: Duration = defaultTimeout, expiry: Duration? = defaultExpiry) {
        self.busAddress = busAddress
        self.timeout = timeout
        self.expiry = expiry
    }

    /// Shows `notification`; returns the server's id, or why it could not be shown.
    public func send(_ notification: DesktopNotification) -> NotificationOutcome {
        let timeoutMs = UInt32(clamping: max(1, timeout.nanoseconds / 1_000_000))
        let expireMs = expiry.map { Int32(clamping: $0.nanoseconds / 1_000_000) } ?? -1
        // C strings end at the first NUL; no text of ours has one, but a cut message must not be sent.
        let summary = notification.summary.replacingNUL
        let body = notification.body.replacingNUL
        var id: UInt32 = 0
        var markupUsed: Int32 = 0
        var error = pwv_notify_error()
        let status = pwv_notify_send(busAddress, Self.appName, summary, body, NotificationMarkup.escaped(body),
                                     1 /* normal */, expireMs, timeoutMs, &id, &markupUsed, &error)
        guard status == Int32(PWV_NOTIFY_OK) else {
            return .unavailable(reason: Self.reason(status: status, message: Self.message(of: &error)))
        }
        return .sent(id: id)
    }

    /// The short reason for a failure code; GLib's message only where it adds something.
    static func reason(status: Int32, message: String) -> String {
        switch status {
        case Int32(PWV_NOTIFY_ERR_NO_BUS):
            return detail(message).map { msg("no D-Bus session bus ({1})", $0) } ?? msg("no D-Bus session bus")
        case Int32(PWV_NOTIFY_ERR_NO_SERVICE): return msg("no notification service on the session bus")
        case Int32(PWV_NOTIFY_ERR_TIMEOUT): return msg("the notification service did not answer in time")
        case Int32(PWV_NOTIFY_ERR_FAILED):
            return detail(message).map { msg("the notification service refused it ({1})", $0) } ?? msg("the notification service refused it")
        default:
            return detail(message).map { msg("the notification could not be sent ({1})", $0) } ?? msg("the notification could not be sent")
        }
    }

    /// GLib's message, cleaned for one line and cut short; nil when there is none.
    private static func detail(_ message: String) -> String? {
        var text = Sanitizer.singleLine(message).trimmingWhitespace()
        if text.hasSuffix(".") { text.removeLast() }
        guard !text.isEmpty else { return nil }
        if text.count > 120 { text = String(text.prefix(119)) + "…" }
        return text.prefix(1).lowercased() + text.dropFirst()
    }

    private static func message(of error: inout pwv_notify_error) -> String {
        withUnsafeBytes(of: &error.message) { raw in
            let bytes = raw.prefix { $0 != 0 }
            return String(decoding: bytes, as: UTF8.self)
        }
    }
}

private extension String {
    var replacingNUL: String { contains("\0") ? replacingLiterally("\0", with: "\u{FFFD}") : self }
}
