// The only file that imports libpsl.
internal import CPSL

/// The Public Suffix List (publicsuffix.org) through Debian's libpsl, the library curl already loads:
/// the newest of the list libpsl was built with and the one the `publicsuffix` package keeps up to date
/// in /usr/share/publicsuffix. Masking asks it where an e-mail domain's registrable name starts, so
/// `bob@mail.example.co.uk` shows `e•••.co.uk` and `ann@city.kawasaki.jp` its whole suffix.
enum PublicSuffixList {
    /// The loaded list, once per process (libpsl's context is read-only once made).
    nonisolated(unsafe) private static let context: OpaquePointer? = psl_latest(nil) ?? psl_builtin()

    /// How many labels at the end of `domain` (lower-case, UTF-8) are its public suffix, or nil when
    /// the list cannot say (no list, or the domain is itself a public suffix or not under one).
    static func suffixLabelCount(of domain: String) -> Int? {
        guard let context else { return nil }
        return domain.withCString { start -> Int? in
            guard let registrable = psl_registrable_domain(context, start) else { return nil }
            // `registrable` points into `domain`: the registrable name, one label before the suffix.
            let text = String(cString: registrable)
            let labels = text.split(separator: ".", omittingEmptySubsequences: false).count
            return labels > 1 ? labels - 1 : nil
        }
    }
}
