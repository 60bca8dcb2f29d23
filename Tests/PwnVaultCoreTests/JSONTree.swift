import Foundation
@testable import PwnVaultCore

/// A JSON value for comparing codecs exactly, independent of the codec under test. Strings are kept
/// as their UTF-8 bytes: Swift's `==` on strings would equate canonically equivalent text ("é" and
/// "e\u{301}"), which a codec must not silently convert into each other.
indirect enum JSONTree: Equatable {
    case object([String: JSONTree])
    case array([JSONTree])
    case string([UInt8])
    case integer(Int)
    case null
    case bool(Bool)
    /// A number other than a schema integer, kept as its text (only ever written, never compared).
    case number(String)

    static func string(_ text: String) -> JSONTree { .string(Array(text.utf8)) }

    /// The tree of a value that `JSONSerialization` produced.
    init(foundation value: Any) throws {
        switch value {
        case let dictionary as [String: Any]:
            self = .object(try dictionary.mapValues { try JSONTree(foundation: $0) })
        case let array as [Any]:
            self = .array(try array.map { try JSONTree(foundation: $0) })
        case let text as String:
            self = .string(text)
        case let number as NSNumber where String(cString: number.objCType) == "c":   // true, false
            self = .bool(number.boolValue)
        case let number as NSNumber:
            guard let value = number as? Int else { throw CocoaError(.coderReadCorrupt) }   // no fractions in a payload
            self = .integer(value)
        case is NSNull:
            self = .null
        default:
            throw CocoaError(.coderReadCorrupt)
        }
    }

    /// The tree that Docs/VAULT_FORMAT.md §7 describes for `payload`, made from its fields (absent
    /// optionals are absent members; timestamps from `PayloadCodec.timestamp`, tested on its own).
    init(payload: VaultPayload) {
        func timestamp(_ date: Date) -> JSONTree { .string(PayloadCodec.timestamp(from: date)!) }
        var monitor: [String: JSONTree] = [:]
        if let m = payload.monitor {
            if let at = m.lastFullCheck { monitor["lastFullCheck"] = timestamp(at) }
            if let mark = m.catalogMark { monitor["catalogMark"] = .string(mark) }
            if let at = m.forceRunStartedAt { monitor["forceRunStartedAt"] = timestamp(at) }
        }
        var top: [String: JSONTree] = [
            "schema": .integer(payload.schema),
            "nextID": .integer(payload.nextID),
            "accounts": .array(payload.accounts.map { account in
                var members: [String: JSONTree] = [
                    "id": .integer(account.id), "entered": .string(account.entered),
                    "normalized": .string(account.normalized), "kind": .string(account.kind.rawValue),
                    "addedAt": timestamp(account.addedAt),
                ]
                if let label = account.label { members["label"] = .string(label) }
                let result = account.result
                var resultMembers: [String: JSONTree] = [
                    "status": .string(result.status.rawValue), "breaches": .array(result.breaches.map { .string($0) }),
                ]
                if let checkedAt = result.checkedAt { resultMembers["checkedAt"] = timestamp(checkedAt) }
                if let pasteCount = result.pasteCount { resultMembers["pasteCount"] = .integer(pasteCount) }
                if let failure = result.lastFailure {
                    resultMembers["lastFailure"] = .object(["at": timestamp(failure.at), "error": .string(failure.message)])
                }
                if !account.findings.isEmpty {
                    members["findings"] = .array(account.findings.map { f in
                        var m: [String: JSONTree] = ["kind": .string(f.kind.rawValue), "key": .string(f.key),
                                                     "firstSeen": timestamp(f.firstSeen)]
                        if let at = f.acknowledgedAt { m["acknowledgedAt"] = timestamp(at) }
                        if f.unannounced == true { m["unannounced"] = .bool(true) }
                        if let since = f.unlistedSince { m["unlistedSince"] = timestamp(since) }
                        return .object(m)
                    })
                }
                members["result"] = .object(resultMembers)
                return .object(members)
            }),
        ]
        if !monitor.isEmpty { top["monitor"] = .object(monitor) }
        self = .object(top)
    }

    /// The tree without any U+FEFF in its strings. Foundation's `JSONSerialization` on Linux drops a
    /// U+FEFF that starts a string or follows an escape (it is read as a byte-order mark), so only
    /// comparisons with its output need this.
    func removingByteOrderMarks() -> JSONTree {
        switch self {
        case let .object(members): return .object(members.mapValues { $0.removingByteOrderMarks() })
        case let .array(elements): return .array(elements.map { $0.removingByteOrderMarks() })
        case let .string(bytes):
            var scalars = String(decoding: bytes, as: UTF8.self).unicodeScalars
            scalars.removeAll { $0 == "\u{FEFF}" }
            return .string(String(scalars))
        default: return self
        }
    }

    /// Where `self` and `other` first differ (a path and the two values), or nil when they are equal;
    /// for readable failure messages.
    func firstDifference(from other: JSONTree, at path: String = "") -> String? {
        switch (self, other) {
        case let (.object(a), .object(b)):
            for name in Set(a.keys).union(b.keys).sorted() {
                guard let x = a[name], let y = b[name] else { return "\(path).\(name): present on one side only" }
                if let difference = x.firstDifference(from: y, at: "\(path).\(name)") { return difference }
            }
            return nil
        case let (.array(a), .array(b)):
            guard a.count == b.count else { return "\(path): \(a.count) ≠ \(b.count) elements" }
            for (index, (x, y)) in zip(a, b).enumerated() {
                if let difference = x.firstDifference(from: y, at: "\(path)[\(index)]") { return difference }
            }
            return nil
        default:
            return self == other ? nil : "\(path): \(self) ≠ \(other)"
        }
    }

    // MARK: Another writer

    /// The payload tree as a different, still valid, writer might send it: absent optionals sometimes
    /// written as `null`, and unknown members of every JSON type added at every level of the schema.
    func withNullsAndUnknownMembers<G: RandomNumberGenerator>(using g: inout G) -> JSONTree {
        guard case var .object(top) = self, case let .array(accounts)? = top["accounts"] else { return self }
        top["accounts"] = .array(accounts.map { account in
            guard case var .object(members) = account, case var .object(result)? = members["result"] else { return account }
            if members["label"] == nil, Bool.random(using: &g) { members["label"] = .null }
            for name in ["checkedAt", "pasteCount", "lastFailure"] where result[name] == nil && Bool.random(using: &g) {
                result[name] = .null
            }
            Self.addUnknownMembers(to: &result, using: &g)
            members["result"] = .object(result)
            Self.addUnknownMembers(to: &members, using: &g)
            return .object(members)
        })
        Self.addUnknownMembers(to: &top, using: &g)
        return .object(top)
    }

    private static func addUnknownMembers<G: RandomNumberGenerator>(to members: inout [String: JSONTree], using g: inout G) {
        for _ in 0..<Int.random(in: 0...2, using: &g) {
            members["x-" + PayloadSamples.text(maxLength: 6, using: &g)] = unknownValue(depth: 0, using: &g)
        }
    }

    /// Any JSON value, nested a few levels at most.
    static func unknownValue<G: RandomNumberGenerator>(depth: Int, using g: inout G) -> JSONTree {
        switch Int.random(in: 0..<(depth < 3 ? 8 : 6), using: &g) {
        case 0: return .null
        case 1: return .bool(Bool.random(using: &g))
        case 2: return .integer(Int.random(in: .min ... .max, using: &g))
        case 3:
            return .number(["0", "-0", "1.5", "-2.5e-3", "1E+300", "-0.0E-0", "6.02214076e23",
                            "123456789012345678901234567890123456789"].randomElement(using: &g)!)
        case 4, 5: return .string(PayloadSamples.text(maxLength: 8, using: &g))
        case 6: return .array((0..<Int.random(in: 0...3, using: &g)).map { _ in unknownValue(depth: depth + 1, using: &g) })
        default:
            var members: [String: JSONTree] = [:]
            for _ in 0..<Int.random(in: 0...3, using: &g) {
                // Names of the schema inside unknown objects are no duplicates and mean nothing.
                let name = Bool.random(using: &g) ? ["id", "schema", "label", "status"].randomElement(using: &g)!
                                                  : PayloadSamples.text(maxLength: 6, using: &g)
                members[name] = unknownValue(depth: depth + 1, using: &g)
            }
            return .object(members)
        }
    }

    /// The tree in the canonical form of §7.1 and §7.3, written here independently of the codec:
    /// compact, members sorted by the UTF-8 bytes of their names, strings escaped by §7.1's table,
    /// numbers as their text.
    func canonical() -> [UInt8] {
        var out: [UInt8] = []
        switch self {
        case let .object(members):
            out.append(UInt8(ascii: "{"))
            let names = members.keys.sorted { Array($0.utf8).lexicographicallyPrecedes(Array($1.utf8)) }
            for (index, name) in names.enumerated() {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                out += JSONTree.string(name).canonical()
                out.append(UInt8(ascii: ":"))
                out += members[name]!.canonical()
            }
            out.append(UInt8(ascii: "}"))
        case let .array(elements):
            out.append(UInt8(ascii: "["))
            for (index, element) in elements.enumerated() {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                out += element.canonical()
            }
            out.append(UInt8(ascii: "]"))
        case let .string(bytes):
            let short: [UInt8: String] = [0x22: "\\\"", 0x5C: "\\\\", 0x08: "\\b", 0x09: "\\t", 0x0A: "\\n", 0x0C: "\\f", 0x0D: "\\r"]
            out.append(UInt8(ascii: "\""))
            for byte in bytes {
                if let escape = short[byte] { out += Array(escape.utf8) }
                else if byte < 0x20 { out += Array(String(format: "\\u%04x", byte).utf8) }
                else { out.append(byte) }
            }
            out.append(UInt8(ascii: "\""))
        case let .integer(value): out += Array(String(value).utf8)
        case .null: out += Array("null".utf8)
        case let .bool(value): out += Array((value ? "true" : "false").utf8)
        case let .number(text): out += Array(text.utf8)
        }
        return out
    }

    /// The tree without `null` members of the schema's own objects (top level, accounts, results):
    /// what a writer writes back after reading it (absent optionals are omitted, §7.1).
    func removingNullsOfTheSchema() -> JSONTree {
        func dropNulls(_ members: [String: JSONTree], _ optional: Set<String>) -> [String: JSONTree] {
            members.filter { !(optional.contains($0.key) && $0.value == .null) }
        }
        guard case var .object(top) = self, case let .array(accounts)? = top["accounts"] else { return self }
        top["accounts"] = .array(accounts.map { account in
            guard case var .object(members) = account, case let .object(result)? = members["result"] else { return account }
            members["result"] = .object(dropNulls(result, ["checkedAt", "pasteCount", "lastFailure", "errorMessage"]))
            return .object(dropNulls(members, ["label"]))
        })
        return .object(top)
    }

    /// The tree serialised with random JSON whitespace between all tokens, members in random order,
    /// and characters randomly written as escapes (`\uXXXX` in either case, surrogate pairs above
    /// U+FFFF, the two-character forms, `\/`).
    func scrambled<G: RandomNumberGenerator>(using g: inout G) -> [UInt8] {
        var out: [UInt8] = []
        write(into: &out, using: &g)
        return out
    }

    private func write<G: RandomNumberGenerator>(into out: inout [UInt8], using g: inout G) {
        Self.whitespace(into: &out, using: &g)
        switch self {
        case let .object(members):
            out.append(UInt8(ascii: "{"))
            for (index, name) in members.keys.shuffled(using: &g).enumerated() {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                Self.whitespace(into: &out, using: &g)
                Self.writeString(Array(name.utf8), into: &out, using: &g)
                Self.whitespace(into: &out, using: &g)
                out.append(UInt8(ascii: ":"))
                members[name]!.write(into: &out, using: &g)
            }
            Self.whitespace(into: &out, using: &g)
            out.append(UInt8(ascii: "}"))
        case let .array(elements):
            out.append(UInt8(ascii: "["))
            for (index, element) in elements.enumerated() {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                element.write(into: &out, using: &g)
            }
            Self.whitespace(into: &out, using: &g)
            out.append(UInt8(ascii: "]"))
        case let .string(bytes): Self.writeString(bytes, into: &out, using: &g)
        case let .integer(value): out += Array(String(value).utf8)
        case .null: out += Array("null".utf8)
        case let .bool(value): out += Array((value ? "true" : "false").utf8)
        case let .number(text): out += Array(text.utf8)
        }
        Self.whitespace(into: &out, using: &g)
    }

    private static func whitespace<G: RandomNumberGenerator>(into out: inout [UInt8], using g: inout G) {
        guard Int.random(in: 0..<4, using: &g) == 0 else { return }
        for _ in 0..<Int.random(in: 1...3, using: &g) { out.append([0x20, 0x09, 0x0A, 0x0D].randomElement(using: &g)!) }
    }

    private static func writeString<G: RandomNumberGenerator>(_ bytes: [UInt8], into out: inout [UInt8], using g: inout G) {
        func hex(_ unit: UInt16) {
            let digits = Array((Bool.random(using: &g) ? "0123456789abcdef" : "0123456789ABCDEF").utf8)
            out += [UInt8(ascii: "\\"), UInt8(ascii: "u")]
            for shift in stride(from: 12, through: 0, by: -4) { out.append(digits[Int(unit >> UInt16(shift) & 0xF)]) }
        }
        let short: [UInt32: UInt8] = [0x22: 0x22, 0x5C: 0x5C, 0x2F: 0x2F, 0x08: 0x62, 0x0C: 0x66, 0x0A: 0x6E, 0x0D: 0x72, 0x09: 0x74]
        out.append(UInt8(ascii: "\""))
        for scalar in String(decoding: bytes, as: UTF8.self).unicodeScalars {
            let mustEscape = scalar.value < 0x20 || scalar == "\"" || scalar == "\\"
            guard mustEscape || Int.random(in: 0..<6, using: &g) == 0 else {
                out += Array(String(scalar).utf8)
                continue
            }
            if let letter = short[scalar.value], Bool.random(using: &g) {
                out += [UInt8(ascii: "\\"), letter]
            } else {
                for unit in String(scalar).utf16 { hex(unit) }
            }
        }
        out.append(UInt8(ascii: "\""))
    }
}
