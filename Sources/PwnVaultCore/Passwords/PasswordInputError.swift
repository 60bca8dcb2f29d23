/// Passwords given on standard input that cannot be read. Messages name the line, never its text.
public enum PasswordInputError: Error, Equatable, Sendable {
    /// A line longer than `PasswordLineReader.maxLineBytes`.
    case lineTooLong(line: Int)
    /// `read(2)` failed; the C library's wording.
    case readFailed(reason: String)
}

extension PasswordInputError: UserFacingError {
    public var message: String {
        switch self {
        case let .lineTooLong(line):
            return msg("line {1} of stdin is longer than {2} bytes; no password is that long", line, PasswordLineReader.maxLineBytes)
        case let .readFailed(reason): return msg("cannot read the passwords from stdin: {1}", reason)
        }
    }

    public var hint: String? {
        switch self {
        case .lineTooLong: return msg("give one password per line")
        case .readFailed: return nil
        }
    }

    public var exitStatus: ExitStatus { .usage }
}
