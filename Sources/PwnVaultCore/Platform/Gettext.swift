import CIntlShim

/// glibc's gettext under the text domain `pwnvault` (the one file that imports CIntlShim). Messages are
/// looked up with `text(_:)` and `plural(_:_:_:)`; `msg(…)` (Text/Messages.swift) is what the code calls.
/// Without `start` (unit tests, or a catalog that is not there) every message is its English original.
public enum Gettext {
    /// The catalog in use: its language (from its header) and the folder it was found under.
    public struct Catalog: Sendable, Equatable {
        public let language: String
        public let folder: String
    }

    /// Why a catalog that was there is not used.
    public enum Refusal: Sendable, Equatable {
        /// A folder beside the binary, or the catalog in it, fails `TrustedPath`'s rule: it is skipped.
        case untrusted(TrustedPath.Refusal)
        /// The catalog at `file` divides by something other than a non-zero constant in its
        /// `Plural-Forms` (`expression`, as written): glibc would divide by zero. Messages stay English.
        case dividingPluralForms(file: String, expression: String)
    }

    /// What `start` found: the LC_MESSAGES locale in force and the catalog, if one was loaded.
    public struct Loaded: Sendable, Equatable {
        public let locale: String
        public let catalog: Catalog?
        /// Catalogs that were there and were not used, in the order they were met.
        public var refused: [Refusal] = []

        public init(locale: String, catalog: Catalog?, refused: [Refusal] = []) {
            self.locale = locale
            self.catalog = catalog
            self.refused = refused
        }
    }

    /// One folder catalogs are looked for in.
    public struct Folder: Sendable, Equatable {
        public let path: String
        /// Beside the binary: used only when it and its catalog pass `TrustedPath`'s rule. `TEXTDOMAINDIR`
        /// is the user's own choice and is not checked (its messages are sanitised like everything else).
        public let mustBeTrusted: Bool
    }

    /// Where catalogs are looked for, in order: `TEXTDOMAINDIR`; `PREFIX/share/locale` beside an installed
    /// binary (`PREFIX/bin/pwnvault`); the build folder's `.build/locale` (the binary is in
    /// `.build/<triple>/debug`, which `.build/debug` links to), where scripts/build-locale.sh puts them.
    public static func folders(environment: [String: String], executablePath: String) -> [String] {
        searchFolders(environment: environment, executablePath: executablePath).map(\.path)
    }

    /// `folders`, each with whether it must pass `TrustedPath`'s rule.
    public static func searchFolders(environment: [String: String], executablePath: String) -> [Folder] {
        func up(_ path: String) -> String {
            path.split(separator: "/", omittingEmptySubsequences: false).dropLast().joined(separator: "/")
        }
        let bin = up(executablePath), parent = up(bin)
        var folders: [Folder] = []
        if let dir = environment["TEXTDOMAINDIR"], !dir.isEmpty { folders.append(Folder(path: dir, mustBeTrusted: false)) }
        folders += [parent + "/share/locale", parent + "/locale", up(parent) + "/locale"].map { Folder(path: $0, mustBeTrusted: true) }
        return folders
    }

    /// The names gettext tries for the catalog of `locale` (LANGUAGE first when the locale is not C),
    /// most specific first: `zh_CN.UTF-8` gives `zh_CN.UTF-8`, `zh_CN.utf8`, `zh_CN`, `zh.UTF-8`, `zh.utf8`, `zh`.
    public static func languageNames(locale: String, environment: [String: String]) -> [String] {
        // glibc ignores LANGUAGE under exactly "C" (and POSIX), not under C.UTF-8.
        guard locale != "C", locale != "POSIX" else { return [] }
        var wanted: [String] = []
        if let list = environment["LANGUAGE"], !list.isEmpty { wanted = list.split(separator: ":").map(String.init) }
        if wanted.isEmpty { wanted = [locale] }
        var names: [String] = []
        for name in wanted where !name.isEmpty && !name.contains("/") && name != "." && name != ".." {
            var rest = Substring(name)
            var modifier: Substring?
            if let at = rest.firstIndex(of: "@") { modifier = rest[rest.index(after: at)...]; rest = rest[..<at] }
            var codeset: Substring?
            if let dot = rest.firstIndex(of: ".") { codeset = rest[rest.index(after: dot)...]; rest = rest[..<dot] }
            var territory: Substring?
            if let underscore = rest.firstIndex(of: "_") { territory = rest[rest.index(after: underscore)...]; rest = rest[..<underscore] }
            let language = rest
            var codesets: [String?] = [nil]
            if let codeset {
                let normal = String(codeset.lowercased().unicodeScalars.filter { $0.properties.isAlphabetic || ("0"..."9").contains($0) })
                let normalised = normal.allSatisfy(\.isNumber) ? "iso" + normal : normal
                codesets = [String(codeset)] + (normalised == String(codeset) ? [] : [normalised]) + [nil]
            }
            for t in territory.map({ [String($0), nil] }) ?? [nil] {
                for c in codesets {
                    for m in modifier.map({ [String($0), nil] }) ?? [nil] {
                        let variant = String(language) + (t.map { "_" + $0 } ?? "") + (c.map { "." + $0 } ?? "") + (m.map { "@" + $0 } ?? "")
                        if !names.contains(variant) { names.append(variant) }
                    }
                }
            }
        }
        return names
    }

    /// The catalog file of `language` in `folder`.
    static func catalogFile(_ folder: String, _ language: String) -> String { folder + "/" + language + "/LC_MESSAGES/pwnvault.mo" }

    /// What the process's `start` found (nil before it, and in unit tests).
    public nonisolated(unsafe) private(set) static var loaded: Loaded?
    /// Whether a catalog was loaded: without one every message is its English original, asked of nobody.
    public nonisolated(unsafe) private(set) static var translates = false

    /// `start` for this process: the binary's own path from /proc/self/exe.
    @discardableResult
    public static func startForProcess(environment: [String: String]) -> Loaded {
        start(environment: environment, executablePath: FileSystem.linkTarget("/proc/self/exe") ?? CommandLine.arguments[0])
    }

    /// Takes LC_MESSAGES from the environment and binds the domain to the first folder that holds a
    /// `pwnvault.mo` for the reader's language (not merely the first that exists), skipping folders
    /// beside the binary that fail `TrustedPath`'s rule. Every catalog file gettext could pick there is
    /// read first: one whose `Plural-Forms` divides by anything but a non-zero constant is refused, and
    /// the messages stay English. Nothing is bound when no catalog is used, so gettext is never asked.
    @discardableResult
    public static func start(environment: [String: String], executablePath: String) -> Loaded {
        let locale = String(cString: pwv_intl_locale())
        let languages = languageNames(locale: locale, environment: environment)
        var refused: [Refusal] = []
        var chosen: Folder?
        search: for folder in searchFolders(environment: environment, executablePath: executablePath) {
            let present = languages.map { catalogFile(folder.path, $0) }
                .filter { ((try? FileSystem.status($0, followingLinks: false)) ?? nil) != nil }
            guard !present.isEmpty else { continue }
            for file in present {
                let bytes: [UInt8]?
                if folder.mustBeTrusted {
                    switch TrustedPath.open(file) {
                    case let .failure(refusal): refused.append(.untrusted(refusal)); continue search
                    case let .success(fd): bytes = try? fd.readAll(limit: maximumCatalogBytes); try? fd.close()
                    }
                } else {
                    bytes = (try? FileDescriptor.openForReading(file)).flatMap { fd in
                        defer { try? fd.close() }
                        return try? fd.readAll(limit: maximumCatalogBytes)
                    }
                }
                let header = bytes.flatMap(MessageCatalogHeader.text(of:)) ?? ""
                if let plural = MessageCatalogHeader.pluralForms(in: header), !MessageCatalogHeader.dividesSafely(plural) {
                    refused.append(.dividingPluralForms(file: file, expression: plural.trimmingWhitespace()))
                    break search
                }
            }
            chosen = folder
            break
        }
        var catalog: Catalog?
        if let chosen, !refused.contains(where: { if case .dividingPluralForms = $0 { return true }; return false }) {
            pwv_intl_bind(chosen.path)
            let header = String(cString: pwv_intl_header())
            let language = header.split(separator: "\n").first { $0.hasPrefix("Language: ") }
                .map { Sanitizer.singleLine(String($0.dropFirst("Language: ".count))).trimmingWhitespace() }
            // The folder is shown by `status`: a TEXTDOMAINDIR is text from outside like any other.
            if !header.isEmpty { catalog = Catalog(language: language ?? "unknown", folder: Sanitizer.singleLine(chosen.path)) }
        }
        let found = Loaded(locale: locale, catalog: catalog, refused: refused)
        loaded = found
        translates = found.catalog != nil
        return found
    }

    /// Larger files are not catalogs pwnvault made (its own is about 200 KB).
    static let maximumCatalogBytes = 16 << 20

    /// The translation of `id`, or `id`. A translation comes from a file: it is sanitised like any
    /// outside text (`Sanitizer.translation`) before anything is filled in.
    public static func text(_ id: String) -> String {
        id.withCString { p in
            guard let found = pwv_intl_text(p), found != p else { return id }
            return Sanitizer.translation(String(cString: found))
        }
    }

    /// The translation of the plural pair for `n`, or the English form for `n`; sanitised as `text`'s.
    public static func plural(_ one: String, _ many: String, _ n: Int) -> String {
        one.withCString { o in
            many.withCString { m in
                guard let found = pwv_intl_plural(o, m, UInt(max(0, n))) else { return n == 1 ? one : many }
                if found == o { return one }
                if found == m { return many }
                return Sanitizer.translation(String(cString: found))
            }
        }
    }
}
