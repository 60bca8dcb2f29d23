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
        case let .unreachable(reason): return msg("Pwned Passwords cannot be reached: {1}", HTTPTransportError.shown(reason))
        case let .transport(reason): return msg("could not reach Pwned Passwords: {1}", HTTPTransportError.shown(reason))
        case .timeout: return msg("Pwned Passwords did not answer in time")
        case .unavailable: return msg("Pwned Passwords is unavailable (503)")
        case let .unexpectedStatus(code): return msg("Pwned Passwords answered with unexpected HTTP status {1}", code)
        case .malformedBody: return msg("Pwned Passwords answered with data pwnvault cannot read")
        case .bodyTooLarge: return msg("Pwned Passwords' answer was larger than pwnvault accepts")
        case let .forbidden(_, detail): return detail.isEmpty ? msg("Pwned Passwords refused the request (403)") : msg("Pwned Passwords refused the request (403): {1}", detail)
        default: return base.message
        }
    }

    public var hint: String? {
        switch base {
        case .unreachable, .transport:
            return msg("check the network (and {1} if it was changed); --offline FILE searches a downloaded copy instead", Settings.passwordsURLVariable)
        case .malformedBody, .bodyTooLarge: return msg("if {1} was changed from the default, check it", Settings.passwordsURLVariable)
        case .timeout, .unavailable, .unexpectedStatus, .forbidden: return msg("try again later; --offline FILE searches a downloaded copy instead")
        default: return base.hint
        }
    }

    public var exitStatus: ExitStatus { base.exitStatus }
}
