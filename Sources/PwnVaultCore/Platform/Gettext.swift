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

    /// What `start` found: the LC_MESSAGES locale in force and the catalog, if one was loaded.
    public struct Loaded: Sendable, Equatable {
        public let locale: String
        public let catalog: Catalog?
    }

    /// Where catalogs are looked for, in order: `TEXTDOMAINDIR`; `PREFIX/share/locale` beside an installed
    /// binary (`PREFIX/bin/pwnvault`); the build folder's `.build/locale` (the binary is in
    /// `.build/<triple>/debug`, which `.build/debug` links to), where scripts/build-locale.sh puts them.
    public static func folders(environment: [String: String], executablePath: String) -> [String] {
        func up(_ path: String) -> String {
            path.split(separator: "/", omittingEmptySubsequences: false).dropLast().joined(separator: "/")
        }
        let bin = up(executablePath), parent = up(bin)
        var folders: [String] = []
        if let dir = environment["TEXTDOMAINDIR"], !dir.isEmpty { folders.append(dir) }
        folders += [parent + "/share/locale", parent + "/locale", up(parent) + "/locale"]
        return folders
    }

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
    /// `pwnvault.mo` for some language (else the first folder, where none will be found).
    @discardableResult
    public static func start(environment: [String: String], executablePath: String) -> Loaded {
        let candidates = folders(environment: environment, executablePath: executablePath)
        let chosen = candidates.first { ((try? FileSystem.status($0, followingLinks: true)) ?? nil)?.kind == .directory }
            ?? candidates.first ?? "/usr/share/locale"
        let locale = String(cString: pwv_intl_start(chosen))
        let header = String(cString: pwv_intl_header())
        let language = header.split(separator: "\n").first { $0.hasPrefix("Language: ") }
            .map { String($0.dropFirst("Language: ".count)).trimmingWhitespace() }
        let found = Loaded(locale: locale, catalog: header.isEmpty ? nil : Catalog(language: language ?? "unknown", folder: chosen))
        loaded = found
        translates = found.catalog != nil
        return found
    }

    /// The translation of `id`, or `id`.
    public static func text(_ id: String) -> String {
        id.withCString { String(cString: pwv_intl_text($0)) }
    }

    /// The translation of the plural pair for `n`, or the English form for `n`.
    public static func plural(_ one: String, _ many: String, _ n: Int) -> String {
        one.withCString { o in many.withCString { m in String(cString: pwv_intl_plural(o, m, UInt(max(0, n)))) } }
    }
}
