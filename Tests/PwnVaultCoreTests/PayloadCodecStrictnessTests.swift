import Foundation
import TestSupport
import XCTest
@testable import PwnVaultCore

/// What the payload reader refuses (Docs/VAULT_FORMAT.md §7.2), and that it refuses it as damage
/// without crashing, looping or naming a value: truncations, bad escapes, lone surrogates, invalid
/// UTF-8, raw control characters, foreign whitespace, trailing bytes, duplicate members, deep nesting,
/// numbers that are not 64-bit integers; and a mutation run checked against Foundation's decoder.
final class PayloadCodecStrictnessTests: XCTestCase {
    /// A valid document with every member of schema 1; each argument is raw JSON text put in place,
    /// and `top`, `account`, `result` are extra members (with their trailing comma) at those levels.
    private static func document(schema: String = "1", nextID: String = "2", id: String = "1", label: String = #""l""#,
                                 pasteCount: String = "0", top: String = "", account: String = "",
                                 result: String = "") -> String {
        #"{\#(top)"schema":\#(schema),"nextID":\#(nextID),"accounts":[{\#(account)"id":\#(id),"entered":"e","#
            + #""normalized":"n","kind":"email","label":\#(label),"addedAt":"2024-01-01T00:00:00.000Z","#
            + #""result":{\#(result)"status":"breached","checkedAt":"2024-01-01T00:00:00.000Z","breaches":["B"],"#
            + #""pasteCount":\#(pasteCount),"lastFailure":{"at":"2024-01-02T00:00:00.000Z","error":"m"}}}]}"#
    }

    /// `document()` with the label's raw bytes (quotes included) given as bytes, which need not be UTF-8.
    private static func document(labelBytes: [UInt8]) -> [UInt8] {
        let parts = document(label: "@@").components(separatedBy: "@@")
        return Array(parts[0].utf8) + labelBytes + Array(parts[1].utf8)
    }

    private func decode(_ json: [UInt8]) throws -> VaultPayload {
        try PayloadCodecTests.plaintext(jsonBytes: json).withUnsafeBytes { try PayloadCodec.decode($0) }
    }

    private func decode(_ json: String) throws -> VaultPayload { try decode(Array(json.utf8)) }

    /// The label of the only account of `document(labelBytes:)`.
    private func label(_ raw: [UInt8]) throws -> String? { try decode(Self.document(labelBytes: raw)).accounts[0].label }

    private func assertDamaged(_ json: [UInt8], _ message: @autoclosure () -> String, reasonPrefix: String,
                               file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertThrowsError(try decode(json), message(), file: file, line: line) { error in
            guard case let .damaged(reason) = error as? VaultFormatError else {
                return XCTFail("\(message()): \(error)", file: file, line: line)
            }
            XCTAssertTrue(reason.hasPrefix(reasonPrefix), "\(message()): \(reason)", file: file, line: line)
        }
    }

    private func assertDamaged(_ json: String, reasonPrefix: String, file: StaticString = #filePath, line: UInt = #line) {
        assertDamaged(Array(json.utf8), json, reasonPrefix: reasonPrefix, file: file, line: line)
    }

    private static let notJSON = "the payload is not valid json (at byte "

    // MARK: The document as a whole

    func testTheTemplateIsValid() throws {
        let payload = try decode(Self.document())
        XCTAssertEqual(payload.accounts.first?.label, "l")
        XCTAssertEqual(payload.accounts.first?.result.errorMessage, "m")
    }

    func testEveryTruncationIsDamageAndNamesNoValue() {
        let rich = Self.document(label: #""Zo\u00eb \"🐧\" \ud83d\ude00 \/ \n é""#, pasteCount: "7",
                                 top: #""future":{"a":[1,-2.5e+3,true,false,null,"x\u0041"],"b":{}},"#,
                                 account: #""colour":"grün","#, result: "\"confidence\" : 0.5 ,\r\n\t")
        for json in [VaultFormatVectorTests.json, rich] {
            let bytes = Array(json.utf8)
            XCTAssertNoThrow(try decode(bytes))
            for length in 0..<bytes.count {
                assertDamaged(Array(bytes[..<length]), "first \(length) bytes", reasonPrefix: Self.notJSON)
            }
        }
    }

    func testTrailingBytesAreDamageButTrailingWhitespaceIsNot() {
        for suffix in ["x", "{}", ",", "\0", "}", "]", "\u{FEFF}", "\u{0C}"] {
            assertDamaged(Self.document() + suffix, reasonPrefix: Self.notJSON)
        }
        XCTAssertNoThrow(try decode(" \t\r\n" + Self.document() + " \t\r\n"))
    }

    func testOnlyTheFourJSONWhitespaceCharactersSeparateTokens() throws {
        for foreign in ["\u{0C}", "\u{0B}", "\u{00}", "\u{A0}", "\u{2028}", "\u{3000}", "\u{FEFF}"] {
            assertDamaged(Self.document().replacingOccurrences(of: #","nextID""#, with: #",\#(foreign)"nextID""#),
                          reasonPrefix: Self.notJSON)
        }
        assertDamaged("\u{FEFF}" + Self.document(), reasonPrefix: Self.notJSON)   // §7: no byte-order mark

        // Space, tab, line feed and carriage return around every token.
        var spaced = ""
        var inString = false, escaped = false
        for character in Self.document() {
            spaced.append(character)
            if inString {
                if escaped { escaped = false } else if character == "\\" { escaped = true } else if character == "\"" { inString = false }
                if !inString { spaced += " \t\r\n" }
            } else if character == "\"" {
                inString = true
            } else {
                spaced += "\n\r\t "
            }
        }
        XCTAssertEqual(try decode(spaced), try decode(Self.document()))
    }

    // MARK: Strings

    func testBadEscapesAreDamage() {
        let bad = [#""\x""#, #""\u12""#, #""\u12G4""#, #""\U0041""#, #""\'""#, #""\ ""#, #""\0""#, #""\u""#,
                   #""\u00e""#, #""\a""#, #""\""#, #""abc\"#, #""\u+041""#, #""\u-041""#]
        for raw in bad {
            assertDamaged(Self.document(label: raw), reasonPrefix: Self.notJSON)
            assertDamaged(Self.document(top: #""x":\#(raw),"#), reasonPrefix: Self.notJSON)   // in an unknown member too
        }
    }

    func testEveryEscapeIsRead() throws {
        let cases: [(String, String)] = [
            (#""\"\\\/\b\f\n\r\t""#, "\"\\/\u{08}\u{0C}\n\r\t"),
            (#""\u0000\u001f\u007F\u00e9\u00E9\u2028\uFFFF""#, "\u{00}\u{1F}\u{7F}éé\u{2028}\u{FFFF}"),
            (#""\ud83d\ude00 \uD83D\uDE00""#, "😀 😀"),
            (#""\ud800\udc00\udbff\udfff""#, "\u{10000}\u{10FFFF}"),
            (#""a\u0301""#, "a\u{301}"),
        ]
        for (raw, text) in cases {
            XCTAssertEqual(try label(Array(raw.utf8)).map { Array($0.utf8) }, Array(text.utf8), raw)
        }
        // Escapes in member names, enumerations and timestamps mean the same as the plain text.
        let escaped = Self.document().replacingOccurrences(of: #""kind":"email""#, with: #""k\u0069nd":"em\u0061il""#)
            .replacingOccurrences(of: #""addedAt":"2024-01-01"#, with: #""addedAt":"2024\u002d01-01"#)
        XCTAssertEqual(try decode(escaped), try decode(Self.document()))
    }

    func testLoneSurrogateEscapesAreDamage() {
        let lone = [#""\ud800""#, #""\uDBFF""#, #""\udc00""#, #""\udfff x""#, #""\ud800\u0041""#, #""\ud800x""#,
                    #""\ud800\ud800""#, #""\udc00\ud800""#, #""\ud800\n""#, #""\ud800\\""#, #""x\ud83d""#]
        for raw in lone {
            assertDamaged(Self.document(label: raw), reasonPrefix: Self.notJSON)
            assertDamaged(Self.document(result: #""\#(raw.dropFirst().dropLast())":1,"#), reasonPrefix: Self.notJSON)
        }
    }

    func testRawControlCharactersInStringsAreDamageAndDELIsNot() throws {
        for byte in UInt8(0x00)...0x1F {
            assertDamaged(Self.document(labelBytes: [0x22, byte, 0x22]), "raw \(byte)", reasonPrefix: Self.notJSON)
            XCTAssertEqual(try label(Array(String(format: #""\u%04x""#, byte).utf8)), String(UnicodeScalar(byte)))
        }
        XCTAssertEqual(try label([0x22, 0x7F, 0x22]), "\u{7F}")
    }

    /// Every two-byte sequence, and random longer ones, against the standard library's UTF-8
    /// validation: accepted exactly when it is well-formed UTF-8, and then read unchanged.
    func testStringsMustBeWellFormedUTF8() throws {
        var sequences: [[UInt8]] = []
        for first in UInt8(0x80)...0xFF { for second in UInt8(0x20)...0xFF { sequences.append([first, second]) } }
        var generator = SplitMix64(seed: 0x07F8)
        for _ in 0..<20_000 {
            let lead = UInt8.random(in: 0xC0...0xFF, using: &generator)
            sequences.append([lead] + (0..<Int.random(in: 1...4, using: &generator)).map { _ in
                Bool.random(using: &generator) ? UInt8.random(in: 0x80...0xBF, using: &generator)
                                               : UInt8.random(in: 0x20...0xFF, using: &generator)
            })
        }
        var accepted = 0
        for sequence in sequences where !sequence.contains(where: { $0 == 0x22 || $0 == 0x5C }) {
            let raw = [0x22] + sequence + [0x22]
            if let valid = String(validating: sequence, as: UTF8.self) {
                XCTAssertEqual(try label(raw).map { Array($0.utf8) }, Array(valid.utf8), "\(sequence)")
                accepted += 1
            } else {
                assertDamaged(Self.document(labelBytes: raw), "\(sequence)", reasonPrefix: Self.notJSON)
            }
        }
        XCTAssertGreaterThan(accepted, 1000)
        // Outside strings too.
        assertDamaged(Array(Self.document().utf8) + [0xC3], "after the document", reasonPrefix: Self.notJSON)
    }

    // MARK: Members

    func testDuplicateMembersOfTheSchemaAreDamage() {
        let members: [(name: String, value: String, path: String)] = [
            ("schema", "1", "schema"), ("nextID", "2", "nextID"), ("accounts", "[]", "accounts"),
            ("id", "1", "accounts[0].id"), ("entered", #""e""#, "accounts[0].entered"),
            ("normalized", #""n""#, "accounts[0].normalized"), ("kind", #""email""#, "accounts[0].kind"),
            ("label", "null", "accounts[0].label"), ("addedAt", #""2024-01-01T00:00:00.000Z""#, "accounts[0].addedAt"),
            ("result", #"{"status":"clean","breaches":[]}"#, "accounts[0].result"),
            ("status", #""error""#, "accounts[0].result.status"),
            ("checkedAt", "null", "accounts[0].result.checkedAt"), ("breaches", "[]", "accounts[0].result.breaches"),
            ("pasteCount", "null", "accounts[0].result.pasteCount"),
            ("lastFailure", "null", "accounts[0].result.lastFailure"),
            ("at", #""2024-01-01T00:00:00.000Z""#, "accounts[0].result.lastFailure.at"),
            ("error", #""m""#, "accounts[0].result.lastFailure.error"),
        ]
        for member in members {
            let json = Self.document().replacingOccurrences(of: #""\#(member.name)":"#, with: #""\#(member.name)":\#(member.value),"\#(member.name)":"#)
            assertDamaged(json, reasonPrefix: "the payload has \(member.path) twice")
        }
        // The same name written with an escape is the same member.
        assertDamaged(Self.document(account: #""i\u0064":1,"#), reasonPrefix: "the payload has accounts[0].id twice")
    }

    func testADuplicateUnknownMemberKeepsItsFirstValue() throws {
        let json = Self.document(top: #""x":1,"x":[2],"#, account: #""x":null,"x":"y","#,
                                 result: #""x":{"id":1,"id":2,"status":"nonsense"},"x":true,"#)
        let payload = try decode(json)
        XCTAssertEqual(payload.withoutUnknownMembers, try decode(Self.document()))
        XCTAssertEqual(payload.unknownMembers.members.map { String(decoding: $0.json, as: UTF8.self) }, ["1"])
        XCTAssertEqual(payload.accounts[0].unknownMembers.members.map { String(decoding: $0.json, as: UTF8.self) }, ["null"])
        XCTAssertEqual(payload.accounts[0].result.unknownMembers.members.map { String(decoding: $0.json, as: UTF8.self) },
                       [#"{"id":1,"id":2,"status":"nonsense"}"#])
    }

    func testNestingIsLimitedTo64LevelsAtEveryDepth() throws {
        // The top-level object is level 1; an account is level 3 and its result level 4.
        for (level, place) in [(1, "top"), (3, "account"), (4, "result")] {
            func json(arrays: Int) -> String {
                let member = #""deep":\#(String(repeating: "[", count: arrays))\#(String(repeating: "]", count: arrays)),"#
                switch place {
                case "top": return Self.document(top: member)
                case "account": return Self.document(account: member)
                default: return Self.document(result: member)
                }
            }
            XCTAssertNoThrow(try decode(json(arrays: 64 - level)), place)
            assertDamaged(json(arrays: 65 - level), reasonPrefix: "the payload nests arrays and objects deeper than 64 levels")
        }
        let objects = String(repeating: #"{"a":"#, count: 63) + "1" + String(repeating: "}", count: 63)
        XCTAssertNoThrow(try decode(Self.document(top: #""deep":\#(objects),"#)))
        let tooDeep = String(repeating: #"{"a":"#, count: 64) + "1" + String(repeating: "}", count: 64)
        assertDamaged(Self.document(top: #""deep":\#(tooDeep),"#), reasonPrefix: "the payload nests")

        // Far deeper, closed or not, as a member or as the whole document: refused, no stack overflow.
        let abyss = String(repeating: "[", count: 200_000)
        assertDamaged(Self.document(top: #""deep":\#(abyss),"#), reasonPrefix: "the payload nests")
        assertDamaged(abyss + String(repeating: "]", count: 200_000), reasonPrefix: "the payload nests")
        assertDamaged(String(repeating: #"{"a":"#, count: 200_000), reasonPrefix: "the payload nests")
    }

    func testLiteralsAreExact() throws {
        for raw in ["nul", "nulll", "NULL", "Null", "nil", "none", "tru", "True", "falsy", "undefined"] {
            assertDamaged(Self.document(label: raw), reasonPrefix: Self.notJSON)
        }
        XCTAssertNil(try label(Array("null".utf8)))
        for raw in ["true", "false", "1", "[]", "{}", #"["l"]"#] {
            assertDamaged(Self.document(label: raw), reasonPrefix: "the payload has a value of the wrong type at accounts[0].label")
        }
    }

    // MARK: Numbers

    func testIntegersAreWholeNumbersWithin64Bits() throws {
        let largest = try decode(Self.document(nextID: "9223372036854775807", id: "9223372036854775806",
                                               pasteCount: "9223372036854775807"))
        XCTAssertEqual(largest.nextID, Int.max)
        XCTAssertEqual(largest.accounts[0].id, Int.max - 1)
        XCTAssertEqual(largest.accounts[0].result.pasteCount, Int.max)
        XCTAssertEqual(try decode(Self.document(pasteCount: "-0")).accounts[0].result.pasteCount, 0)

        for raw in ["1.0", "1e0", "1E+0", "1.5", "10e-1", #""1""#, "true", "null", "[1]", "{}"] {
            assertDamaged(Self.document(id: raw), reasonPrefix: "the payload has a value of the wrong type at accounts[0].id")
        }
        for raw in ["9223372036854775808", "99999999999999999999999", "-9223372036854775809",
                    String(repeating: "9", count: 10_000)] {
            assertDamaged(Self.document(id: raw), reasonPrefix: "the payload has an invalid value at accounts[0].id")
        }
        assertDamaged(Self.document(pasteCount: "-9223372036854775808"), reasonPrefix: "accounts[0].result.pasteCount is negative")
        for raw in ["01", "+1", "1.", ".5", "-", "--1", "0x10", "1e", "1e+", "-01", "Infinity", "NaN", "1_000", "1 2"] {
            assertDamaged(Self.document(id: raw), reasonPrefix: Self.notJSON)
        }
    }

    func testUnknownNumbersMayBeAnyJSONNumber() throws {
        let numbers = ["1e999999", "-1e-999999", String(repeating: "7", count: 10_000), "0." + String(repeating: "0", count: 5000) + "1",
                       "-0.0E+00", "123.456e-7", "0"]
        for number in numbers {
            let payload = try decode(Self.document(top: #""n":\#(number),"#, result: #""n":[\#(number)],"#))
            XCTAssertEqual(payload.withoutUnknownMembers, try decode(Self.document()), String(number.prefix(20)))
            // kept exactly as written: a number is never rounded by a save
            XCTAssertEqual(payload.unknownMembers.members.first?.json, Array(number.utf8), String(number.prefix(20)))
            XCTAssertEqual(payload.accounts[0].result.unknownMembers.members.first?.json, Array("[\(number)]".utf8))
        }
    }

    // MARK: Schema numbers

    func testANewerSchemaIsUnsupportedWhateverItsShapeButOnlyInValidJSON() {
        func assertUnsupported(_ json: String, _ schema: Int, file: StaticString = #filePath, line: UInt = #line) {
            XCTAssertThrowsError(try decode(json), json, file: file, line: line) {
                XCTAssertEqual($0 as? VaultFormatError, .unsupportedSchema(schema), json, file: file, line: line)
            }
        }
        assertUnsupported(#"{"accounts":"no longer a list","schema":2}"#, 2)
        assertUnsupported(#"{"accounts":[{"id":"x"}],"nextID":null,"schema":3}"#, 3)
        assertUnsupported(#"{"schema":7}"#, 7)
        assertUnsupported(Self.document(schema: "2"), 2)

        assertDamaged(#"{"schema":2} x"#, reasonPrefix: Self.notJSON)
        assertDamaged(#"{"schema":2,"accounts":["\ud800"]}"#, reasonPrefix: Self.notJSON)
        assertDamaged(#"{"schema":2,"schema":2}"#, reasonPrefix: "the payload has schema twice")
        assertDamaged(#"{"schema":2.0}"#, reasonPrefix: "the payload has a value of the wrong type at schema")
        assertDamaged(#"{"schema":99999999999999999999}"#, reasonPrefix: "the payload has an invalid value at schema")
        assertDamaged(#"[{"schema":2}]"#, reasonPrefix: "the payload has a value of the wrong type at the top level")
        assertDamaged(#"{"nested":{"schema":2}}"#, reasonPrefix: "the payload lacks schema")
        assertDamaged(Self.document(schema: "-1"), reasonPrefix: "the payload schema is below 1")
    }

    // MARK: Mutations

    /// Random edits of valid documents: the reader never crashes or hangs, refuses only with
    /// `.damaged` or `.unsupportedSchema` and a reason that names no value, and whatever it accepts,
    /// Foundation's decoder reads to the same payload, string for string.
    func testRandomMutationsAreRefusedCleanlyOrReadAsFoundationReadsThem() throws {
        let seeds = [VaultFormatVectorTests.json, Self.document(label: #""Zo\u00eb \ud83d\ude00""#, top: #""f":[1.5,{}],"#)]
            .map { Array($0.utf8) }
        let alphabet = Array(#"{}[]:,"\u09-.eE+ ntfl"#.utf8) + [0x00, 0x0A, 0x7F, 0x80, 0xC3, 0xED, 0xFF]
        let reference = FoundationPayloadJSON.decoder()
        var generator = SplitMix64(seed: 0x3017A7E)
        var accepted = 0, refused = 0
        for round in 0..<6000 {
            var json = seeds[round % seeds.count]
            for _ in 0..<Int.random(in: 1...3, using: &generator) {
                let at = Int.random(in: 0..<json.count, using: &generator)
                let byte = Bool.random(using: &generator) ? alphabet.randomElement(using: &generator)! : UInt8.random(in: 0...255, using: &generator)
                switch Int.random(in: 0..<4, using: &generator) {
                case 0: json[at] = byte
                case 1: json.remove(at: at)
                case 2: json.insert(byte, at: at)
                default:
                    let end = min(json.count, at + Int.random(in: 1...12, using: &generator))
                    json.insert(contentsOf: json[at..<end], at: Int.random(in: 0...json.count, using: &generator))
                }
                if json.isEmpty { json = [0x7B] }
            }
            do {
                let read = try decode(json)
                accepted += 1
                let expected = try reference.decode(ReferencePayload.self, from: Data(json)).payload
                let payload = read.withoutUnknownMembers   // kept by the reader, dropped by Foundation
                XCTAssertEqual(payload, expected, "round \(round)")
                XCTAssertNil(JSONTree(payload: payload).firstDifference(from: JSONTree(payload: expected)), "round \(round)")
            } catch let error as VaultFormatError {
                refused += 1
                switch error {
                case let .damaged(reason):
                    XCTAssertFalse(reason.contains("lice") || reason.contains("@") || reason.contains("Zo"), reason)
                case .unsupportedSchema: break
                default: XCTFail("round \(round): \(error)")
                }
            } catch {
                XCTFail("round \(round): Foundation refused what the reader accepted: \(error)")
            }
        }
        XCTAssertGreaterThan(accepted, 100)
        XCTAssertGreaterThan(refused, 3000)
    }
}
