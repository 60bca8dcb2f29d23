/// The site a login belongs to, from the web address its export gives: the registrable domain
/// (`accounts.google.co.uk` → `google.co.uk`) by the Public Suffix List (libpsl), which is what breach
/// catalogs name a breach's domain by.
///
/// Where the host has no registrable domain (it is itself a public suffix, such as `github.io` or
/// `blogspot.com`, or libpsl cannot say) the site is the whole host and `isWholeHost` says so: the
/// registrable domain of `alice.github.io` is already `alice.github.io`, one person's page, never `github.io`.
struct LoginSite: Equatable, Hashable, Sendable {
    /// Lower-case, no trailing dot; Unicode as written (libpsl reads UTF-8).
    let domain: String
    /// The host as written (lower-case) when it differs from `domain`, else nil.
    let host: String?
    /// True when `domain` is a whole host that has no registrable domain of its own.
    let isWholeHost: Bool

    /// The site of `url` (as an export writes it: with or without a scheme, port, path or user), or why
    /// it has none.
    static func of(_ url: String) -> Result<LoginSite, LoginSiteProblem> {
        var text = Substring(url).drop(while: { $0 == " " || $0 == "\t" })
        while let last = text.last, last == " " || last == "\t" { text = text.dropLast() }
        guard !text.isEmpty else { return .failure(.noAddress) }
        if let colon = text.firstIndex(of: ":"), text[text.index(after: colon)...].hasPrefix("//") {
            let scheme = text[..<colon].lowercased()
            if scheme == "androidapp" { return .failure(.androidApp) }
            guard ["http", "https", "ftp", "ftps"].contains(scheme) else { return .failure(.notWeb) }
            text = text[text.index(colon, offsetBy: 3)...]
        } else if let colon = text.firstIndex(of: ":"), text[..<colon].allSatisfy({ $0.isLetter }),
                  !(text[text.index(after: colon)...].first?.isNumber ?? false) {
            return .failure(.notWeb)   // `about:blank`, `mailto:…`: a scheme, where a port would be digits
        }
        var host = text.prefix(while: { $0 != "/" && $0 != "?" && $0 != "#" && $0 != "\\" })
        if let at = host.lastIndex(of: "@") { host = host[host.index(after: at)...] }
        if host.first == "[" { return .failure(.ipAddress) }   // [::1], [2001:db8::1]
        if let colon = host.lastIndex(of: ":") { host = host[..<colon] }
        var name = host.lowercased()
        while name.hasSuffix(".") { name.removeLast() }
        guard !name.isEmpty, !name.contains(where: { $0 == " " || $0.isWhitespace }) else { return .failure(.notWeb) }
        let labels = name.split(separator: ".", omittingEmptySubsequences: false)
        guard !labels.contains(where: \.isEmpty) else { return .failure(.notWeb) }
        if labels.allSatisfy({ !$0.isEmpty && $0.allSatisfy(\.isASCII) && $0.allSatisfy(\.isNumber) }) {
            return .failure(.ipAddress)   // 192.168.1.1, and the 1- to 3-part forms inet_aton also reads
        }
        if name == "localhost" || name.hasSuffix(".localhost") || labels.count == 1 { return .failure(.localName) }
        if let suffix = PublicSuffixList.suffixLabelCount(of: name), suffix + 1 <= labels.count {
            let domain = labels.suffix(suffix + 1).joined(separator: ".")
            return .success(LoginSite(domain: domain, host: domain == name ? nil : name, isWholeHost: false))
        }
        return .success(LoginSite(domain: name, host: nil, isWholeHost: true))
    }
}

/// Why a login has no site. The login is still read (its account and password count for reuse and
/// Pwned Passwords); it just cannot be matched with a breach of a web site.
enum LoginSiteProblem: Error, Equatable, Sendable {
    /// No web address at all.
    case noAddress
    /// An Android app (`androidapp://com.example.app`), which breach catalogs do not name.
    case androidApp
    /// An IP address (a router's or a NAS's page), which no breach names.
    case ipAddress
    /// `localhost`, `*.localhost` or a name without a dot (an intranet host).
    case localName
    /// Another scheme (`chrome://`, `about:`, `ssh://`) or text that is not a host name.
    case notWeb

    var reason: String {
        switch self {
        case .noAddress: return msg("no web address")
        case .androidApp: return msg("an Android app (androidapp://), not a web site")
        case .ipAddress: return msg("an IP address, not a domain name")
        case .localName: return msg("a local name (localhost, or a name without a dot)")
        case .notWeb: return msg("not a web address")
        }
    }
}
