/// A setting from the environment (or an API address) that pwnvault refuses to use. Exit status `.usage`.
public enum SettingsError: UserFacingError, Equatable {
    /// `variable` holds `value`, which is not one of the accepted forms described by `expected`.
    case invalidValue(variable: String, value: String, expected: String)
    /// An API base address that is not https, nor plain http to this machine. `variable` is the
    /// environment variable it came from, when it came from one; `reason` says what is wrong.
    /// `shownAddress` is the address with any user-info removed (it may hold a password).
    case unsafeAPIURL(variable: String?, shownAddress: String, reason: String)

    public var message: String {
        switch self {
        case let .invalidValue(variable, value, expected):
            return msg("{1} is set to '{2}', which is not {3}", variable, Self.shown(value), expected)
        case let .unsafeAPIURL(variable, address, reason):
            return variable.map { msg("refusing the API address '{1}' in {2}: {3}", address, $0, reason) }
                ?? msg("refusing the API address '{1}': {2}", address, reason)
        }
    }

    public var hint: String? {
        switch self {
        case let .invalidValue(variable, _, _):
            return msg("fix {1} or unset it to use the default", variable)
        case .unsafeAPIURL:
            return msg("use an https:// address, or http://127.0.0.1:PORT for a test server on this machine")
        }
    }

    public var exitStatus: ExitStatus { .usage }

    /// A value as it may appear in a one-line message: control and bidirectional-override characters
    /// escaped (so a value cannot drive the terminal), cut to `limit` characters when one is given.
    static func shown(_ value: String, limit: Int? = 80) -> String {
        var out = ""
        for scalar in value.unicodeScalars {
            if let limit, out.unicodeScalars.count >= limit { out += "…"; break }
            switch scalar.value {
            case 0..<0x20, 0x7F..<0xA0, 0x2028, 0x2029, 0x202A...0x202E, 0x2066...0x2069:
                out += "\\u{\(String(scalar.value, radix: 16))}"
            default:
                out.unicodeScalars.append(scalar)
            }
        }
        return out
    }
}
