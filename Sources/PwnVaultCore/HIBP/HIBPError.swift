/// What went wrong talking to Have I Been Pwned, with what to tell the user.
///
/// `.unauthorized`, `.forbidden`, `.missingAPIKey`, `.unreachable` and `.waitTooLong` stop a whole run
/// (every other request would fail the same way, or the run would wait longer than allowed);
/// `.rateLimited`, `.unavailable`, `.timeout`, `.transport` and 5xx statuses are worth retrying; the
/// rest concern one request only. A timeout is per request (HIBP may be slow for one account), so it
/// is retried and then recorded for that account while the run goes on.
public enum HIBPError: Error, Hashable, Sendable {
    /// 400: HIBP does not accept this account's format.
    case badRequest
    /// No API key is stored, and the endpoint needs one.
    case missingAPIKey
    /// 401: the key is missing, malformed or invalid. `detail` is a short cleaned version of HIBP's text.
    case unauthorized(detail: String)
    /// 403: no user agent, or blocked by Cloudflare. `cfRay` identifies the block when present.
    case forbidden(cfRay: String?)
    /// 429: too many requests for this key; `retryAfter` seconds when HIBP said.
    case rateLimited(retryAfter: Double?)
    /// 503: HIBP (or its origin behind Cloudflare) is down.
    case unavailable
    /// Any other status HIBP should not send for this request.
    case unexpectedStatus(Int)
    /// The request took longer than its timeout.
    case timeout
    /// No HTTP answer to this request (the connection broke, the answer was not HTTP): a short
    /// lower-case reason (never a URL).
    case transport(reason: String)
    /// HIBP cannot be reached at all (refused, DNS, TLS, no network): a short lower-case reason.
    case unreachable(reason: String)
    /// A 429 asked to wait `seconds`, more than the `limit` the user allows (`PWNVAULT_MAX_WAIT`).
    case waitTooLong(seconds: Int, limit: Int)
    /// A 200 whose body is not the JSON expected.
    case malformedBody
    /// The answer was larger than the transport's cap and was cut off.
    case bodyTooLarge

    /// Maps a transport failure to what the user is told.
    public init(_ error: HTTPTransportError) {
        switch error {
        case .timeout: self = .timeout
        case .bodyTooLarge: self = .bodyTooLarge
        case let .connection(reason): self = .transport(reason: reason)
        case let .unreachable(reason): self = .unreachable(reason: reason)
        case let .invalidRequest(reason): self = .transport(reason: reason)
        }
    }

    /// True when no further request of the run can succeed: stop starting new ones.
    public var stopsRun: Bool {
        switch self {
        case .unauthorized, .forbidden, .missingAPIKey, .unreachable, .waitTooLong: return true
        default: return false
        }
    }

    /// True when HIBP cannot be reached at all (nothing else will get through either).
    public var isUnreachable: Bool {
        if case .unreachable = self { return true }
        return false
    }

    /// True when the same request may succeed later (with backoff; a 429 waits `retryAfter`).
    public var isRetryable: Bool {
        switch self {
        case .rateLimited, .unavailable, .timeout, .transport: return true
        case let .unexpectedStatus(code): return (500...599).contains(code)
        default: return false
        }
    }
}

extension HIBPError: UserFacingError {
    public var message: String {
        switch self {
        case .badRequest: return "Have I Been Pwned does not accept this account's format (400)"
        case .missingAPIKey: return "an API key for Have I Been Pwned is needed and none is stored"
        case let .unauthorized(detail):
            return "Have I Been Pwned rejected the API key (401)" + (detail.isEmpty ? "" : ": \(detail)")
        case let .forbidden(cfRay):
            return "Have I Been Pwned refused the request (403 forbidden" + (cfRay.map { ", cf-ray \($0)" } ?? "") + ")"
        case let .rateLimited(retryAfter):
            return "Have I Been Pwned's rate limit for this key was exceeded (429)"
                + (retryAfter.map { "; retry after \(Int($0.rounded(.up))) s" } ?? "")
        case .unavailable: return "Have I Been Pwned is unavailable (503)"
        case let .unexpectedStatus(code): return "Have I Been Pwned answered with unexpected HTTP status \(code)"
        case .timeout: return "Have I Been Pwned did not answer in time"
        case let .transport(reason): return "could not reach Have I Been Pwned: \(reason)"
        case let .unreachable(reason): return "Have I Been Pwned cannot be reached: \(reason)"
        case let .waitTooLong(seconds, limit):
            return "Have I Been Pwned asked to wait \(seconds) s before the next request, longer than the \(limit) s pwnvault waits"
        case .malformedBody: return "Have I Been Pwned answered with data pwnvault cannot read"
        case .bodyTooLarge: return "Have I Been Pwned's answer was larger than pwnvault accepts"
        }
    }

    public var hint: String? {
        switch self {
        case .missingAPIKey, .unauthorized:
            return "store a valid key with 'pwnvault config api-key' (keys are sold at haveibeenpwned.com/API/Key)"
        case .forbidden:
            return "the request was blocked; try again later, and quote the cf-ray to HIBP if it persists"
        case .rateLimited: return "wait a minute and run it again"
        case .unavailable, .timeout, .transport, .unexpectedStatus: return "try again later"
        case .unreachable:
            return "check the network (and \(Settings.apiURLVariable) if it was changed); saved results were not changed"
        case .waitTooLong:
            return "results already checked are saved; run it again later, or allow longer waits with --max-wait SECONDS or \(Settings.maxWaitVariable)"
        case .badRequest: return "check the account for typos"
        case .malformedBody, .bodyTooLarge: return "if the api address was changed from the default, check it"
        }
    }

    public var exitStatus: ExitStatus {
        switch self {
        case .unauthorized, .forbidden, .missingAPIKey: return .apiAuthorization
        default: return .network
        }
    }
}
