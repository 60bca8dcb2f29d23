import Foundation
import XCTest

/// The in-process runs (`Sandbox(inProcess: true)`, Support/InProcessRun.swift) are the binary's runs:
/// the same bytes and exit status for the same command line, input read from the run's own stdin, the
/// sandbox's HOME, and nothing of a run left in the test process for the next one.
final class InProcessRunTests: XCTestCase {
    var server: FakeHIBP!
    var s: Sandbox!

    override func setUpWithError() throws {
        server = try FakeHIBP()
        s = try Sandbox(inProcess: true)
        s.use(server)
        s.initVault()
    }

    override func tearDown() { server = nil; s = nil }

    /// Each command line twice, in-process and through the binary: stdout, stderr and status agree.
    func testACommandLineGivesTheSameBytesAndStatusInProcessAndThroughTheBinary() throws {
        XCTAssertEqual(s.run(["add", "account-exists@hibp-integration-tests.com", "someone@example.com"]).status, 0)
        XCTAssertEqual(s.run(["check", "--all"]).status, 1)
        let lines: [[String]] = [
            ["list"], ["list", "--json"], ["show", "#1"], ["breach", "Adobe"], ["help", "check"], ["--help"], ["--version"],
            ["lsit"], ["list", "--bogus"], ["show", "#9"], ["add", "someone@example.com"], ["remove", "#2"],
            ["completions", "--list", "ids"], ["status", "--json"],
        ]
        for args in lines {
            let inside = s.run(args), outside = s.runBinary(args)
            XCTAssertEqual(inside.status, outside.status, "\(args): \(inside.all) / \(outside.all)")
            XCTAssertEqual(inside.stdout, outside.stdout, "\(args)")
            XCTAssertEqual(inside.stderr, outside.stderr, "\(args)")
        }
    }

    /// `add -` reads the run's stdin, not the test process's fd 0 (here /dev/null for the run's length),
    /// and `--passphrase-fd 0` reads it too.
    func testStandardInputIsTheRunsOwn() throws {
        let saved = dup(0)
        let null = open("/dev/null", O_RDONLY)
        dup2(null, 0)
        close(null)
        defer { dup2(saved, 0); close(saved) }
        let added = s.run(["add", "-"], input: "piped.one@example.com\npiped.two@example.com\n")
        XCTAssertEqual(added.status, 0, added.all)
        let listed = s.run(["list", "--json", "--passphrase-fd", "0"], input: Sandbox.passphrase + "\n",
                           env: ["PWNVAULT_KEYRING": "none"], passphraseFromFile: false)
        XCTAssertEqual(listed.status, 0, listed.all)
        XCTAssertTrue(listed.stdout.contains("\"id\" : 2"), listed.all)   // both lines were added
    }

    /// HOME and the XDG folders come from the run's environment: without PWNVAULT_VAULT the vault is
    /// made under the sandbox's HOME, never the test process's.
    func testTheVaultFollowsTheRunsHome() throws {
        let other = s.dir.appendingPathComponent("other-home")
        try FileManager.default.createDirectory(at: other, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        let env = ["PWNVAULT_VAULT": "", "HOME": other.path, "XDG_DATA_HOME": "", "PWNVAULT_KEYRING": "none"]
        var environment = s.environment.merging(env) { $1 }
        environment["PWNVAULT_VAULT"] = nil
        environment["XDG_DATA_HOME"] = nil
        s.environment = environment
        let made = s.run(["init", "--weak-passphrase-ok", "--kdf", "interactive"])
        XCTAssertEqual(made.status, 0, made.all)
        XCTAssertTrue(FileManager.default.fileExists(atPath: other.appendingPathComponent(".local/share/pwnvault/vault").path), made.all)
    }

    /// umask and the signal dispositions a run changes are the test process's again after it, also
    /// after check and watch (which guard the screen against signals) and a failing run.
    func testNothingOfARunStaysInTheTestProcess() throws {
        let before = ProcessState.dispositions()
        let mask = umask(0o022)
        umask(mask)
        XCTAssertEqual(s.run(["add", "account-exists@hibp-integration-tests.com"]).status, 0)
        XCTAssertEqual(s.run(["check", "--all"]).status, 1)
        s.run(["watch"])
        XCTAssertNotEqual(s.run(["show", "#7"]).status, 0)
        XCTAssertEqual(ProcessState.dispositions(), before)
        let after = umask(0o022)
        umask(after)
        XCTAssertEqual(after, mask)
    }
}
