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
        let s = try Sandbox()
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
        let s = try Sandbox()
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
        let s = try Sandbox()
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
}
