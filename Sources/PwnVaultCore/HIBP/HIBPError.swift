/// What went wrong talking to Have I Been Pwned, with what to tell the user.
///
/// `.unauthorized`, `.forbidden`, `.missingAPIKey`, `.unreachable`, `.waitTooLong` and `.heldTooLong` stop a whole run
/// (every other request would fail the same way, or the run would wait longer than allowed);
/// `.rateLimited`, `.unavailable`, `.timeout`, `.transport` and 5xx statuses are worth retrying; the
/// rest concern one request only. A timeout is per request (HIBP may be slow for one account), so it
/// is retried and then recorded for that account while the run goes on.
public enum HIBPError: Error, Hashable, Sendable {
    /// 400: HIBP does not accept what was asked about (`subject`: the account, the domain, the key …).
    case badRequest(HIBPRequestSubject)
    /// No API key is stored, and the endpoint needs one.
    case missingAPIKey
    /// 401: the key is missing, malformed or invalid. `detail` is HIBP's own sentence (from its JSON
    /// `message` or its text), cleaned, on one line.
    case unauthorized(detail: String)
    /// 403: blocked by Cloudflare (`cfRay` identifies the block), or refused by HIBP itself (no user
    /// agent, a subscription without the feature, a domain not verified for the key): `detail` is
    /// HIBP's sentence then.
    case forbidden(cfRay: String?, detail: String)
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
    /// 429s in a row (each `retry-after` within the limit, the pace slowing round after round) would hold
    /// the run up `seconds` from the first one to the next try, more than the `limit` the user allows.
    case heldTooLong(seconds: Int, limit: Int)
    /// A 200 whose body is not the JSON expected.
    case malformedBody
    /// The answer was larger than the transport's cap and was cut off.
    case bodyTooLarge
    /// `--k-anonymity=require`: HIBP refused the key the k-anonymity search (401/403 to
    /// `breachedaccount/range`), and no address may be sent whole. `detail` is HIBP's sentence.
    case kAnonymityRefused(detail: String)
    /// The server answered `breachedaccount/range` with something that is not a range answer (a 404,
    /// as every server answers a path it does not know, or a body that is not the documented list):
    /// it has no range search. Never "no breach found"; `auto` sends addresses whole instead.
    case noRangeSearch(status: Int)
    /// `--k-anonymity=require` on a server without the range search (`status`: what it answered to
    /// `breachedaccount/range`), or a key whose plan does not include it (`status` nil: the plan, by
    /// `subscription/status`, says so): no address may be sent whole.
    case kAnonymityUnavailable(status: Int?)
    /// Internal to a run: the range search was refused and `auto` now asks for the whole address:
    /// the scheduler asks again at the next slot, with no backoff. Never shown.
    case lookupChanged

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
        case .unauthorized, .forbidden, .missingAPIKey, .unreachable, .waitTooLong, .heldTooLong, .kAnonymityRefused, .kAnonymityUnavailable: return true
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
    /// Computed when read (the failure an account keeps is built inside `Messages.english`).
    public var message: String {
        switch self {
        case let .badRequest(subject): return subject.badRequestMessage
        case .missingAPIKey: return msg("an API key for Have I Been Pwned is needed and none is stored")
        case let .unauthorized(detail):
            return detail.isEmpty ? msg("Have I Been Pwned rejected the API key (401)")
                : msg("Have I Been Pwned rejected the API key (401): {1}", detail)
        case let .forbidden(cfRay?, _):
            return msg("Have I Been Pwned's network (Cloudflare) blocked the request (403, cf-ray {1})", cfRay)
        case let .forbidden(nil, detail):
            return detail.isEmpty ? msg("Have I Been Pwned refused the request (403)")
                : msg("Have I Been Pwned refused the request (403): {1}", detail)
        case let .rateLimited(retryAfter):
            return retryAfter.map { msg("Have I Been Pwned's rate limit for this key was exceeded (429); retry after {1} s", Int($0.rounded(.up))) }
                ?? msg("Have I Been Pwned's rate limit for this key was exceeded (429)")
        case .unavailable: return msg("Have I Been Pwned is unavailable (503)")
        case let .unexpectedStatus(code): return msg("Have I Been Pwned answered with unexpected HTTP status {1}", code)
        case .timeout: return msg("Have I Been Pwned did not answer in time")
        case let .transport(reason): return msg("could not reach Have I Been Pwned: {1}", HTTPTransportError.shown(reason))
        case let .unreachable(reason): return msg("Have I Been Pwned cannot be reached: {1}", HTTPTransportError.shown(reason))
        case let .waitTooLong(seconds, limit):
            return msg("Have I Been Pwned asked to wait {1} s before the next request, longer than the {2} s pwnvault waits", seconds, limit)
        case let .heldTooLong(seconds, limit):
            return msg("Have I Been Pwned kept refusing requests (429, too many requests): the next try would come {1} s after the first refusal, longer than the {2} s pwnvault waits", seconds, limit)
        case .malformedBody: return msg("Have I Been Pwned answered with data pwnvault cannot read")
        case .bodyTooLarge: return msg("Have I Been Pwned's answer was larger than pwnvault accepts")
        case let .kAnonymityRefused(detail):
            return detail.isEmpty
                ? msg("Have I Been Pwned refused this key the k-anonymity search, and --k-anonymity=require sends no address whole")
                : msg("Have I Been Pwned refused this key the k-anonymity search, and --k-anonymity=require sends no address whole: {1}", detail)
        case let .noRangeSearch(status):
            return msg("the server at the api address has no k-anonymity search (it answered HTTP {1} to breachedaccount/range, not a list of hash suffixes)", status)
        case let .kAnonymityUnavailable(status?):
            return msg("the server at the api address has no k-anonymity search (it answered HTTP {1} to breachedaccount/range), and --k-anonymity=require sends no address whole", status)
        case .kAnonymityUnavailable(nil):
            return msg("this key's plan does not include the k-anonymity search (as subscription/status says), and --k-anonymity=require sends no address whole")
        case .lookupChanged: return msg("the lookup changed to the whole address")
        }
    }

    public var hint: String? {
        switch self {
        case .missingAPIKey, .unauthorized:
            return msg("store a valid key with 'pwnvault config api-key' (keys are sold at haveibeenpwned.com/API/Key)")
        case .forbidden(_?, _):
            return msg("the key is not the problem: try again later, and quote the cf-ray to HIBP's support if it persists")
        case .forbidden(nil, _):
            return msg("the key's subscription may not include this (haveibeenpwned.com/API/Key shows what each plan covers)")
        case .rateLimited: return msg("wait a minute and run it again")
        case .unavailable, .timeout, .transport, .unexpectedStatus: return msg("try again later")
        case .unreachable:
            return msg("check the network (and {1} if it was changed); saved results were not changed", Settings.apiURLVariable)
        case .waitTooLong, .heldTooLong:
            return msg("results already checked are saved; run it again later, or allow longer waits with --max-wait SECONDS or {1}", Settings.maxWaitVariable)
        case let .badRequest(subject): return subject.badRequestHint
        case .malformedBody, .bodyTooLarge: return msg("if the api address was changed from the default, check it")
        case .kAnonymityRefused:
            return msg("it needs a plan that includes it (HIBP's Pro and High RPM plans); --k-anonymity=auto sends the address whole instead")
        case .noRangeSearch: return msg("--k-anonymity=auto sends e-mail addresses whole to such a server; check {1} if it was changed", Settings.apiURLVariable)
        case .kAnonymityUnavailable(_?):
            return msg("check {1} if it was changed; --k-anonymity=auto sends the address whole instead", Settings.apiURLVariable)
        case .kAnonymityUnavailable(nil):
            return msg("it needs a plan that includes it (HIBP's Pro and High RPM plans); --k-anonymity=auto sends the address whole instead")
        case .lookupChanged: return nil
        }
    }

    public var exitStatus: ExitStatus {
        switch self {
        // A Cloudflare block is the network's doing, not the key's: the same status as an outage.
        case .forbidden(_?, _): return .network
        case .unauthorized, .forbidden, .missingAPIKey, .kAnonymityRefused, .kAnonymityUnavailable: return .apiAuthorization
        default: return .network
        }
    }
}

/// What a request asked about, for wording HIBP's 400 ("not in an acceptable format") per endpoint.
public enum HIBPRequestSubject: Hashable, Sendable {
    case account
    case domain
    case apiKey
    case breachName
    case other

    /// The subject of a request to `endpoint` (its first path segment).
    static func of(endpoint: String) -> HIBPRequestSubject {
        switch endpoint {
        case "breachedaccount", "pasteaccount", "stealerlogsbyemail": return .account
        case "breacheddomain", "stealerlogsbyemaildomain", "stealerlogsbywebsitedomain": return .domain
        case "subscription", "subscribeddomains": return .apiKey
        case "breach": return .breachName
        default: return .other
        }
    }

    var badRequestMessage: String {
        switch self {
        case .account: return msg("Have I Been Pwned does not accept this account's format (400)")
        case .domain: return msg("Have I Been Pwned does not accept this domain name (400)")
        case .apiKey: return msg("Have I Been Pwned did not accept the API key's form (400)")
        case .breachName: return msg("Have I Been Pwned does not accept this breach name (400)")
        case .other: return msg("Have I Been Pwned refused the request as malformed (400)")
        }
    }

    var badRequestHint: String {
        switch self {
        case .account: return msg("check the account for typos")
        case .domain: return msg("check the domain's spelling; 'pwnvault domain' lists the key's verified domains")
        case .apiKey: return msg("copy the key again from https://haveibeenpwned.com/API/Key and store it with 'pwnvault config api-key'")
        case .breachName: return msg("'pwnvault breaches --search WORD' finds a breach's name")
        case .other: return msg("try again; if it persists, the api address may be wrong ({1})", Settings.apiURLVariable)
        }
    }
}
