import Foundation
import XCTest

/// `pwnvault import` as a person or a script runs it: real files exported the way address books write
/// them, the real binary, a real terminal for --pick.
final class ImportEndToEndTests: XCTestCase {
    /// Three exporters in one file (joined as `cat` joins them): Evolution (3.0, folded), Google (3.0,
    /// grouped) and an old phone (2.1, quoted-printable with a soft line break), plus a card without address.
    static let contacts = """
    BEGIN:VCARD\r
    VERSION:3.0\r
    X-EVOLUTION-FILE-AS:Lefèvre\\, Marie\r
    FN:Marie Lefèvre\r
    N:Lefèvre;Marie;;;\r
    EMAIL;X-EVOLUTION-UI-SLOT=1;TYPE=HOME:marie.lefevre@example.fr\r
    EMAIL;X-EVOLUTION-UI-SLOT=2;TYPE=WORK:m.lefevre@atelier-lefevre.exampl\r
     e.com\r
    END:VCARD\r
    \u{FEFF}BEGIN:VCARD\r
    VERSION:3.0\r
    FN:Dad\r
    item1.EMAIL;TYPE=INTERNET:robert.smith.1956@example.com\r
    item1.X-ABLabel:Old\r
    TEL;TYPE=CELL:+44 7700 900123\r
    END:VCARD\r
    BEGIN:VCARD\r
    VERSION:2.1\r
    FN;CHARSET=UTF-8;ENCODING=QUOTED-PRINTABLE:=D0=98=D0=B2=D0=B0=D0=BD =D0=98=D0=B2=D0=B0=D0=BD=\r
    =D0=BE=D0=B2\r
    EMAIL;INTERNET:ivan.ivanov@example.ru\r
    END:VCARD\r
    BEGIN:VCARD\r
    VERSION:4.0\r
    FN:The Plumber\r
    TEL:+44 20 7946 0000\r
    END:VCARD\r

    """
    /// Pieces of the addresses above that must never reach a pipe, a file, JSON or an error message.
    let fragments = ["marie.", "m.lef", "lefevre@", "atelier", "robert", "1956", "ivan.", "example", "7700", "900123"]

    /// Checks output for fragments of the addresses. Temporary paths are taken out first: their random
    /// names can contain "1956" by chance.
    func assertNoFragments(_ text: String, file: StaticString = #filePath, line: UInt = #line) {
        let withoutPaths = text.replacingOccurrences(of: #"/\S*pwnvault-e2e-[0-9A-F-]+\S*"#, with: "PATH", options: .regularExpression)
        for f in fragments {
            XCTAssertFalse(withoutPaths.lowercased().contains(f), "'\(f)' leaked into: \(text)", file: file, line: line)
        }
    }

    /// Every piece appears in what the terminal showed.
    func assertShows(_ transcript: String, _ pieces: [String], file: StaticString = #filePath, line: UInt = #line) {
        for piece in pieces { XCTAssertTrue(transcript.contains(piece), "'\(piece)' is not in: \(transcript)", file: file, line: line) }
    }

    func listed(_ s: Sandbox, file: StaticString = #filePath, line: UInt = #line) throws -> [[String: Any]] {
        let r = s.run(["list", "--json"])
        XCTAssertEqual(r.status, 0, r.stderr, file: file, line: line)
        return try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [[String: Any]], file: file, line: line)
    }

    func testEveryAddressIsAddedWithItsContactsNameAndNothingOfItReachesAPipe() throws {
        let s = try Sandbox(inProcess: true, keyring: false)
        s.initVault()
        let r = s.run(["import", s.writeFile("contacts.vcf", Self.contacts)])
        XCTAssertEqual(r.status, 0, r.all)
        XCTAssertEqual(r.stdout, """
        added #1  email  Marie Lefèvre
        added #2  email  Marie Lefèvre
        added #3  email  Dad
        added #4  email  Иван Иванов

        """)
        XCTAssertTrue(r.stderr.contains("4 addresses added from 3 contacts of 4 in "), r.stderr)
        XCTAssertTrue(r.stderr.contains("1 contact without an address skipped"), r.stderr)
        XCTAssertTrue(r.stderr.contains("2 phone numbers left out (--phones adds them)"), r.stderr)
        assertNoFragments(r.all)
        let rows = try listed(s)
        XCTAssertEqual(rows.compactMap { $0["label"] as? String }, ["Marie Lefèvre", "Marie Lefèvre", "Dad", "Иван Иванов"])
        XCTAssertEqual(rows.compactMap { $0["kind"] as? String }, ["email", "email", "email", "email"])
    }

    func testImportingAgainReportsWhatIsAlreadyThereAndAddsNothing() throws {
        let s = try Sandbox(inProcess: true, keyring: false)
        s.initVault()
        XCTAssertEqual(s.run(["add", "Robert.Smith.1956@EXAMPLE.com"]).status, 0)
        let path = s.writeFile("contacts.vcf", Self.contacts)
        let first = s.run(["import", path])
        XCTAssertEqual(first.status, 0, first.all)
        XCTAssertTrue(first.stderr.contains("line 13 is already in the vault as #1; not added again"), first.stderr)
        let again = s.run(["import", path, "--phones"])
        XCTAssertEqual(again.status, 0, again.all)
        XCTAssertEqual(again.stdout, "added #5  phone  Dad\nadded #6  phone  The Plumber\n")
        XCTAssertTrue(again.stderr.contains("4 already in the vault"), again.stderr)
        assertNoFragments(again.all)
        XCTAssertEqual(try listed(s).count, 6)
    }

    func testAFileWithoutAVCardIsRefusedAndNothingIsAdded() throws {
        let s = try Sandbox(inProcess: true, keyring: false)
        s.initVault()
        let before = try Data(contentsOf: URL(fileURLWithPath: s.vault))
        let r = s.run(["import", s.writeFile("notes.vcf", "Marie: marie.lefevre@example.fr\nDad: robert.smith.1956@example.com\n")])
        XCTAssertEqual(r.status, 2, r.all)
        XCTAssertTrue(r.stderr.contains("notes.vcf: the file holds no vCard (no line is BEGIN:VCARD); nothing was added"), r.stderr)
        XCTAssertTrue(r.stderr.contains("pwnvault: hint:"), r.stderr)
        assertNoFragments(r.all)
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: s.vault)), before, "the vault was not even rewritten")
    }

    /// The shapes that used to lose a whole address book, in one file: KAddressBook's `X-messaging/…`
    /// name, an FN without a colon, a PHOTO cut off in the middle (its base64 lines unfolded, as 2.1
    /// writers do), an AGENT's vCard, and a contact cut off at the end of the file.
    static let damaged = """
    BEGIN:VCARD\r
    VERSION:3.0\r
    FN:Marie Lefèvre\r
    X-messaging/twitter-All:marie_lefevre\r
    EMAIL;TYPE=HOME:marie.lefevre@example.fr\r
    END:VCARD\r
    BEGIN:VCARD\r
    VERSION:2.1\r
    FN Dad\r
    N:Smith;Bob\r
    EMAIL;INTERNET:robert.smith.1956@example.com\r
    PHOTO;ENCODING=BASE64;TYPE=JPEG:/9j/4AAQSkZJRgABAQEASABIAAD/2wBDAAYEBQYFBAYGBQYHBwYICxIMCwoK\r
    CxcQEQ0SGxccHBoXGhkdISokHR8oIBkaJTIlKCwtLy8vHSM0ODQuNyouLy7/2wBDAQcH\r
    AGENT:\r
    BEGIN:VCARD\r
    VERSION:2.1\r
    EMAIL;INTERNET:ivan.ivanov@example.ru\r
    END:VCARD\r
    END:VCARD\r
    BEGIN:VCARD\r
    VERSION:3.0\r
    FN:Atelier\r
    EMAIL:m.lefevre@atelier-lefevre.exampl\r

    """

    func testADamagedFileAddsEveryReadableContactAndSaysWhichLinesWereSkipped() throws {
        let s = try Sandbox(inProcess: true, keyring: false)
        s.initVault()
        let path = s.writeFile("damaged.vcf", Self.damaged)
        let r = s.run(["import", path])
        XCTAssertEqual(r.status, 0, r.all)
        XCTAssertEqual(r.stdout, "added #1  email  Marie Lefèvre\nadded #2  email  Bob Smith\n")
        XCTAssertTrue(r.stderr.contains("pwnvault: warning: line 4: a property name with characters names cannot have; skipped\n"), r.stderr)
        XCTAssertTrue(r.stderr.contains("pwnvault: warning: line 9: a property line without ':' (vCard lines are NAME:VALUE); skipped\n"), r.stderr)
        XCTAssertTrue(r.stderr.contains("pwnvault: warning: lines 15-18: a vCard inside this contact (AGENT); only the outer contact is read; skipped\n"), r.stderr)
        XCTAssertTrue(r.stderr.contains("pwnvault: warning: line 20: BEGIN:VCARD without END:VCARD (the contact is cut off); the contact is skipped\n"), r.stderr)
        let summary = try XCTUnwrap(r.stderr.split(separator: "\n").last)
        XCTAssertEqual(summary, "pwnvault: 2 addresses added from 2 contacts of 3 in \(path); 7 unreadable lines skipped (lines 4, 9, 13, 15-18); 1 cut-off contact skipped (line 20)")
        assertNoFragments(r.all)

        let again = s.run(["import", path, "--json"])
        XCTAssertEqual(again.status, 0, again.all)
        assertNoFragments(again.all)
        let json = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(again.stdout.utf8)) as? [String: Any])
        XCTAssertEqual((json["duplicates"] as? [[String: Any]])?.compactMap { $0["line"] as? Int }, [5, 11])
        let lines = try XCTUnwrap(json["skippedLines"] as? [[String: Any]])
        XCTAssertEqual(lines.compactMap { $0["line"] as? Int }, [4, 9, 13, 15])
        XCTAssertEqual(lines.compactMap { $0["lastLine"] as? Int }, [4, 9, 13, 18])
        XCTAssertEqual((json["skippedContacts"] as? [[String: Any]])?.compactMap { $0["line"] as? Int }, [20])
        XCTAssertEqual(json["contacts"] as? Int, 3)
        XCTAssertEqual(try listed(s).compactMap { $0["label"] as? String }, ["Marie Lefèvre", "Bob Smith"])
    }

    func testATelURIGivesItsNumberAndASIPAddressIsNotAPhoneNumber() throws {
        let s = try Sandbox(inProcess: true, keyring: false)
        s.initVault()
        let r = s.run(["import", s.writeFile("uri.vcf", """
        BEGIN:VCARD\r
        VERSION:4.0\r
        FN:Dad\r
        TEL;VALUE=uri;TYPE="voice,home":tel:+44-7700-900123;ext=5555\r
        TEL;VALUE=uri:sip:robert@example.com\r
        END:VCARD\r

        """), "--phones"])
        XCTAssertEqual(r.status, 0, r.all)
        XCTAssertEqual(r.stdout, "added #1  phone  Dad\n")
        XCTAssertTrue(r.stderr.contains("pwnvault: warning: line 5: not a phone number (a sip: address); skipped\n"), r.stderr)
        XCTAssertTrue(r.stderr.contains("pwnvault: line 4: the phone number's extension was left out (HIBP knows numbers, not extensions)\n"), r.stderr)
        XCTAssertFalse(r.stderr.contains("e-mail"), r.stderr)
        assertNoFragments(r.all)
    }

    func testAnInvalidAddressIsSkippedAndReportedByLineWhileTheOthersAreAdded() throws {
        let s = try Sandbox(inProcess: true, keyring: false)
        s.initVault()
        let text = Self.contacts.replacingOccurrences(of: "robert.smith.1956@example.com", with: "robert.smith.1956@example")
        let r = s.run(["import", s.writeFile("typo.vcf", text)])
        XCTAssertEqual(r.status, 0, r.all)
        XCTAssertTrue(r.stderr.contains("pwnvault: warning: line 13: the domain of the e-mail address has no dot; skipped"), r.stderr)
        XCTAssertTrue(r.stderr.contains("1 invalid address skipped"), r.stderr)
        assertNoFragments(r.all)
        XCTAssertEqual(try listed(s).compactMap { $0["label"] as? String }, ["Marie Lefèvre", "Marie Lefèvre", "Иван Иванов"])
    }

    func testFromStdinAsJSONWithLinesIdsAndLabelsOnly() throws {
        let s = try Sandbox(inProcess: true, keyring: false)
        s.initVault()
        let r = s.run(["import", "-", "--json"], input: Self.contacts + Self.contacts.replacingOccurrences(of: "FN:Dad", with: "FN:Father"))
        XCTAssertEqual(r.status, 0, r.all)
        assertNoFragments(r.all)
        let json = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any])
        let added = try XCTUnwrap(json["added"] as? [[String: Any]])
        XCTAssertEqual(added.compactMap { $0["id"] as? Int }, [1, 2, 3, 4])
        XCTAssertEqual(added.compactMap { $0["line"] as? Int }, [6, 7, 13, 21])
        XCTAssertEqual(added.compactMap { $0["label"] as? String }, ["Marie Lefèvre", "Marie Lefèvre", "Dad", "Иван Иванов"])
        let repeated = try XCTUnwrap(json["repeated"] as? [[String: Any]])
        XCTAssertEqual(repeated.compactMap { $0["line"] as? Int }, [33, 34, 40, 48])
        XCTAssertEqual(repeated.compactMap { $0["firstLine"] as? Int }, [6, 7, 13, 21])
        XCTAssertEqual(json["contacts"] as? Int, 8)
        XCTAssertEqual(json["contactsWithoutAddress"] as? Int, 2)
        XCTAssertEqual(json["phonesIgnored"] as? Int, 4)
        XCTAssertEqual((json["invalid"] as? [Any])?.count, 0)
    }

    func testUnreadableTooLargeAndMissingFilesAreRefused() throws {
        let s = try Sandbox(inProcess: true, keyring: false)
        s.initVault()
        let missing = s.run(["import", s.dir.appendingPathComponent("nope.vcf").path])
        XCTAssertEqual(missing.status, 2, missing.all)
        XCTAssertTrue(missing.stderr.contains("there is no such file"), missing.stderr)
        let folder = s.run(["import", s.dir.path])
        XCTAssertEqual(folder.status, 2, folder.all)
        XCTAssertTrue(folder.stderr.contains("it is a folder"), folder.stderr)
        let huge = Self.contacts + "NOTE:" + String(repeating: "x", count: 16 * 1024 * 1024) + "\r\n"
        let big = s.run(["import", s.writeFile("huge.vcf", huge)])
        XCTAssertEqual(big.status, 2, big.all)
        XCTAssertTrue(big.stderr.contains("larger than 16 MiB"), big.stderr)
        XCTAssertEqual(try listed(s).count, 0)
    }

    // MARK: --pick

    func testPickWithoutATerminalIsRefusedWithAHint() throws {
        let s = try Sandbox(inProcess: true, keyring: false)
        s.initVault()
        let r = s.run(["import", s.writeFile("contacts.vcf", Self.contacts), "--pick"])
        XCTAssertEqual(r.status, 2, r.all)
        XCTAssertTrue(r.stderr.contains("--pick needs a terminal"), r.stderr)
        XCTAssertTrue(r.stderr.contains("leave out --pick"), r.stderr)
        XCTAssertEqual(try listed(s).count, 0)
    }

    func testPickOnATerminalShowsMaskedAddressesAndAddsOnlyWhatWasChosen() throws {
        let s = try Sandbox(inProcess: true, keyring: false)
        s.initVault()
        XCTAssertEqual(s.run(["add", "ivan.ivanov@example.ru"]).status, 0)
        let r = s.runOnTerminal(["import", s.writeFile("contacts.vcf", Self.contacts), "--pick", "--no-share"],
                                steps: [("Add which?", "4\n"), ("Add which?", "1b 2 3\n")])
        XCTAssertEqual(r.status, 0, r.stdout)
        assertShows(r.stdout, ["3 contacts with addresses in ",
                               "  1  Marie Lefèvre",
                               "a  m•••e@e•••.fr",
                               "b  m•••e@e•••.com",
                               "i•••v@e•••.ru  (already in the vault as #1)",
                               "there is no contact 4 (the list goes from 1 to 3)",
                               "added #2  m•••e@e•••.com  email  Marie Lefèvre",
                               "added #3  r•••6@e•••.com  email  Dad",
                               "line 21 is already in the vault as #1"])
        assertNoFragments(r.stdout)
        let rows = try listed(s)
        XCTAssertEqual(rows.compactMap { $0["id"] as? Int }, [1, 2, 3])
        XCTAssertEqual(rows.map { $0["label"] as? String }, [nil, "Marie Lefèvre", "Dad"])
    }

    func testPickingNothingOrEndingTheInputAddsNothing() throws {
        let s = try Sandbox(inProcess: true, keyring: false)
        s.initVault()
        let path = s.writeFile("contacts.vcf", Self.contacts)
        let none = s.runOnTerminal(["import", path, "--pick", "--no-share"], steps: [("Add which?", "\n")])
        XCTAssertEqual(none.status, 0, none.stdout)
        XCTAssertTrue(none.stdout.contains("nothing was picked; nothing was added"), none.stdout)
        let ended = s.runOnTerminal(["import", path, "--pick", "--no-share"], steps: [("Add which?", "\\x04")])
        XCTAssertEqual(ended.status, 0, ended.stdout)
        XCTAssertTrue(ended.stdout.contains("nothing was picked; nothing was added"), ended.stdout)
        XCTAssertEqual(try listed(s).count, 0)
    }

    func testPickInShareModeShowsNamesButNoMaskAndReadsTheFileFromStdin() throws {
        let s = try Sandbox(inProcess: true, keyring: false)
        s.initVault()
        let path = s.writeFile("contacts.vcf", Self.contacts)
        // stdin is the file; the list and the answer still use the terminal.
        let r = Sandbox.exec(Paths.python, [Paths.support("ptyrun.py"), "--expect", "Add which?", "--send", "all\\n",
                                              "--", "/bin/sh", "-c", "exec \"$0\" import - --pick --share < \"$1\"", Paths.binary, path],
                             input: nil, environment: s.environment.merging(["PWNVAULT_PASSPHRASE_FILE": s.passphraseFile]) { $1 })
        XCTAssertEqual(r.status, 0, r.all)
        assertShows(r.stdout, ["(share mode: names only)",
                               "  3  Иван Иванов",
                               "e-mail address"])
        XCTAssertFalse(r.stdout.contains("•"), r.stdout)
        assertShows(r.stdout, ["added #4  email  Иван Иванов"])
        assertNoFragments(r.stdout)
        XCTAssertEqual(try listed(s).count, 4)
    }
}
