import Foundation
import TestSupport
import XCTest
@testable import PwnVaultCore

/// SHA-1 against the FIPS 180-4 example vectors, and against the system's `sha1sum` at every length
/// around the padding boundaries.
final class PasswordSHA1Tests: XCTestCase {
    private func hex(_ bytes: [UInt8]) -> String {
        let secret = SecretBytes(copying: bytes)
        let digest = SHA1.hash(secret)
        return digest.withUnsafeBytes { $0.map { String(format: "%02x", $0) }.joined() }
    }

    func testEmptyMessage() {
        XCTAssertEqual(hex([]), "da39a3ee5e6b4b0d3255bfef95601890afd80709")
    }

    func testABC() {
        XCTAssertEqual(hex(Array("abc".utf8)), "a9993e364706816aba3e25717850c26c9cd0d89d")
    }

    func test448BitMessage() {
        XCTAssertEqual(hex(Array("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq".utf8)),
                       "84983e441c3bd26ebaae4aa1f95129e5e54670f1")
    }

    func test896BitMessage() {
        let m = "abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmnopjklmnopqklmnopqrlmnopqrsmnopqrstnopqrstu"
        XCTAssertEqual(hex(Array(m.utf8)), "a49b2446a02c645bf419f995b67091253a04a259")
    }

    func testOneMillionAs() {
        XCTAssertEqual(hex([UInt8](repeating: UInt8(ascii: "a"), count: 1_000_000)),
                       "34aa973cd4c4daa4f61eeb2bdbad27316534016f")
    }

    /// Lengths 0 to 130 cover one and two padding blocks and every boundary (55, 56, 63, 64, 119, 120).
    func testEveryLengthAroundTheBlockBoundariesAgreesWithSha1sum() throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/sha1sum") else { throw XCTSkip("no sha1sum") }
        var rng = SplitMix64(seed: 0x5A1)
        var inputs: [[UInt8]] = []
        for length in 0...130 { inputs.append((0..<length).map { _ in UInt8.random(in: 0...255, using: &rng) }) }
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("sha1-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        var paths: [String] = []
        for (i, input) in inputs.enumerated() {
            let path = dir.appendingPathComponent(String(format: "%03d", i)).path
            FileManager.default.createFile(atPath: path, contents: Data(input))
            paths.append(path)
        }
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/sha1sum")
        p.arguments = paths
        let out = Pipe()
        p.standardOutput = out
        try p.run()
        let text = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        p.waitUntilExit()
        let expected = text.split(separator: "\n").map { String($0.prefix(40)) }
        XCTAssertEqual(expected.count, inputs.count)
        for (i, input) in inputs.enumerated() {
            XCTAssertEqual(hex(input), expected[i], "length \(input.count)")
        }
    }

    func testPasswordHashIsUpperCaseHexAndShowsOnlyItsPrefix() {
        let hash = PasswordHash(password: SecretBytes(copying: Array("password".utf8)))
        XCTAssertEqual(hash.prefix, "5BAA6")
        XCTAssertEqual(hash.withHex { String(decoding: $0, as: UTF8.self) }, "5BAA61E4C9B93F3F0682250B6CF8331B7EE68FD8")
        XCTAssertFalse(String(describing: hash).contains("5BAA6"))
        XCTAssertFalse(String(reflecting: hash).contains("5BAA6"))
    }
}
