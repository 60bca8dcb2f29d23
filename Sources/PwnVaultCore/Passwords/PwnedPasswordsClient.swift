import FoundationEssentials

/// The Pwned Passwords range API with k-anonymity: only the first five hex characters of a
/// password's SHA-1 are sent (`GET {base}/range/{prefix}`), with `Add-Padding: true` so that the size
/// of the answer does not tell an observer which prefix had how many entries. The rest of the hash is
/// compared here, in place, by `PasswordRange`.
///
/// No key, no rate limit. Statuses other than 200 map to `HIBPError` as for the breach API; the
/// client never retries.
public struct PwnedPasswordsClient: Sendable {
    /// `https://api.pwnedpasswords.com`.
    public static let officialBaseURL = URL(string: Settings.defaultPasswordsURL)!
    /// The largest answer accepted: a range is about 1,000 lines of 40 bytes; this leaves room for
    /// twenty times as many. Every request carries this cap (`HTTPRequest.maxBodyBytes`).
    public static let maxBodyBytes = 1 << 20

    /// The API base (validated by the caller with `APIURLPolicy`), without `/range`.
    public let baseURL: URL
    /// `pwnvault/<version>`.
    public let userAgent: String
    public let timeout: Duration?
    private let transport: any HTTPTransport

    public init(baseURL: URL = PwnedPasswordsClient.officialBaseURL, version: String,
                transport: any HTTPTransport, timeout: Duration? = nil) {
        self.baseURL = baseURL
        self.userAgent = "pwnvault/\(version)"
        self.transport = transport
        self.timeout = timeout
    }

    /// How many times the password of `hash` appears in Pwned Passwords (0: not found).
    public func timesSeen(_ hash: PasswordHash) async throws -> Int {
        let response = try await send(request(prefix: hash.prefix))
        guard response.status == 200 else {
            throw HIBPClient.error(for: response, apiKey: nil) ?? HIBPError.unexpectedStatus(response.status)
        }
        return try PasswordRange.timesSeen(hash, in: response.body)
    }

    /// The request for one five-character prefix: nothing else about the password is in it.
    func request(prefix: String) throws -> HTTPRequest {
        var text = baseURL.absoluteString
        if !text.hasSuffix("/") { text += "/" }
        guard prefix.utf8.count == PasswordHash.prefixLength, let url = URL(string: text + "range/" + prefix) else {
            throw HIBPError.transport(reason: phrase("the Pwned Passwords address is not a valid URL"))
        }
        return HTTPRequest(url: url, headers: ["user-agent": userAgent, "add-padding": "true", "accept": "text/plain"],
                           timeout: timeout, maxBodyBytes: Self.maxBodyBytes)
    }

    private func send(_ request: HTTPRequest) async throws -> HTTPResponse {
        do {
            return try await transport.send(request)
        } catch let error as HTTPTransportError {
            throw HIBPError(error)
        } catch is CancellationError {
            throw CancellationError()
        } catch {
            if Task.isCancelled { throw CancellationError() }
            throw HIBPError.transport(reason: phrase("network error"))
        }
    }
}
