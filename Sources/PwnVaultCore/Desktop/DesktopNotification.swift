/// One desktop notification, as the disclosure gate words it: what may pop up on a screen that
/// others can see, or on a lock screen. Only PwnVaultCore can make one (the initializer is
/// internal), so every notification's text has passed the gate; `DesktopNotifier` only carries it.
public struct DesktopNotification: Sendable, Equatable {
    /// The one-line title.
    public let summary: String
    /// The text below it, plain (never markup: `DesktopNotifier` escapes it for servers that
    /// interpret markup). May hold line breaks.
    public let body: String

    init(summary: String, body: String) {
        self.summary = summary
        self.body = body
    }
}
