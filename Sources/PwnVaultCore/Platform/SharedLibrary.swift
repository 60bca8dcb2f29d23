import Glibc

/// A shared object opened at first use with `dlopen(RTLD_NOW | RTLD_LOCAL)`, its symbols looked up
/// on its own handle, never in the global namespace. For the libraries pwnvault loads only when a
/// command needs them (libzxcvbn, the phone shim): a linked library is mapped at every start.
struct SharedLibrary: @unchecked Sendable {   // a dlopen handle is usable from any thread
    private let handle: UnsafeMutableRawPointer

    /// Why a file could not be opened: the loader's own words (`dlerror`), on one line.
    struct Failure: Error { let reason: String }

    /// Opens `file` (a path, or a soname searched the loader's way).
    static func open(_ file: String) -> Result<SharedLibrary, Failure> {
        guard let handle = dlopen(file, RTLD_NOW | RTLD_LOCAL) else {
            let reason = dlerror().map { String(cString: $0) } ?? "it could not be loaded"
            return .failure(Failure(reason: Sanitizer.singleLine(reason)))
        }
        return .success(SharedLibrary(handle: handle))
    }

    /// Loads the file open at `descriptor` (one `TrustedPath.open` checked) through `/proc/self/fd/N`,
    /// so the loader maps that very file: a path opened again could name another one by then.
    ///
    /// The loader takes an object already loaded under the same name for the one asked for, and
    /// `/proc/self/fd/N` names repeat: once N is closed, the next file opened gets it again, so the
    /// phone shim asked for as `/proc/self/fd/5` after ICU was loaded as `/proc/self/fd/5` came back as
    /// ICU ("has no pwv_phone_format_e164"). So the library is loaded through a duplicate of the
    /// descriptor that stays open for the life of the process (one per library loaded): no other file
    /// ever gets its number, so no other library its name. The same file loaded twice is still found
    /// once, by the loader's own check of device and inode.
    static func open(descriptor: FileDescriptor) -> Result<SharedLibrary, Failure> {
        let kept = fcntl(descriptor.raw, F_DUPFD_CLOEXEC, 0)
        guard kept >= 0 else { return .failure(Failure(reason: String(cString: strerror(errno)))) }
        let opened = open("/proc/self/fd/\(kept)")
        if case .failure = opened { Glibc.close(kept) }
        return opened
    }

    /// The function `name`, as the C type `type`; nil when the library has no such symbol.
    func symbol<T>(_ name: String, as type: T.Type) -> T? {
        dlsym(handle, name).map { unsafeBitCast($0, to: type) }
    }

    /// Unloads it; only for a library none of whose symbols will be called again.
    func close() { dlclose(handle) }

    /// The file of the image this code is in (the pwnvault binary; the test bundle under XCTest): the
    /// mapping in /proc/self/maps that holds `#dsohandle`. (`dladdr` would say the same, but Glibc's
    /// module leaves it out: it is a GNU extension.)
    static var imagePath: String? {
        let here = UInt(bitPattern: #dsohandle)
        guard let maps = fopen("/proc/self/maps", "r") else { return nil }
        defer { fclose(maps) }
        var line: UnsafeMutablePointer<CChar>?
        var capacity = 0
        defer { free(line) }
        while getline(&line, &capacity, maps) > 0, let line {
            // "start-end perms offset dev inode   /path"
            let fields = String(cString: line).split(separator: " ", omittingEmptySubsequences: true)
            guard fields.count >= 6, let dash = fields[0].firstIndex(of: "-"),
                  let start = UInt(fields[0][..<dash], radix: 16),
                  let end = UInt(fields[0][fields[0].index(after: dash)...], radix: 16),
                  start <= here, here < end else { continue }
            let path = fields[5...].joined(separator: " ").trimmingWhitespaceAndNewlines()
            return path.hasPrefix("/") ? path : nil
        }
        return nil
    }
}
