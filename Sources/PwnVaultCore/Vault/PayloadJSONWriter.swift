import FoundationEssentials

/// Writes the schema-1 payload JSON in exactly the canonical form of Docs/VAULT_FORMAT.md §7.1: compact,
/// members in the fixed (sorted) order, optional members omitted when nil, strings escaped by the
/// spec's table, timestamps of 24 bytes.
///
/// It runs twice over a payload: once counting (`length(of:)`), so the caller can allocate the exact
/// padded plaintext in guarded memory, then writing straight into it (`write(_:into:)`). The JSON thus
/// never exists in ordinary, unwiped memory. Both passes share every line of the emitting code, so they
/// cannot disagree; the writing pass checks its bounds anyway.
struct PayloadJSONWriter {
    /// Where the bytes go; nil while only counting.
    private let output: UnsafeMutableRawBufferPointer?
    /// Bytes written (or counted) so far.
    private(set) var count = 0

    private init(output: UnsafeMutableRawBufferPointer?) { self.output = output }

    /// The exact number of bytes `write(_:into:)` produces for `payload`.
    /// Throws `.unwritablePayload` when a date has no timestamp (outside the years 0001–9999).
    static func length(of payload: VaultPayload) throws(VaultFormatError) -> Int {
        var counter = PayloadJSONWriter(output: nil)
        try counter.emit(payload)
        return counter.count
    }

    /// Writes the JSON of `payload` into `buffer`, which must be exactly `length(of: payload)` bytes.
    static func write(_ payload: VaultPayload, into buffer: UnsafeMutableRawBufferPointer) throws(VaultFormatError) {
        var writer = PayloadJSONWriter(output: buffer)
        try writer.emit(payload)
        precondition(writer.count == buffer.count, "the payload JSON changed length between passes")
    }

    // MARK: Structure (§7.1: members in this order; §7.3: unknown members sorted in among them)

    /// Where the writer is within one object: whether a member was written, and how many of the
    /// object's unknown members (sorted by name) are out.
    private struct ObjectState {
        var first = true
        var unknownWritten = 0
    }

    /// Starts member `name`: first every unknown member whose name sorts before it, then the comma
    /// (unless it is the first member) and the quoted name with its colon.
    private mutating func member(_ name: StaticString, _ unknown: UnknownJSONMembers, _ state: inout ObjectState) {
        let key = UnsafeRawBufferPointer(start: name.utf8Start, count: name.utf8CodeUnitCount)
        emitUnknown(unknown, &state) { Array($0.utf8).lexicographicallyPrecedes(key) }
        if !state.first { append(UInt8(ascii: ",")) }
        state.first = false
        append(UInt8(ascii: "\""))
        append(key)
        appendLiteral(#"":"#)
    }

    /// Writes the object's unknown members not yet written while `precedes` holds for their names.
    private mutating func emitUnknown(_ unknown: UnknownJSONMembers, _ state: inout ObjectState,
                                      while precedes: (String) -> Bool = { _ in true }) {
        while state.unknownWritten < unknown.members.count, precedes(unknown.members[state.unknownWritten].name) {
            let kept = unknown.members[state.unknownWritten]
            if !state.first { append(UInt8(ascii: ",")) }
            state.first = false
            appendQuoted(kept.name)
            append(UInt8(ascii: ":"))
            kept.json.withUnsafeBytes { append($0) }
            state.unknownWritten += 1
        }
    }

    private mutating func emit(_ payload: VaultPayload) throws(VaultFormatError) {
        var state = ObjectState()
        let unknown = payload.unknownMembers
        append(UInt8(ascii: "{"))
        member("accounts", unknown, &state)
        append(UInt8(ascii: "["))
        for index in payload.accounts.indices {
            if index > 0 { append(UInt8(ascii: ",")) }
            try emit(payload.accounts[index])
        }
        append(UInt8(ascii: "]"))
        if let monitor = payload.monitor, !monitor.isEmpty {
            member("monitor", unknown, &state)
            try emit(monitor)
        }
        member("nextID", unknown, &state)
        append(payload.nextID)
        member("schema", unknown, &state)
        append(payload.schema)
        emitUnknown(unknown, &state)
        append(UInt8(ascii: "}"))
    }

    private mutating func emit(_ account: Account) throws(VaultFormatError) {
        var state = ObjectState()
        let unknown = account.unknownMembers
        append(UInt8(ascii: "{"))
        member("addedAt", unknown, &state)
        try append(account.addedAt)
        member("entered", unknown, &state)
        appendQuoted(account.entered)
        if !account.findings.isEmpty {
            member("findings", unknown, &state)
            append(UInt8(ascii: "["))
            for index in account.findings.indices {
                if index > 0 { append(UInt8(ascii: ",")) }
                try emit(account.findings[index])
            }
            append(UInt8(ascii: "]"))
        }
        member("id", unknown, &state)
        append(account.id)
        member("kind", unknown, &state)
        append(account.kind)
        if let label = account.label {
            member("label", unknown, &state)
            appendQuoted(label)
        }
        member("normalized", unknown, &state)
        appendQuoted(account.normalized)
        member("result", unknown, &state)
        try emit(account.result)
        emitUnknown(unknown, &state)
        append(UInt8(ascii: "}"))
    }

    /// `{"acknowledgedAt":…,"firstSeen":…,"key":…,"kind":…}`, `acknowledgedAt` only when set.
    private mutating func emit(_ finding: Finding) throws(VaultFormatError) {
        append(UInt8(ascii: "{"))
        if let at = finding.acknowledgedAt {
            appendLiteral(#""acknowledgedAt":"#)
            try append(at)
            append(UInt8(ascii: ","))
        }
        appendLiteral(#""firstSeen":"#)
        try append(finding.firstSeen)
        appendLiteral(#","key":"#)
        appendQuoted(finding.key)
        appendLiteral(#","kind":"#)
        switch finding.kind {
        case .breach: appendLiteral(#""breach""#)
        case .paste: appendLiteral(#""paste""#)
        case .stealerLog: appendLiteral(#""stealer-log""#)
        }
        append(UInt8(ascii: "}"))
    }

    /// `{"catalogMark":…,"forceRunStartedAt":…,"lastFullCheck":…}`, each only when set.
    private mutating func emit(_ monitor: MonitorState) throws(VaultFormatError) {
        append(UInt8(ascii: "{"))
        var first = true
        func separator(_ w: inout PayloadJSONWriter) { if !first { w.append(UInt8(ascii: ",")) }; first = false }
        if let mark = monitor.catalogMark {
            separator(&self); appendLiteral(#""catalogMark":"#); appendQuoted(mark)
        }
        if let at = monitor.forceRunStartedAt {
            separator(&self); appendLiteral(#""forceRunStartedAt":"#); try append(at)
        }
        if let at = monitor.lastFullCheck {
            separator(&self); appendLiteral(#""lastFullCheck":"#); try append(at)
        }
        append(UInt8(ascii: "}"))
    }

    private mutating func emit(_ result: CheckResult) throws(VaultFormatError) {
        var state = ObjectState()
        let unknown = result.unknownMembers
        append(UInt8(ascii: "{"))
        member("breaches", unknown, &state)
        append(UInt8(ascii: "["))
        for index in result.breaches.indices {
            if index > 0 { append(UInt8(ascii: ",")) }
            appendQuoted(result.breaches[index])
        }
        append(UInt8(ascii: "]"))
        if let checkedAt = result.checkedAt {
            member("checkedAt", unknown, &state)
            try append(checkedAt)
        }
        if let failure = result.lastFailure {
            member("lastFailure", unknown, &state)
            appendLiteral(#"{"at":"#)
            try append(failure.at)
            appendLiteral(#","error":"#)
            appendQuoted(failure.message)
            append(UInt8(ascii: "}"))
        }
        if let pasteCount = result.pasteCount {
            member("pasteCount", unknown, &state)
            append(pasteCount)
        }
        member("status", unknown, &state)
        append(result.status)
        emitUnknown(unknown, &state)
        append(UInt8(ascii: "}"))
    }

    // MARK: Values

    private mutating func append(_ kind: AccountKind) {
        switch kind {
        case .email: appendLiteral(#""email""#)
        case .username: appendLiteral(#""username""#)
        case .phone: appendLiteral(#""phone""#)
        }
    }

    private mutating func append(_ status: CheckStatus) {
        switch status {
        case .neverChecked: appendLiteral(#""never-checked""#)
        case .clean: appendLiteral(#""clean""#)
        case .breached: appendLiteral(#""breached""#)
        case .error: appendLiteral(#""error""#)
        }
    }

    /// A timestamp in quotes.
    private mutating func append(_ date: Date) throws(VaultFormatError) {
        guard let milliseconds = PayloadTimestamp.milliseconds(of: date) else {
            throw .unwritablePayload(reason: "a date is outside the years 0001 to 9999")
        }
        append(UInt8(ascii: "\""))
        if let output {
            PayloadTimestamp.write(milliseconds: milliseconds, into: slice(of: output, count: PayloadTimestamp.length))
        }
        count += PayloadTimestamp.length
        append(UInt8(ascii: "\""))
    }

    /// An integer in decimal, without a sign when non-negative.
    private mutating func append(_ value: Int) {
        if value < 0 { append(UInt8(ascii: "-")) }
        let magnitude = value.magnitude
        var digits = 1
        var rest = magnitude / 10
        while rest > 0 { digits += 1; rest /= 10 }
        if let output {
            let out = slice(of: output, count: digits)
            var rest = magnitude
            for i in stride(from: digits - 1, through: 0, by: -1) {
                out[i] = UInt8(ascii: "0") + UInt8(truncatingIfNeeded: rest % 10)
                rest /= 10
            }
        }
        count += digits
    }

    /// A string in quotes, escaped as §7.1 says: `"` and `\` with a backslash; U+0008, U+0009, U+000A,
    /// U+000C and U+000D as `\b \t \n \f \r`; the other characters below U+0020 as `\u00xx` (lower-case
    /// hex); everything else, `/`, U+007F and all non-ASCII included, as its UTF-8 bytes.
    private mutating func appendQuoted(_ string: String) {
        var string = string
        string.withUTF8 { appendQuoted(bytes: UnsafeRawBufferPointer($0)) }
    }

    /// `appendQuoted` for text given as (valid) UTF-8 bytes.
    private mutating func appendQuoted(bytes raw: UnsafeRawBufferPointer) {
        append(UInt8(ascii: "\""))
        var runStart = 0
        var i = 0
        while i < raw.count {
            // Eight bytes at a time while none needs an escape (the common case), then one at a time.
            while raw.count - i >= 8, !Self.mayNeedEscape(raw.loadUnaligned(fromByteOffset: i, as: UInt64.self)) {
                i += 8
            }
            guard i < raw.count else { break }
            let byte = raw[i]
            if byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") {
                append(UnsafeRawBufferPointer(rebasing: raw[runStart..<i]))
                appendEscape(of: byte)
                runStart = i + 1
            }
            i += 1
        }
        append(UnsafeRawBufferPointer(rebasing: raw[runStart...]))
        append(UInt8(ascii: "\""))
    }

    /// Appends the UTF-8 text `utf8` to `out` as a quoted, canonically escaped JSON string (for the
    /// reader, which keeps unknown members in canonical form).
    static func appendCanonicalString(_ utf8: UnsafeRawBufferPointer, to out: inout [UInt8]) {
        var counter = PayloadJSONWriter(output: nil)
        counter.appendQuoted(bytes: utf8)
        let start = out.count
        out.append(contentsOf: repeatElement(0, count: counter.count))
        out.withUnsafeMutableBytes { buffer in
            var writer = PayloadJSONWriter(output: UnsafeMutableRawBufferPointer(rebasing: buffer[start...]))
            writer.appendQuoted(bytes: utf8)
        }
    }

    /// False only when none of the eight bytes in `word` is a control character, a quote or a
    /// backslash (SWAR: each test sets the high bit of a byte that matches).
    private static func mayNeedEscape(_ word: UInt64) -> Bool {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highBits: UInt64 = 0x8080_8080_8080_8080
        func hasZeroByte(_ x: UInt64) -> Bool { (x &- ones) & ~x & highBits != 0 }
        return (word &- ones &* 0x20) & ~word & highBits != 0   // a byte < 0x20
            || hasZeroByte(word ^ (ones &* 0x22))               // a quote
            || hasZeroByte(word ^ (ones &* 0x5C))               // a backslash
    }

    private mutating func appendEscape(of byte: UInt8) {
        append(UInt8(ascii: "\\"))
        switch byte {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"): append(byte)
        case 0x08: append(UInt8(ascii: "b"))
        case 0x09: append(UInt8(ascii: "t"))
        case 0x0A: append(UInt8(ascii: "n"))
        case 0x0C: append(UInt8(ascii: "f"))
        case 0x0D: append(UInt8(ascii: "r"))
        default:
            let hex: StaticString = "0123456789abcdef"
            appendLiteral(#"u00"#)
            append(hex.utf8Start[Int(byte >> 4)])
            append(hex.utf8Start[Int(byte & 0x0F)])
        }
    }

    // MARK: Bytes

    private mutating func appendLiteral(_ literal: StaticString) {
        append(UnsafeRawBufferPointer(start: literal.utf8Start, count: literal.utf8CodeUnitCount))
    }

    private mutating func append(_ bytes: UnsafeRawBufferPointer) {
        if let output, bytes.count > 0 {
            slice(of: output, count: bytes.count).copyMemory(from: bytes)
        }
        count += bytes.count
    }

    private mutating func append(_ byte: UInt8) {
        if let output {
            precondition(count < output.count, "the payload JSON outgrew its buffer")
            output[count] = byte
        }
        count += 1
    }

    /// The next `length` bytes of `output`, after checking that they exist.
    private func slice(of output: UnsafeMutableRawBufferPointer, count length: Int) -> UnsafeMutableRawBufferPointer {
        precondition(length <= output.count - count, "the payload JSON outgrew its buffer")
        return UnsafeMutableRawBufferPointer(rebasing: output[count..<(count + length)])
    }
}
