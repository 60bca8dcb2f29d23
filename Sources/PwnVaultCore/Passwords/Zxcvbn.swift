/// zxcvbn's strength estimate (Debian's `libzxcvbn0`, the C port KeePassXC uses), loaded with
/// `dlopen` at the first new passphrase. The only file that touches libzxcvbn.
///
/// Why `dlopen` and not a system-library target: only `init` and `passwd` estimate a passphrase, and
/// a linked library is mapped at every start (`StartupEndToEndTests` holds `add -` and `--version`
/// to the libraries they need). Why no C shim: the one function used, `ZxcvbnMatch`, has a fixed
/// arity and plain C types, so Swift calls it through `dlsym` on the library's own handle
/// (`RTLD_LOCAL`), never the global namespace. Its dictionaries are compiled into the library
/// (no `ZxcvbnInit` file to read).
///
/// The passphrase reaches C as a NUL-terminated copy in secret memory (`SecretBytes`), never as a
/// Swift `String`. zxcvbn's own working copies (lower-cased and de-leeted forms for its dictionary
/// matches, on its stack) are not wiped: a limit of the library, written in THREAT_MODEL.
public enum Zxcvbn {
    /// Why the estimate could not be made; shown as the reason the strength was not checked.
    public struct Unavailable: Error, CustomStringConvertible, Sendable {
        public let description: String
    }

    /// `double ZxcvbnMatch(const char *Passwd, const char *UserDict[], ZxcMatch_t **Info)` (zxcvbn.h).
    private typealias MatchFn = @convention(c) (UnsafePointer<CChar>?, UnsafeMutablePointer<UnsafePointer<CChar>?>?,
                                                UnsafeMutableRawPointer?) -> Double

    /// The library's file name from libzxcvbn0 (the unversioned link is only in libzxcvbn-dev).
    static let libraryFiles = ["libzxcvbn.so.0", "libzxcvbn.so"]

    /// The loaded function, or why it could not be had. Loaded once; the handle stays open.
    private static let loaded = Locked<Result<MatchFn, Unavailable>?>(nil)

    /// zxcvbn's entropy estimate of `passphrase` in bits (log2 of the guesses its model needs).
    public static func entropyBits(_ passphrase: SecretBytes) throws(Unavailable) -> Double {
        let match = try function()
        // A NUL-terminated copy in secret memory; wiped when it goes away.
        let terminated = SecretBytes(count: passphrase.count + 1)
        terminated.withUnsafeMutableBytes { out in
            passphrase.withUnsafeBytes { out.copyMemory(from: $0) }
            out[passphrase.count] = 0
        }
        return terminated.withUnsafeBytes { bytes in
            match(bytes.baseAddress!.assumingMemoryBound(to: CChar.self), nil, nil)
        }
    }

    private static func function() throws(Unavailable) -> MatchFn {
        try loaded.withLock { loaded in
            if loaded == nil { loaded = load() }
            return loaded!
        }.get()
    }

    private static func load() -> Result<MatchFn, Unavailable> {
        var reason = msg("libzxcvbn (Debian's libzxcvbn0) is not installed")
        for file in libraryFiles {
            switch SharedLibrary.open(file) {
            case let .failure(failure):
                if !failure.reason.contains("No such file") { reason = msg("libzxcvbn could not be loaded ({1})", failure.reason) }
            case let .success(library):
                if let match = library.symbol("ZxcvbnMatch", as: MatchFn.self) { return .success(match) }
                library.close()
                reason = msg("{1} has no {2}", file, "ZxcvbnMatch")
            }
        }
        return .failure(Unavailable(description: reason))
    }
}
