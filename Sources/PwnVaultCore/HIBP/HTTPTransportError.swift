/// Why an HTTP exchange produced no response. The reasons are fixed phrases: they never quote a
/// URL, so an account in a request path cannot leak through an error message.
public enum HTTPTransportError: Error, Hashable, Sendable {
    /// The exchange took longer than its timeout.
    case timeout
    /// The body grew past `limit` bytes; the transfer was aborted there.
    case bodyTooLarge(limit: Int)
    /// No connection, refused, reset, DNS or TLS failure: a short lower-case reason.
    case connection(reason: String)
    /// The request could not be sent as given (bad header value, unsupported scheme).
    case invalidRequest(reason: String)
}
