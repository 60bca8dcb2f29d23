import Glibc

/// The signals pwnvault handles, by name, so that `Screen/` needs no C header. Plain signal numbers
/// (`Int32`): they travel through the self-pipe as bytes and into `ScreenError.interrupted(signal:)`.
enum Signal {
    /// SIGINT: Ctrl-C.
    static let interrupt = SIGINT
    /// SIGTERM.
    static let terminate = SIGTERM
    /// SIGHUP: the terminal went away.
    static let hangUp = SIGHUP
    /// SIGQUIT: Ctrl-\.
    static let quit = SIGQUIT
    /// SIGTSTP: Ctrl-Z.
    static let terminalStop = SIGTSTP
    /// SIGCONT: continued after a stop (`fg`, `bg`).
    static let `continue` = SIGCONT
    /// SIGWINCH: the window changed size.
    static let windowChange = SIGWINCH
}
