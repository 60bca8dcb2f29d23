import Foundation
import TestSupport
import XCTest

/// Issue 32, item 7: an import that could read no contact fails with the reason; `--phones` counts
/// numbers as numbers; `added #10` keeps the columns in line; `ack --all` asks on a terminal.
final class FirstHourSmallThingsEndToEndTests: XCTestCase {
    func testAnImportOfWhichNoContactCouldBeReadExitsWithStatus2AndTheReason() throws {
        let s = try Sandbox(keyring: false)
        s.initVault()
        // The only contact is cut off (no END:VCARD): nothing could be read.
        let path = s.writeFile("cut.vcf", "BEGIN:VCARD\r\nVERSION:3.0\r\nFN:Kim\r\nEMAIL:kim@example.com\r\n")
        let r = s.run(["import", path])
        XCTAssertEqual(r.status, 2, r.all)
        XCTAssertTrue(r.stderr.contains("the contact is skipped"), r.stderr)
        XCTAssertTrue(r.stderr.contains("pwnvault: error: no contact in \(path) could be read; nothing was added"), r.stderr)
        XCTAssertTrue(r.stderr.contains("pwnvault: hint: "), r.stderr)
        let json = s.run(["import", path, "--json"])
        XCTAssertEqual(json.status, 2, "the same status with --json: \(json.all)")
        // One readable contact beside it: an import, status 0.
        let mixed = s.writeFile("mixed.vcf", "BEGIN:VCARD\r\nVERSION:3.0\r\nFN:Lee\r\nEMAIL:lee@example.com\r\nEND:VCARD\r\n"
                                + "BEGIN:VCARD\r\nVERSION:3.0\r\nFN:Kim\r\nEMAIL:kim@example.com\r\n")
        XCTAssertEqual(s.run(["import", mixed]).status, 0)
    }

    func testPhonesAreCountedAsNumbersAndAddedLinesStayInColumns() throws {
        let s = try Sandbox(keyring: false)
        s.initVault()
        for n in 1...8 { XCTAssertEqual(s.run(["add", "user\(n)x"]).status, 0) }
        let path = s.writeFile("family.vcf", """
        BEGIN:VCARD\r
        VERSION:3.0\r
        FN:Dad\r
        EMAIL:dad@example.com\r
        TEL:+44 7700 900123\r
        END:VCARD\r
        BEGIN:VCARD\r
        VERSION:3.0\r
        FN:Mum\r
        TEL:+44 7700 900456\r
        END:VCARD\r

        """)
        let r = s.run(["import", path, "--phones"])
        XCTAssertEqual(r.status, 0, r.all)
        XCTAssertTrue(r.stderr.contains("1 address and 2 phone numbers added from 2 contacts of 2 in"), r.stderr)
        XCTAssertEqual(r.stdout, """
        added #9   email  Dad
        added #10  phone  Dad
        added #11  phone  Mum

        """, "the kinds start in one column")
        let only = s.writeFile("aunt.vcf", "BEGIN:VCARD\r\nVERSION:3.0\r\nFN:Aunt\r\nTEL:+44 7700 900789\r\nEND:VCARD\r\n")
        XCTAssertTrue(s.run(["import", only, "--phones"]).stderr.contains("1 phone number added from 1 contact of 1 in"))
    }

    func testAckAllAsksOnATerminalAndNotInAScript() throws {
        let s = try Sandbox(keyring: false)
        let server = try FakeHIBP()
        s.use(server)
        s.initVault()
        XCTAssertEqual(s.run(["add", "account-exists@hibp-integration-tests.com"]).status, 0)
        XCTAssertEqual(s.run(["check", "--all"]).status, 1)
        let no = s.runOnTerminal(["ack", "--all"], steps: [("[y/N]", "n\n")])
        XCTAssertEqual(no.status, 0, no.all)
        XCTAssertTrue(no.all.contains("1 finding not acknowledged, in 1 of the vault's accounts"), no.all)
        XCTAssertTrue(no.all.contains("nothing was acknowledged"), no.all)
        XCTAssertTrue(s.run(["list", "--status", "unacknowledged"]).stdout.contains("#1"), "still to acknowledge")
        let yes = s.runOnTerminal(["ack", "--all", "--yes"])
        XCTAssertTrue(yes.all.contains("#1: acknowledged 1 finding"), yes.all)
        XCTAssertFalse(yes.all.contains("[y/N]"), yes.all)
        XCTAssertEqual(s.run(["list", "--status", "unacknowledged"]).stdout, "")
        // A script (no terminal) is not asked, as before.
        XCTAssertEqual(s.run(["add", "multiple-breaches@hibp-integration-tests.com"]).status, 0)
        XCTAssertEqual(s.run(["check", "#2"]).status, 1)
        let script = s.run(["ack", "--all"])
        XCTAssertEqual(script.status, 0, script.all)
        XCTAssertTrue(script.stdout.hasPrefix("#2: acknowledged"), script.all)
    }
}
