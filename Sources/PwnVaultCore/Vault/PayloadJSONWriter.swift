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
    /// The bytes (`JSONBytes`: counting while its output is nil).
    private var out: JSONBytes
    private var count: Int { out.count }

    private init(output: UnsafeMutableRawBufferPointer?) { out = JSONBytes(output: output) }

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
        if !state.first { out.append(UInt8(ascii: ",")) }
        state.first = false
        out.append(UInt8(ascii: "\""))
        out.append(key)
        out.appendLiteral(#"":"#)
    }

    /// Writes the object's unknown members not yet written while `precedes` holds for their names.
    private mutating func emitUnknown(_ unknown: UnknownJSONMembers, _ state: inout ObjectState,
                                      while precedes: (String) -> Bool = { _ in true }) {
        while state.unknownWritten < unknown.members.count, precedes(unknown.members[state.unknownWritten].name) {
            let kept = unknown.members[state.unknownWritten]
            if !state.first { out.append(UInt8(ascii: ",")) }
            state.first = false
            out.appendQuoted(kept.name)
            out.append(UInt8(ascii: ":"))
            kept.json.withUnsafeBytes { out.append($0) }
            state.unknownWritten += 1
        }
    }

    private mutating func emit(_ payload: VaultPayload) throws(VaultFormatError) {
        var state = ObjectState()
        let unknown = payload.unknownMembers
        out.append(UInt8(ascii: "{"))
        member("accounts", unknown, &state)
        out.append(UInt8(ascii: "["))
        for index in payload.accounts.indices {
            if index > 0 { out.append(UInt8(ascii: ",")) }
            try emit(payload.accounts[index])
        }
        out.append(UInt8(ascii: "]"))
        if let monitor = payload.monitor, !monitor.isEmpty {
            member("monitor", unknown, &state)
            try emit(monitor)
        }
        member("nextID", unknown, &state)
        out.append(payload.nextID)
        member("schema", unknown, &state)
        out.append(payload.schema)
        emitUnknown(unknown, &state)
        out.append(UInt8(ascii: "}"))
    }

    private mutating func emit(_ account: Account) throws(VaultFormatError) {
        var state = ObjectState()
        let unknown = account.unknownMembers
        out.append(UInt8(ascii: "{"))
        member("addedAt", unknown, &state)
        try append(account.addedAt)
        member("entered", unknown, &state)
        out.appendQuoted(account.entered)
        if !account.findings.isEmpty {
            member("findings", unknown, &state)
            out.append(UInt8(ascii: "["))
            for index in account.findings.indices {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                try emit(account.findings[index])
            }
            out.append(UInt8(ascii: "]"))
        }
        member("id", unknown, &state)
        out.append(account.id)
        member("kind", unknown, &state)
        append(account.kind)
        if let label = account.label {
            member("label", unknown, &state)
            out.appendQuoted(label)
        }
        member("normalized", unknown, &state)
        out.appendQuoted(account.normalized)
        member("result", unknown, &state)
        try emit(account.result)
        emitUnknown(unknown, &state)
        out.append(UInt8(ascii: "}"))
    }

    /// `{"acknowledgedAt":…,"firstSeen":…,"key":…,"kind":…,"unannounced":true,"unlistedSince":…}`,
    /// `acknowledgedAt`, `unannounced` and `unlistedSince` only when set.
    private mutating func emit(_ finding: Finding) throws(VaultFormatError) {
        out.append(UInt8(ascii: "{"))
        if let at = finding.acknowledgedAt {
            out.appendLiteral(#""acknowledgedAt":"#)
            try append(at)
            out.append(UInt8(ascii: ","))
        }
        out.appendLiteral(#""firstSeen":"#)
        try append(finding.firstSeen)
        out.appendLiteral(#","key":"#)
        out.appendQuoted(finding.key)
        out.appendLiteral(#","kind":"#)
        switch finding.kind {
        case .breach: out.appendLiteral(#""breach""#)
        case .paste: out.appendLiteral(#""paste""#)
        case .stealerLog: out.appendLiteral(#""stealer-log""#)
        }
        if finding.unannounced == true { out.appendLiteral(#","unannounced":true"#) }
        if let since = finding.unlistedSince {
            out.appendLiteral(#","unlistedSince":"#)
            try append(since)
        }
        out.append(UInt8(ascii: "}"))
    }

    /// `{"catalogMark":…,"forceRunStartedAt":…,"lastFullCheck":…}`, each only when set.
    private mutating func emit(_ monitor: MonitorState) throws(VaultFormatError) {
        out.append(UInt8(ascii: "{"))
        var first = true
        func separator(_ w: inout PayloadJSONWriter) { if !first { w.out.append(UInt8(ascii: ",")) }; first = false }
        if let mark = monitor.catalogMark {
            separator(&self); out.appendLiteral(#""catalogMark":"#); out.appendQuoted(mark)
        }
        if let at = monitor.forceRunStartedAt {
            separator(&self); out.appendLiteral(#""forceRunStartedAt":"#); try append(at)
        }
        if let at = monitor.lastFullCheck {
            separator(&self); out.appendLiteral(#""lastFullCheck":"#); try append(at)
        }
        out.append(UInt8(ascii: "}"))
    }

    private mutating func emit(_ result: CheckResult) throws(VaultFormatError) {
        var state = ObjectState()
        let unknown = result.unknownMembers
        out.append(UInt8(ascii: "{"))
        member("breaches", unknown, &state)
        out.append(UInt8(ascii: "["))
        for index in result.breaches.indices {
            if index > 0 { out.append(UInt8(ascii: ",")) }
            out.appendQuoted(result.breaches[index])
        }
        out.append(UInt8(ascii: "]"))
        if let checkedAt = result.checkedAt {
            member("checkedAt", unknown, &state)
            try append(checkedAt)
        }
        if let failure = result.lastFailure {
            member("lastFailure", unknown, &state)
            out.appendLiteral(#"{"at":"#)
            try append(failure.at)
            out.appendLiteral(#","error":"#)
            out.appendQuoted(failure.message)
            out.append(UInt8(ascii: "}"))
        }
        if let pasteCount = result.pasteCount {
            member("pasteCount", unknown, &state)
            out.append(pasteCount)
        }
        member("status", unknown, &state)
        append(result.status)
        emitUnknown(unknown, &state)
        out.append(UInt8(ascii: "}"))
    }

    // MARK: Values

    private mutating func append(_ kind: AccountKind) {
        switch kind {
        case .email: out.appendLiteral(#""email""#)
        case .username: out.appendLiteral(#""username""#)
        case .phone: out.appendLiteral(#""phone""#)
        }
    }

    private mutating func append(_ status: CheckStatus) {
        switch status {
        case .neverChecked: out.appendLiteral(#""never-checked""#)
        case .clean: out.appendLiteral(#""clean""#)
        case .breached: out.appendLiteral(#""breached""#)
        case .error: out.appendLiteral(#""error""#)
        }
    }

    /// A timestamp in quotes.
    private mutating func append(_ date: Date) throws(VaultFormatError) {
        guard let milliseconds = PayloadTimestamp.milliseconds(of: date) else {
            throw .unwritablePayload(reason: phrase("a date is outside the years 0001 to 9999"))
        }
        out.append(UInt8(ascii: "\""))
        out.append(count: PayloadTimestamp.length) { PayloadTimestamp.write(milliseconds: milliseconds, into: $0) }
        out.append(UInt8(ascii: "\""))
    }
}
