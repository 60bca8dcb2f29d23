import Foundation
import TestSupport
import XCTest
@testable import PwnVaultCore

/// The codec against Foundation's JSON (and Python's) on random payloads with hostile text: the writer
/// writes the bytes Foundation's encoder wrote, those bytes mean the payload to other parsers, and the
/// reader reads what Foundation or any other valid writer produces. Every run uses the same seeds.
final class PayloadCodecEquivalenceTests: XCTestCase {
    private static let sampleCount = 250

    /// Random payloads of 0 to 6 accounts; the seed is the index, so a failure names its case.
    private static var samples: [(seed: UInt64, payload: VaultPayload)] {
        (0..<UInt64(sampleCount)).map { seed in
            var generator = SplitMix64(seed: 0xC0DEC_0000 + seed)
            return (seed, PayloadSamples.payload(accounts: Int.random(in: 0...6, using: &generator), using: &generator))
        }
    }

    static func json(of payload: VaultPayload) throws -> [UInt8] {
        try PayloadCodec.encode(payload).withUnsafeBytes { plaintext in
            let length = plaintext[0..<8].reduce(0) { $0 << 8 | Int($1) }
            return Array(plaintext[8..<(8 + length)])
        }
    }

    static func decode(json: [UInt8]) throws -> VaultPayload {
        try PayloadCodecTests.plaintext(jsonBytes: json).withUnsafeBytes { try PayloadCodec.decode($0) }
    }

    /// Equal as values, and every string equal byte for byte (not merely canonically equivalent).
    private func assertIdentical(_ actual: VaultPayload, _ expected: VaultPayload, _ message: String,
                                 file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertEqual(actual, expected, message, file: file, line: line)
        XCTAssertNil(JSONTree(payload: actual).firstDifference(from: JSONTree(payload: expected)), message, file: file, line: line)
    }

    // MARK: Writer

    func testTheWriterWritesExactlyTheBytesOfFoundationsEncoder() throws {
        let encoder = FoundationPayloadJSON.encoder()
        for (seed, payload) in Self.samples {
            XCTAssertEqual(try Self.json(of: payload), Array(try encoder.encode(ReferencePayload(payload))), "seed \(seed)")
        }
    }

    func testTheWritersBytesMeanThePayloadToJSONSerialization() throws {
        for (seed, payload) in Self.samples {
            let parsed = try JSONSerialization.jsonObject(with: Data(try Self.json(of: payload)))
            // (U+FEFF aside: JSONSerialization loses some; the byte comparisons above and below cover it.)
            let difference = try JSONTree(foundation: parsed).removingByteOrderMarks()
                .firstDifference(from: JSONTree(payload: payload).removingByteOrderMarks())
            XCTAssertNil(difference, "seed \(seed)")
        }
    }

    func testDecodeReadsBackExactlyWhatEncodeWrote() throws {
        for (seed, payload) in Self.samples {
            assertIdentical(try Self.decode(json: try Self.json(of: payload)), payload, "seed \(seed)")
        }
    }

    /// §7.1: the canonical form is what Python's `json.dumps(obj, sort_keys=True, separators=(",", ":"),
    /// ensure_ascii=False)` writes, a third implementation of the same escaping rules.
    func testTheWriterWritesWhatPythonsJSONModuleWrites() throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/python3") else {
            throw XCTSkip("python3 is not installed")
        }
        let lines = try Self.samples.map { try Self.json(of: $0.payload) }
        XCTAssertFalse(lines.contains { $0.contains(0x0A) }, "a raw line feed in the canonical form")
        let input = FileManager.default.temporaryDirectory.appendingPathComponent("payload-json-\(getpid()).txt")
        try Data(lines.joined(separator: [0x0A])).write(to: input)
        defer { try? FileManager.default.removeItem(at: input) }
        let script = """
            import json, sys
            lines = open(sys.argv[1], "rb").read().split(b"\\n")
            for i, line in enumerate(lines):
                again = json.dumps(json.loads(line), sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode()
                if again != line:
                    print(i)
            print("checked", len(lines))
            """
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        process.arguments = ["-c", script, input.path]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        XCTAssertEqual(process.terminationStatus, 0)
        XCTAssertEqual(text, "checked \(lines.count)\n", "these samples differ from Python's form")
    }

    /// Each character below U+0080, and a few above, against the table of §7.1 written out here.
    func testEachCharacterIsEscapedAsTheSpecSays() throws {
        func expected(_ scalar: Unicode.Scalar) -> String {
            switch scalar {
            case "\"": return #"\""#
            case "\\": return #"\\"#
            case "\u{08}": return #"\b"#
            case "\u{09}": return #"\t"#
            case "\u{0A}": return #"\n"#
            case "\u{0C}": return #"\f"#
            case "\u{0D}": return #"\r"#
            case "\u{00}"..."\u{1F}": return #"\u00"# + String(format: "%02x", scalar.value)
            default: return String(scalar)
            }
        }
        let scalars = (0..<0x80).map { Unicode.Scalar(UInt8($0)) }
            + ["\u{80}", "\u{A0}", "é", "\u{2028}", "\u{2029}", "\u{FEFF}", "\u{FFFF}", "🐧", "\u{10FFFF}"]
        for scalar in scalars {
            let payload = VaultPayload(nextID: 2, accounts: [
                Account(id: 1, entered: "e", normalized: "n", kind: .email, label: "<\(scalar)>",
                        addedAt: Date(timeIntervalSince1970: 0)),
            ])
            let json = String(decoding: try Self.json(of: payload), as: UTF8.self)
            XCTAssertTrue(json.contains(#","label":"<\#(expected(scalar))>","#), "U+\(String(scalar.value, radix: 16)): \(json)")
        }
    }

    // MARK: Reader

    func testFoundationsJSONInAnyFormattingDecodesToThePayload() throws {
        let formattings: [JSONEncoder.OutputFormatting] = [
            [.sortedKeys, .withoutEscapingSlashes], [], [.prettyPrinted], [.prettyPrinted, .sortedKeys],
        ]
        for formatting in formattings {
            let encoder = FoundationPayloadJSON.encoder(formatting)
            for (seed, payload) in Self.samples {
                let json = Array(try encoder.encode(ReferencePayload(payload)))
                assertIdentical(try Self.decode(json: json), payload, "seed \(seed), \(formatting)")
            }
        }
    }

    /// Another valid writer: any member order, whitespace between all tokens, escapes anywhere
    /// (member names, enumerations and timestamps included), `null` for absent optionals, and unknown
    /// members of every JSON type at every level.
    func testAnotherWritersJSONDecodesToThePayload() throws {
        let reference = FoundationPayloadJSON.decoder()
        for (seed, payload) in Self.samples {
            var generator = SplitMix64(seed: 0x5C4A_0000 + seed)
            let json = JSONTree(payload: payload).withNullsAndUnknownMembers(using: &generator).scrambled(using: &generator)
            // The text is valid JSON for the payload by Foundation's reading too, so the test is fair.
            XCTAssertNoThrow(try JSONSerialization.jsonObject(with: Data(json)), "seed \(seed)")
            XCTAssertEqual(try reference.decode(ReferencePayload.self, from: Data(json)).payload, payload, "seed \(seed)")
            assertIdentical(try Self.decode(json: json).withoutUnknownMembers, payload, "seed \(seed)")
        }
    }

    /// Forward compatibility (§7.3): what a newer writer added at the top level, in accounts and in
    /// results survives a read and a write, in canonical form, sorted in among the known members.
    func testUnknownMembersSurviveAReadAndAWriteInCanonicalForm() throws {
        var kept = 0
        for (seed, payload) in Self.samples {
            var generator = SplitMix64(seed: 0x5C4A_0000 + seed)
            let tree = JSONTree(payload: payload).withNullsAndUnknownMembers(using: &generator)
            let read = try Self.decode(json: tree.scrambled(using: &generator))
            kept += read.unknownMembers.members.count + read.accounts.map { $0.unknownMembers.members.count }.reduce(0, +)
            let expected = tree.removingNullsOfTheSchema().canonical()
            let written = try Self.json(of: read)
            XCTAssertEqual(String(decoding: written, as: UTF8.self), String(decoding: expected, as: UTF8.self), "seed \(seed)")
            XCTAssertEqual(written, expected, "seed \(seed)")
            // and a second round trip changes nothing
            XCTAssertEqual(try Self.json(of: try Self.decode(json: written)), written, "seed \(seed)")
        }
        XCTAssertGreaterThan(kept, 100, "the samples do hold unknown members")
    }
}
