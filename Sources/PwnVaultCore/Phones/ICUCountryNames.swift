import FoundationEssentials

/// Countries' names in the reader's language (`GB`: "United Kingdom", 英国) from Debian's ICU
/// (`libicuuc`, `uloc_getDisplayCountry`), for the note that says which country a national phone number
/// was read in (issue 32). CLDR's names cover every region libphonenumber knows, in every language
/// pwnvault is translated to, so no table of names is kept here (`ICUCountryNamesTests` checks all).
///
/// Loaded the way `ICUSpoofChecker` loads libicui18n: `dlopen` of a path that passes `TrustedPath`'s
/// rule, from the checked descriptor, symbols looked up on its own handle with Debian's version suffix
/// (`uloc_getDisplayCountry_72`). Only a run that has just read a national phone number asks, and the
/// phone shim has loaded the same libicuuc by then, so nothing more is mapped.
///
/// A name is an outside string like any other: it passes `Sanitizer`. When ICU cannot be loaded or has
/// no name, callers show the region's code (`name(of:in:)` is nil).
public final class ICUCountryNames: @unchecked Sendable {   // ICU's display-name functions are thread-safe
    public typealias Unavailable = ICUSpoofChecker.Unavailable

    // uloc.h: int32_t uloc_getDisplayCountry(const char *locale, const char *displayLocale, UChar *country,
    //                                        int32_t capacity, UErrorCode *status)
    private typealias DisplayCountryFn = @convention(c) (UnsafePointer<CChar>, UnsafePointer<CChar>, UnsafeMutablePointer<UInt16>?,
                                                         Int32, UnsafeMutablePointer<Int32>) -> Int32
    private typealias GetVersionFn = @convention(c) (UnsafeMutablePointer<UInt8>) -> Void
    /// U_USING_DEFAULT_WARNING: ICU had no name and gave the code back.
    private static let usingDefault: Int32 = -127

    /// The library file that was loaded.
    public let path: String
    private let displayCountry: DisplayCountryFn

    /// Loads Debian's libicuuc (by default the system's; `candidates`, for tests).
    public static func load(candidates: [String]? = nil) throws -> ICUCountryNames {
        let files = candidates ?? ICUSpoofChecker.systemLibraryFiles(library: "libicuuc")
        guard !files.isEmpty else {
            throw Unavailable(description: msg("Debian's ICU library (libicuuc, package libicu72 or libicu-dev) is not installed"))
        }
        var lastError = msg("it could not be loaded")
        for file in files {
            let descriptor: FileDescriptor
            switch TrustedPath.open(file) {
            case let .success(opened): descriptor = opened
            case let .failure(refusal): lastError = refusal.reason; continue
            }
            let opened = SharedLibrary.open(descriptor: descriptor)
            try? descriptor.close()
            guard case let .success(library) = opened else {
                if case let .failure(failure) = opened { lastError = failure.reason }
                continue
            }
            do {
                return try ICUCountryNames(library: library, path: file)
            } catch let e as Unavailable {
                library.close()
                lastError = e.description
            }
        }
        throw Unavailable(description: msg("Debian's ICU library could not be used ({1})", Sanitizer.singleLine(lastError)))
    }

    private init(library: SharedLibrary, path: String) throws {
        self.path = path
        var suffixes: [(String, Int?)] = []
        if let major = ICUSpoofChecker.majorVersion(fromFileName: path, library: "libicuuc") { suffixes.append(("_\(major)", major)) }
        suffixes.append(("", nil))
        guard let (suffix, major) = suffixes.first(where: { library.symbol("uloc_getDisplayCountry" + $0.0, as: DisplayCountryFn.self) != nil }),
              let display = library.symbol("uloc_getDisplayCountry" + suffix, as: DisplayCountryFn.self) else {
            throw Unavailable(description: msg("{1} has no {2}", path, "uloc_getDisplayCountry"))
        }
        if let major {
            guard let getVersion = library.symbol("u_getVersion" + suffix, as: GetVersionFn.self) else {
                throw Unavailable(description: msg("{1} has no {2}", path, "u_getVersion"))
            }
            var v = [UInt8](repeating: 0, count: 4)
            getVersion(&v)
            guard Int(v[0]) == major else { throw Unavailable(description: msg("{1} reports ICU {2}, not {3}", path, v[0], major)) }
        }
        displayCountry = display
        // Never closed: the phone shim and the spoof checker share this libicuuc and its caches.
    }

    /// The name of `region`'s country in `language` (a POSIX locale name: `en`, `zh_CN`), sanitized to
    /// one line; nil when ICU has none (it would give the code back) or fails.
    public func name(of region: PhoneRegion, in language: String) -> String? {
        var buffer = [UInt16](repeating: 0, count: 128)
        var status: Int32 = 0
        let count = buffer.withUnsafeMutableBufferPointer { out in
            displayCountry("und_" + region.code, language, out.baseAddress, Int32(out.count), &status)
        }
        guard status <= 0, status != Self.usingDefault, count > 0, Int(count) <= buffer.count else { return nil }
        let name = Sanitizer.singleLine(String(decoding: buffer[..<Int(count)], as: UTF16.self)).trimmingWhitespace()
        return name.isEmpty || name == region.code ? nil : name
    }

    // MARK: the process's

    private static let loaded = Locked<ICUCountryNames??>(nil)

    /// Loaded at the first call; nil (then and later) when ICU cannot be used.
    public static func shared() -> ICUCountryNames? {
        loaded.withLock { loaded in
            if let known = loaded { return known }
            let names = try? load()
            loaded = .some(names)
            return names
        }
    }
}

extension Messages {
    /// The language messages are shown in, as a POSIX locale name for libraries that name things
    /// (ICU): the loaded catalog's (`zh_CN`), else `en` (no catalog, or inside `english { … }`).
    public static var language: String {
        guard Gettext.translates, !inEnglish, let language = Gettext.loaded?.catalog?.language, !language.isEmpty else { return "en" }
        return language
    }
}
