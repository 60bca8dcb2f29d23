import Foundation
import XCTest

/// What a person at a terminal sees: prompts without echo, masked accounts, one-line errors.
final class TerminalEndToEndTests: XCTestCase {
    func testInitAsksTwiceWithoutEchoAndTheKeyringOpensItAfterwards() throws {
        let s = try Sandbox()
        let typed = "tr0ub4dor and 3 more words"
        let r = s.runOnTerminal(["init", "--weak-passphrase-ok", "--kdf", "interactive"],
                                steps: [("New passphrase", typed + "\n"), ("Repeat it", typed + "\n")],
                                passphraseFromFile: false)
        XCTAssertEqual(r.status, 0, r.stdout)
        XCTAssertFalse(r.stdout.contains(typed), "the passphrase must not be echoed: \(r.stdout)")
        XCTAssertTrue(r.stdout.contains("created an empty vault"), r.stdout)
        XCTAssertEqual(s.run(["list"], passphraseFromFile: false).status, 0)
    }

    func testMismatchedPassphrasesCreateNothing() throws {
        let s = try Sandbox()
        let r = s.runOnTerminal(["init", "--weak-passphrase-ok", "--kdf", "interactive"],
                                steps: (1...3).flatMap { _ in [("New passphrase", "first passphrase\n"), ("Repeat it", "second passphrase\n")] },
                                passphraseFromFile: false)
        XCTAssertEqual(r.status, 3, r.stdout)
        XCTAssertEqual(r.stdout.components(separatedBy: "New passphrase").count - 1, 3, "three tries: \(r.stdout)")
        XCTAssertTrue(r.stdout.contains("do not match"), r.stdout)
        XCTAssertFalse(FileManager.default.fileExists(atPath: s.vault))
    }

    func testThePassphrasePromptOnATerminalInPassphraseOnlyMode() throws {
        let s = try Sandbox(keyring: false)
        s.initVault()
        XCTAssertEqual(s.run(["add", "yara@example.com"]).status, 0)
        let r = s.runOnTerminal(["list"], steps: [("Passphrase for", Sandbox.passphrase + "\n")], passphraseFromFile: false)
        XCTAssertEqual(r.status, 0, r.stdout)
        XCTAssertFalse(r.stdout.contains(Sandbox.passphrase))
        XCTAssertTrue(r.stdout.contains("y•••a@e•••.com"), r.stdout)
    }

    func testCtrlCAtThePromptRestoresEcho() throws {
        let s = try Sandbox(keyring: false)
        s.initVault()
        // A person at an interactive shell runs pwnvault, presses Ctrl-C at the prompt, then looks at the modes.
        var env = s.environment
        env["PWNVAULT"] = Paths.binary
        let modes = "stty -a | tr ' ' '\\n' | grep -x -- '-\\?echo' | sed 's/^/MODE=/'\n"
        let r = Sandbox.exec(Paths.python, [Paths.support("ptyrun.py"),
                                              "--expect", "bash", "--send", "PS1='READY''> '\n",
                                              "--expect", "READY> ", "--send", modes,
                                              "--expect", "READY> ", "--send", "\"$PWNVAULT\" list\n",
                                              "--expect", "Passphrase for", "--send", "\\x03",
                                              "--expect", "READY> ", "--send", "echo RC=$?; " + modes,
                                              "--expect", "READY> ", "--send", "exit\n",
                                              "--", "/bin/bash", "--norc", "--noprofile", "-i"], input: nil, environment: env)
        let seen = r.stdout.components(separatedBy: .newlines).map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }
        // Lines the commands printed (the typed command lines contain "MODE=/" and "RC=$?", not these).
        XCTAssertEqual(seen.filter { $0.hasSuffix("MODE=echo") || $0.hasSuffix("MODE=-echo") }.map { $0.suffix(9) },
                       ["MODE=echo", "MODE=echo"], r.stdout)
        XCTAssertTrue(seen.contains { $0.hasSuffix("RC=130") }, r.stdout)
    }

    func testCommandLineSurface() throws {
        let s = try Sandbox()
        let version = s.run(["--version"])
        XCTAssertEqual(version.status, 0)
        XCTAssertTrue(version.stdout.hasPrefix("pwnvault "))
        let help = s.run(["help", "add"])
        XCTAssertEqual(help.status, 0)
        XCTAssertTrue(help.stdout.contains("USAGE: pwnvault add") && help.stdout.contains("EXAMPLES:"), help.stdout)
        XCTAssertEqual(s.run(["add", "--help"]).stdout, help.stdout)
        let typo = s.run(["lsit"])
        XCTAssertEqual(typo.status, 2)
        XCTAssertTrue(typo.stderr.contains("did you mean 'list'?"), typo.stderr)
        let badOption = s.run(["list", "--jsn"])
        XCTAssertEqual(badOption.status, 2)
        XCTAssertTrue(badOption.stderr.contains("did you mean '--json'?"), badOption.stderr)
        XCTAssertEqual(badOption.stdout, "", "errors go to stderr only")
    }
}
