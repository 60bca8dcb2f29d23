import Foundation
import XCTest

/// What pwnvault accepts as input, run as a person or a script would: raw command-line bytes,
/// look-alike accounts, usernames HIBP cannot look up, an IPv6 test server.
final class InputEndToEndTests: XCTestCase {
    /// `pwnvault ARGS` where `shellWords` are shell words (so `$(printf '\377')` can put bytes that are
    /// not UTF-8 into argv, which `Process`, taking `String`s, cannot).
    func runRaw(_ s: Sandbox, _ shellWords: String) -> RunResult {
        var env = s.environment
        env["PWNVAULT_PASSPHRASE_FILE"] = s.passphraseFile
        return Sandbox.exec("/bin/sh", ["-c", "exec \"$0\" \(shellWords)", Paths.binary], input: nil, environment: env)
    }

    func accountCount(_ s: Sandbox) throws -> Int {
        let list = s.run(["list", "--json"])
        XCTAssertEqual(list.status, 0, list.stderr)
        return try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(list.stdout.utf8)) as? [Any]).count
    }

    // MARK: arguments that are not UTF-8

    func testAnAccountArgumentThatIsNotUTF8IsRefusedByPositionAndNothingIsAdded() throws {
        let s = try Sandbox(inProcess: true)
        s.initVault()
        let r = runRaw(s, "add ok@example.com \"$(printf 'al\\377ce@example.com')\"")
        XCTAssertEqual(r.status, 2, r.all)
        XCTAssertEqual(r.stdout, "")
        XCTAssertTrue(r.stderr.hasPrefix("pwnvault: error: argument 3 is not valid UTF-8 text"), r.stderr)
        XCTAssertTrue(r.stderr.contains("pwnvault: hint:"), r.stderr)
        XCTAssertFalse(r.stderr.contains("al") && r.stderr.contains("ce@"), "the bytes are never echoed: \(r.stderr)")
        XCTAssertFalse(r.stderr.contains("ok@example.com"), r.stderr)
        XCTAssertFalse(r.stderr.contains("\u{FFFD}"), r.stderr)
        XCTAssertEqual(r.stderr.split(separator: "\n").count, 2, r.stderr)
        XCTAssertEqual(try accountCount(s), 0)
    }

    func testAnOptionValueThatIsNotUTF8IsRefusedBeforeTheCommandRuns() throws {
        let s = try Sandbox(inProcess: true)
        s.initVault()
        let label = runRaw(s, "add ok@example.com --label \"$(printf 'Mum\\351')\"")
        XCTAssertEqual(label.status, 2, label.all)
        XCTAssertTrue(label.stderr.hasPrefix("pwnvault: error: argument 4 is not valid UTF-8 text"), label.stderr)
        XCTAssertEqual(try accountCount(s), 0)
        // A vault path: repaired, it would name another file.
        let path = runRaw(s, "list --vault \"$(printf '/tmp/v\\377')\"")
        XCTAssertEqual(path.status, 2, path.all)
        XCTAssertTrue(path.stderr.hasPrefix("pwnvault: error: argument 3 is not valid UTF-8 text"), path.stderr)
        // Even where no command would look at it.
        XCTAssertEqual(runRaw(s, "\"$(printf '\\377')\"").status, 2)
    }

    // MARK: usernames HIBP cannot look up

    func testUsernamesOfDotsOnlyAndEmptyOnesAreRefusedAtAddByPosition() throws {
        let s = try Sandbox(inProcess: true)
        s.initVault()
        for (args, position) in [(["add", "ok@example.com", ".."], "argument 2"), (["add", "."], "argument 1"),
                                 (["add", "ok@example.com", "   "], "argument 2")] {
            let r = s.run(args)
            XCTAssertEqual(r.status, 2, r.all)
            XCTAssertTrue(r.stderr.hasPrefix("pwnvault: error: \(position): the "), r.stderr)
            XCTAssertTrue(r.stderr.contains("nothing was added"), r.stderr)
            XCTAssertTrue(r.stderr.contains("pwnvault: hint:"), r.stderr)
            XCTAssertFalse(r.stderr.contains("ok@example.com"), r.stderr)
        }
        let stdin = s.run(["add", "-"], input: "ok@example.com\n...\n")
        XCTAssertEqual(stdin.status, 2, stdin.all)
        XCTAssertTrue(stdin.stderr.hasPrefix("pwnvault: error: line 2 of stdin: the username is made of dots only"), stdin.stderr)
        XCTAssertEqual(try accountCount(s), 0)
        // check refuses it too, before anything is sent.
        let check = s.run(["check", ".."], env: ["PWNVAULT_API_URL": "http://127.0.0.1:9/api/v3", "HIBP_API_KEY": String(repeating: "1", count: 32)])
        XCTAssertEqual(check.status, 2, check.all)
        XCTAssertTrue(check.stderr.contains("dots only"), check.stderr)
    }

    // MARK: look-alike accounts (UTS #39, Debian's ICU)

    let alice = "alice@example.com"
    let cyrillicA = "\u{430}lice@example.com"          // а (Cyrillic) + lice
    let cyrillicInDomain = "alice@ex\u{430}mple.com"    // ex + а (Cyrillic) + mple

    func warnings(_ r: RunResult) -> [String] {
        r.stderr.split(separator: "\n").map(String.init).filter { $0.hasPrefix("pwnvault: warning:") }
    }

    /// Nothing of an account in what pwnvault printed: only ids and script names.
    func assertNoAccountText(_ text: String, file: StaticString = #filePath, line: UInt = #line) {
        for fragment in ["alice", "lice", "example", "mple", "\u{430}"] {
            XCTAssertFalse(text.contains(fragment), "'\(fragment)' leaked into: \(text)", file: file, line: line)
        }
    }

    func testTheThreeLookAlikesAreAddedWithWarningsThatNameBothIds() throws {
        let s = try Sandbox(inProcess: true)
        s.initVault()
        XCTAssertEqual(s.run(["add", alice]).status, 0)
        let second = s.run(["add", cyrillicA])
        XCTAssertEqual(second.status, 0, second.all)
        XCTAssertEqual(warnings(second), ["pwnvault: warning: #2 looks like #1 (mixed scripts: Cyrillic and Latin)"], second.stderr)
        let third = s.run(["add", cyrillicInDomain])
        XCTAssertEqual(third.status, 0, third.all)
        XCTAssertEqual(warnings(third), ["pwnvault: warning: #3 looks like #1 and #2 (mixed scripts: Latin and Cyrillic)"], third.stderr)
        assertNoAccountText(second.all + third.all)
        XCTAssertEqual(try accountCount(s), 3, "warned, not refused")
        // On a terminal the three mask alike, which is why the warning exists.
        let tty = s.runOnTerminal(["list"])
        XCTAssertEqual(tty.stdout.components(separatedBy: "•••e@e•••.com").count - 1, 3, tty.stdout)
    }

    func testLookAlikesWithinOneAddAndFromStdinAreWarnedToo() throws {
        let s = try Sandbox(inProcess: true)
        s.initVault()
        let r = s.run(["add", "-", "--json"], input: "\(alice)\n\(cyrillicA)\n")
        XCTAssertEqual(r.status, 0, r.all)
        XCTAssertEqual(warnings(r), ["pwnvault: warning: #2 looks like #1 (mixed scripts: Cyrillic and Latin)"], r.stderr)
        assertNoAccountText(r.all)
    }

    func testImportAndCheckSaveWarnAsAddDoes() throws {
        let s = try Sandbox(inProcess: true)
        s.initVault()
        XCTAssertEqual(s.run(["add", alice]).status, 0)
        let card = "BEGIN:VCARD\r\nVERSION:3.0\r\nFN:Twin\r\nEMAIL:\(cyrillicA)\r\nEND:VCARD\r\n"
        let imported = s.run(["import", "-"], input: card)
        XCTAssertEqual(imported.status, 0, imported.all)
        XCTAssertEqual(warnings(imported), ["pwnvault: warning: #2 looks like #1 (mixed scripts: Cyrillic and Latin)"], imported.stderr)
        assertNoAccountText(imported.all)

        let server = try FakeHIBP()
        let checked = s.run(["check", cyrillicInDomain, "--save"],
                            env: ["PWNVAULT_API_URL": server.apiURL, "HIBP_API_KEY": FakeHIBP.key])
        XCTAssertTrue([0, 1].contains(checked.status), checked.all)
        XCTAssertTrue(warnings(checked).contains("pwnvault: warning: #3 looks like #1 and #2 (mixed scripts: Latin and Cyrillic)"),
                      checked.stderr)
        assertNoAccountText(checked.all)
    }

    /// UTS #39 restriction levels judge each part (local part, domain label) alone: an address written
    /// wholly in Cyrillic mixes nothing. It is warned about only when it looks like an account already there.
    func testAnAllCyrillicAddressIsWarnedOnlyWhenItLooksLikeAnotherAccount() throws {
        let s = try Sandbox(inProcess: true)
        s.initVault()
        let russian = s.run(["add", "иван@пример.рф"])
        XCTAssertEqual(russian.status, 0, russian.all)
        XCTAssertEqual(warnings(russian), [])
        let twinOfLatin = "\u{441}\u{43E}\u{440}\u{443}@\u{455}\u{440}\u{430}\u{441}\u{435}.\u{441}\u{445}"   // сору@ѕрасе.сх
        XCTAssertEqual(s.run(["add", "copy@space.cx"]).status, 0)
        let twin = s.run(["add", twinOfLatin])
        XCTAssertEqual(twin.status, 0, twin.all)
        XCTAssertEqual(warnings(twin), ["pwnvault: warning: #3 looks like #2 (written in Cyrillic, #2 in Latin)"], twin.stderr)
    }

    func testAPlainASCIIVaultGetsNoWarningAndListNeverLoadsDebiansICU() throws {
        let s = try Sandbox(inProcess: true)
        s.initVault()
        let r = s.run(["add", alice, "bob_the_builder", "+44 7700 900123", "carol.smith+news@example.org", "dave-1984"])
        XCTAssertEqual(r.status, 0, r.all)
        XCTAssertEqual(r.stderr, "", r.stderr)
        // The dynamic loader's own report: `add` loaded ICU, `list` did not (nor the libraries ICU needs).
        let add = s.run(["add", "erin@example.com"], env: ["LD_DEBUG": "libs"])
        XCTAssertTrue(add.stderr.contains("libicui18n.so."), "add checks look-alikes with Debian's ICU")
        let list = s.run(["list"], env: ["LD_DEBUG": "libs"])
        XCTAssertEqual(list.status, 0)
        for library in ["libicui18n.so", "libicuuc.so", "libicudata.so"] {
            XCTAssertFalse(list.stderr.contains(library), "list loaded \(library)")
        }
    }

    // MARK: an IPv6 test server

    /// A test server on ::1 only is reached both as `[::1]` (libcurl connects to IPv6 literals; Swift's
    /// URLSession could not, swift-corelibs-foundation#5496) and as localhost.
    func testBracketedIPv6AndLocalhostReachAServerOnIPv6Loopback() throws {
        let probe = Sandbox.exec(Paths.python, ["-c", "import socket; s=socket.socket(socket.AF_INET6); s.bind(('::1', 0))"],
                                 input: nil, environment: ProcessInfo.processInfo.environment)
        if probe.status != 0 { throw XCTSkip("this machine has no IPv6 loopback (::1): \(probe.stderr)") }
        let server = try FakeHIBP(host: "::1")
        let s = try Sandbox(inProcess: true)
        s.initVault()
        s.environment["HIBP_API_KEY"] = FakeHIBP.key

        let bracketed = s.run(["check", "clean.ann@example.com"], env: ["PWNVAULT_API_URL": server.apiURL])
        XCTAssertEqual(server.apiURL, "http://[::1]:\(server.port)/api/v3")
        XCTAssertEqual(bracketed.status, 0, bracketed.all)

        let viaLocalhost = s.run(["check", "clean.ann@example.com"], env: ["PWNVAULT_API_URL": "http://localhost:\(server.port)/api/v3"])
        XCTAssertEqual(viaLocalhost.status, 0, viaLocalhost.all)
        let paths = server.log().compactMap { $0["path"] as? String }
        XCTAssertTrue(paths.contains { $0.contains("/breachedaccount/") }, "\(paths)")
    }
}
