// The only file that uses libpsl. It is loaded with dlopen the first time an address is masked, not
// linked: commands that mask nothing (`--version`, `help`, `add -` until it has read its input) do not
// map it, nor libidn2 and libunistring behind it (issue 10).

/// The Public Suffix List (publicsuffix.org) through Debian's libpsl, the library curl already loads:
/// the newest of the list libpsl was built with and the one the `publicsuffix` package keeps up to date
/// in /usr/share/publicsuffix. Masking asks it where an e-mail domain's registrable name starts, so
/// `bob@mail.example.co.uk` shows `e•••.co.uk` and `ann@city.kawasaki.jp` its whole suffix.
enum PublicSuffixList {
    private typealias Latest = @convention(c) (UnsafePointer<CChar>?) -> OpaquePointer?
    private typealias Builtin = @convention(c) () -> OpaquePointer?
    private typealias Registrable = @convention(c) (OpaquePointer?, UnsafePointer<CChar>?) -> UnsafePointer<CChar>?

    /// libpsl's loaded list and its one query. Unchecked: the context is read-only once made.
    private struct Library: @unchecked Sendable {
        let context: OpaquePointer
        let registrableDomain: Registrable
    }

    /// Loaded once per process; nil when libpsl (soname 5) or a list cannot be had.
    private static let library: Library? = {
        guard case let .success(handle) = SharedLibrary.open("libpsl.so.5"),
              let latest = handle.symbol("psl_latest", as: Latest.self), let builtin = handle.symbol("psl_builtin", as: Builtin.self),
              let registrable = handle.symbol("psl_registrable_domain", as: Registrable.self) else { return nil }
        guard let context = latest(nil) ?? builtin() else { return nil }
        return Library(context: context, registrableDomain: registrable)
    }()

    /// How many labels at the end of `domain` (lower-case, UTF-8) are its public suffix, or nil when
    /// the list cannot say (no list, or the domain is itself a public suffix or not under one).
    static func suffixLabelCount(of domain: String) -> Int? {
        guard let library else { return nil }
        return domain.withCString { start -> Int? in
            guard let registrable = library.registrableDomain(library.context, start) else { return nil }
            // `registrable` points into `domain`: the registrable name, one label before the suffix.
            let text = String(cString: registrable)
            let labels = text.split(separator: ".", omittingEmptySubsequences: false).count
            return labels > 1 ? labels - 1 : nil
        }
    }
}
