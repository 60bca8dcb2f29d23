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
    /// `reason` in the reader's language. Reasons are kept as their fixed English phrases, since they
    /// are stored in errors that reach the vault and `--json` (an account's `lastFailure`), and are
    /// translated only when a message is read: inside `Messages.english` this gives the English phrase.
    public static func text(ofReason reason: String) -> String {
        switch reason {
        case "only http and https addresses are supported": return msg("only http and https addresses are supported")
        case "only GET requests are supported": return msg("only GET requests are supported")
        case "a header field holds characters http does not allow": return msg("a header field holds characters http does not allow")
        case "a secret header field holds characters http does not allow":
            return msg("a secret header field holds characters http does not allow")
        case "out of memory": return msg("out of memory")
        case "the host name could not be resolved": return msg("the host name could not be resolved")
        case "the connection was refused": return msg("the connection was refused")
        case "the tls handshake failed": return msg("the tls handshake failed")
        case "the server's certificate is not trusted": return msg("the server's certificate is not trusted")
        case "the connection was lost": return msg("the connection was lost")
        case "the server's answer was not valid http": return msg("the server's answer was not valid http")
        case "the proxy could not be used": return msg("the proxy could not be used")
        case "libcurl (libcurl4) could not be loaded": return msg("libcurl (libcurl4) could not be loaded")
        case "the address cannot be requested": return msg("the address cannot be requested")
        case "the request failed": return msg("the request failed")
        case "network error": return msg("network error")
        case "the api address is not a valid URL": return msg("the api address is not a valid URL")
        case "the Pwned Passwords address is not a valid URL": return msg("the Pwned Passwords address is not a valid URL")
        default:
            if reason.hasPrefix("network error (code "), reason.hasSuffix(")"),
               let code = Int(reason.dropFirst("network error (code ".count).dropLast()) {
                return msg("network error (code {1})", code)
            }
            return reason
        }
    }
}
