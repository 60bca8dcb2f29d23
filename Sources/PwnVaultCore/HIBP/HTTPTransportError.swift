/// Why an HTTP exchange produced no response. The reasons are fixed phrases: they never quote a
/// URL, so an account in a request path cannot leak through an error message.
public enum HTTPTransportError: Error, Hashable, Sendable {
    /// The exchange took longer than its timeout.
    case timeout
    /// The body grew past `limit` bytes; the transfer was aborted there.
    case bodyTooLarge(limit: Int)
    /// The connection broke or the answer was not HTTP: a short lower-case reason. Concerns one
    /// exchange: the next may work.
    case connection(reason: String)
    /// The server cannot be reached at all: connection refused, no route or network, the name does
    /// not resolve, TLS fails or the certificate is not trusted. Every other request would fail too.
    case unreachable(reason: String)
    /// The request could not be sent as given (bad header value, unsupported scheme).
    case invalidRequest(reason: String)
}
