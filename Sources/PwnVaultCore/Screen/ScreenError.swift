/// Why a private screen or a screen guard could not be set up.
public enum ScreenError: UserFacingError, Equatable, Sendable {
    /// The input or the output of the private screen is not a terminal.
    case notATerminal
    /// No self-pipe could be made for the signals (the process is out of file descriptors).
    case noSignalPipe
    /// Ctrl-C (or SIGTERM, SIGHUP, SIGQUIT) before the private screen opened; the terminal is as it was.
    case interrupted(signal: Int32)

    public var message: String {
        switch self {
        case .notATerminal: return msg("cannot show the private screen: the input or the output is not a terminal")
        case .noSignalPipe: return msg("cannot watch for signals (no file descriptor left for a pipe)")
        case .interrupted: return msg("interrupted; nothing was shown")
        }
    }

    public var hint: String? {
        switch self {
        case .notATerminal: return msg("run it in a terminal, with neither input nor output redirected")
        case .noSignalPipe, .interrupted: return nil
        }
    }

    public var exitStatus: ExitStatus {
        if case .interrupted = self { return .interrupted }
        return .usage
    }
}
