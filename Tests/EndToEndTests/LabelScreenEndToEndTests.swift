import Foundation
@testable import PwnVaultCore
import XCTest

/// Issue 21, item 2: a label must not spell an account in disguise (fullwidth or Arabic-Indic digits,
/// `at`/`dot` words, spaced letters, `mailto:` with percent-encoding, part of an address or a number),
/// whether given to `add --label` or read from a vCard's FN; one already in an old vault is masked.
final class LabelScreenEndToEndTests: XCTestCase {
    /// Each label of the issue, none of which may reach any output once refused.
    static let disguised = ["７７００９００１２４", "+４４ ７７００ ９００１２３", "٠٧٧٠٠٩٠٠١٢٣", "carol＠example.com",
                            "alice at example dot com", "alice(at)example(dot)org", "a l i c e @ e x a m p l e . c o m",
                            "mailto:alice%40example.com", "alice@example", "alice@", "@example.org", "Dad 900125"]
    /// Pieces of the labels and accounts that must not be printed.
    static let pieces = ["alice", "carol", "example", "７７", "٧", "900125", "900124", "7700"]

    var s: Sandbox!

    override func setUpWithError() throws {
        s = try Sandbox(keyring: false)
        s.initVault()
        for account in ["alice@example.com", "alice@example.org", "+44 7700 900125"] {
            let r = s.run(["add", account])
            XCTAssertEqual(r.status, 0, r.all)
        }
    }

    override func tearDown() { s = nil }

    func assertNothingSpelled(_ text: String, file: StaticString = #filePath, line: UInt = #line) {
        let withoutPaths = text.replacingOccurrences(of: #"/\S*pwnvault-e2e-[0-9A-F-]+\S*"#, with: "PATH", options: .regularExpression)
        for piece in Self.pieces where withoutPaths.lowercased().contains(piece) {
            XCTFail("'\(piece)' printed in: \(text)", file: file, line: line)
        }
    }

    func testAddRefusesEveryDisguisedLabelWithoutRepeatingIt() {
        for label in Self.disguised {
            let r = s.run(["add", "zz-new-user", "--label", label])
            XCTAssertEqual(r.status, 2, label + ": " + r.all)
            XCTAssertTrue(r.stderr.hasPrefix("pwnvault: error: the label cannot be used: it contains "), r.stderr)
            XCTAssertTrue(r.stderr.contains("nothing was added"), r.stderr)
            XCTAssertTrue(r.stderr.contains("pwnvault: hint: "), r.stderr)
            XCTAssertEqual(r.stderr.split(separator: "\n").count, 2, r.stderr)
            XCTAssertEqual(r.stdout, "")
            assertNothingSpelled(r.all)
        }
        XCTAssertEqual(s.run(["list"]).stdout.split(separator: "\n").filter { $0.hasPrefix("#") }.count, 3)
    }

    func testAFirstNameEqualToTheLocalPartIsAddedWithAWarning() throws {
        let r = s.run(["add", "bob@example.net", "--label", "Bob"])
        XCTAssertEqual(r.status, 0, r.all)
        XCTAssertTrue(r.stderr.contains("pwnvault: warning: the label is the part before '@' of the account it labels"), r.stderr)
        XCTAssertEqual(r.stderr.split(separator: "\n").count, 1, r.stderr)
        let other = s.run(["add", "zz-other-user", "--label", "Alice"])
        XCTAssertEqual(other.status, 0, other.all)
        XCTAssertTrue(other.stderr.contains("pwnvault: warning: the label is the part before '@' of the account #1"), other.stderr)
        XCTAssertTrue(s.run(["list"]).stdout.contains("Bob"))
    }

    func testImportAddsAContactWhoseNameSpellsAnAccountWithoutALabelAndSaysWhichLine() throws {
        var vcf = "", lines: [Int] = [], line = 1
        for (i, label) in Self.disguised.enumerated() {
            lines.append(line)
            vcf += "BEGIN:VCARD\r\nVERSION:3.0\r\nFN:\(label)\r\nEMAIL:zz\(i)@contacts.test\r\nEND:VCARD\r\n"
            line += 5
        }
        let r = s.run(["import", s.writeFile("disguised.vcf", vcf)])
        XCTAssertEqual(r.status, 0, r.all)
        for l in lines {
            XCTAssertTrue(r.stderr.contains("line \(l): the contact's "), "line \(l): " + r.stderr)
        }
        XCTAssertEqual(r.stderr.components(separatedBy: "added without a label").count - 1, Self.disguised.count, r.stderr)
        assertNothingSpelled(r.all)
        let json = s.run(["list", "--json"])
        let rows = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [[String: Any]])
        XCTAssertEqual(rows.count, 3 + Self.disguised.count)
        XCTAssertEqual(rows.compactMap { $0["label"] as? String }, [])
    }

    /// Labels written before the screen read labels folded stay in old vaults: masked whole when shown.
    func testAnOldVaultsDisguisedLabelIsMaskedInAPipeAndInJSON() throws {
        try seedLabel(id: 3, "７７００９００１２５")
        try seedLabel(id: 1, "alice at example dot com")
        try seedLabel(id: 2, "Alice")
        let listed = s.run(["list"])
        XCTAssertEqual(listed.status, 0, listed.all)
        XCTAssertTrue(listed.stdout.contains("•••"), listed.stdout)
        XCTAssertFalse(listed.stdout.contains("７７") || listed.stdout.lowercased().contains("alice at"), listed.stdout)
        let json = s.run(["list", "--json"])
        let rows = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [[String: Any]])
        XCTAssertEqual(rows.map { $0["label"] as? String }, ["•••", "Alice", "•••"])
        let completions = s.run(["completions", "--list", "ids"]).stdout
        XCTAssertFalse(completions.contains("７７") || completions.contains("alice at"), completions)
    }

    /// Writes a label straight into the vault, as a version before this screen could have.
    private func seedLabel(id: Int, _ label: String) throws {
        let session = try VaultSession.open(at: try VaultLocation(path: s.vault), keyring: DisabledKeyring()) { _ in
            SecretBytes(copying: Array(Sandbox.passphrase.utf8))
        }
        try session.update { payload in
            if let i = payload.accounts.firstIndex(where: { $0.id == id }) { payload.accounts[i].label = label }
        }
    }
}
