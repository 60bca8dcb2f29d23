import Foundation
import XCTest

/// The passphrase file must be a regular file (issue 21, item 8): a FIFO blocked forever, a device
/// may never end; both are refused at once with one error line and a hint. A shell's `<(…)` stays.
final class PassphraseFileKindEndToEndTests: XCTestCase {
    var s: Sandbox!

    override func setUpWithError() throws {
        s = try Sandbox(inProcess: true, keyring: false)
        s.initVault()
    }

    override func tearDown() { s = nil }

    /// `pwnvault ARGS` stopped after 15 s (status 124), so a run that blocks fails instead of hanging.
    private func runBounded(_ args: [String], env: [String: String] = [:]) -> RunResult {
        Sandbox.exec("/usr/bin/timeout", ["15", Paths.binary] + args, input: nil,
                     environment: s.environment.merging(env) { $1 })
    }

    func testAFIFOIsRefusedAtOnceAsOptionAndFromTheEnvironment() throws {
        let fifo = s.dir.appendingPathComponent("passphrase.fifo").path
        XCTAssertEqual(mkfifo(fifo, 0o600), 0)
        for (args, env) in [(["list", "--passphrase-file", fifo], [:]), (["list"], ["PWNVAULT_PASSPHRASE_FILE": fifo])] {
            let started = Date()
            let r = runBounded(args, env: env)
            XCTAssertLessThan(Date().timeIntervalSince(started), 10, "it blocked: \(r.all)")
            XCTAssertEqual(r.status, 3, r.all)
            XCTAssertEqual(r.stdout, "")
            let lines = r.stderr.split(separator: "\n")
            XCTAssertEqual(lines.count, 2, r.stderr)
            XCTAssertEqual(lines.first.map(String.init), "pwnvault: error: the passphrase file \(fifo) is a named pipe (FIFO), not a regular file")
            XCTAssertTrue(lines.last?.hasPrefix("pwnvault: hint: ") == true && r.stderr.contains("--passphrase-fd"), r.stderr)
        }
    }

    func testADeviceAndAFolderAreRefused() throws {
        let device = runBounded(["list", "--passphrase-file", "/dev/zero"])
        XCTAssertEqual(device.status, 3, device.all)
        XCTAssertTrue(device.stderr.contains("the passphrase file /dev/zero is a device, not a regular file"), device.stderr)
        let folder = runBounded(["list", "--passphrase-file", s.dir.path])
        XCTAssertEqual(folder.status, 3, folder.all)
        XCTAssertTrue(folder.stderr.contains("is a folder, not a regular file"), folder.stderr)
    }

    func testARegularFileAPipeSubstitutionAndALinkToAFileStillWork() throws {
        XCTAssertEqual(runBounded(["list", "--passphrase-file", s.passphraseFile]).status, 0)
        let link = s.dir.appendingPathComponent("passphrase.link").path
        XCTAssertEqual(symlink(s.passphraseFile, link), 0)
        XCTAssertEqual(runBounded(["list", "--passphrase-file", link]).status, 0)
        let substituted = Sandbox.exec("/bin/bash", ["-c", #""$PWNVAULT" list --passphrase-file <(cat "$PASSFILE")"#], input: nil,
                                       environment: s.environment.merging(["PWNVAULT": Paths.binary, "PASSFILE": s.passphraseFile]) { $1 })
        XCTAssertEqual(substituted.status, 0, substituted.all)
    }
}
