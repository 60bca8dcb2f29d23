/// An error of the Pwned Passwords service, said as that service: its name, its own address setting
/// (`PWNVAULT_PASSWORDS_URL`), and nothing about saved results (a password check saves none). The
/// client throws `HIBPError` (shared status mapping); commands wrap it with `init(_:)` before it is shown.
public struct PwnedPasswordsError: UserFacingError, Equatable {
    public let base: HIBPError

    public init(_ base: HIBPError) { self.base = base }

    /// Any error of a Pwned Passwords request: an `HIBPError` said as this service, anything else as it is.
    public static func wrapping(_ error: Error) -> Error {
        (error as? HIBPError).map(PwnedPasswordsError.init) ?? error
    }

    public var message: String {
        switch base {
        case let .unreachable(reason): return "Pwned Passwords cannot be reached: \(reason)"
        case let .transport(reason): return "could not reach Pwned Passwords: \(reason)"
        case .timeout: return "Pwned Passwords did not answer in time"
        case .unavailable: return "Pwned Passwords is unavailable (503)"
        case let .unexpectedStatus(code): return "Pwned Passwords answered with unexpected HTTP status \(code)"
        case .malformedBody: return "Pwned Passwords answered with data pwnvault cannot read"
        case .bodyTooLarge: return "Pwned Passwords' answer was larger than pwnvault accepts"
        case let .forbidden(_, detail): return "Pwned Passwords refused the request (403)" + (detail.isEmpty ? "" : ": \(detail)")
        default: return base.message
        }
    }

    public var hint: String? {
        switch base {
        case .unreachable, .transport:
            return "check the network (and \(Settings.passwordsURLVariable) if it was changed); --offline FILE searches a downloaded copy instead"
        case .malformedBody, .bodyTooLarge: return "if \(Settings.passwordsURLVariable) was changed from the default, check it"
        case .timeout, .unavailable, .unexpectedStatus, .forbidden: return "try again later; --offline FILE searches a downloaded copy instead"
        default: return base.hint
        }
    }

    public var exitStatus: ExitStatus { base.exitStatus }
}
