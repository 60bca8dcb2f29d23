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
            return "line \(line) of stdin is longer than \(PasswordLineReader.maxLineBytes) bytes; no password is that long"
        case let .readFailed(reason): return "cannot read the passwords from stdin: \(reason)"
        }
    }

    public var hint: String? {
        switch self {
        case .lineTooLong: return "give one password per line"
        case .readFailed: return nil
        }
    }

    public var exitStatus: ExitStatus { .usage }
}
