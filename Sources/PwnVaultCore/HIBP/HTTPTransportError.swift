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

extension HTTPTransportError {
    /// `reason` in the reader's language. Reasons are kept as English phrases (`phrase`): they reach the
    /// vault and `--json` (an account's `lastFailure`), and are translated where a person reads them.
    public static func shown(_ reason: String) -> String {
        let numbered = "network error (code "
        if reason.hasPrefix(numbered), reason.hasSuffix(")"), let code = Int(reason.dropFirst(numbered.count).dropLast()) {
            return msg("network error (code {1})", code)
        }
        return Messages.shown(reason)
    }
}
