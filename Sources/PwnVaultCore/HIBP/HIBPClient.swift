import FoundationEssentials

/// Have I Been Pwned API v3, one request per call. Statuses are mapped to `HIBPError` per the
/// contract (Docs: shared/docs/hibp-api.md); a 404 means "not found" only where `HIBPEndpoint` (the one
/// table of what each endpoint's 404 means) says HIBP documents it, in HIBP's shape (no body).
///
/// The client never retries and never waits: pacing, 429 waits and backoff belong to `CheckScheduler`.
/// The API key stays in `SecretBytes` and goes into the `hibp-api-key` header only when a request that
/// needs it is sent. Accounts never appear in an error.
public struct HIBPClient: Sendable {
    /// `https://haveibeenpwned.com/api/v3/`.
    public static let officialBaseURL = URL(string: "https://haveibeenpwned.com/api/v3/")!

    /// Where the API lives, ending in `/api/v3/` (validated by the caller: https, or loopback in tests).
    public let baseURL: URL
    /// `pwnvault/<version>`, sent with every request (HIBP answers 403 without one).
    public let userAgent: String
    /// The per-request deadline handed to the transport; nil uses the transport's own.
    public let timeout: Duration?
    /// The schedule's spacing, handed to the transport with every request (`HTTPRequest.wireSpacing`);
    /// set by `spaced(_:)` for a request the schedule paced.
    public private(set) var wireSpacing: Duration?
    private let apiKey: SecretBytes?
    private let transport: any HTTPTransport

    public init(baseURL: URL = HIBPClient.officialBaseURL, apiKey: SecretBytes?, version: String,
                transport: any HTTPTransport, timeout: Duration? = nil) {
        self.baseURL = baseURL
        self.apiKey = apiKey
        self.userAgent = "pwnvault/\(version)"
        self.transport = transport
        self.timeout = timeout
    }

    /// This client, its requests carrying `spacing` to the transport (the slot the schedule gave them).
    public func spaced(_ spacing: Duration?) -> HIBPClient {
        var copy = self
        copy.wireSpacing = spacing
        return copy
    }

    /// True when an API key is configured (account searches need one).
    public var hasAPIKey: Bool { apiKey != nil }

    // MARK: endpoints

    /// The breaches `account` is in (`breachedaccount/{account}`), `.clean` on HIBP's 404.
    /// - Parameters:
    ///   - truncate: true (HIBP's default) returns names only, to be joined with `BreachCatalog`;
    ///     false returns full breach objects.
    ///   - domain: only breaches of this domain.
    public func breachedAccount(_ account: String, truncate: Bool = true, domain: String? = nil) async throws -> AccountLookup {
        var query: [(String, String)] = []
        if !truncate { query.append(("truncateResponse", "false")) }
        if let domain { query.append(("domain", domain)) }
        let response = try await send(.breachedAccount, ["breachedaccount", try Self.accountSegment(account)], query: query, needsKey: true)
        if response.status == 404 { return .clean }
        let list: [Breach] = try Self.decode(response)
        return list.isEmpty ? .clean : .breached(list)
    }

    /// The breaches `email` is in, asked by k-anonymity (`breachedaccount/range/{prefix}`): only the
    /// first 6 hex characters of the SHA-1 of the address leave; HIBP answers every suffix it holds
    /// under that prefix with its breach `Name`s (`[{"hashSuffix", "websites"}]`), and the one that
    /// matches the rest of the hash is this address's. `.clean` when no suffix matches.
    ///
    /// Only the documented answer counts: a JSON list of entries, each a 34-hex `hashSuffix` and its
    /// `websites`, holding at least one entry (a 6-hex prefix is shared by hundreds of addresses in
    /// HIBP's data: an empty range does not happen). A 404 (what a server without the endpoint
    /// answers), any other 200 body, or an empty list throws `HIBPError.noRangeSearch`: the server has
    /// no range search, which is never "no breach found".
    ///
    /// What HIBP's announcement (troyhunt.com, "HIBP Mega Update: Passkeys, k-Anonymity Searches…")
    /// shows: the SHA-1 of `test@example.com`, in upper-case hex, `567159` as the prefix, lower-case
    /// `hashSuffix`/`websites`, available to the Pro and High RPM plans at the same (shared) rate
    /// limit as direct searches. Not confirmed from HIBP's API page (not readable here): whether HIBP
    /// lower-cases before hashing (its example is lower case, its direct search is case-insensitive
    /// and trimmed, and every client seen lower-cases and trims: so does this one), and the status
    /// for a plan without the search (401 or 403, as for stealer logs: both are taken as a refusal).
    /// Suffixes are compared without regard to case; Mozilla's 2018 description wrote the fields
    /// `HashSuffix`/`Websites`, so both spellings are read.
    public func breachedAccountRange(_ email: String) async throws -> AccountLookup {
        let hash = Self.rangeHash(email)
        let prefix = String(hash.prefix(6)), suffix = String(hash.dropFirst(6))
        let response = try await send(.breachedAccountRange, ["breachedaccount", "range", prefix], query: [], needsKey: true)
        if response.status != 200 { throw HIBPError.noRangeSearch(status: response.status) }
        guard let entries = try? JSONDecoder().decode([RangeEntry].self, from: response.body), !entries.isEmpty,
              entries.allSatisfy({ Self.isHashSuffix($0.hashSuffix) }) else {
            throw HIBPError.noRangeSearch(status: response.status)
        }
        guard let match = entries.first(where: { $0.hashSuffix.uppercased() == suffix }), !match.websites.isEmpty else {
            return .clean
        }
        return .breached(match.websites.map { Breach(name: $0) })
    }

    /// The upper-case hex SHA-1 of `email` trimmed and lower-cased, as the range search is keyed.
    static func rangeHash(_ email: String) -> String {
        let normalized = Array(email.trimmingWhitespaceAndNewlines().lowercased().utf8)
        var digest = [UInt8](repeating: 0, count: SHA1.digestBytes)
        normalized.withUnsafeBytes { m in digest.withUnsafeMutableBytes { SHA1.hash(m, into: $0) } }
        return Sodium.hex(digest).uppercased()
    }

    /// 34 hex digits: the rest of an SHA-1 after its 6-hex prefix.
    static func isHashSuffix(_ text: String) -> Bool {
        text.utf8.count == 34 && text.utf8.allSatisfy { (0x30...0x39).contains($0) || (0x41...0x46).contains($0) || (0x61...0x66).contains($0) }
    }

    /// One entry of a range answer.
    private struct RangeEntry: Decodable {
        let hashSuffix: String
        let websites: [String]
        private enum Keys: String, CodingKey { case hashSuffix, websites, HashSuffix, Websites }
        init(from decoder: Decoder) throws {
            let c = try decoder.container(keyedBy: Keys.self)
            hashSuffix = try c.decodeIfPresent(String.self, forKey: .hashSuffix) ?? c.decode(String.self, forKey: .HashSuffix)
            websites = try c.decodeIfPresent([String].self, forKey: .websites) ?? c.decode([String].self, forKey: .Websites)
        }
    }

    /// The pastes `account` appeared in (`pasteaccount/{account}`); empty on 404. Internal: paste ids
    /// are vault data, recorded by `AccountCheckRun` and shown only through the disclosure gate.
    func pastes(_ account: String) async throws -> [Paste] {
        let response = try await send(.pasteAccount, ["pasteaccount", try Self.accountSegment(account)], query: [], needsKey: true)
        if response.status == 404 { return [] }
        return try Self.decode(response)
    }

    /// The websites whose info-stealer logs hold `email` (`stealerlogsbyemail/{email}`); empty on 404.
    /// Needs a subscription that includes stealer logs: otherwise HIBP answers 401 or 403. Internal:
    /// the websites are vault data, recorded by `AccountCheckRun` and named only in `reveal`.
    func stealerLogs(_ email: String) async throws -> [String] {
        let response = try await send(.stealerLogsByEmail, ["stealerlogsbyemail", try Self.accountSegment(email)], query: [], needsKey: true)
        if response.status == 404 { return [] }
        return try Self.decode(response)
    }

    /// Every breached alias of a domain the key has verified (`breacheddomain/{domain}`): the local
    /// part of each address and the breach `Name`s it is in. Empty on 404. Includes sensitive breaches:
    /// the aliases come back inside a `DomainSearch`, which keeps them internal.
    public func breachedDomain(_ domain: String) async throws -> DomainSearch {
        let response = try await send(.breachedDomain, ["breacheddomain", try Self.accountSegment(domain, subject: .domain)], query: [], needsKey: true)
        if response.status == 404 { return DomainSearch(domain: domain, aliases: [:]) }
        return DomainSearch(domain: domain, aliases: try Self.decode(response))
    }

    /// The domains the key may search (`subscribeddomains`).
    public func subscribedDomains() async throws -> [SubscribedDomain] {
        let response = try await send(.subscribedDomains, ["subscribeddomains"], query: [], needsKey: true)
        return try Self.decode(response)
    }

    /// The public breach catalog (`breaches`, no key), or only the breaches of `domain`.
    public func breaches(domain: String? = nil) async throws -> [Breach] {
        let response = try await send(.breaches, ["breaches"], query: domain.map { [("Domain", $0)] } ?? [], needsKey: false)
        return try Self.decode(response)
    }

    /// One breach by its `Name` (`breach/{name}`, no key); nil when HIBP does not know it.
    public func breach(named name: String) async throws -> Breach? {
        let response = try await send(.breach, ["breach", try Self.accountSegment(name, subject: .breachName)], query: [], needsKey: false)
        if response.status == 404 { return nil }
        return try Self.decode(response)
    }

    /// The key's subscription, including its own rate limit (`subscription/status`).
    public func subscriptionStatus() async throws -> SubscriptionStatus {
        let response = try await send(.subscriptionStatus, ["subscription", "status"], query: [], needsKey: true)
        return try Self.decode(response)
    }

    // MARK: requests

    /// Builds the request for `path` (already-encoded segments) without sending it.
    func request(_ path: [String], query: [(String, String)], needsKey: Bool) throws -> HTTPRequest {
        var text = baseURL.absoluteString
        if !text.hasSuffix("/") { text += "/" }
        text += path.joined(separator: "/")
        if !query.isEmpty {
            text += "?" + query.map { Self.percentEncode($0.0) + "=" + Self.percentEncode($0.1) }.joined(separator: "&")
        }
        guard let url = URL(string: text) else { throw HIBPError.transport(reason: phrase("the api address is not a valid URL")) }
        var secrets: [String: SecretBytes] = [:]
        if needsKey {
            guard let apiKey else { throw HIBPError.missingAPIKey }
            secrets["hibp-api-key"] = apiKey
        }
        return HTTPRequest(url: url, headers: ["user-agent": userAgent, "accept": "application/json"],
                           secretHeaders: secrets, timeout: timeout, wireSpacing: wireSpacing)
    }

    /// Sends and maps every status but 200 to an `HIBPError`, and a 404 too unless it is `endpoint`'s
    /// documented "not found" (`HIBPEndpoint`): the range search's 404 comes back to its caller, which
    /// says the server has no range search. Cancellation passes through.
    private func send(_ endpoint: HIBPEndpoint, _ path: [String], query: [(String, String)], needsKey: Bool) async throws -> HTTPResponse {
        let request = try request(path, query: query, needsKey: needsKey)
        let response: HTTPResponse
        do {
            response = try await transport.send(request)
        } catch let error as HTTPTransportError {
            throw HIBPError(error)
        } catch let error as HIBPError {
            throw error
        } catch is CancellationError {
            throw CancellationError()
        } catch {
            if Task.isCancelled { throw CancellationError() }
            throw HIBPError.transport(reason: phrase("network error"))
        }
        if let error = Self.error(for: response, apiKey: apiKey, subject: .of(endpoint: path.first ?? "")) { throw error }
        if response.status == 404 && endpoint != .breachedAccountRange && !endpoint.isNotFoundAnswer(response) {
            throw HIBPError.unexpectedStatus(404)
        }
        return response
    }

    /// The error a response stands for, or nil for 200 and 404. `subject` words a 400.
    static func error(for response: HTTPResponse, apiKey: SecretBytes?, subject: HIBPRequestSubject = .other) -> HIBPError? {
        switch response.status {
        case 200, 404: return nil
        case 400: return .badRequest(subject)
        case 401: return .unauthorized(detail: shortDetail(response.body, hiding: apiKey))
        case 403:
            // Cloudflare's block page is HTML with a ray id; HIBP's own refusals are one sentence.
            let ray = response.header("cf-ray").flatMap(cleanRay)
            return .forbidden(cfRay: ray, detail: ray == nil ? shortDetail(response.body, hiding: apiKey) : "")
        case 429: return .rateLimited(retryAfter: response.header("retry-after").flatMap(parseRetryAfter))
        case 503: return .unavailable
        default: return .unexpectedStatus(response.status)
        }
    }

    static func decode<T: Decodable>(_ response: HTTPResponse) throws -> T {
        do {
            return try JSONDecoder().decode(T.self, from: response.body)
        } catch {
            throw HIBPError.malformedBody
        }
    }

    // MARK: encoding and cleaning

    /// `account` as one path segment: trimmed, every byte outside RFC 3986's unreserved set
    /// (`A-Z a-z 0-9 - . _ ~`) percent-encoded, `@ + /` included. An empty account, or one made of
    /// dots only (which a server would read as `.` or `..` path steps), is refused before sending.
    public static func accountSegment(_ account: String, subject: HIBPRequestSubject = .account) throws -> String {
        let trimmed = account.trimmingWhitespaceAndNewlines()
        guard !trimmed.isEmpty, !trimmed.allSatisfy({ $0 == "." }) else { throw HIBPError.badRequest(subject) }
        return percentEncode(trimmed)
    }

    /// Percent-encodes every UTF-8 byte outside RFC 3986's unreserved set, in upper-case hex.
    public static func percentEncode(_ text: String) -> String {
        let hex = Array("0123456789ABCDEF".utf8)
        var out: [UInt8] = []
        out.reserveCapacity(text.utf8.count * 3)
        for b in text.utf8 {
            switch b {
            case 0x41...0x5A, 0x61...0x7A, 0x30...0x39, 0x2D, 0x2E, 0x5F, 0x7E: out.append(b)
            default: out.append(0x25); out.append(hex[Int(b >> 4)]); out.append(hex[Int(b & 0xF)])
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// `retry-after` as seconds: an integer or decimal, clamped to 0…`maxRetryAfter` (only to keep
    /// the arithmetic finite: the scheduler refuses waits above the user's limit and says how long
    /// was asked). HTTP-date forms are not used by HIBP: nil.
    static func parseRetryAfter(_ value: String) -> Double? {
        guard let seconds = Double(value.trimmingWhitespace()), seconds.isFinite else { return nil }
        return min(max(seconds, 0), maxRetryAfter)
    }

    /// The longest `retry-after` taken literally.
    static let maxRetryAfter: Double = 999_999_999

    /// A cf-ray id is hex and a dash and a data-centre code; anything else is dropped.
    static func cleanRay(_ value: String) -> String? {
        let kept = String(value.unicodeScalars.filter { $0.isASCII && ($0.properties.isAlphabetic
            || ("0"..."9").contains($0) || $0 == "-") }.prefix(64))
        return kept.isEmpty ? nil : String(kept)
    }

    /// HIBP's 401/403 sentence on one line: from the JSON body's `message` where the answer is JSON
    /// (`{"statusCode": 401, "message": "…"}`, HIBP's older form), else the text; HTML tags and
    /// control characters gone, whitespace collapsed, whole sentences up to 200 characters (never
    /// cut mid-sentence), and the key itself blanked out should a server echo it.
    static func shortDetail(_ body: Data, hiding apiKey: SecretBytes?) -> String {
        var bytes = [UInt8](body.prefix(4096))
        if let apiKey, apiKey.count >= 8 {
            apiKey.withUnsafeBytes { key in
                // Compared in place: no copy of the key is made.
                var i = 0
                while i + key.count <= bytes.count {
                    var match = true
                    for j in 0..<key.count where bytes[i + j] != key[j] { match = false; break }
                    if match {
                        for j in i..<(i + key.count) { bytes[j] = UInt8(ascii: "*") }
                        i += key.count
                    } else { i += 1 }
                }
            }
        }
        var text = String(decoding: bytes, as: UTF8.self)
        if text.trimmingWhitespaceAndNewlines().hasPrefix("{"),
           let message = try? JSONDecoder().decode(ErrorBody.self, from: Data(bytes)).message {
            text = message
        }
        let plain = text.contains("<") ? HTMLText.render(text, width: 0).text : text
        let line = plain.split(whereSeparator: { $0.isWhitespace || $0.isNewline }).joined(separator: " ")
        let cleaned = String(String.UnicodeScalarView(line.unicodeScalars.filter {
            !($0.properties.generalCategory == .control || $0.properties.generalCategory == .format)
        }))
        return wholeSentences(cleaned, limit: 200)
    }

    /// HIBP's JSON error body.
    private struct ErrorBody: Decodable { let message: String }

    /// The first sentence of `text` (ending with `.`, `!` or `?` before a space or the end) when it
    /// ends within `limit` characters: HIBP's cause, said once; else `text` when it fits; else its
    /// words that fit, and an ellipsis. Never a sentence cut in its middle without one.
    static func wholeSentences(_ text: String, limit: Int) -> String {
        var count = 0
        var i = text.startIndex
        while i < text.endIndex, count < limit {
            let next = text.index(after: i)
            if ".!?".contains(text[i]), next == text.endIndex || text[next] == " " { return String(text[..<next]) }
            i = next
            count += 1
        }
        if text.count <= limit { return text }
        let prefix = text.prefix(limit - 1)
        if let space = prefix.lastIndex(of: " ") { return String(prefix[..<space]) + "…" }
        return String(prefix) + "…"
    }
}
