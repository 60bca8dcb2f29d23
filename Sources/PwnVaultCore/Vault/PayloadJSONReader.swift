import FoundationEssentials

/// Reads the schema-1 payload JSON (Docs/VAULT_FORMAT.md §7) straight from bytes: no `String` of the
/// document, no `Any`, no `NSNumber`, no intermediate tree.
///
/// It accepts any JSON text a compatible writer may produce (RFC 8259: members in any order, any JSON
/// whitespace, every escape including surrogate pairs, unknown members of any type at every level)
/// and is strict about everything else: the text must be exactly one JSON value in valid UTF-8;
/// escapes must not encode unpaired surrogates; integers are written without fraction or exponent and
/// fit in 64 bits; a member of the schema appears at most once per object (§7.2). It never reads
/// outside the buffer, every loop consumes input, and nesting is bounded by `maximumDepth`, so a
/// malformed text is refused in time linear in its length.
///
/// The rules that relate values to each other (unique ids, `nextID`, schema number) are checked by
/// `PayloadCodec`, which reads through `read(_:)` and, on failure, `schema(of:)`.
struct PayloadJSONReader {
    /// The deepest nesting of arrays and objects accepted; the top-level object is level 1 and
    /// schema 1 itself needs 5 (`breaches`). Unknown members may nest up to this level.
    static let maximumDepth = 64
    /// The fewest bytes an account the writer makes takes (`{"addedAt":"…","entered":…,"id":…}` and
    /// its result): only a guess of how many accounts a text holds, never a limit.
    static let accountBytes = 96

    private let bytes: UnsafeRawBufferPointer
    private var position = 0
    /// Guarded memory for the unescaped text of strings that contain escapes; made on first need and
    /// replaced when too small (the old block is wiped as it is freed).
    private var scratch: SecretBytes?
    private var scratchCount = 0

    private init(_ bytes: UnsafeRawBufferPointer) { self.bytes = bytes }

    // MARK: Entry points

    /// The payload in `json`, which must be nothing but one JSON object of schema-1 shape.
    /// Does not check the schema number or the rules between values.
    static func read(_ json: UnsafeRawBufferPointer) throws(PayloadJSONError) -> VaultPayload {
        var reader = PayloadJSONReader(json)
        let payload = try reader.readPayload()
        try reader.expectEnd()
        return payload
    }

    /// Checks that `json` is one valid JSON value of any shape (within `maximumDepth`), and returns
    /// the top-level `schema` member when the value is an object with exactly one `schema` that is
    /// an integer. Lets `PayloadCodec` tell "not JSON" from "not schema 1" and spot a newer schema.
    static func schema(of json: UnsafeRawBufferPointer) throws(PayloadJSONError) -> Int? {
        var reader = PayloadJSONReader(json)
        reader.skipWhitespace()
        guard reader.position < json.count, json[reader.position] == ascii("{") else {
            try reader.skipValue(depth: 1)
            try reader.expectEnd()
            return nil
        }
        var schema: Int?
        var schemaMembers = 0
        if try reader.openObject(.topLevel, depth: 1) {
            repeat {
                let isSchema = matches(try reader.readMemberName(), "schema")
                reader.skipWhitespace()
                let valueStart = reader.position
                try reader.skipValue(depth: 2)
                if isSchema {
                    schemaMembers += 1
                    var probe = PayloadJSONReader(json)
                    probe.position = valueStart
                    schema = try? probe.readInteger(.top("schema"))
                }
            } while try reader.nextMember()
        }
        try reader.expectEnd()
        return schemaMembers == 1 ? schema : nil
    }

    // MARK: Schema 1

    private mutating func readPayload() throws(PayloadJSONError) -> VaultPayload {
        var schema: Int?, nextID: Int?, accounts: [Account]?, monitor: MonitorState?
        var unknown = UnknownJSONMembers()
        var seen: UInt8 = 0
        if try openObject(.topLevel, depth: 1) {
            repeat {
                let name = try readMemberName()
                if Self.matches(name, "accounts") {
                    try Self.once(&seen, 1, .top("accounts"))
                    accounts = try readAccounts()
                } else if Self.matches(name, "nextID") {
                    try Self.once(&seen, 2, .top("nextID"))
                    nextID = try readInteger(.top("nextID"))
                } else if Self.matches(name, "schema") {
                    try Self.once(&seen, 4, .top("schema"))
                    schema = try readInteger(.top("schema"))
                } else if Self.matches(name, "monitor") {
                    try Self.once(&seen, 8, .top("monitor"))
                    monitor = try isNull() ? nil : readMonitor()
                } else {
                    try keepUnknown(named: name, in: &unknown, depth: 2)
                }
            } while try nextMember()
        }
        guard let schema else { throw .missing(.top("schema")) }
        guard let nextID else { throw .missing(.top("nextID")) }
        guard let accounts else { throw .missing(.top("accounts")) }
        var payload = VaultPayload(schema: schema, nextID: nextID, accounts: accounts,
                                   monitor: monitor?.isEmpty == true ? nil : monitor)
        payload.unknownMembers = unknown
        return payload
    }

    /// The top-level `monitor`; its unknown members are not kept (it is rewritten whole by each run).
    private mutating func readMonitor() throws(PayloadJSONError) -> MonitorState {
        var state = MonitorState()
        var seen: UInt8 = 0
        if try openObject(.top("monitor"), depth: 2) {
            repeat {
                let name = try readMemberName()
                if Self.matches(name, "lastFullCheck") {
                    try Self.once(&seen, 1, .monitor("lastFullCheck"))
                    state.lastFullCheck = try isNull() ? nil : readDate(.monitor("lastFullCheck"))
                } else if Self.matches(name, "catalogMark") {
                    try Self.once(&seen, 2, .monitor("catalogMark"))
                    state.catalogMark = try isNull() ? nil : readString(.monitor("catalogMark"))
                } else if Self.matches(name, "forceRunStartedAt") {
                    try Self.once(&seen, 4, .monitor("forceRunStartedAt"))
                    state.forceRunStartedAt = try isNull() ? nil : readDate(.monitor("forceRunStartedAt"))
                } else {
                    try skipValue(depth: 3)
                }
            } while try nextMember()
        }
        return state
    }

    private mutating func readFindings(_ index: Int) throws(PayloadJSONError) -> [Finding] {
        var findings: [Finding] = []
        guard try openArray(.account(index, "findings"), depth: 4) else { return findings }
        repeat {
            findings.append(try readFinding(index, findings.count))
        } while try nextElement()
        return findings
    }

    /// One finding; its unknown members are not kept (like `lastFailure`'s).
    private mutating func readFinding(_ index: Int, _ n: Int) throws(PayloadJSONError) -> Finding {
        var kind: FindingKind?, key: String?, firstSeen: Date?, acknowledgedAt: Date?, unannounced = false
        var unlistedSince: Date?
        var seen: UInt8 = 0
        if try openObject(.finding(index, n), depth: 5) {
            repeat {
                let name = try readMemberName()
                if Self.matches(name, "kind") {
                    try Self.once(&seen, 1, .finding(index, n, "kind"))
                    let text = try readStringBytes(.finding(index, n, "kind"))
                    if Self.matches(text, "breach") { kind = .breach }
                    else if Self.matches(text, "paste") { kind = .paste }
                    else if Self.matches(text, "stealer-log") { kind = .stealerLog }
                    else { throw .invalidValue(.finding(index, n, "kind")) }
                } else if Self.matches(name, "key") {
                    try Self.once(&seen, 2, .finding(index, n, "key"))
                    key = try readString(.finding(index, n, "key"))
                } else if Self.matches(name, "firstSeen") {
                    try Self.once(&seen, 4, .finding(index, n, "firstSeen"))
                    firstSeen = try readDate(.finding(index, n, "firstSeen"))
                } else if Self.matches(name, "acknowledgedAt") {
                    try Self.once(&seen, 8, .finding(index, n, "acknowledgedAt"))
                    acknowledgedAt = try isNull() ? nil : readDate(.finding(index, n, "acknowledgedAt"))
                } else if Self.matches(name, "unannounced") {
                    try Self.once(&seen, 16, .finding(index, n, "unannounced"))
                    unannounced = try isNull() ? false : readBool(.finding(index, n, "unannounced"))
                } else if Self.matches(name, "unlistedSince") {
                    try Self.once(&seen, 32, .finding(index, n, "unlistedSince"))
                    unlistedSince = try isNull() ? nil : readDate(.finding(index, n, "unlistedSince"))
                } else {
                    try skipValue(depth: 6)
                }
            } while try nextMember()
        }
        guard let kind else { throw .missing(.finding(index, n, "kind")) }
        guard let key else { throw .missing(.finding(index, n, "key")) }
        guard let firstSeen else { throw .missing(.finding(index, n, "firstSeen")) }
        return Finding(kind: kind, key: key, firstSeen: firstSeen, acknowledgedAt: acknowledgedAt, unannounced: unannounced,
                       unlistedSince: unlistedSince)
    }

    private mutating func readAccounts() throws(PayloadJSONError) -> [Account] {
        var accounts: [Account] = []
        guard try openArray(.top("accounts"), depth: 2) else { return accounts }
        // Room for as many accounts as the rest of the text can hold, each written in `accountBytes`
        // or more: the array is built in place instead of being copied each time it doubles (10,000
        // accounts: most of `list`'s page faults were those copies). Room not used is never written, so
        // its pages are never touched; a text of smaller accounts only grows the array as before.
        accounts.reserveCapacity((bytes.count - position) / Self.accountBytes)
        repeat {
            accounts.append(try readAccount(accounts.count))
        } while try nextElement()
        return accounts
    }

    private mutating func readAccount(_ index: Int) throws(PayloadJSONError) -> Account {
        var id: Int?, entered: String?, normalized: String?, kind: AccountKind?, label: String?
        var addedAt: Date?, result: CheckResult?, legacyError: String?, findings: [Finding] = []
        var unknown = UnknownJSONMembers()
        var seen: UInt8 = 0
        if try openObject(.account(index), depth: 3) {
            repeat {
                let name = try readMemberName()
                if Self.matches(name, "id") {
                    try Self.once(&seen, 1, .account(index, "id"))
                    id = try readInteger(.account(index, "id"))
                } else if Self.matches(name, "entered") {
                    try Self.once(&seen, 2, .account(index, "entered"))
                    entered = try readString(.account(index, "entered"))
                } else if Self.matches(name, "normalized") {
                    try Self.once(&seen, 4, .account(index, "normalized"))
                    normalized = try readNormalized(.account(index, "normalized"), sameAs: entered)
                } else if Self.matches(name, "kind") {
                    try Self.once(&seen, 8, .account(index, "kind"))
                    kind = try readKind(.account(index, "kind"))
                } else if Self.matches(name, "label") {
                    try Self.once(&seen, 16, .account(index, "label"))
                    label = try isNull() ? nil : readString(.account(index, "label"))
                } else if Self.matches(name, "addedAt") {
                    try Self.once(&seen, 32, .account(index, "addedAt"))
                    addedAt = try readDate(.account(index, "addedAt"))
                } else if Self.matches(name, "result") {
                    try Self.once(&seen, 64, .account(index, "result"))
                    result = try readResult(index, legacyError: &legacyError)
                } else if Self.matches(name, "findings") {
                    try Self.once(&seen, 128, .account(index, "findings"))
                    findings = try isNull() ? [] : readFindings(index)
                } else {
                    try keepUnknown(named: name, in: &unknown, depth: 4)
                }
            } while try nextMember()
        }
        guard let id else { throw .missing(.account(index, "id")) }
        guard let entered else { throw .missing(.account(index, "entered")) }
        guard let normalized else { throw .missing(.account(index, "normalized")) }
        guard let kind else { throw .missing(.account(index, "kind")) }
        guard let addedAt else { throw .missing(.account(index, "addedAt")) }
        // The result is moved, not copied, into the account: a copy of a `CheckResult` or an
        // `Account` retains and releases every field (about 2,000 instructions per account, callgrind).
        guard var result = result.take() else { throw .missing(.account(index, "result")) }
        if result.status == .error && result.lastFailure == nil {
            // Written before results kept the last good answer (§7.4): the error replaced it, and
            // `checkedAt` was the time of the failed attempt.
            result.lastFailure = CheckFailure(at: result.checkedAt ?? addedAt, message: legacyError ?? "the check failed")
            result.checkedAt = nil
        }
        return Account(id: id, entered: entered, normalized: normalized, kind: kind, label: label,
                       addedAt: addedAt, result: result, findings: findings, unknownMembers: unknown)
    }

    /// The `normalized` member: the same string as `entered` (sharing its storage, no allocation)
    /// when the bytes are the same, as they are for most accounts.
    private mutating func readNormalized(_ path: PayloadJSONPath, sameAs entered: String?) throws(PayloadJSONError) -> String {
        let text = try readStringBytes(path)
        if var entered, entered.utf8.count == text.count {
            let same = entered.withUTF8 { utf8 in
                utf8.elementsEqual(text)
            }
            if same { return entered }
        }
        return Self.string(text)
    }

    /// The result of account `index`; the legacy `errorMessage` (§7.4) goes to `legacyError` for the
    /// caller to migrate.
    private mutating func readResult(_ index: Int, legacyError errorMessage: inout String?) throws(PayloadJSONError) -> CheckResult {
        var status: CheckStatus?, checkedAt: Date?, breaches: [String]?, pasteCount: Int?
        var lastFailure: CheckFailure?
        var unknown = UnknownJSONMembers()
        var seen: UInt8 = 0
        if try openObject(.account(index, "result"), depth: 4) {
            repeat {
                let name = try readMemberName()
                if Self.matches(name, "status") {
                    try Self.once(&seen, 1, .result(index, "status"))
                    status = try readStatus(.result(index, "status"))
                } else if Self.matches(name, "checkedAt") {
                    try Self.once(&seen, 2, .result(index, "checkedAt"))
                    checkedAt = try isNull() ? nil : readDate(.result(index, "checkedAt"))
                } else if Self.matches(name, "breaches") {
                    try Self.once(&seen, 4, .result(index, "breaches"))
                    breaches = try readBreaches(index)
                } else if Self.matches(name, "pasteCount") {
                    try Self.once(&seen, 8, .result(index, "pasteCount"))
                    pasteCount = try isNull() ? nil : readInteger(.result(index, "pasteCount"))
                } else if Self.matches(name, "errorMessage") {
                    try Self.once(&seen, 16, .result(index, "errorMessage"))
                    errorMessage = try isNull() ? nil : readString(.result(index, "errorMessage"))
                } else if Self.matches(name, "lastFailure") {
                    try Self.once(&seen, 32, .result(index, "lastFailure"))
                    lastFailure = try isNull() ? nil : readFailure(index)
                } else {
                    try keepUnknown(named: name, in: &unknown, depth: 5)
                }
            } while try nextMember()
        }
        guard let status else { throw .missing(.result(index, "status")) }
        guard let breaches else { throw .missing(.result(index, "breaches")) }
        return CheckResult(status: status, checkedAt: checkedAt, breaches: breaches, pasteCount: pasteCount,
                           lastFailure: lastFailure, unknownMembers: unknown)
    }

    private mutating func readFailure(_ index: Int) throws(PayloadJSONError) -> CheckFailure {
        var at: Date?, message: String?
        var seen: UInt8 = 0
        if try openObject(.result(index, "lastFailure"), depth: 5) {
            repeat {
                let name = try readMemberName()
                if Self.matches(name, "at") {
                    try Self.once(&seen, 1, .failure(index, "at"))
                    at = try readDate(.failure(index, "at"))
                } else if Self.matches(name, "error") {
                    try Self.once(&seen, 2, .failure(index, "error"))
                    message = try readString(.failure(index, "error"))
                } else {
                    try skipValue(depth: 6)
                }
            } while try nextMember()
        }
        guard let at else { throw .missing(.failure(index, "at")) }
        guard let message else { throw .missing(.failure(index, "error")) }
        return CheckFailure(at: at, message: message)
    }

    /// Reads the value of the unknown member whose unescaped name is `name` (a view that the next
    /// string read invalidates, so it is copied first) and keeps it in canonical form.
    private mutating func keepUnknown(named name: UnsafeRawBufferPointer, in unknown: inout UnknownJSONMembers,
                                      depth: Int) throws(PayloadJSONError) {
        let text = String(decoding: name, as: UTF8.self)   // already validated as UTF-8
        var json: [UInt8] = []
        try readCanonical(depth: depth, into: &json)
        unknown.add(name: text, json: json)
    }

    /// Reads any JSON value, checking its syntax as `skipValue` does, and appends its canonical form
    /// (§7.3): no whitespace, strings escaped as §7.1 says, object members sorted by the UTF-8 bytes of
    /// their unescaped names (stable: equal names keep their order), numbers and literals as written.
    private mutating func readCanonical(depth: Int, into out: inout [UInt8]) throws(PayloadJSONError) {
        skipWhitespace()
        guard position < bytes.count else { throw .notJSON(offset: position) }
        switch bytes[position] {
        case Self.ascii("\""):
            JSONBytes.appendQuoted(try readStringToken(), to: &out)
        case Self.ascii("{"):
            var members: [(name: [UInt8], value: [UInt8])] = []
            if try openObject(.topLevel, depth: depth) {
                repeat {
                    let name = Array(try readMemberName())
                    var value: [UInt8] = []
                    try readCanonical(depth: depth + 1, into: &value)
                    members.append((name, value))
                } while try nextMember()
            }
            let sorted = members.enumerated().sorted { a, b in
                a.element.name.lexicographicallyPrecedes(b.element.name)
                    || (a.element.name == b.element.name && a.offset < b.offset)
            }
            out.append(Self.ascii("{"))
            for (i, member) in sorted.enumerated() {
                if i > 0 { out.append(Self.ascii(",")) }
                member.element.name.withUnsafeBytes { JSONBytes.appendQuoted($0, to: &out) }
                out.append(Self.ascii(":"))
                out.append(contentsOf: member.element.value)
            }
            out.append(Self.ascii("}"))
        case Self.ascii("["):
            out.append(Self.ascii("["))
            if try openArray(.topLevel, depth: depth) {
                var first = true
                repeat {
                    if !first { out.append(Self.ascii(",")) }
                    first = false
                    try readCanonical(depth: depth + 1, into: &out)
                } while try nextElement()
            }
            out.append(Self.ascii("]"))
        default:
            let start = position
            try skipValue(depth: depth)
            out.append(contentsOf: UnsafeRawBufferPointer(rebasing: bytes[start..<position]))
        }
    }

    private mutating func readBreaches(_ index: Int) throws(PayloadJSONError) -> [String] {
        var names: [String] = []
        guard try openArray(.result(index, "breaches"), depth: 5) else { return names }
        repeat {
            names.append(try readString(.result(index, "breaches", element: names.count)))
        } while try nextElement()
        return names
    }

    private mutating func readKind(_ path: PayloadJSONPath) throws(PayloadJSONError) -> AccountKind {
        let text = try readStringBytes(path)
        if Self.matches(text, "email") { return .email }
        if Self.matches(text, "username") { return .username }
        if Self.matches(text, "phone") { return .phone }
        throw .invalidValue(path)
    }

    private mutating func readStatus(_ path: PayloadJSONPath) throws(PayloadJSONError) -> CheckStatus {
        let text = try readStringBytes(path)
        if Self.matches(text, "never-checked") { return .neverChecked }
        if Self.matches(text, "clean") { return .clean }
        if Self.matches(text, "breached") { return .breached }
        if Self.matches(text, "error") { return .error }
        throw .invalidValue(path)
    }

    private mutating func readDate(_ path: PayloadJSONPath) throws(PayloadJSONError) -> Date {
        guard let date = PayloadTimestamp.date(from: try readStringBytes(path)) else { throw .invalidValue(path) }
        return date
    }

    /// Marks member `bit` of an object as seen; a second time is an error (§7.2: duplicates are damage).
    private static func once(_ seen: inout UInt8, _ bit: UInt8, _ path: PayloadJSONPath) throws(PayloadJSONError) {
        guard seen & bit == 0 else { throw .duplicate(path) }
        seen |= bit
    }

    // MARK: Typed values

    /// A string value as a Swift string.
    private mutating func readString(_ path: PayloadJSONPath) throws(PayloadJSONError) -> String {
        Self.string(try readStringBytes(path))
    }

    /// `text`, already validated as UTF-8 (decoding cannot substitute anything), as a Swift string.
    private static func string(_ text: UnsafeRawBufferPointer) -> String {
        guard let base = text.baseAddress else { return "" }
        return String(decoding: UnsafeBufferPointer(start: base.assumingMemoryBound(to: UInt8.self), count: text.count),
                      as: UTF8.self)
    }

    /// A string value's unescaped UTF-8 (a view valid until the next string is read).
    private mutating func readStringBytes(_ path: PayloadJSONPath) throws(PayloadJSONError) -> UnsafeRawBufferPointer {
        skipWhitespace()
        guard position < bytes.count else { throw .notJSON(offset: position) }
        guard bytes[position] == Self.ascii("\"") else { throw .wrongType(path) }
        return try readStringToken()
    }

    /// An integer value: `-? (0 | [1-9][0-9]*)` within the signed 64-bit range, no fraction or exponent.
    private mutating func readInteger(_ path: PayloadJSONPath) throws(PayloadJSONError) -> Int {
        skipWhitespace()
        let negative = position < bytes.count && bytes[position] == Self.ascii("-")
        if negative { position += 1 }
        guard position < bytes.count, Self.isDigit(bytes[position]) else {
            if negative || position == bytes.count { throw .notJSON(offset: position) }
            throw .wrongType(path)
        }
        var value = 0
        var overflow = false
        if bytes[position] == Self.ascii("0") {
            position += 1
        } else {
            while position < bytes.count, Self.isDigit(bytes[position]) {
                let digit = Int(bytes[position] &- Self.ascii("0"))
                let (scaled, o1) = value.multipliedReportingOverflow(by: 10)
                let (next, o2) = negative ? scaled.subtractingReportingOverflow(digit) : scaled.addingReportingOverflow(digit)
                overflow = overflow || o1 || o2
                value = next
                position += 1
            }
        }
        if position < bytes.count, bytes[position] == Self.ascii(".") || bytes[position] | 0x20 == Self.ascii("e") {
            throw .wrongType(path)   // a fraction or an exponent: a number, but not an integer
        }
        if overflow { throw .invalidValue(path) }
        return value
    }

    /// `true` or `false`; anything else is the wrong type.
    private mutating func readBool(_ path: PayloadJSONPath) throws(PayloadJSONError) -> Bool {
        skipWhitespace()
        guard position < bytes.count else { throw .wrongType(path) }
        switch bytes[position] {
        case Self.ascii("t"): try expectLiteral("true"); return true
        case Self.ascii("f"): try expectLiteral("false"); return false
        default: throw .wrongType(path)
        }
    }

    /// Whether the next value is `null` (consumed if so).
    private mutating func isNull() throws(PayloadJSONError) -> Bool {
        skipWhitespace()
        guard position < bytes.count, bytes[position] == Self.ascii("n") else { return false }
        try expectLiteral("null")
        return true
    }

    // MARK: Structure

    /// Consumes `{` and returns whether a member follows (false: the object was empty and is consumed).
    private mutating func openObject(_ path: PayloadJSONPath, depth: Int) throws(PayloadJSONError) -> Bool {
        try open(Self.ascii("{"), close: Self.ascii("}"), path, depth: depth)
    }

    /// Consumes `[` and returns whether an element follows (false: the array was empty and is consumed).
    private mutating func openArray(_ path: PayloadJSONPath, depth: Int) throws(PayloadJSONError) -> Bool {
        try open(Self.ascii("["), close: Self.ascii("]"), path, depth: depth)
    }

    private mutating func open(_ opening: UInt8, close: UInt8, _ path: PayloadJSONPath,
                               depth: Int) throws(PayloadJSONError) -> Bool {
        skipWhitespace()
        guard position < bytes.count else { throw .notJSON(offset: position) }
        guard bytes[position] == opening else { throw .wrongType(path) }
        guard depth <= Self.maximumDepth else { throw .nestedTooDeeply(offset: position) }
        position += 1
        skipWhitespace()
        if position < bytes.count, bytes[position] == close {
            position += 1
            return false
        }
        return true
    }

    /// A member's name and the colon after it (the unescaped name is valid until the next string is read).
    private mutating func readMemberName() throws(PayloadJSONError) -> UnsafeRawBufferPointer {
        skipWhitespace()
        guard position < bytes.count, bytes[position] == Self.ascii("\"") else { throw .notJSON(offset: position) }
        let name = try readStringToken()
        skipWhitespace()
        try expect(Self.ascii(":"))
        return name
    }

    /// After a member: consumes `,` (true: another member follows) or `}` (false).
    private mutating func nextMember() throws(PayloadJSONError) -> Bool {
        try next(close: Self.ascii("}"))
    }

    /// After an element: consumes `,` (true: another element follows) or `]` (false).
    private mutating func nextElement() throws(PayloadJSONError) -> Bool {
        try next(close: Self.ascii("]"))
    }

    private mutating func next(close: UInt8) throws(PayloadJSONError) -> Bool {
        skipWhitespace()
        guard position < bytes.count else { throw .notJSON(offset: position) }
        switch bytes[position] {
        case Self.ascii(","): position += 1; return true
        case close: position += 1; return false
        default: throw .notJSON(offset: position)
        }
    }

    /// Skips any JSON value, checking its syntax; containers it opens are at nesting level `depth`.
    private mutating func skipValue(depth: Int) throws(PayloadJSONError) {
        skipWhitespace()
        guard position < bytes.count else { throw .notJSON(offset: position) }
        switch bytes[position] {
        case Self.ascii("\""):
            _ = try readStringToken()
        case Self.ascii("{"):
            if try openObject(.topLevel, depth: depth) {
                repeat {
                    _ = try readMemberName()
                    try skipValue(depth: depth + 1)
                } while try nextMember()
            }
        case Self.ascii("["):
            if try openArray(.topLevel, depth: depth) {
                repeat {
                    try skipValue(depth: depth + 1)
                } while try nextElement()
            }
        case Self.ascii("t"): try expectLiteral("true")
        case Self.ascii("f"): try expectLiteral("false")
        case Self.ascii("n"): try expectLiteral("null")
        case Self.ascii("-"), Self.ascii("0")...Self.ascii("9"): try skipNumber()
        default: throw .notJSON(offset: position)
        }
    }

    /// `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`, of any length and magnitude.
    private mutating func skipNumber() throws(PayloadJSONError) {
        if bytes[position] == Self.ascii("-") { position += 1 }
        guard position < bytes.count, Self.isDigit(bytes[position]) else { throw .notJSON(offset: position) }
        if bytes[position] == Self.ascii("0") { position += 1 } else { skipDigits() }
        if position < bytes.count, bytes[position] == Self.ascii(".") {
            position += 1
            guard position < bytes.count, Self.isDigit(bytes[position]) else { throw .notJSON(offset: position) }
            skipDigits()
        }
        if position < bytes.count, bytes[position] | 0x20 == Self.ascii("e") {
            position += 1
            if position < bytes.count, bytes[position] == Self.ascii("+") || bytes[position] == Self.ascii("-") {
                position += 1
            }
            guard position < bytes.count, Self.isDigit(bytes[position]) else { throw .notJSON(offset: position) }
            skipDigits()
        }
    }

    private mutating func skipDigits() {
        while position < bytes.count, Self.isDigit(bytes[position]) { position += 1 }
    }

    private mutating func expectEnd() throws(PayloadJSONError) {
        skipWhitespace()
        guard position == bytes.count else { throw .notJSON(offset: position) }
    }

    private mutating func expect(_ byte: UInt8) throws(PayloadJSONError) {
        guard position < bytes.count, bytes[position] == byte else { throw .notJSON(offset: position) }
        position += 1
    }

    private mutating func expectLiteral(_ literal: StaticString) throws(PayloadJSONError) {
        let text = UnsafeRawBufferPointer(start: literal.utf8Start, count: literal.utf8CodeUnitCount)
        for byte in text { try expect(byte) }
    }

    /// Space, tab, line feed and carriage return: JSON's whitespace, and nothing else.
    private mutating func skipWhitespace() {
        while position < bytes.count {
            switch bytes[position] {
            case 0x20, 0x09, 0x0A, 0x0D: position += 1
            default: return
            }
        }
    }

    // MARK: Strings

    /// Reads a string whose opening quote is at `position` and returns its unescaped content, checked to
    /// be UTF-8: a view of the input when the string has no escape, else of `scratch`, where the runs
    /// between escapes are copied whole.
    private mutating func readStringToken() throws(PayloadJSONError) -> UnsafeRawBufferPointer {
        position += 1
        let start = position
        var runStart = position
        var escaped = false
        while true {
            // Eight bytes at a time while they are plain ASCII (the common case); in the first word
            // that is not, straight to its first byte that needs attention (before, the word was
            // tested again for every byte up to it: most of the time spent on short strings).
            while bytes.count - position >= 8 {
                let word = UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: position, as: UInt64.self))
                let attention = Self.attentionMask(word)
                if attention == 0 { position += 8; continue }
                position += attention.trailingZeroBitCount >> 3
                break
            }
            guard position < bytes.count else { break }
            let byte = bytes[position]
            if byte == Self.ascii("\"") {
                position += 1
                guard escaped else { return UnsafeRawBufferPointer(rebasing: bytes[start..<(position - 1)]) }
                appendToScratch(UnsafeRawBufferPointer(rebasing: bytes[runStart..<(position - 1)]))
                return UnsafeRawBufferPointer(start: scratch?.base, count: scratchCount)
            }
            if byte == Self.ascii("\\") {
                if !escaped { escaped = true; scratchCount = 0 }
                appendToScratch(UnsafeRawBufferPointer(rebasing: bytes[runStart..<position]))
                try readEscape()
                runStart = position
                continue
            }
            if byte < 0x20 { throw .notJSON(offset: position) }
            if byte < 0x80 { position += 1 } else { try skipUTF8Sequence() }
        }
        throw .notJSON(offset: position)
    }

    /// One escape at `position` (a backslash), appended to `scratch` as UTF-8.
    private mutating func readEscape() throws(PayloadJSONError) {
        let escapeStart = position
        position += 1
        guard position < bytes.count else { throw .notJSON(offset: escapeStart) }
        let letter = bytes[position]
        position += 1
        let scalar: UInt32
        switch letter {
        case Self.ascii("\""), Self.ascii("\\"), Self.ascii("/"): scalar = UInt32(letter)
        case Self.ascii("b"): scalar = 0x08
        case Self.ascii("f"): scalar = 0x0C
        case Self.ascii("n"): scalar = 0x0A
        case Self.ascii("r"): scalar = 0x0D
        case Self.ascii("t"): scalar = 0x09
        case Self.ascii("u"):
            let unit = try readHexQuad(escapeStart)
            switch unit {
            case 0xD800...0xDBFF:
                // A high surrogate must be followed at once by an escaped low surrogate.
                guard position + 1 < bytes.count, bytes[position] == Self.ascii("\\"),
                      bytes[position + 1] == Self.ascii("u") else { throw .notJSON(offset: escapeStart) }
                position += 2
                let low = try readHexQuad(escapeStart)
                guard (0xDC00...0xDFFF).contains(low) else { throw .notJSON(offset: escapeStart) }
                scalar = 0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00)
            case 0xDC00...0xDFFF:
                throw .notJSON(offset: escapeStart)
            default:
                scalar = unit
            }
        default:
            throw .notJSON(offset: escapeStart)
        }
        appendToScratch(scalar: scalar)
    }

    private mutating func readHexQuad(_ escapeStart: Int) throws(PayloadJSONError) -> UInt32 {
        guard position + 4 <= bytes.count else { throw .notJSON(offset: escapeStart) }
        var value: UInt32 = 0
        for _ in 0..<4 {
            let byte = bytes[position]
            let digit: UInt8
            switch byte {
            case Self.ascii("0")...Self.ascii("9"): digit = byte - Self.ascii("0")
            case Self.ascii("a")...Self.ascii("f"): digit = byte - Self.ascii("a") + 10
            case Self.ascii("A")...Self.ascii("F"): digit = byte - Self.ascii("A") + 10
            default: throw .notJSON(offset: escapeStart)
            }
            value = value << 4 | UInt32(digit)
            position += 1
        }
        return value
    }

    /// Skips one well-formed UTF-8 sequence of two to four bytes (RFC 3629: no overlong forms, no
    /// surrogates, nothing above U+10FFFF) whose lead byte is at `position`.
    private mutating func skipUTF8Sequence() throws(PayloadJSONError) {
        let lead = bytes[position]
        let length: Int
        var secondRange: ClosedRange<UInt8> = 0x80...0xBF
        switch lead {
        case 0xC2...0xDF: length = 2
        case 0xE0: length = 3; secondRange = 0xA0...0xBF
        case 0xE1...0xEC, 0xEE...0xEF: length = 3
        case 0xED: length = 3; secondRange = 0x80...0x9F
        case 0xF0: length = 4; secondRange = 0x90...0xBF
        case 0xF1...0xF3: length = 4
        case 0xF4: length = 4; secondRange = 0x80...0x8F
        default: throw .notJSON(offset: position)
        }
        guard length <= bytes.count - position, secondRange.contains(bytes[position + 1]) else {
            throw .notJSON(offset: position)
        }
        for i in 2..<length where bytes[position + i] & 0xC0 != 0x80 {
            throw .notJSON(offset: position)
        }
        position += length
    }

    private mutating func appendToScratch(scalar: UInt32) {
        var utf8: (UInt8, UInt8, UInt8, UInt8) = (0, 0, 0, 0)
        let count: Int
        switch scalar {
        case ..<0x80:
            utf8.0 = UInt8(scalar); count = 1
        case ..<0x800:
            utf8.0 = 0xC0 | UInt8(scalar >> 6); utf8.1 = 0x80 | UInt8(scalar & 0x3F); count = 2
        case ..<0x10000:
            utf8.0 = 0xE0 | UInt8(scalar >> 12); utf8.1 = 0x80 | UInt8(scalar >> 6 & 0x3F)
            utf8.2 = 0x80 | UInt8(scalar & 0x3F); count = 3
        default:
            utf8.0 = 0xF0 | UInt8(scalar >> 18); utf8.1 = 0x80 | UInt8(scalar >> 12 & 0x3F)
            utf8.2 = 0x80 | UInt8(scalar >> 6 & 0x3F); utf8.3 = 0x80 | UInt8(scalar & 0x3F); count = 4
        }
        withUnsafeBytes(of: &utf8) { appendToScratch(UnsafeRawBufferPointer(rebasing: $0[0..<count])) }
    }

    private mutating func appendToScratch(_ text: UnsafeRawBufferPointer) {
        guard !text.isEmpty else { return }
        let needed = scratchCount + text.count
        if needed > scratch?.count ?? 0 {
            // Unescaped text is never longer than the document, so neither is the scratch memory.
            let larger = SecretBytes(count: max(needed, min(max(4096, needed * 2), bytes.count)))
            if let scratch, scratchCount > 0 { larger.base.copyMemory(from: scratch.base, byteCount: scratchCount) }
            scratch = larger   // the old block is freed, and so wiped, by `SecretBytes.deinit`
        }
        (scratch!.base + scratchCount).copyMemory(from: text.baseAddress!, byteCount: text.count)
        scratchCount = needed
    }

    // MARK: Bytes

    /// Zero only when none of the eight bytes in `word` (the first byte in the low bits) is a quote,
    /// a backslash, a control character or part of a multi-byte sequence. SWAR: each test sets the
    /// high bit of a byte that matches. A borrow can also mark bytes above a true match, never below
    /// one, so the lowest marked byte is the first that needs attention.
    private static func attentionMask(_ word: UInt64) -> UInt64 {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highBits: UInt64 = 0x8080_8080_8080_8080
        func zeroBytes(_ x: UInt64) -> UInt64 { (x &- ones) & ~x & highBits }
        return word & highBits                            // a byte ≥ 0x80
            | (word &- ones &* 0x20) & ~word & highBits   // a byte < 0x20
            | zeroBytes(word ^ (ones &* 0x22))            // a quote
            | zeroBytes(word ^ (ones &* 0x5C))            // a backslash
    }

    private static func ascii(_ character: Unicode.Scalar) -> UInt8 { UInt8(ascii: character) }

    private static func isDigit(_ byte: UInt8) -> Bool { byte &- UInt8(ascii: "0") < 10 }

    /// Whether `text` is exactly the bytes of `literal`.
    private static func matches(_ text: UnsafeRawBufferPointer, _ literal: StaticString) -> Bool {
        guard text.count == literal.utf8CodeUnitCount else { return false }
        return UnsafeBufferPointer(start: literal.utf8Start, count: text.count).elementsEqual(text)
    }
}
