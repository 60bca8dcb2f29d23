import FoundationEssentials

/// One HTTP request, as the HIBP client hands it to an `HTTPTransport`.
///
/// Secret header values (the API key) stay in `SecretBytes` until the transport builds the wire
/// request, and the request never prints its URL (whose path holds the account) or its secrets.
public struct HTTPRequest: Sendable, CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    public var method: String
    public var url: URL
    /// Header fields, names lower-cased.
    public var headers: [String: String]
    /// Header fields whose values are secret (`hibp-api-key`), names lower-cased.
    public var secretHeaders: [String: SecretBytes]
    /// How long the whole exchange may take; nil uses the transport's default.
    public var timeout: Duration?
    /// The spacing the request schedule keeps between starts, for a keyed request it paced
    /// (`CheckScheduler`): a transport that can measure when a request actually leaves
    /// (`CurlTransport`) keeps the same spacing on the wire, so a start that reached the network late
    /// is not followed too closely. Nil: not paced.
    public var wireSpacing: Duration?
    /// The largest body this request accepts, in bytes, below the transport's own cap (Pwned
    /// Passwords' ranges are small); nil: the transport's.
    public var maxBodyBytes: Int?

    public init(method: String = "GET", url: URL, headers: [String: String] = [:],
                secretHeaders: [String: SecretBytes] = [:], timeout: Duration? = nil, wireSpacing: Duration? = nil,
                maxBodyBytes: Int? = nil) {
        self.method = method; self.url = url
        self.headers = Dictionary(headers.map { ($0.key.lowercased(), $0.value) }, uniquingKeysWith: { $1 })
        self.secretHeaders = Dictionary(secretHeaders.map { ($0.key.lowercased(), $0.value) }, uniquingKeysWith: { $1 })
        self.timeout = timeout
        self.wireSpacing = wireSpacing
        self.maxBodyBytes = maxBodyBytes
    }

    /// Method and host only: the path may hold an account and must not reach a log.
    public var description: String { "\(method) \(url.scheme ?? "?")://\(url.host ?? "?")/… (path redacted)" }
    public var debugDescription: String { description }
    /// The URL's path holds the account: `dump` and `Mirror` show the method and host only.
    public var customMirror: Mirror { Mirror(self, children: ["method": method, "host": url.host as Any]) }
}
