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
        s = try Sandbox(inProcess: true, keyring: false)
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

/// Issue 30, item 4: labels that spell an account by what they say (separators, digit and letter
/// styles, reversal, at/dot words of other languages) are refused by `add --label` and `import` (FN, N
/// and ORG), and are never printed.
final class LabelSpellingEndToEndTests: XCTestCase {
    /// The forms the issue lists (it counts 33; read item by item its list has 32), for `+44 7700 900123`,
    /// `zorglubvictim` and `alice.smith@victim-domain.example`.
    static let forms = [
        "7700–900–123", "7700,900,123", "7700·900·123", "7700:900:123", "7700|900|123", "7700−900−123", "7700‐900‐123",
        "7700‑900‑123", "⁷⁷⁰⁰ ⁹⁰⁰¹²³", "₇₇₀₀ ₉₀₀₁₂₃", "⑦⑦⓪⓪ ⑨⓪⓪①②③", "➐➐⓿⓿ ➒⓿⓿➊➋➌",
        "7\u{FE0F}\u{20E3}7\u{FE0F}\u{20E3}0\u{FE0F}\u{20E3}0\u{FE0F}\u{20E3}9\u{FE0F}\u{20E3}0\u{FE0F}\u{20E3}0\u{FE0F}\u{20E3}1\u{FE0F}\u{20E3}2\u{FE0F}\u{20E3}3\u{FE0F}\u{20E3}",
        "7\u{0336}7\u{0336}0\u{0336}0\u{0336}9\u{0336}0\u{0336}0\u{0336}1\u{0336}2\u{0336}3\u{0336}", "77OO 9OO 123", "Dad 900–123",
        "Dad 900½123",
        "zorglub victim", "zorglub-victim", "zorg.lub.victim", "zo\u{301}rglu\u{301}b vi\u{301}cti\u{301}m", "ᴢᴏʀɢʟᴜʙᴠɪᴄᴛɪᴍ",
        "ⓩⓞⓡⓖⓛⓤⓑⓥⓘⓒⓣⓘⓜ", "⒵⒪⒭⒢⒧⒰⒝⒱⒤⒞⒯⒤⒨", "zorglub\u{FFF9}victim", "zorglub\u{1D173}victim", "mitcivbulgroz",
        "alice.smith victim-domain", "alice.smith ⓐ victim-domain·example", "alice.smith arroba victim-domain punto example",
        "ᴀʟɪᴄᴇ.ꜱᴍɪᴛʜ ᴀᴛ ᴠɪᴄᴛɪᴍ-ᴅᴏᴍᴀɪɴ ᴅᴏᴛ ᴇxᴀᴍᴘʟᴇ", "ⓐⓛⓘⓒⓔ.ⓢⓜⓘⓣⓗ ⓐⓣ ⓥⓘⓒⓣⓘⓜ-ⓓⓞⓜⓐⓘⓝ ⓓⓞⓣ ⓔⓧⓐⓜⓟⓛⓔ",
    ]
    static let allowed = ["Dad", "Alice (work)", "Mum's phone", "妈妈的手机"]

    var s: Sandbox!

    override func setUpWithError() throws {
        s = try Sandbox(inProcess: true, keyring: false)
        s.initVault()
        let r = s.run(["add", "alice.smith@victim-domain.example", "zorglubvictim", "+44 7700 900123"])
        XCTAssertEqual(r.status, 0, r.all)
    }

    override func tearDown() { s = nil }

    /// Neither the label nor any piece of the accounts is printed.
    func assertNothingSpelled(_ text: String, _ label: String, file: StaticString = #filePath, line: UInt = #line) {
        let withoutPaths = text.replacingOccurrences(of: #"/\S*pwnvault-e2e-[0-9A-F-]+\S*"#, with: "PATH", options: .regularExpression)
        for piece in [label, "zorglub", "victim", "alice", "900123", "7700", "900–123"] where withoutPaths.lowercased().contains(piece.lowercased()) {
            XCTFail("'\(piece)' printed in: \(text)", file: file, line: line)
        }
    }

    func testAddRefusesEveryForm() {
        for label in Self.forms {
            let r = s.run(["add", "zz-new-user", "--label", label])
            XCTAssertEqual(r.status, 2, label + ": " + r.all)
            XCTAssertTrue(r.stderr.hasPrefix("pwnvault: error: the label cannot be used: it contains "), r.stderr)
            XCTAssertEqual(r.stdout, "")
            assertNothingSpelled(r.all, label)
        }
        XCTAssertEqual(s.run(["list"]).stdout.split(separator: "\n").filter { $0.hasPrefix("#") }.count, 3)
    }

    func testAddKeepsOrdinaryLabels() throws {
        for (i, label) in Self.allowed.enumerated() {
            let r = s.run(["add", "zz-friend-\(i)", "--label", label])
            XCTAssertEqual(r.status, 0, label + ": " + r.all)
        }
        let r = s.run(["add", "bob.smith@example.net", "--label", "Bob.Smith"])
        XCTAssertEqual(r.status, 0, r.all)
        XCTAssertTrue(r.stderr.contains("pwnvault: warning: the label is the part before '@' of the account it labels"), r.stderr)
        let json = s.run(["list", "--json"])
        let rows = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [[String: Any]])
        XCTAssertEqual(rows.compactMap { $0["label"] as? String }, Self.allowed + ["Bob.Smith"])
    }

    /// vCard text escapes: `\,` and `\;` (N's components are separated by `;`, its values by `,`).
    static func escaped(_ text: String) -> String {
        text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: ",", with: "\\,").replacingOccurrences(of: ";", with: "\\;")
    }

    func testImportAddsEveryContactWhoseNameIsAFormWithoutALabel() throws {
        for property in ["FN", "N", "ORG"] {
            var vcf = ""
            for (i, label) in Self.forms.enumerated() {
                let value = property == "N" ? ";\(Self.escaped(label));;;" : Self.escaped(label)
                vcf += "BEGIN:VCARD\r\nVERSION:3.0\r\n\(property):\(value)\r\nEMAIL:zz\(property)\(i)@contacts.test\r\nEND:VCARD\r\n"
            }
            let path = s.writeFile("forms-\(property).vcf", vcf)
            let r = s.run(["import", path])
            XCTAssertEqual(r.status, 0, r.all)
            XCTAssertTrue(r.stderr.contains("added without a label"), property + ": " + r.stderr)
            for label in Self.forms { assertNothingSpelled(r.all, label) }
            // Every contact's name passed over (the notes on stderr stop at ten of a kind; --json lists all).
            let again = s.run(["import", "--json", path])
            let report = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(again.stdout.utf8)) as? [String: Any])
            XCTAssertEqual((report["labelsPassedOver"] as? [Any])?.count, Self.forms.count, property + ": " + again.stdout)
            for label in Self.forms { assertNothingSpelled(again.all, label) }
        }
        let json = s.run(["list", "--json"])
        let rows = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [[String: Any]])
        XCTAssertEqual(rows.count, 3 + 3 * Self.forms.count)
        XCTAssertEqual(rows.compactMap { $0["label"] as? String }, [])
    }

    func testImportKeepsOrdinaryNames() throws {
        var vcf = ""
        for (i, label) in Self.allowed.enumerated() {
            vcf += "BEGIN:VCARD\r\nVERSION:3.0\r\nFN:\(Self.escaped(label))\r\nEMAIL:zz\(i)@contacts.test\r\nEND:VCARD\r\n"
        }
        let r = s.run(["import", "--json", s.writeFile("names.vcf", vcf)])
        XCTAssertEqual(r.status, 0, r.all)
        let json = s.run(["list", "--json"])
        let rows = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [[String: Any]])
        XCTAssertEqual(rows.compactMap { $0["label"] as? String }, Self.allowed)
    }

    /// A label an old vault holds that spells its account in one of these forms is masked, in a pipe,
    /// in JSON and in share mode.
    func testAStoredFormIsMaskedEverywhere() throws {
        try seedLabel(id: 1, "alice.smith arroba victim-domain punto example")
        try seedLabel(id: 2, "ᴢᴏʀɢʟᴜʙᴠɪᴄᴛɪᴍ")
        try seedLabel(id: 3, "Dad 900–123")
        for args in [["list"], ["list", "--json"], ["completions", "--list", "ids"]] {
            let r = s.run(args)
            XCTAssertEqual(r.status, 0, r.all)
            for label in ["alice.smith arroba victim-domain punto example", "ᴢᴏʀɢʟᴜʙᴠɪᴄᴛɪᴍ", "Dad 900–123"] { assertNothingSpelled(r.stdout, label) }
        }
        let json = s.run(["list", "--json"])
        let rows = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [[String: Any]])
        XCTAssertEqual(rows.map { $0["label"] as? String }, ["•••", "•••", "•••"])
    }

    private func seedLabel(id: Int, _ label: String) throws {
        let session = try VaultSession.open(at: try VaultLocation(path: s.vault), keyring: DisabledKeyring()) { _ in
            SecretBytes(copying: Array(Sandbox.passphrase.utf8))
        }
        try session.update { payload in
            if let i = payload.accounts.firstIndex(where: { $0.id == id }) { payload.accounts[i].label = label }
        }
    }
}
