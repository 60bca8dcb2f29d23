import FoundationEssentials

/// Every endpoint pwnvault asks, and what a 404 from it means: the one table of statuses per
/// endpoint (Docs: shared/docs/hibp-api.md, "Endpoints"). HIBP documents 404 as "not found" for the
/// account searches (`breachedaccount/{account}`, `pasteaccount/{account}`,
/// `stealerlogsbyemail/{email}`), for `breach/{name}` (an unknown name) and for a domain with no
/// breached alias; there, and only in the shape HIBP gives it (no body), a 404 is an answer. Anywhere
/// else, `breachedaccount/range/{prefix}` above all, a 404 is what every server answers for a path it
/// does not know: the endpoint is missing, never "not found". Every other status is mapped once, in
/// `HIBPClient.error(for:apiKey:subject:)`.
enum HIBPEndpoint: Sendable, CaseIterable {
    case breachedAccount
    case breachedAccountRange
    case pasteAccount
    case stealerLogsByEmail
    case breachedDomain
    case subscribedDomains
    case breaches
    case breach
    case subscriptionStatus

    /// What a 404 means here.
    enum NotFound: Sendable, Equatable {
        /// Documented: nothing found (an account in no breach, no paste, an unknown breach name).
        case answer
        /// Not documented: the server has no such endpoint.
        case missingEndpoint
    }

    var notFound: NotFound {
        switch self {
        case .breachedAccount, .pasteAccount, .stealerLogsByEmail, .breach, .breachedDomain: return .answer
        case .breachedAccountRange, .subscribedDomains, .breaches, .subscriptionStatus: return .missingEndpoint
        }
    }

    /// True when `response` is this endpoint's documented "not found": a 404 where HIBP documents one,
    /// with HIBP's empty body (whitespace allowed). A 404 carrying a page (a web server's "not found",
    /// a proxy's error) is not HIBP's answer.
    func isNotFoundAnswer(_ response: HTTPResponse) -> Bool {
        response.status == 404 && notFound == .answer
            && response.body.allSatisfy { $0 == 0x20 || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D }
    }
}
