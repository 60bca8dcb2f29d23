/// A downloaded Pwned Passwords file (`HASH:COUNT` lines, 40 hex characters, sorted by hash, CRLF or
/// LF, tens of GB), searched by binary search over byte offsets without reading it whole.
///
/// Each probe is one `pread` of one page-aligned 4 KiB page: the first and the last whole line in it
/// narrow the search (about 23 probes for 30 GB), and a page that straddles the hash is scanned in
/// place. The first levels of the search tree are the same for every lookup, so their probes are
/// remembered: checking many passwords costs a handful of reads each. Hashes compare without case.
///
/// Detected rather than answered wrongly: a line that is not `HASH:COUNT` where the search looks, an
/// NTLM file (32 hex characters), and hashes out of order wherever the search sees them.
public final class PwnedPasswordsFile {
    /// The unit of every read.
    public static let pageSize = 4096
    /// The longest line accepted: 40 hex characters, a colon, up to 18 digits, CRLF, with room to spare.
    static let maxLineLength = 128
    /// Probes at this depth or shallower are remembered across lookups: at most 2^17 entries of about
    /// 120 bytes, filled only as lookups pass through them.
    static let cachedDepth = 16

    /// The path, as given.
    public let path: String
    /// The file's size in bytes when it was opened.
    public let size: Int
    /// How many `pread` calls the lookups so far have made (for tests and benchmarks).
    public private(set) var reads = 0

    private let file: FileDescriptor
    private let buffer: UnsafeMutableRawBufferPointer
    private var probes: [Int: Probe] = [:]

    /// One line found by a probe.
    struct Entry {
        let key: PasswordFileKey
        /// The line's offset in the file.
        let start: Int
        let count: Int
    }

    /// What a page says: its first and last whole lines (nil when no line starts in it).
    struct Probe {
        let first: Entry?
        let last: Entry?
    }

    /// Opens the file and checks its first and last lines. Throws `PasswordFileError`.
    public init(path: String) throws {
        self.path = path
        let status: FileStatus
        do {
            file = try FileDescriptor.openForReading(path)
            status = try file.status()
        } catch let error as SystemError {
            throw PasswordFileError.unreadable(path: path, reason: error.reason)
        }
        guard status.kind == .regular else { throw PasswordFileError.notARegularFile(path: path) }
        size = status.size
        guard size > 0 else { throw PasswordFileError.empty(path: path) }
        // Probes jump around: read-ahead would only fetch pages nobody asked for.
        file.adviseRandomAccess()
        buffer = .allocate(byteCount: 3 * Self.pageSize, alignment: Self.pageSize)
        try checkEnds()
    }

    deinit { buffer.deallocate() }

    /// How many times the password of `hash` appears in the file (0: not in it).
    public func timesSeen(_ hash: PasswordHash) throws -> Int {
        try hash.withHex { try timesSeen(hex: $0) }
    }

    // MARK: search

    private func timesSeen(hex target: UnsafeRawBufferPointer) throws -> Int {
        let page = Self.pageSize
        // The target's line, if any, starts in [lo, hi]; lo is a line start whose key is below the target.
        var lo = 0, hi = size
        var lowKey: PasswordFileKey?, highKey: PasswordFileKey?
        var depth = 0
        while hi - lo > 2 * page {
            let at = ((lo + hi) / 2) & ~(page - 1)   // > lo, < hi
            let probe = try self.probe(at: at, remember: depth <= Self.cachedDepth)
            depth += 1
            guard let first = probe.first, let last = probe.last else { hi = at; continue }
            if let lowKey, first.key.compare(to: lowKey) < 0 { throw PasswordFileError.notSorted(path: path, offset: first.start) }
            if let highKey, last.key.compare(to: highKey) > 0 { throw PasswordFileError.notSorted(path: path, offset: last.start) }
            switch first.key.compare(to: target) {
            case 0: return first.count
            case 1:
                hi = at   // no line starts between `at` and `first`
                highKey = first.key
                continue
            default: break
            }
            switch last.key.compare(to: target) {
            case 0: return last.count
            case -1:
                lo = last.start
                lowKey = last.key
            default:
                // Between two lines of this page: the answer is in it.
                return try scan(from: first.start, through: last.start, target: target, lowKey: first.key, highKey: last.key)
            }
        }
        return try scan(from: lo, through: hi, target: target, lowKey: lowKey, highKey: highKey)
    }

    /// The first and last whole lines of the page at `at` (a multiple of the page size, > 0).
    private func probe(at: Int, remember: Bool) throws -> Probe {
        if remember, let known = probes[at] { return known }
        let n = try read(at: at, count: min(Self.pageSize, size - at))
        let atEnd = at + n == size
        let bytes = UnsafeRawBufferPointer(rebasing: buffer[0..<n])
        // The first line start after `at` (the line `at` falls in may have begun before it).
        guard let firstNewline = bytes.firstIndex(of: 0x0A) else {
            guard atEnd, n <= Self.maxLineLength else { throw PasswordFileError.notInFormat(path: path, offset: at) }
            return Probe(first: nil, last: nil)
        }
        let firstStart = firstNewline + 1
        guard let first = try line(at: firstStart, in: bytes, base: at, atEnd: atEnd) else { return Probe(first: nil, last: nil) }
        // The last whole line: it ends at the last newline, or at the end of the file without one.
        var lastStart = firstStart
        if atEnd && bytes[n - 1] != 0x0A {
            lastStart = (bytes[..<n].lastIndex(of: 0x0A) ?? firstNewline) + 1
        } else if let lastNewline = bytes[..<n].lastIndex(of: 0x0A), lastNewline > firstNewline {
            lastStart = (bytes[..<lastNewline].lastIndex(of: 0x0A) ?? firstNewline) + 1
        }
        let last = lastStart == firstStart ? first : (try line(at: lastStart, in: bytes, base: at, atEnd: atEnd) ?? first)
        let probe = Probe(first: first, last: last)
        if remember { probes[at] = probe }
        return probe
    }

    /// Reads the bytes holding the lines that start in [from, through] (from is a line start) in one
    /// `pread`, narrows them down by bisection inside the buffer, then reads the last few lines in
    /// order. Returns the target's count, or 0 once a line sorts after it or the lines run out.
    /// `lowKey` and `highKey` are the keys known to sort before and after the range, for order checks.
    private func scan(from: Int, through: Int, target: UnsafeRawBufferPointer,
                      lowKey: PasswordFileKey?, highKey: PasswordFileKey?) throws -> Int {
        let n = try read(at: from, count: min(size - from, through - from + Self.maxLineLength + 2))
        let atEnd = from + n == size
        let bytes = UnsafeRawBufferPointer(rebasing: buffer[0..<n])
        var lowKey = lowKey, highKey = highKey
        func checkOrder(_ entry: Entry) throws {
            if let lowKey, entry.key.compare(to: lowKey) < 0 { throw PasswordFileError.notSorted(path: path, offset: entry.start) }
            if let highKey, entry.key.compare(to: highKey) > 0 { throw PasswordFileError.notSorted(path: path, offset: entry.start) }
        }
        // The target's line starts in [lo, hi] (offsets in the buffer); lo is a line start.
        var lo = 0, hi = min(through - from, n)
        while hi - lo > 2 * Self.maxLineLength {
            let mid = (lo + hi) / 2
            guard let newline = bytes[mid..<min(n, mid + Self.maxLineLength + 1)].firstIndex(of: 0x0A) else {
                throw PasswordFileError.notInFormat(path: path, offset: from + mid)
            }
            guard newline + 1 <= hi, let entry = try line(at: newline + 1, in: bytes, base: from, atEnd: atEnd) else {
                hi = mid   // no line starts in (mid, hi]
                continue
            }
            try checkOrder(entry)
            switch entry.key.compare(to: target) {
            case 0: return entry.count
            case 1: hi = mid; highKey = entry.key
            default: lo = newline + 1; lowKey = entry.key
            }
        }
        var offset = lo
        while offset <= hi, let entry = try line(at: offset, in: bytes, base: from, atEnd: atEnd) {
            try checkOrder(entry)
            switch entry.key.compare(to: target) {
            case 0: return entry.count
            case 1: return 0
            default: break
            }
            lowKey = entry.key
            offset += lineLength(at: offset, in: bytes)
        }
        return 0
    }

    /// The line starting at `offset` of `bytes` (file offset `base + offset`), or nil when no line starts
    /// there (the end of the file). A line cut off by the end of `bytes` before the end of the file, or
    /// not `HASH:COUNT`, throws `notInFormat`.
    private func line(at offset: Int, in bytes: UnsafeRawBufferPointer, base: Int, atEnd: Bool) throws -> Entry? {
        let n = bytes.count
        if offset >= n {
            if atEnd { return nil }
            throw PasswordFileError.notInFormat(path: path, offset: base + offset)
        }
        let bad = PasswordFileError.notInFormat(path: path, offset: base + offset)
        guard offset + PasswordHash.hexLength < n, let key = PasswordFileKey(bytes.baseAddress! + offset) else {
            if offset + 33 <= n && bytes[offset + 32] == UInt8(ascii: ":")
                && (offset..<(offset + 32)).allSatisfy({ HexText.upperHexDigit(bytes[$0]) != nil }) {
                throw PasswordFileError.ntlm(path: path)
            }
            throw bad
        }
        var i = offset + PasswordHash.hexLength
        guard bytes[i] == UInt8(ascii: ":") else { throw bad }
        i += 1
        var count = 0, digits = 0
        while i < n, bytes[i] >= 0x30 && bytes[i] <= 0x39 {
            // Refused before the digit is taken in: 18 digits always fit in an Int, a 19th may not
            // (18 nines times ten overflowed here; found by the password-file fuzzer).
            guard digits < PasswordRange.maxCountDigits else { throw bad }
            count = count * 10 + Int(bytes[i] - 0x30)
            digits += 1; i += 1
        }
        guard digits > 0 else { throw bad }
        if i == n {
            guard atEnd else { throw bad }    // cut off by the read: the line is too long
        } else if bytes[i] == 0x0D {
            guard i + 1 < n ? bytes[i + 1] == 0x0A : atEnd else { throw bad }
        } else if bytes[i] != 0x0A {
            throw bad
        }
        return Entry(key: key, start: base + offset, count: count)
    }

    /// The length of the (valid) line at `offset`, its line ending included.
    private func lineLength(at offset: Int, in bytes: UnsafeRawBufferPointer) -> Int {
        var i = offset
        while i < bytes.count && bytes[i] != 0x0A { i += 1 }
        return i - offset + 1
    }

    /// Checks the first and last lines: the format, and that the first sorts before the last.
    private func checkEnds() throws {
        let head = try read(at: 0, count: min(size, Self.pageSize))
        guard let first = try line(at: 0, in: UnsafeRawBufferPointer(rebasing: buffer[0..<head]), base: 0, atEnd: head == size) else {
            throw PasswordFileError.empty(path: path)
        }
        let tailStart = max(0, size - Self.pageSize)
        let tail = try read(at: tailStart, count: size - tailStart)
        var bytes = UnsafeRawBufferPointer(rebasing: buffer[0..<tail])
        if bytes.last == 0x0A { bytes = UnsafeRawBufferPointer(rebasing: bytes.dropLast()) }
        let lastStart = (bytes.lastIndex(of: 0x0A).map { $0 + 1 }) ?? 0
        guard lastStart > 0 || tailStart == 0 else { throw PasswordFileError.notInFormat(path: path, offset: tailStart) }
        guard let last = try line(at: lastStart, in: UnsafeRawBufferPointer(rebasing: buffer[0..<tail]), base: tailStart, atEnd: true) else {
            throw PasswordFileError.notInFormat(path: path, offset: tailStart)
        }
        if first.key.compare(to: last.key) > 0 { throw PasswordFileError.notSorted(path: path, offset: last.start) }
    }

    /// `pread` of up to `count` bytes at `offset` into the buffer, retried on EINTR and short reads.
    private func read(at offset: Int, count: Int) throws -> Int {
        precondition(count <= buffer.count)
        var done = 0
        while done < count {
            let result: Int?
            do {
                result = try file.read(into: UnsafeMutableRawBufferPointer(start: buffer.baseAddress! + done, count: count - done),
                                       at: offset + done)
            } catch let error as SystemError {
                throw PasswordFileError.unreadable(path: path, reason: error.reason)
            }
            reads += 1
            guard let n = result else { continue }   // EINTR
            if n > 0 { done += n; continue }
            break
        }
        return done
    }
}
