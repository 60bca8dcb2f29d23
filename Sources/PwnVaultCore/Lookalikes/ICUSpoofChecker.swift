import FoundationEssentials

/// Unicode UTS #39 security checks from Debian's ICU (`libicui18n`), loaded with `dlopen` only when
/// an account is being added. With `ICUCountryNames` (countries' names, from libicuuc), the only files
/// that touch ICU.
///
/// Why `dlopen` and not a system-library target: linking libicu would load it (about 30 MiB of
/// mappings and relocations) into every start of pwnvault, `list` included, for a check only `add`,
/// `import` and `check --save` need. The toolchain's Foundation carries its own ICU copy
/// (`lib_FoundationICU`, symbols prefixed `swift_`) but does not promise its spoof checker as API, so
/// the Debian library is used, and its symbols are looked up on its own handle (`RTLD_LOCAL`), never
/// in the global namespace.
///
/// Debian builds ICU with renamed symbols: `uspoof_open_72` in libicu72. The suffix is the library's
/// major version, read from the file name the `libicui18n.so` link (libicu-dev) points to, or from the
/// newest `libicui18n.so.N` present; it is then confirmed with `u_getVersion_N`. A build without
/// renaming (plain `uspoof_open`) is accepted too.
public final class ICUSpoofChecker {
    /// Why ICU could not be used; shown to the user as the reason look-alikes were not checked.
    public struct Unavailable: Error, CustomStringConvertible {
        public let description: String
        public init(description: String) { self.description = description }
    }

    // C signatures, as ICU declares them (uspoof.h, uscript.h, uversion.h).
    private typealias OpenFn = @convention(c) (UnsafeMutablePointer<Int32>) -> OpaquePointer?
    private typealias CloseFn = @convention(c) (OpaquePointer?) -> Void
    private typealias SetChecksFn = @convention(c) (OpaquePointer?, Int32, UnsafeMutablePointer<Int32>) -> Void
    private typealias SetRestrictionLevelFn = @convention(c) (OpaquePointer?, UInt32) -> Void
    private typealias Check2UTF8Fn = @convention(c) (OpaquePointer?, UnsafePointer<CChar>, Int32, OpaquePointer?,
                                                     UnsafeMutablePointer<Int32>) -> Int32
    private typealias SkeletonUTF8Fn = @convention(c) (OpaquePointer?, UInt32, UnsafePointer<CChar>, Int32,
                                                       UnsafeMutablePointer<CChar>?, Int32, UnsafeMutablePointer<Int32>) -> Int32
    private typealias GetScriptFn = @convention(c) (Int32, UnsafeMutablePointer<Int32>) -> Int32
    private typealias GetNameFn = @convention(c) (Int32) -> UnsafePointer<CChar>?
    private typealias GetVersionFn = @convention(c) (UnsafeMutablePointer<UInt8>) -> Void

    // Constants from uspoof.h and uscript.h.
    private static let mixedScriptConfusable: Int32 = 2       // USPOOF_MIXED_SCRIPT_CONFUSABLE
    private static let restrictionLevelCheck: Int32 = 16      // USPOOF_RESTRICTION_LEVEL
    private static let moderatelyRestrictive: UInt32 = 0x4000_0000   // USPOOF_MODERATELY_RESTRICTIVE
    private static let bufferOverflow: Int32 = 15             // U_BUFFER_OVERFLOW_ERROR
    private static let scriptCommon: Int32 = 0, scriptInherited: Int32 = 1

    /// The ICU major version the symbols were found for (72 on Debian 12), nil for unrenamed symbols.
    public let version: Int?
    /// The library file that was loaded.
    public let path: String

    private let library: SharedLibrary
    private let checker: OpaquePointer
    private let close: CloseFn
    private let check2: Check2UTF8Fn
    private let skeletonFn: SkeletonUTF8Fn
    private let getScript: GetScriptFn
    private let getName: GetNameFn
    private var skeletonBuffer: [CChar] = []
    private let lock = Lock()   // a USpoofChecker may be shared for checks, but not while being set up

    /// Loads Debian's ICU and opens a spoof checker that flags, per identifier, scripts mixed beyond
    /// UTS #39's Moderately Restrictive level and mixed-script confusables.
    /// - Parameter candidates: library files to try, for tests; by default the system's `libicui18n`.
    public static func load(candidates: [String]? = nil) throws -> ICUSpoofChecker {
        let files = candidates ?? systemLibraryFiles()
        guard !files.isEmpty else {
            throw Unavailable(description: msg("Debian's ICU library (libicui18n, package libicu72 or libicu-dev) is not installed"))
        }
        var lastError = msg("it could not be loaded")
        for file in files {
            // A path, not a soname: loaded only when it and its folders pass TrustedPath's rule, from
            // the descriptor that was checked (Docs/THREAT_MODEL.md, "What pwnvault trusts on disk").
            let descriptor: FileDescriptor
            switch TrustedPath.open(file) {
            case let .success(opened): descriptor = opened
            case let .failure(refusal): lastError = refusal.reason; continue
            }
            let library: SharedLibrary
            let opened = SharedLibrary.open(descriptor: descriptor)
            try? descriptor.close()
            switch opened {
            case let .success(loaded): library = loaded
            case let .failure(failure): lastError = failure.reason; continue
            }
            do {
                return try ICUSpoofChecker(library: library, path: file)
            } catch let e as Unavailable {
                library.close()
                lastError = e.description
            }
        }
        throw Unavailable(description: msg("Debian's ICU library could not be used ({1})", Sanitizer.singleLine(lastError)))
    }

    private init(library: SharedLibrary, path: String) throws {
        self.library = library
        self.path = path
        // The suffix: from the file name first, then a build without renaming.
        var suffixes: [(String, Int?)] = []
        if let major = Self.majorVersion(fromFileName: path) { suffixes.append(("_\(major)", major)) }
        suffixes.append(("", nil))
        guard let (suffix, major) = suffixes.first(where: { library.symbol("uspoof_open" + $0.0, as: OpenFn.self) != nil }) else {
            throw Unavailable(description: msg("{1} has no {2}", path, "uspoof_open"))
        }
        func symbol<T>(_ name: String, as type: T.Type) throws -> T {
            guard let f = library.symbol(name + suffix, as: type) else { throw Unavailable(description: msg("{1} has no {2}", path, name)) }
            return f
        }
        if let major {
            var v = [UInt8](repeating: 0, count: 4)
            try symbol("u_getVersion", as: GetVersionFn.self)(&v)
            guard Int(v[0]) == major else { throw Unavailable(description: msg("{1} reports ICU {2}, not {3}", path, v[0], major)) }
        }
        version = major
        let open = try symbol("uspoof_open", as: OpenFn.self)
        close = try symbol("uspoof_close", as: CloseFn.self)
        let setChecks = try symbol("uspoof_setChecks", as: SetChecksFn.self)
        let setLevel = try symbol("uspoof_setRestrictionLevel", as: SetRestrictionLevelFn.self)
        check2 = try symbol("uspoof_check2UTF8", as: Check2UTF8Fn.self)
        skeletonFn = try symbol("uspoof_getSkeletonUTF8", as: SkeletonUTF8Fn.self)
        getScript = try symbol("uscript_getScript", as: GetScriptFn.self)
        getName = try symbol("uscript_getName", as: GetNameFn.self)

        var status: Int32 = 0
        guard let checker = open(&status), status <= 0 else { throw Unavailable(description: msg("{1} failed ({2})", "uspoof_open", status)) }
        setChecks(checker, Self.restrictionLevelCheck | Self.mixedScriptConfusable, &status)
        setLevel(checker, Self.moderatelyRestrictive)
        guard status <= 0 else { close(checker); throw Unavailable(description: msg("{1} failed ({2})", "uspoof_setChecks", status)) }
        self.checker = checker
    }

    deinit {
        close(checker)
        // ICU keeps what it loaded (confusables data, script tables) in its own globals. It stays loaded
        // with them for the rest of the process (the next checker finds them again): Debian's ICU is
        // not ours alone, libphonenumber (the phone shim) uses the same libicuuc, and u_cleanup while
        // another user holds ICU objects frees what that user still reads (a crash at its next phone
        // number; seen with the test bundle running the look-alike tests, then the phone tests).
        // LeakSanitizer's report of those caches is suppressed in scripts/sanitize-lsan.supp.
    }

    /// Whether one identifier (a username, the part of an address before '@', or one domain label)
    /// mixes scripts beyond UTS #39's Moderately Restrictive level, or is a mixed-script confusable.
    public func isSuspicious(_ identifier: String) -> Bool {
        lock.lock(); defer { lock.unlock() }
        var status: Int32 = 0
        let result = identifier.withCString { check2(checker, $0, Int32(identifier.utf8.count), nil, &status) }
        return status <= 0 && result != 0
    }

    /// The UTS #39 skeleton: two strings with the same skeleton are confusable. Nil if ICU fails.
    ///
    /// `add` asks for the skeleton of every account in the vault (10,000 in a large one), and most are
    /// ASCII, so ASCII text takes a shortcut: the skeleton is NFD(map(NFD(text))), NFD leaves ASCII as it
    /// is, and UTS #39 maps each character on its own, so an ASCII string's skeleton is its characters'
    /// skeletons (asked of ICU once each) joined, as long as each of those is ASCII too.
    /// `LookalikeFinderTests` compares the shortcut with ICU.
    public func skeleton(_ text: String) -> String? {
        lock.lock(); defer { lock.unlock() }
        if let fast = asciiSkeleton(text) { return fast }
        return icuSkeleton(text)
    }

    /// Skeletons of the 128 ASCII characters, from ICU; nil for one that is not ASCII.
    private lazy var asciiTable: [[UInt8]?] = (0..<128).map { byte in
        guard byte > 0, let s = icuSkeleton(String(UnicodeScalar(UInt8(byte)))), s.utf8.allSatisfy({ $0 < 0x80 }) else { return nil }
        return Array(s.utf8)
    }

    private func asciiSkeleton(_ text: String) -> String? {
        var out: [UInt8] = []
        out.reserveCapacity(text.utf8.count + 8)
        for byte in text.utf8 {
            guard byte < 0x80, let mapped = asciiTable[Int(byte)] else { return nil }
            out.append(contentsOf: mapped)
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// The skeleton as ICU computes it (the caller holds the lock).
    func icuSkeleton(_ text: String) -> String? {
        var text = text
        return text.withUTF8 { input -> String? in
            input.withMemoryRebound(to: CChar.self) { input -> String? in
                guard let start = input.baseAddress else { return "" }
                let needed = input.count * 4 + 16
                if skeletonBuffer.count < needed { skeletonBuffer = [CChar](repeating: 0, count: needed) }
                for _ in 0..<2 {
                    var status: Int32 = 0
                    let capacity = Int32(skeletonBuffer.count)
                    let n = skeletonBuffer.withUnsafeMutableBufferPointer {
                        skeletonFn(checker, 0, start, Int32(input.count), $0.baseAddress, capacity, &status)
                    }
                    if status == Self.bufferOverflow, n > capacity {
                        skeletonBuffer = [CChar](repeating: 0, count: Int(n) + 1)
                        continue
                    }
                    guard status <= 0, n >= 0, n <= capacity else { return nil }
                    return skeletonBuffer.withUnsafeBufferPointer {
                        String(decoding: UnsafeRawBufferPointer(start: $0.baseAddress, count: Int(n)), as: UTF8.self)
                    }
                }
                return nil
            }
        }
    }

    /// The names of the scripts `text` uses (`Latin`, `Cyrillic`), in order of first use, without
    /// Common and Inherited (digits, punctuation, combining marks).
    public func scripts(of text: String) -> [String] {
        var names: [String] = []
        for scalar in text.unicodeScalars {
            var status: Int32 = 0
            let code = getScript(Int32(bitPattern: scalar.value), &status)
            guard status <= 0, code != Self.scriptCommon, code != Self.scriptInherited,
                  let name = getName(code).map({ String(cString: $0) }), !names.contains(name) else { continue }
            names.append(name)
        }
        return names
    }

    // MARK: finding the library

    /// `libicui18n.so.72.1` → 72 (`library`: the name before `.so`, `libicuuc` for `ICUCountryNames`).
    static func majorVersion(fromFileName path: String, library: String = "libicui18n") -> Int? {
        let name = path.lastPathComponent, prefix = library + ".so."
        guard name.hasPrefix(prefix) else { return nil }
        let digits = name.dropFirst(prefix.count).prefix { $0.isASCII && $0.isNumber }
        return Int(digits)
    }

    /// The library folders Debian uses, multiarch first.
    static var libraryFolders: [String] {
        #if arch(x86_64)
        let triple = "x86_64-linux-gnu"
        #elseif arch(arm64)
        let triple = "aarch64-linux-gnu"
        #else
        let triple = "unknown"
        #endif
        return ["/usr/lib/\(triple)", "/lib/\(triple)", "/usr/lib64", "/usr/lib", "/usr/local/lib"]
    }

    /// The files to try, best first: where `libicui18n.so` (libicu-dev) points, then every
    /// `libicui18n.so.N` (libicuN), newest first. `library`: another of ICU's libraries (`libicuuc`).
    static func systemLibraryFiles(folders: [String] = libraryFolders, library: String = "libicui18n") -> [String] {
        let fm = FileManager.default
        var found: [String] = []
        for folder in folders {
            let link = folder + "/" + library + ".so"
            if fm.fileExists(atPath: link) {
                let target = URL(fileURLWithPath: link).resolvingSymlinksInPath().path
                if majorVersion(fromFileName: target, library: library) != nil, !found.contains(target) { found.append(target) }
            }
        }
        for folder in folders {
            guard let names = try? fm.contentsOfDirectory(atPath: folder) else { continue }
            let versioned = names.compactMap { name -> (String, Int)? in
                guard name.hasPrefix(library + ".so."), let major = majorVersion(fromFileName: name, library: library),
                      name == "\(library).so.\(major)" else { return nil }
                return (folder + "/" + name, major)
            }
            for (path, _) in versioned.sorted(by: { $0.1 > $1.1 }) where !found.contains(path) {
                found.append(path)
            }
        }
        return found
    }
}
