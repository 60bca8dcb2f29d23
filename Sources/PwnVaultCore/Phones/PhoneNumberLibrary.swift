import FoundationEssentials

/// Debian's libphonenumber, through pwnvault's shim `libPwnVaultPhone.so` (Sources/CPhoneShim,
/// include/pwv_phone.h), loaded with `dlopen` the first time a phone number is read. The only file
/// that touches the shim.
///
/// Why `dlopen`: libphonenumber brings ICU, protobuf and abseil (about twenty shared objects). Linked
/// into pwnvault they would be mapped at every start (`StartupEndToEndTests`); loaded here, only a run
/// that reads a phone number pays for them, and a machine without libphonenumber8 gets one error
/// for phone numbers instead of a binary that does not start.
///
/// Where: `PREFIX/lib/pwnvault/` beside the binary's `bin/` (`make install`), else the binary's own
/// folder (`swift build` puts both in `.build/debug`; for tests, the test bundle's folder). A file
/// there is loaded only when it and every folder above it pass `TrustedPath`'s rule (root's or yours,
/// nobody else may write them), from the descriptor that was checked, so a library put beside pwnvault,
/// or swapped in by a link, by someone else is never loaded (Docs/THREAT_MODEL.md).
public final class PhoneNumberLibrary: @unchecked Sendable {
    /// The shim's file name.
    public static let fileName = "libPwnVaultPhone.so"

    /// What a phone number reads as.
    public struct Reading: Equatable, Sendable {
        /// `+447700900123`.
        public let e164: String
        /// The text had an extension (`;ext=5555`, ` ext. 12`), which E.164 has no room for.
        public let hadExtension: Bool
    }

    /// Why a text is not a phone number pwnvault can store (`pwv_phone.h`'s codes).
    public enum Failure: Error, Equatable, Sendable {
        case noRegion, notANumber, tooShort, tooLong, invalidLength, failed
    }

    // C signatures, as include/pwv_phone.h declares them.
    private typealias FormatFn = @convention(c) (UnsafePointer<CChar>, UnsafePointer<CChar>?, UnsafeMutablePointer<CChar>, Int,
                                                 UnsafeMutablePointer<CChar>?, UnsafeMutablePointer<Int32>) -> Int32
    private typealias RegionKnownFn = @convention(c) (UnsafePointer<CChar>) -> Int32
    private typealias CountryCodeFn = @convention(c) (UnsafePointer<CChar>) -> Int32
    private typealias RegionsFn = @convention(c) (UnsafeMutablePointer<CChar>, Int) -> Int32
    private static let hadExtensionFlag: Int32 = 1   // PWV_PHONE_HAD_EXTENSION

    /// The file that was loaded.
    public let path: String
    private let format: FormatFn
    private let regionKnown: RegionKnownFn
    private let countryCode: CountryCodeFn
    private let regionList: RegionsFn

    private init(library: SharedLibrary, path: String) throws {
        func symbol<T>(_ name: String, as type: T.Type) throws -> T {
            guard let f = library.symbol(name, as: type) else { throw PhoneLibraryError.unusable(reason: "\(path) has no \(name)") }
            return f
        }
        self.path = path
        format = try symbol("pwv_phone_format_e164", as: FormatFn.self)
        regionKnown = try symbol("pwv_phone_region_known", as: RegionKnownFn.self)
        countryCode = try symbol("pwv_phone_country_code", as: CountryCodeFn.self)
        regionList = try symbol("pwv_phone_regions", as: RegionsFn.self)
        // Never closed: libphonenumber keeps its metadata in a process-wide singleton.
    }

    /// `text` in E.164, national forms read in `region`.
    public func e164(_ text: String, region: PhoneRegion?) -> Result<Reading, Failure> {
        var out = [CChar](repeating: 0, count: 64)
        var flags: Int32 = 0
        let status = out.withUnsafeMutableBufferPointer { buffer in
            format(text, region?.code, buffer.baseAddress!, buffer.count, nil, &flags)
        }
        switch status {
        case 0:
            let e164 = out.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
            return .success(Reading(e164: e164, hadExtension: flags & Self.hadExtensionFlag != 0))
        case 1: return .failure(.noRegion)
        case 2: return .failure(.notANumber)
        case 3: return .failure(.tooShort)
        case 4: return .failure(.tooLong)
        case 5: return .failure(.invalidLength)
        default: return .failure(.failed)
        }
    }

    /// Whether libphonenumber has a numbering plan for `region`.
    public func knows(_ region: PhoneRegion) -> Bool { regionKnown(region.code) == 1 }

    /// The country calling code of `region` (GB → 44, US and CA → 1); nil for a region it does not know.
    public func callingCode(of region: PhoneRegion) -> Int? {
        let code = countryCode(region.code)
        return code > 0 ? Int(code) : nil
    }

    /// Every region libphonenumber has a numbering plan for (245 in Debian 12's), sorted.
    public var regions: [PhoneRegion] {
        var out = [CChar](repeating: 0, count: 4096)
        let count = out.withUnsafeMutableBufferPointer { regionList($0.baseAddress!, $0.count) }
        guard count > 0 else { return [] }
        let text = out.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
        return text.split(separator: " ").compactMap { PhoneRegion(code: String($0)) }
    }

    // MARK: loading

    private static let loaded = Locked<Result<PhoneNumberLibrary, PhoneLibraryError>?>(nil)

    /// The shim, loaded at the first call (later calls return the same, or the same error).
    public static func shared() throws(PhoneLibraryError) -> PhoneNumberLibrary {
        try loaded.withLock { loaded in
            if let loaded { return loaded }
            let result = Result<PhoneNumberLibrary, PhoneLibraryError> { () throws(PhoneLibraryError) in try load() }
            loaded = result
            return result
        }.get()
    }

    /// Loads the first file of `candidates` that is there (by default `PREFIX/lib/pwnvault/`, then
    /// beside the binary) and passes `TrustedPath`'s rule: opened once, checked on its descriptor with
    /// every folder above it, loaded from that descriptor. A file that fails the rule is never loaded;
    /// when no file passes, the first refusal is the error.
    public static func load(candidates: [String]? = nil) throws(PhoneLibraryError) -> PhoneNumberLibrary {
        let files = candidates ?? defaultCandidates()
        var refusal: TrustedPath.Refusal?
        var chosen: (file: String, descriptor: FileDescriptor)?
        for file in files {
            switch TrustedPath.open(file) {
            case let .success(descriptor): chosen = (file, descriptor)
            case .failure(.missing): continue
            case let .failure(refused): refusal = refusal ?? refused; continue
            }
            break
        }
        guard let (file, descriptor) = chosen else {
            if let refusal { throw .untrusted(refusal) }
            throw .notFound(searched: files)
        }
        defer { try? descriptor.close() }   // the loader keeps its own mapping
        let library: SharedLibrary
        switch SharedLibrary.open(descriptor: descriptor) {
        case let .success(opened): library = opened
        case let .failure(failure):
            if failure.reason.contains("libphonenumber") { throw .libphonenumberMissing }
            throw .unusable(reason: failure.reason)
        }
        do {
            return try PhoneNumberLibrary(library: library, path: file)
        } catch let e as PhoneLibraryError {
            library.close()
            throw e
        } catch {
            library.close()
            throw .unusable(reason: "\(error)")
        }
    }

    /// Why the shim would not be loaded, without loading it (for `doctor`): nil when the first file
    /// that is there passes `TrustedPath`'s rule, or when none is there (the load's own error says that).
    public static func trustRefusal(candidates: [String]? = nil) -> TrustedPath.Refusal? {
        for file in candidates ?? defaultCandidates() {
            switch TrustedPath.checkFile(file) {
            case nil: return nil
            case .missing?: continue
            case let refused?: return refused
            }
        }
        return nil
    }

    /// The file of the image this code is in (see `SharedLibrary.imagePath`).
    static var imagePath: String? { SharedLibrary.imagePath }

    static func defaultCandidates(image: String? = imagePath) -> [String] {
        func parent(_ path: Substring) -> Substring { path[..<(path.lastIndex(of: "/") ?? path.startIndex)] }
        guard let image else { return [] }
        let folder = parent(Substring(image))   // absolute, so never empty short of "/"
        return [parent(folder) + "/lib/pwnvault/" + fileName, folder + "/" + fileName]
    }

}

/// Why phone numbers cannot be read on this machine.
public enum PhoneLibraryError: UserFacingError, Equatable, Sendable {
    /// Debian's libphonenumber (libphonenumber8) is not installed.
    case libphonenumberMissing
    /// pwnvault's own shim is in none of the places it is looked for.
    case notFound(searched: [String])
    /// `reason`: the loader's words (a missing symbol, dlopen's text), kept in English as thrown.
    case unusable(reason: String)
    /// The shim, or a folder above it, could be changed by someone other than root and you: not loaded.
    case untrusted(TrustedPath.Refusal)

    public var message: String {
        switch self {
        case .libphonenumberMissing: return msg("phone numbers cannot be read: Debian's libphonenumber is not installed")
        case .notFound: return msg("phone numbers cannot be read: pwnvault's {1} is missing", PhoneNumberLibrary.fileName)
        case let .unusable(reason): return msg("phone numbers cannot be read: {1}", reason)
        case let .untrusted(refusal):
            return msg("phone numbers cannot be read: pwnvault's {1} was not loaded, because {2}", PhoneNumberLibrary.fileName, refusal.reason)
        }
    }

    public var hint: String? {
        switch self {
        case .libphonenumberMissing: return msg("install it with: apt-get install libphonenumber8")
        case let .notFound(searched):
            return searched.isEmpty ? msg("install pwnvault with 'make install', which puts it in PREFIX/lib/pwnvault")
                : msg("install pwnvault with 'make install', which puts it in PREFIX/lib/pwnvault (looked for {1})",
                      searched.joined(separator: msg(" and ")))
        case .unusable: return msg("reinstall pwnvault with 'make install' and libphonenumber8 with apt-get")
        case .untrusted:
            return msg("pwnvault loads code only from files and folders that only root or you can change: install it with 'make install' under a PREFIX that root owns, or correct that owner or mode")
        }
    }

    public var exitStatus: ExitStatus { .usage }
}

/// A reading is an account (a phone number): it prints without its digits.
extension PhoneNumberLibrary.Reading: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    public var description: String { "Reading(redacted\(hadExtension ? ", had an extension" : ""))" }
    public var debugDescription: String { description }
    public var customMirror: Mirror { Mirror(self, children: ["hadExtension": hadExtension]) }
}
