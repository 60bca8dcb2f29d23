/// The one line said where a private screen (`reveal`'s, the `ui`'s `v`) cannot hide when its window
/// loses focus: why, what it does instead, and the fix. Both say it in the same words.
public enum FocusWarning {
    /// "REASON, so the private screen cannot hide when this window loses focus; it closes after N s. Fix: FIX"
    public static func line(reason: String, fix: String, closesAfter seconds: Int) -> String {
        msg("{1}, so the private screen cannot hide when this window loses focus; it closes after {2} s. Fix: {3}", reason, seconds, fix)
    }

    /// Why, and the fix, for a terminal that has not shown that it reports focus changes; nil when it has.
    public static func unreported(_ reporting: FocusReporting) -> (reason: String, fix: String)? {
        switch reporting {
        case .reported: return nil
        case .notReported: return (msg("this terminal does not report focus changes"), fix)
        case .unknown: return (msg("this terminal has not said that it reports focus changes"), fix)
        }
    }

    static var fix: String { msg("use a terminal that does (xterm, kitty, alacritty, GNOME Terminal)") }
}
