import Foundation
import TestSupport
import XCTest
@testable import PwnVaultCore

/// Offline lookups by binary search in generated Pwned Passwords files.
final class PasswordFileTests: XCTestCase {
    var dir: URL!

    override func setUpWithError() throws {
        dir = FileManager.default.temporaryDirectory.appendingPathComponent("pwned-file-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    }

    override func tearDown() { try? FileManager.default.removeItem(at: dir) }

    private func secret(_ s: String) -> PasswordHash { PasswordHash(password: SecretBytes(copying: Array(s.utf8))) }
    private func hex(_ s: String) -> String { secret(s).withHex { String(decoding: $0, as: UTF8.self) } }

    /// Passwords `pw-0`… with counts i+1, and filler hashes (the same on every run: `SplitMix64`)
    /// strictly between the smallest and the largest of theirs: so the first and the last line of the
    /// file belong to passwords.
    private func lines(passwords: Int, filler: Int, seed: UInt64 = 42) -> [(hash: String, count: Int)] {
        var rows = (0..<passwords).map { (hash: hex("pw-\($0)"), count: $0 + 1) }
        let low = rows.map(\.hash).min()!, high = rows.map(\.hash).max()!
        var rng = SplitMix64(seed: seed)
        var added = 0
        while added < filler {
            let h = (0..<5).map { _ in String(format: "%08X", UInt32(truncatingIfNeeded: rng.next())) }.joined()
            guard h > low && h < high else { continue }
            rows.append((h, Int(rng.next() % 100_000) + 1))
            added += 1
        }
        return rows.sorted { $0.hash < $1.hash }
    }

    private func write(_ rows: [(hash: String, count: Int)], name: String = "pwned.txt", newline: String = "\r\n",
                       finalNewline: Bool = true, lowercase: Bool = false) -> String {
        var text = rows.map { "\(lowercase ? $0.hash.lowercased() : $0.hash):\($0.count)" }.joined(separator: newline)
        if finalNewline { text += newline }
        let path = dir.appendingPathComponent(name).path
        FileManager.default.createFile(atPath: path, contents: Data(text.utf8))
        return path
    }

    func testEveryPasswordIsFoundWithItsCountIncludingTheFirstAndTheLastLine() throws {
        let rows = lines(passwords: 600, filler: 30_000)
        let file = try PwnedPasswordsFile(path: write(rows))
        XCTAssertGreaterThan(file.size, 100 * PwnedPasswordsFile.pageSize, "large enough for the search to probe pages")
        let byHash = Dictionary(uniqueKeysWithValues: (0..<600).map { (hex("pw-\($0)"), $0) })
        XCTAssertNotNil(byHash[rows.first!.hash], "the first line is a password's")
        XCTAssertNotNil(byHash[rows.last!.hash], "the last line is a password's")
        for i in 0..<600 {
            XCTAssertEqual(try file.timesSeen(secret("pw-\(i)")), i + 1, "pw-\(i)")
        }
    }

    func testPasswordsNotInTheFileAreNotFound() throws {
        let file = try PwnedPasswordsFile(path: write(lines(passwords: 300, filler: 20_000)))
        for i in 0..<300 { XCTAssertEqual(try file.timesSeen(secret("absent-\(i)")), 0, "absent-\(i)") }
    }

    func testHashesBeforeTheFirstAndAfterTheLastLineAreNotFound() throws {
        // The file keeps the lines from the 11th to the 290th password's hash: ten passwords sort
        // before its first line and ten after its last.
        let all = lines(passwords: 300, filler: 20_000)
        let passwordHashes = (0..<300).map { hex("pw-\($0)") }.sorted()
        let low = passwordHashes[10], high = passwordHashes[289]
        let kept = all.filter { $0.hash >= low && $0.hash <= high }
        let file = try PwnedPasswordsFile(path: write(kept))
        let keptHashes = Set(kept.map(\.hash))
        for i in 0..<300 {
            let expected = keptHashes.contains(hex("pw-\(i)")) ? i + 1 : 0
            XCTAssertEqual(try file.timesSeen(secret("pw-\(i)")), expected, "pw-\(i)")
        }
    }

    func testLineEndingsCaseAndAMissingFinalNewline() throws {
        let rows = lines(passwords: 200, filler: 5_000)
        let variants: [(String, String, Bool, Bool)] = [("lf", "\n", true, false), ("crlf-open", "\r\n", false, false),
                                                        ("lf-open", "\n", false, false), ("lower", "\r\n", true, true)]
        for (name, newline, final, lower) in variants {
            let file = try PwnedPasswordsFile(path: write(rows, name: name, newline: newline, finalNewline: final, lowercase: lower))
            for i in stride(from: 0, to: 200, by: 7) {
                XCTAssertEqual(try file.timesSeen(secret("pw-\(i)")), i + 1, "\(name) pw-\(i)")
            }
            let lastPassword = (0..<200).first { hex("pw-\($0)") == rows.last!.hash }!
            XCTAssertEqual(try file.timesSeen(secret("pw-\(lastPassword)")), lastPassword + 1, "\(name): the last line")
            XCTAssertEqual(try file.timesSeen(secret("nope")), 0, name)
        }
    }

    func testFilesOfOneAndTwoLines() throws {
        let one = lines(passwords: 1, filler: 0)
        for final in [true, false] {
            let file = try PwnedPasswordsFile(path: write(one, name: "one-\(final)", finalNewline: final))
            XCTAssertEqual(try file.timesSeen(secret("pw-0")), 1)
            XCTAssertEqual(try file.timesSeen(secret("pw-1")), 0)
        }
        let two = try PwnedPasswordsFile(path: write(lines(passwords: 2, filler: 0), name: "two"))
        XCTAssertEqual(try two.timesSeen(secret("pw-0")), 1)
        XCTAssertEqual(try two.timesSeen(secret("pw-1")), 2)
    }

    func testManyLookupsReadOnlyAFewPagesEach() throws {
        let file = try PwnedPasswordsFile(path: write(lines(passwords: 400, filler: 40_000)))
        let pages = Double(file.size) / Double(PwnedPasswordsFile.pageSize)
        let bound = Int(log2(pages).rounded(.up)) + 3
        for i in 0..<400 {
            let before = file.reads
            XCTAssertEqual(try file.timesSeen(secret("pw-\(i)")), i + 1)
            XCTAssertLessThanOrEqual(file.reads - before, bound, "a binary search reads at most log2(pages) pages and a few more")
        }
        let before = file.reads
        for i in 0..<400 { _ = try file.timesSeen(secret("pw-\(i)")) }
        XCTAssertLessThan(Double(file.reads - before) / 400, Double(bound) / 2, "the top of the search is remembered")
    }

    func testAReversedFileIsRefused() {
        let path = write(lines(passwords: 50, filler: 2_000).reversed())
        XCTAssertThrowsError(try PwnedPasswordsFile(path: path)) {
            guard case .notSorted? = $0 as? PasswordFileError else { return XCTFail("\($0)") }
        }
    }

    func testAShuffledFileIsDetectedAndNeverGivesAWrongCount() throws {
        var rows = lines(passwords: 300, filler: 20_000)
        let first = rows.removeFirst(), last = rows.removeLast()
        var rng = SplitMix64(seed: 7)
        rows.shuffle(using: &rng)
        let file = try PwnedPasswordsFile(path: write([first] + rows + [last]))
        var detected = 0
        for i in 0..<300 {
            do {
                let n = try file.timesSeen(secret("pw-\(i)"))
                XCTAssertTrue(n == 0 || n == i + 1, "a wrong count for pw-\(i): \(n)")
            } catch let error as PasswordFileError {
                guard case .notSorted = error else { return XCTFail("\(error)") }
                detected += 1
            }
        }
        XCTAssertGreaterThan(detected, 0, "the search sees hashes out of order")
    }

    func testFilesThatAreNotPwnedPasswordsFilesAreRefused() throws {
        func refusal(_ contents: String, _ name: String) -> PasswordFileError? {
            let path = dir.appendingPathComponent(name).path
            FileManager.default.createFile(atPath: path, contents: Data(contents.utf8))
            do { _ = try PwnedPasswordsFile(path: path); return nil } catch { return error as? PasswordFileError }
        }
        let ntlm = "8846F7EAEE8FB117AD06BDD830B7586C:1\r\n" + "A4F49C406510BDCAB6824EE7C30FD852:2\r\n"
        XCTAssertEqual(refusal(ntlm, "ntlm"), .ntlm(path: dir.appendingPathComponent("ntlm").path))
        guard case .notInFormat? = refusal("hello world\nthis is text\n", "text") else { return XCTFail("text") }
        guard case .notInFormat? = refusal(String(repeating: "A", count: 40) + "\n", "nocount") else { return XCTFail("no count") }
        XCTAssertEqual(refusal("", "empty"), .empty(path: dir.appendingPathComponent("empty").path))
        XCTAssertThrowsError(try PwnedPasswordsFile(path: dir.path)) {
            XCTAssertEqual($0 as? PasswordFileError, .notARegularFile(path: self.dir.path))
        }
        XCTAssertThrowsError(try PwnedPasswordsFile(path: dir.appendingPathComponent("missing").path)) {
            guard case .unreadable? = $0 as? PasswordFileError else { return XCTFail("\($0)") }
        }
    }

    /// Found by the password-file fuzzer (Fuzz/corpus/password-file/regression-count-overflow): a count
    /// of 18 nines and one more digit overflowed `Int` while it was read, and the process trapped. A
    /// count longer than 18 digits is now refused before its 19th digit is taken in.
    func testACountTooLongForAnIntIsRefusedNotATrap() throws {
        let hash = hex("overflow")
        for count in [String(repeating: "9", count: 19), String(repeating: "9", count: 40)] {
            let path = dir.appendingPathComponent("long-count").path
            FileManager.default.createFile(atPath: path, contents: Data("\(hash):\(count)\r\n".utf8))
            // Opening reads the first line already; either step may refuse it, neither may trap.
            XCTAssertThrowsError(try PwnedPasswordsFile(path: path).timesSeen(secret("overflow")), count) {
                guard case .notInFormat? = $0 as? PasswordFileError else { return XCTFail("\($0)") }
            }
        }
        // 18 digits are still a count.
        let path = write([(hash: hash, count: 999_999_999_999_999_999)], name: "eighteen")
        XCTAssertEqual(try PwnedPasswordsFile(path: path).timesSeen(secret("overflow")), 999_999_999_999_999_999)
    }

    func testErrorsNameTheFileCleanedAndNeverAHash() {
        let error = PasswordFileError.notSorted(path: "/tmp/evil\u{1B}[2Jname", offset: 12)
        XCTAssertFalse(error.message.contains("\u{1B}"))
        XCTAssertEqual(error.exitStatus, .usage)
    }
}
