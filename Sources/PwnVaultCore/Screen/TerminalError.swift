/// Why a passphrase could not be read.
public enum TerminalError: UserFacingError, Equatable, Sendable {
    /// There is no controlling terminal to ask on (`/dev/tty` cannot be opened).
    case noTerminal
    /// The input ended before a passphrase was entered (Ctrl-D, a closed pipe).
    case inputClosed
    /// The line is longer than `PassphrasePrompt.maxBytes`; nothing was kept.
    case passphraseTooLong
    /// Reading failed (an I/O error); `reason` is the system's description, never input.
    case readFailed(reason: String)

    public var message: String {
        switch self {
        case .noTerminal: return msg("cannot ask for the passphrase: there is no terminal")
        case .inputClosed: return msg("no passphrase was entered (the input ended)")
        case .passphraseTooLong: return msg("the passphrase is longer than {1} bytes", PassphrasePrompt.maxBytes)
        case let .readFailed(reason): return msg("could not read the passphrase ({1})", reason)
        }
    }

    public var hint: String? {
        switch self {
        case .noTerminal: return PassphraseError.howToPass
        case .inputClosed, .passphraseTooLong, .readFailed: return nil
        }
    }

    public var exitStatus: ExitStatus { .authentication }
}
