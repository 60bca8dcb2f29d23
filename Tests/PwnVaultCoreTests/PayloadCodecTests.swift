import Foundation
import TestSupport
import XCTest
@testable import PwnVaultCore

/// The padded plaintext (Docs/VAULT_FORMAT.md §5), payload JSON schema 1 and timestamps (§7).
final class PayloadCodecTests: XCTestCase {
    /// A plaintext built by hand from §5: `n` big-endian ‖ JSON ‖ zeros up to `size` (by default the
    /// smallest multiple of 4096 that fits; a smaller size cuts the JSON short).
    static func plaintext(json: String, size: Int? = nil) -> [UInt8] {
        plaintext(jsonBytes: Array(json.utf8), size: size)
    }

    /// `plaintext(json:size:)` for JSON given as bytes (which need not be UTF-8).
    static func plaintext(jsonBytes body: [UInt8], size: Int? = nil) -> [UInt8] {
        let total = size ?? ((8 + body.count + 4095) / 4096 * 4096)
        var out = (0..<8).map { UInt8(truncatingIfNeeded: UInt64(body.count) >> (56 - 8 * $0)) } + body
        out += [UInt8](repeating: 0, count: max(0, total - out.count))
        return Array(out.prefix(total))
    }

    private func decode(_ bytes: [UInt8]) throws -> VaultPayload {
        try bytes.withUnsafeBytes { try PayloadCodec.decode($0) }
    }

    private func decode(json: String) throws -> VaultPayload { try decode(Self.plaintext(json: json)) }

    private func encodedBytes(_ payload: VaultPayload) throws -> [UInt8] {
        try PayloadCodec.encode(payload).withUnsafeBytes { Array($0) }
    }

    private func assertDamaged(_ body: @autoclosure () throws -> Any, _ message: String = "",
                               file: StaticString = #filePath, line: UInt = #line,
                               reason check: (String) -> Void = { _ in }) {
        XCTAssertThrowsError(try body(), message, file: file, line: line) { error in
            guard case let .damaged(reason) = error as? VaultFormatError else {
                return XCTFail("\(message): \(error)", file: file, line: line)
            }
            check(reason)
        }
    }

    private static func account(_ id: Int, label: String? = nil) -> Account {
        Account(id: id, entered: "user\(id)@example.org", normalized: "user\(id)@example.org", kind: .email,
                label: label, addedAt: Date(timeIntervalSince1970: 1_700_000_000.25))
    }

    // MARK: Plaintext layout

    func testEncodeWritesTheLengthTheJSONAndZeroPadding() throws {
        let bytes = try encodedBytes(VaultPayload(nextID: 2, accounts: [Self.account(1)]))
        XCTAssertEqual(bytes.count, 4096)
        let length = bytes[0..<8].reduce(0) { $0 << 8 | Int($1) }
        let json = try JSONSerialization.jsonObject(with: Data(bytes[8..<(8 + length)])) as? [String: Any]
        XCTAssertEqual(json?["schema"] as? Int, 1)
        XCTAssertEqual(json?["nextID"] as? Int, 2)
        XCTAssertEqual((json?["accounts"] as? [[String: Any]])?.first?["addedAt"] as? String, "2023-11-14T22:13:20.250Z")
        XCTAssertTrue(bytes[(8 + length)...].allSatisfy { $0 == 0 })
    }

    func testPaddingIsTheSmallestMultipleOf4096() throws {
        // Grow a label one byte at a time around the block boundary (8 + n = 4096).
        let baseLength = try encodedJSONLength(VaultPayload(nextID: 2, accounts: [Self.account(1, label: "")]))
        for n in [4087, 4088, 4089, 8184, 8185] {
            let payload = VaultPayload(nextID: 2, accounts: [Self.account(1, label: String(repeating: "x", count: n - baseLength))])
            XCTAssertEqual(try encodedJSONLength(payload), n)
            XCTAssertEqual(try encodedBytes(payload).count, n <= 4088 ? 4096 : n <= 8184 ? 8192 : 12288, "n = \(n)")
            XCTAssertEqual(try decode(try encodedBytes(payload)), payload)
        }
    }

    private func encodedJSONLength(_ payload: VaultPayload) throws -> Int {
        try encodedBytes(payload)[0..<8].reduce(0) { $0 << 8 | Int($1) }
    }

    func testDecodeReadsBackWhatEncodeWrote() throws {
        let tricky = "Zoë \"quoted\" back\\slash a/b tab\t newline\n bell\u{07} 🐧 \u{2028}"
        let payload = VaultPayload(nextID: 10, accounts: [
            Account(id: 9, entered: tricky, normalized: "zoë", kind: .username, label: tricky,
                    addedAt: PayloadCodec.date(fromTimestamp: "0001-01-01T00:00:00.000Z")!,
                    result: CheckResult(status: .error, lastFailure: CheckFailure(
                        at: PayloadCodec.date(fromTimestamp: "9999-12-31T23:59:59.999Z")!, message: "http 503"))),
            Account(id: 3, entered: "+1 555 0100", normalized: "+15550100", kind: .phone, label: "",
                    addedAt: Date(timeIntervalSince1970: -1.5),
                    result: CheckResult(status: .clean, checkedAt: Date(timeIntervalSince1970: 0), pasteCount: Int.max)),
            Account(id: 1, entered: "a@b.c", normalized: "a@b.c", kind: .email, label: nil,
                    addedAt: Date(timeIntervalSince1970: 1_714_566_896.789),
                    result: CheckResult(status: .breached, checkedAt: Date(timeIntervalSince1970: 1_714_566_896.79),
                                        breaches: ["Adobe", "000webhost", "Have I Been Pwned"], pasteCount: 0,
                                        lastFailure: CheckFailure(at: Date(timeIntervalSince1970: 1_714_600_000), message: "timeout"))),
        ])
        XCTAssertEqual(try decode(try encodedBytes(payload)), payload)
        XCTAssertEqual(try decode(try encodedBytes(VaultPayload())), VaultPayload())
    }

    // MARK: Rejections of §5

    func testDecodeRejectsPlaintextsOfImpossibleSize() {
        for size in [0, 8, 4095, 4097, 6000] {
            assertDamaged(try self.decode(Self.plaintext(json: "{}", size: size)), "size \(size)")
        }
    }

    func testDecodeRejectsALengthBeyondThePayload() {
        for declared: UInt64 in [4089, 4096, 1 << 40, .max] {
            var bytes = Self.plaintext(json: #"{"schema":1,"nextID":1,"accounts":[]}"#)
            for i in 0..<8 { bytes[i] = UInt8(truncatingIfNeeded: declared >> (56 - 8 * UInt64(i))) }
            assertDamaged(try self.decode(bytes), "n = \(declared)") {
                XCTAssertEqual($0, "the payload length exceeds the payload")
            }
        }
    }

    func testDecodeRejectsPaddingLongerThanNeeded() {
        let json = #"{"schema":1,"nextID":1,"accounts":[]}"#
        XCTAssertNoThrow(try decode(Self.plaintext(json: json, size: 4096)))
        assertDamaged(try self.decode(Self.plaintext(json: json, size: 8192))) {
            XCTAssertEqual($0, "the payload padding is longer than needed")
        }
    }

    func testDecodeRejectsAnyNonZeroPaddingByte() {
        let json = #"{"schema":1,"nextID":1,"accounts":[]}"#
        let clean = Self.plaintext(json: json)
        for offset in [8 + json.utf8.count, 2048, 4095] {
            var bytes = clean
            bytes[offset] = 0x80
            assertDamaged(try self.decode(bytes), "offset \(offset)") { XCTAssertEqual($0, "the payload padding is not zero") }
        }
    }

    // MARK: Schema 1 (§7)

    func testUnknownMembersAreKeptAtEveryLevelAndWrittenBackAndNullMeansAbsent() throws {
        let json = """
            {"schema":1,"nextID":2,"comment":"from the future","settings":{"z":1,"a":[1,{"b":null}]},"accounts":[\
            {"id":1,"entered":"x@y.z","normalized":"x@y.z","kind":"email","label":null,"addedAt":"2024-01-01T00:00:00.000Z",\
            "colour":"gr\\u0065en","result":{"status":"never-checked","breaches":[],"checkedAt":null,"pasteCount":null,\
            "errorMessage":null,"lastFailure":null,"confidence":0.5e1 , "zz":[ ]},"colour":"ignored: the first one is kept"}]}
            """
        let payload = try decode(json: json)
        XCTAssertEqual(payload.withoutUnknownMembers, VaultPayload(nextID: 2, accounts: [
            Account(id: 1, entered: "x@y.z", normalized: "x@y.z", kind: .email, label: nil,
                    addedAt: PayloadCodec.date(fromTimestamp: "2024-01-01T00:00:00.000Z")!),
        ]))
        // Saved again, every unknown member is back, canonical and sorted in among the known ones.
        let written = try encodedBytes(payload)
        let length = written[0..<8].reduce(0) { $0 << 8 | Int($1) }
        XCTAssertEqual(String(decoding: written[8..<(8 + length)], as: UTF8.self), """
            {"accounts":[{"addedAt":"2024-01-01T00:00:00.000Z","colour":"green","entered":"x@y.z","id":1,"kind":"email",\
            "normalized":"x@y.z","result":{"breaches":[],"confidence":0.5e1,"status":"never-checked","zz":[]}}],\
            "comment":"from the future","nextID":2,"schema":1,"settings":{"a":[1,{"b":null}],"z":1}}
            """)
    }

    /// Results written before pastes and failures were kept apart (§7.4): an `error` replaced the
    /// answer, and `checkedAt` was when it failed. They read as a failure with no answer.
    func testAFirstModelErrorResultReadsAsAFailureWithoutAnAnswer() throws {
        func account(_ result: String) -> String {
            #"{"schema":1,"nextID":2,"accounts":[{"id":1,"entered":"e","normalized":"e","kind":"username","#
                + #""addedAt":"2024-01-01T00:00:00.000Z","result":\#(result)}]}"#
        }
        let old = try decode(json: account(#"{"status":"error","checkedAt":"2024-02-03T04:05:06.007Z","breaches":[],"errorMessage":"have i been pwned is unavailable (503)"}"#))
        let result = old.accounts[0].result
        XCTAssertEqual(result.status, .error)
        XCTAssertNil(result.checkedAt)
        XCTAssertEqual(result.lastFailure, CheckFailure(at: PayloadCodec.date(fromTimestamp: "2024-02-03T04:05:06.007Z")!,
                                                        message: "have i been pwned is unavailable (503)"))
        let bare = try decode(json: account(#"{"status":"error","breaches":[]}"#)).accounts[0].result
        XCTAssertEqual(bare.lastFailure, CheckFailure(at: PayloadCodec.date(fromTimestamp: "2024-01-01T00:00:00.000Z")!,
                                                      message: "the check failed"))
        // written back in the new form, it reads the same
        XCTAssertEqual(try decode(try encodedBytes(old)), old)
        // a breached result with a failure is not migrated: errorMessage is a first-model member only
        let new = try decode(json: account(#"{"status":"breached","checkedAt":"2024-02-03T04:05:06.007Z","breaches":["Adobe"],"lastFailure":{"error":"timeout","at":"2024-03-01T00:00:00.000Z"},"errorMessage":"x"}"#))
        XCTAssertEqual(new.accounts[0].result, CheckResult(status: .breached, checkedAt: PayloadCodec.date(fromTimestamp: "2024-02-03T04:05:06.007Z"),
                                                           breaches: ["Adobe"], lastFailure: CheckFailure(at: PayloadCodec.date(fromTimestamp: "2024-03-01T00:00:00.000Z")!, message: "timeout")))
    }

    func testALastFailureNeedsItsTimeAndItsMessage() {
        for (failure, reason) in [(#"{"at":"2024-03-01T00:00:00.000Z"}"#, "the payload lacks accounts[0].result.lastFailure.error"),
                                  (#"{"error":"x"}"#, "the payload lacks accounts[0].result.lastFailure.at"),
                                  (#"{"at":"2024-03-01","error":"x"}"#, "the payload has an invalid value at accounts[0].result.lastFailure.at"),
                                  (#""x""#, "the payload has a value of the wrong type at accounts[0].result.lastFailure")] {
            let json = #"{"schema":1,"nextID":2,"accounts":[{"id":1,"entered":"e","normalized":"e","kind":"username","addedAt":"2024-01-01T00:00:00.000Z","result":{"status":"clean","breaches":[],"lastFailure":\#(failure)}}]}"#
            assertDamaged(try self.decode(json: json), failure) { XCTAssertEqual($0, reason) }
        }
    }

    func testMalformedJSONIsDamagedAndTheReasonNamesNoValue() {
        let valid = VaultFormatVectorTests.json
        let cases: [(String, String)] = [
            ("not json at all", "the payload is not valid json"),
            (String(valid.dropLast()), "the payload is not valid json"),
            ("[]", "the payload has a value of the wrong type at "),
            (valid.replacingOccurrences(of: "\"schema\":1", with: "\"version\":1"), "the payload lacks schema"),
            (valid.replacingOccurrences(of: "\"id\":2", with: "\"id\":\"2\""), "the payload has a value of the wrong type at accounts[1].id"),
            (valid.replacingOccurrences(of: "\"kind\":\"phone\"", with: "\"kind\":\"secret@example.com\""),
             "the payload has an invalid value at accounts[1].kind"),
            (valid.replacingOccurrences(of: "\"status\":\"breached\"", with: "\"status\":\"pwned\""),
             "the payload has an invalid value at accounts[0].result.status"),
            (valid.replacingOccurrences(of: "2024-05-01T12:34:56.789Z", with: "2024-05-01T12:34:56Z"),
             "the payload has an invalid value at accounts[0].addedAt"),
            (valid.replacingOccurrences(of: "\"breaches\":[]", with: "\"breaches\":null"),
             "the payload has a value of the wrong type at accounts[1].result.breaches"),
        ]
        for (json, reason) in cases {
            assertDamaged(try self.decode(json: json), json) { actual in
                XCTAssertTrue(actual.hasPrefix(reason), "\(actual) ≠ \(reason)")
                XCTAssertFalse(actual.contains("secret"), actual)
                XCTAssertFalse(VaultFormatError.damaged(reason: actual).message.contains("@"), actual)
            }
        }
    }

    func testIdsMustBeUniqueAndBelowNextID() {
        let account = #"{"id":ID,"entered":"e","normalized":"e","kind":"username","addedAt":"2024-01-01T00:00:00.000Z","result":{"status":"clean","breaches":[]}}"#
        func json(nextID: Int, _ ids: [Int]) -> String {
            let list = ids.map { account.replacingOccurrences(of: "ID", with: "\($0)") }.joined(separator: ",")
            return #"{"schema":1,"nextID":\#(nextID),"accounts":[\#(list)]}"#
        }
        XCTAssertNoThrow(try decode(json: json(nextID: 4, [3, 1])))
        assertDamaged(try self.decode(json: json(nextID: 4, [1, 1])), "duplicate") { XCTAssertEqual($0, "accounts[1].id is also the id of accounts[0]") }
        assertDamaged(try self.decode(json: json(nextID: 3, [3])), "not below nextID")
        assertDamaged(try self.decode(json: json(nextID: 3, [0])), "zero")
        assertDamaged(try self.decode(json: json(nextID: 0, [])), "nextID zero")
        assertDamaged(try self.decode(json: json(nextID: 4, [-1])), "negative")
    }

    func testANewerSchemaIsUnsupportedWhateverItsShapeAndAnOlderOneIsDamaged() {
        for json in [#"{"schema":2,"nextID":1,"accounts":[]}"#, #"{"schema":2,"people":{"x":1}}"#] {
            XCTAssertThrowsError(try decode(json: json), json) { XCTAssertEqual($0 as? VaultFormatError, .unsupportedSchema(2)) }
        }
        assertDamaged(try self.decode(json: #"{"schema":0,"nextID":1,"accounts":[]}"#))
    }

    func testEncodeRefusesWhatDecodeWouldReject() {
        let invalid: [(VaultPayload, String)] = [
            (VaultPayload(nextID: 1, accounts: [Self.account(1)]), "accounts[0].id is outside 1 ..< nextID"),
            (VaultPayload(nextID: 5, accounts: [Self.account(2), Self.account(2)]), "accounts[1].id is also the id of accounts[0]"),
            (VaultPayload(schema: 2), "the payload schema is not 1"),
            (VaultPayload(nextID: 2, accounts: [Account(id: 1, entered: "e", normalized: "e", kind: .email, label: nil,
                                                        addedAt: Date(timeIntervalSince1970: 253_402_300_800))]),
             "a date is outside the years 0001 to 9999"),
            (VaultPayload(nextID: 2, accounts: [Account(id: 1, entered: "e", normalized: "e", kind: .email, label: nil,
                                                        addedAt: Date(), result: CheckResult(status: .clean, pasteCount: -1))]),
             "accounts[0].result.pasteCount is negative"),
        ]
        for (payload, reason) in invalid {
            XCTAssertThrowsError(try PayloadCodec.encode(payload), reason) {
                XCTAssertEqual($0 as? VaultFormatError, .unwritablePayload(reason: reason))
            }
        }
    }

    // MARK: Timestamps

    func testTimestampsOfKnownInstants() {
        let known: [(TimeInterval, String)] = [
            (0, "1970-01-01T00:00:00.000Z"),
            (1_714_566_896.789, "2024-05-01T12:34:56.789Z"),
            (951_782_400, "2000-02-29T00:00:00.000Z"),
            (-0.001, "1969-12-31T23:59:59.999Z"),
            (-62_135_596_800, "0001-01-01T00:00:00.000Z"),
            (253_402_300_799.999, "9999-12-31T23:59:59.999Z"),
        ]
        for (seconds, text) in known {
            XCTAssertEqual(PayloadCodec.timestamp(from: Date(timeIntervalSince1970: seconds)), text)
            XCTAssertEqual(PayloadCodec.date(fromTimestamp: text)?.timeIntervalSince1970 ?? .nan, seconds, accuracy: 1e-6)
        }
    }

    func testTimestampsAgreeWithFoundationsCalendar() throws {
        // Foundation's Gregorian calendar switches to Julian before 1582, so compare from 1600 on.
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = try XCTUnwrap(TimeZone(identifier: "UTC"))
        var generator = SplitMix64(seed: 0x600D)
        for _ in 0..<2000 {
            let milliseconds = Int64.random(in: -11_676_096_000_000...253_402_300_799_999, using: &generator)
            let seconds = milliseconds >= 0 ? milliseconds / 1000 : -((-milliseconds + 999) / 1000)
            let c = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second],
                                            from: Date(timeIntervalSince1970: TimeInterval(seconds)))
            let expected = String(format: "%04d-%02d-%02dT%02d:%02d:%02d.%03dZ", c.year!, c.month!, c.day!, c.hour!,
                                  c.minute!, c.second!, Int(milliseconds - seconds * 1000))
            let date = Date(timeIntervalSince1970: Double(milliseconds) / 1000)
            XCTAssertEqual(PayloadCodec.timestamp(from: date), expected)
            XCTAssertEqual(PayloadCodec.date(fromTimestamp: expected), date, expected)
        }
    }

    func testTimestampsRoundToTheNearestMillisecond() {
        XCTAssertEqual(PayloadCodec.timestamp(from: Date(timeIntervalSince1970: 10.0004)), "1970-01-01T00:00:10.000Z")
        XCTAssertEqual(PayloadCodec.timestamp(from: Date(timeIntervalSince1970: 10.0006)), "1970-01-01T00:00:10.001Z")
        XCTAssertEqual(PayloadCodec.timestamp(from: Date(timeIntervalSince1970: 59.9996)), "1970-01-01T00:01:00.000Z")
        XCTAssertEqual(PayloadCodec.timestamp(from: Date(timeIntervalSince1970: -0.0004)), "1970-01-01T00:00:00.000Z")
    }

    func testInstantsOutsideTheYears0001To9999HaveNoTimestamp() {
        for seconds in [253_402_300_800, -62_135_596_800.001, .infinity, -.infinity, .nan] {
            XCTAssertNil(PayloadCodec.timestamp(from: Date(timeIntervalSince1970: seconds)), "\(seconds)")
        }
    }

    func testOnlyTheExactTimestampFormIsRead() {
        XCTAssertNotNil(PayloadCodec.date(fromTimestamp: "2024-02-29T23:59:59.999Z"))
        let rejected = [
            "", "2024-05-01T12:34:56Z", "2024-05-01T12:34:56.78Z", "2024-05-01T12:34:56.7890Z",
            "2024-05-01T12:34:56.789+00:00", "2024-05-01T12:34:56.789z", "2024-05-01 12:34:56.789Z",
            "2024-05-01T12:34:56.789", " 2024-05-01T12:34:56.789Z", "+024-05-01T12:34:56.789Z",
            "0000-01-01T00:00:00.000Z", "2024-00-01T00:00:00.000Z", "2024-13-01T00:00:00.000Z",
            "2024-01-00T00:00:00.000Z", "2024-01-32T00:00:00.000Z", "2023-02-29T00:00:00.000Z",
            "1900-02-29T00:00:00.000Z", "2024-04-31T00:00:00.000Z", "2024-01-01T24:00:00.000Z",
            "2024-01-01T00:60:00.000Z", "2024-01-01T23:59:60.000Z", "2024-01-01T0a:00:00.000Z",
            "２０２４-01-01T00:00:00.000Z",
        ]
        for text in rejected { XCTAssertNil(PayloadCodec.date(fromTimestamp: text), text) }
        XCTAssertNotNil(PayloadCodec.date(fromTimestamp: "2000-02-29T00:00:00.000Z"))
    }
}
