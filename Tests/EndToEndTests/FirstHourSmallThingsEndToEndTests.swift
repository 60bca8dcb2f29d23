import Foundation
import TestSupport
import XCTest

/// Issue 32, item 7: an import that could read no contact fails with the reason; `--phones` counts
/// numbers as numbers; `added #10` keeps the columns in line; `ack --all` asks on a terminal.
final class FirstHourSmallThingsEndToEndTests: XCTestCase {
    func testAnImportOfWhichNoContactCouldBeReadExitsWithStatus2AndTheReason() throws {
        let s = try Sandbox(inProcess: true, keyring: false)
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
        let s = try Sandbox(inProcess: true, keyring: false)
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
        let s = try Sandbox(inProcess: true, keyring: false)
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

    /// bash lists ids by number (1 2 … 10 11, not 1 10 11 2), and `ack ID <Tab>` never offers a
    /// breach already on the line.
    func testBashCompletionOrdersIdsByNumberAndOffersABreachOnce() throws {
        let server = try FakeHIBP(fixtures: """
        {"accounts": {"kim@example.com": {"breaches": ["Adobe", "Brightmere"], "ownerVerified": true}}}
        """)
        let s = try Sandbox(inProcess: true)
        s.use(server)
        s.initVault()
        XCTAssertEqual(s.run(["add", "kim@example.com"]).status, 0)
        for n in 2...11 { XCTAssertEqual(s.run(["add", "user\(n)x"]).status, 0) }
        XCTAssertEqual(s.run(["check", "#1"]).status, 1)
        let script = s.run(["completions", "bash"]).stdout
        func complete(_ words: [String]) -> [String] {
            let quoted = words.map { "'" + $0.replacingOccurrences(of: "'", with: #"'\''"#) + "'" }.joined(separator: " ")
            let r = Sandbox.exec("/bin/bash", ["--norc", "--noprofile", "-c",
                                               script + "\nCOMP_WORDS=(\(quoted)); COMP_CWORD=\(words.count - 1); _pwnvault; printf '%s\\n' \"${COMPREPLY[@]}\""],
                                 input: nil, environment: s.environment)
            return r.stdout.split(separator: "\n").map(String.init)
        }
        XCTAssertEqual(Set(complete([Paths.binary, "ack", "1", ""])), ["Adobe", "Brightmere"])
        XCTAssertEqual(complete([Paths.binary, "ack", "1", "Adobe", ""]), ["Brightmere"], "Adobe is on the line already")
        XCTAssertEqual(complete([Paths.binary, "ack", "1", "'Brightmere'", ""]), ["Adobe"], "quoted, too")
        XCTAssertEqual(complete([Paths.binary, "breach", "Adobe", "Ado"]), [], "breach takes one name")

        // In an interactive bash, as a person presses Tab twice: the ids in pwnvault's order.
        // The pane's shell gets PWNVAULT_* and TEST_* only: the keyring's bus is passed as TEST_DBUS.
        let process = ProcessInfo.processInfo.environment
        var environment = s.environment.filter { $0.key.hasPrefix("PWNVAULT_") }
        environment["TEST_BIN"] = Paths.binary
        environment["TEST_DIR"] = s.dir.path
        environment["TEST_DBUS"] = s.environment["DBUS_SESSION_BUS_ADDRESS"] ?? process["DBUS_SESSION_BUS_ADDRESS"] ?? ""
        environment["TEST_RUNTIME"] = s.environment["XDG_RUNTIME_DIR"] ?? process["XDG_RUNTIME_DIR"] ?? ""
        environment["HOME"] = s.home.path
        let tmux = try TmuxSession(columns: 100, rows: 20, environment: environment)
        defer { tmux.close() }
        tmux.run("export DBUS_SESSION_BUS_ADDRESS=\"$TEST_DBUS\" XDG_RUNTIME_DIR=\"$TEST_RUNTIME\"; mkdir -p \"$TEST_DIR/bin\"; "
                 + "ln -sf \"$TEST_BIN\" \"$TEST_DIR/bin/pwnvault\"; export PATH=\"$TEST_DIR/bin:$PATH\"; "
                 + "source <(pwnvault completions bash); clear")
        tmux.type("pwnvault show ")
        tmux.key("Tab")
        tmux.key("Tab")
        XCTAssertTrue(tmux.wait(for: "11"), tmux.screen)
        let row = try XCTUnwrap(tmux.screen.split(separator: "\n").first { $0.contains("10") && $0.contains("2") }, tmux.screen)
        XCTAssertEqual(row.split(separator: " ").map(String.init), (1...11).map { "\($0)" }, "by number: \(row)")
    }
}
