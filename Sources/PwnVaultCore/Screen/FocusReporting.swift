/// Whether a terminal tells pwnvault when its window gains or loses focus (`ESC[?1004h`), as far as it
/// has shown.
public enum FocusReporting: Equatable, Sendable {
    /// A focus report came, or the terminal said that focus reporting is on.
    case reported
    /// The terminal said it does not know focus reporting, or keeps it off.
    case notReported
    /// Nothing either way: no focus report, and no answer to the question (tmux 3.3 does not answer it).
    case unknown
}

/// What the terminal said about focus, as events come in: whether the window has focus now, and
/// whether it reports focus at all.
struct FocusTracker: Sendable {
    /// Whether the window has focus, as last reported; true until told otherwise. Set again by the
    /// Enter that ends the passphrase, which was typed in this window.
    var focused = true
    var reporting: FocusReporting = .unknown
    /// The answer to the device-attributes question came: every answer asked for before it has too.
    var deviceAttributesSeen = false

    /// Takes `event` when it is about focus or an answer to the questions; false for anything else.
    mutating func take(_ event: KeyEvent) -> Bool {
        switch event {
        case .focusIn:
            focused = true
            reporting = .reported
        case .focusOut:
            focused = false
            reporting = .reported
        case let .modeReport(mode, setting):
            // 1 set, 3 permanently set; 0 unknown mode, 2 reset, 4 permanently reset.
            if mode == 1004 && reporting != .reported { reporting = setting == 1 || setting == 3 ? .reported : .notReported }
        case .deviceAttributes:
            deviceAttributesSeen = true
        case .escape, .interrupt, .byte, .key, .sequence:
            return false
        }
        return true
    }
}
