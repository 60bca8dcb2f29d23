import FoundationEssentials

/// Which addresses pwnvault will send account names and the API key to.
///
/// Only `https://…`, or plain `http://` to this machine (127.0.0.0/8, ::1, `localhost`) for test
/// servers. Refused: other schemes, user-info (`user:pass@`), queries, fragments, backslashes,
/// whitespace, and any host that merely starts like a loopback address (`127.0.0.1.evil.com`).
/// IPv4 hosts must be written as four plain decimal numbers, so that no parser reads them differently.
/// libcurl reaches every address accepted here, `[::1]` included.
public enum APIURLPolicy {
    /// The longest address accepted.
    public static let maximumLength = 2048

    /// The validated base URL, with trailing slashes removed from its path so that callers can
    /// append `/breachedaccount/…`. Throws `SettingsError.unsafeAPIURL`.
    public static func validateAPIBase(_ s: String) throws -> URL {
        try validateAPIBase(s, variable: nil)
    }

    /// As `validateAPIBase(_:)`, naming the environment variable the address came from in errors.
    public static func validateAPIBase(_ s: String, variable: String?) throws -> URL {
        // Whatever precedes an '@' may be a password: it is never echoed, whichever check refuses.
        let safe: String
        if let at = s.lastIndex(of: "@") {
            let scheme = s.firstRange(of: "://").map { String(s[..<$0.upperBound]) } ?? ""
            safe = scheme + "…@" + s[s.index(after: at)...]
        } else {
            safe = s
        }
        func refuse(_ reason: String, shown: String? = nil) -> SettingsError {
            .unsafeAPIURL(variable: variable, shownAddress: SettingsError.shown(shown ?? safe), reason: reason)
        }
        guard !s.isEmpty else { throw refuse(msg("it is empty")) }
        guard s.utf8.count <= maximumLength else { throw refuse(msg("it is longer than {1} characters", maximumLength), shown: "") }
        for scalar in s.unicodeScalars {
            if scalar.value <= 0x20 || scalar.value >= 0x7F {
                throw refuse(msg("it contains spaces, control characters or non-ASCII characters"))
            }
        }
        if s.contains("\\") { throw refuse(msg("it contains a backslash")) }

        guard let schemeEnd = s.firstRange(of: "://") else { throw refuse(msg("it does not start with https://")) }
        let scheme = s[..<schemeEnd.lowerBound].lowercased()
        guard scheme == "https" || scheme == "http" else {
            throw refuse(msg("only https:// is allowed (and http:// to this machine)"))
        }
        let rest = s[schemeEnd.upperBound...]
        let authorityEnd = rest.firstIndex(where: { $0 == "/" || $0 == "?" || $0 == "#" }) ?? rest.endIndex
        let authority = String(rest[..<authorityEnd])
        var path = String(rest[authorityEnd...])

        if authority.contains("@") {
            // Never echo what precedes '@': it may be a password.
            let afterAt = authority[authority.index(after: authority.lastIndex(of: "@")!)...]
            throw refuse(msg("addresses with a user name or password are not accepted"),
                         shown: "\(scheme)://…@\(afterAt)\(path)")
        }
        if path.contains("?") || path.contains("#") { throw refuse(msg("a base address cannot have a query or fragment")) }
        if s.contains("%") { throw refuse(msg("percent-encoded characters are not accepted in a base address")) }

        let (host, port) = try splitHostAndPort(authority, refuse: refuse)
        if let port {
            guard let number = Int(port), (1...65535).contains(number), port.first != "0" else {
                throw refuse(msg("the port must be a number from 1 to 65535"))
            }
        }

        let hostKind = try classify(host, refuse: refuse)
        if scheme == "http" && hostKind != .loopback {
            throw refuse(msg("plain http is allowed only to this machine (127.0.0.1, ::1, localhost)"))
        }

        while path.hasSuffix("/") { path.removeLast() }
        let normalized = "\(scheme)://\(authority.lowercased())\(path)"
        guard let url = URL(string: normalized), url.scheme == scheme,
              url.host?.lowercased() == foundationHost(host) else {
            throw refuse(msg("it is not a well-formed address"))
        }
        return url
    }

    private enum HostKind: Equatable { case loopback, other }

    /// The host as Foundation reports it (`URL.host` drops the brackets of an IPv6 literal).
    private static func foundationHost(_ host: String) -> String {
        let lower = host.lowercased()
        return lower.hasPrefix("[") ? String(lower.dropFirst().dropLast()) : lower
    }

    /// Splits "host:port" or "[v6]:port".
    private static func splitHostAndPort(_ authority: String,
                                         refuse: (String, String?) -> SettingsError) throws -> (String, String?) {
        if authority.hasPrefix("[") {
            guard let close = authority.firstIndex(of: "]") else { throw refuse(msg("the IPv6 address is not closed with ']'"), nil) }
            let host = String(authority[...close])
            let after = authority[authority.index(after: close)...]
            if after.isEmpty { return (host, nil) }
            guard after.hasPrefix(":") else { throw refuse(msg("unexpected characters after the IPv6 address"), nil) }
            return (host, String(after.dropFirst()))
        }
        let parts = authority.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count <= 2 else { throw refuse(msg("the host has more than one ':'"), nil) }
        return (String(parts[0]), parts.count == 2 ? String(parts[1]) : nil)
    }

    /// Loopback or not; throws for malformed hosts.
    private static func classify(_ host: String, refuse: (String, String?) -> SettingsError) throws -> HostKind {
        guard !host.isEmpty else { throw refuse(msg("it has no host"), nil) }
        if host.hasPrefix("[") {
            let inner = host.dropFirst().dropLast().lowercased()
            guard let groups = ipv6Groups(inner) else { throw refuse(msg("the IPv6 address is malformed"), nil) }
            return groups == [0, 0, 0, 0, 0, 0, 0, 1] ? .loopback : .other
        }
        let lower = host.lowercased()
        if lower == "localhost" || lower == "localhost." { return .loopback }
        var labels = lower.split(separator: ".", omittingEmptySubsequences: false)
        let trailingDot = labels.count > 1 && labels.last == ""
        if trailingDot { labels.removeLast() }   // "example.com." is a fully qualified name
        // As in the WHATWG URL parser: a host whose last label is a number (decimal or 0x) is an IPv4
        // address. Accept only exactly a.b.c.d in plain decimal, so that no parser reads it otherwise.
        let last = labels.last ?? ""
        if (!last.isEmpty && last.allSatisfy(\.isASCIIDigitCharacter)) || last.hasPrefix("0x") {
            guard !trailingDot, let octets = ipv4Octets(lower) else {
                throw refuse(msg("write an IPv4 address as four decimal numbers (like 127.0.0.1)"), nil)
            }
            return octets[0] == 127 ? .loopback : .other
        }
        // A DNS name: letters, digits and hyphens in labels of at most 63, one optional trailing dot.
        for label in labels {
            guard !label.isEmpty, label.count <= 63, label.first != "-", label.last != "-",
                  label.allSatisfy({ $0.isASCIIDigitCharacter || ("a"..."z").contains($0) || $0 == "-" }) else {
                throw refuse(msg("the host name is malformed"), nil)
            }
        }
        return .other
    }

    private static func ipv4Octets(_ s: String) -> [Int]? {
        let parts = s.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 4 else { return nil }
        var octets: [Int] = []
        for part in parts {
            guard !part.isEmpty, part.count <= 3, part.allSatisfy(\.isASCIIDigitCharacter),
                  part == "0" || part.first != "0", let value = Int(part), value <= 255 else { return nil }
            octets.append(value)
        }
        return octets
    }

    /// The eight 16-bit groups of an IPv6 address in text form, or nil. Zone ids and embedded IPv4
    /// are not accepted (a test server is reached as [::1]).
    private static func ipv6Groups(_ s: String) -> [Int]? {
        func groups(_ part: Substring) -> [Int]? {
            if part.isEmpty { return [] }
            var out: [Int] = []
            for g in part.split(separator: ":", omittingEmptySubsequences: false) {
                guard (1...4).contains(g.count), let v = Int(g, radix: 16) else { return nil }
                out.append(v)
            }
            return out
        }
        let halves = s.components(separatedBy: "::")
        switch halves.count {
        case 1:
            guard let all = groups(Substring(halves[0])), all.count == 8 else { return nil }
            return all
        case 2:
            guard let head = groups(Substring(halves[0])), let tail = groups(Substring(halves[1])),
                  head.count + tail.count <= 7 else { return nil }
            return head + Array(repeating: 0, count: 8 - head.count - tail.count) + tail
        default:
            return nil
        }
    }
}

private extension Character {
    var isASCIIDigitCharacter: Bool { ("0"..."9").contains(self) }
}
