import Foundation
import TestSupport
import XCTest

/// Screen protection as a person at a terminal meets it, in a real tmux: reveal on a private screen
/// that leaves nothing behind, blanks on focus loss and Ctrl-Z; share mode; refusals into pipes.
final class ScreenEndToEndTests: XCTestCase {
    let secretAccount = "zanzibar.quokka@example.com"
    let secretMark = "zanzibar"

    var s: Sandbox!
    var tmux: TmuxSession!

    override func setUpWithError() throws {
        s = try Sandbox(keyring: false)
        s.initVault()
        XCTAssertEqual(s.run(["add", secretAccount, "--label", "Quokka"]).status, 0)
        tmux = try TmuxSession(environment: [
            "PWNVAULT_VAULT": s.vault, "PWNVAULT_KEYRING": "none", "TEST_BIN": Paths.binary,
            "TEST_DIR": s.dir.path, "HOME": s.home.path,
        ])
    }

    override func tearDown() {
        tmux?.close()
        tmux = nil
        s = nil
    }

    /// Starts `pwnvault reveal ARGS` in the pane's shell and types the passphrase at its prompt.
    private func startReveal(_ args: String = "") {
        tmux.run("\"$TEST_BIN\" reveal \(args)")
        tmux.wait(for: "Passphrase for")
        tmux.type(Sandbox.passphrase)
        tmux.key("Enter")
        waitUntilShown()
    }

    /// Waits for the private screen to show the account.
    private func waitUntilShown() {
        // With no client attached tmux answers focus reporting with a focus-out: the private screen
        // starts blank, and a focus-in (a person clicking the window) shows it.
        let deadline = Date().addingTimeInterval(10)
        while Date() < deadline {
            let screen = tmux.screen
            if screen.contains(secretMark) { return }
            if screen.contains("hidden: focus lost") { tmux.type("\\e[I"); break }
            usleep(50_000)
        }
        tmux.wait(for: secretMark)
    }

    private func assertNothingUnmaskedLeft(file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertFalse(tmux.screen.contains(secretMark), "visible screen: \(tmux.screen)", file: file, line: line)
        XCTAssertFalse(tmux.history.contains(secretMark), "scrollback: \(tmux.history)", file: file, line: line)
        XCTAssertFalse(tmux.history.contains(Sandbox.passphrase), "the passphrase was echoed", file: file, line: line)
    }

    private func saveModes(_ name: String) { tmux.run("stty -a > \"$TEST_DIR/\(name)\"") }

    private func assertModesRestored(file: StaticString = #filePath, line: UInt = #line) {
        saveModes("after")
        tmux.waitForPrompt(4)
        usleep(200_000)
        let before = try? String(contentsOfFile: s.dir.appendingPathComponent("before").path, encoding: .utf8)
        let after = try? String(contentsOfFile: s.dir.appendingPathComponent("after").path, encoding: .utf8)
        XCTAssertNotNil(before, file: file, line: line)
        XCTAssertEqual(before, after, "stty -a differs after the scenario", file: file, line: line)
    }

    func testRevealShowsTheAccountThenLeavesNothingBehindOnQuit() throws {
        saveModes("before")
        startReveal()
        XCTAssertTrue(tmux.screen.contains(secretAccount), tmux.screen)
        XCTAssertEqual(tmux.display("#{alternate_on}"), "1", "the private screen is the alternate screen")
        tmux.type("q")
        tmux.waitUntilGone(secretMark)
        tmux.waitForPrompt(3)
        assertNothingUnmaskedLeft()
        assertModesRestored()
    }

    func testRevealHidesItselfAfterTheTimeout() throws {
        saveModes("before")
        startReveal("--timeout 2")
        tmux.wait(for: "hidden again (timeout)", seconds: 10)
        assertNothingUnmaskedLeft()
        assertModesRestored()
    }

    func testFocusLossBlanksAtOnceAndFocusInRedraws() throws {
        saveModes("before")
        startReveal("--timeout 60")
        tmux.type("\\e[O")
        tmux.waitUntilGone(secretMark)
        XCTAssertTrue(tmux.screen.contains("hidden: focus lost"), tmux.screen)
        tmux.type("\\e[I")
        tmux.wait(for: secretMark)
        tmux.type("q")
        tmux.waitForPrompt(3)
        assertNothingUnmaskedLeft()
        assertModesRestored()
    }

    func testCtrlZClearsBeforeStoppingAndFgRedrawsWithoutAskingAgain() throws {
        saveModes("before")
        startReveal("--timeout 60")
        tmux.key("C-z")
        tmux.waitUntilGone(secretMark)
        tmux.waitForPrompt(3)
        assertNothingUnmaskedLeft()
        tmux.run("fg")
        waitUntilShown()
        XCTAssertFalse(tmux.screen.contains("Passphrase"), "fg asks nothing again: \(tmux.screen)")
        tmux.type("q")
        tmux.waitForPrompt(4)
        assertNothingUnmaskedLeft()
        saveModes("after")
        usleep(300_000)
        XCTAssertEqual(try? String(contentsOfFile: s.dir.appendingPathComponent("before").path, encoding: .utf8),
                       try? String(contentsOfFile: s.dir.appendingPathComponent("after").path, encoding: .utf8))
    }

    func testShareModeIsDetectedWithASecondClientAndRevealIsRefused() throws {
        tmux.attachClient()   // the person at the desk
        tmux.attachClient()   // and someone else watching the same session
        tmux.run("\"$TEST_BIN\" status --passphrase-file /dev/null 2>&1; \"$TEST_BIN\" reveal; echo \"RC=$?\"")
        tmux.wait(for: "RC=2")   // not "RC=": the typed command line holds that already
        let screen = tmux.screen
        XCTAssertTrue(screen.contains("share mode is on"), screen)
        XCTAssertTrue(screen.contains("refusing to reveal accounts in share mode"), screen)
        XCTAssertTrue(screen.contains("RC=2"), screen)
        XCTAssertFalse(screen.contains("Passphrase for"), "refused before asking: \(screen)")
        // the list shows labels only, no masked letters either
        tmux.run("PWNVAULT_PASSPHRASE_FILE=\"$TEST_DIR/passphrase\" \"$TEST_BIN\" list")
        tmux.wait(for: "Quokka")
        XCTAssertFalse(tmux.screen.contains("z•••"), tmux.screen)
    }

    func testShareModeFromAsciinemaAndTheSwitches() throws {
        tmux.run("ASCIINEMA_REC=1 \"$TEST_BIN\" reveal; echo \"RC=$?\"")
        tmux.wait(for: "RC=2")
        XCTAssertTrue(tmux.screen.contains("asciinema"), tmux.screen)
        let shared = s.runOnTerminal(["status"], env: ["PWNVAULT_SHARE": "1"])
        XCTAssertTrue(shared.stdout.contains("share mode:     on (PWNVAULT_SHARE is set)"), shared.stdout)
        let off = s.runOnTerminal(["status", "--no-share"], env: ["ASCIINEMA_REC": "1"])
        XCTAssertTrue(off.stdout.contains("share mode:     off"), off.stdout)
        let forced = s.runOnTerminal(["list", "--share"])
        XCTAssertTrue(forced.stdout.contains("Quokka") && !forced.stdout.contains("z•••"), forced.stdout)
    }

    func testRevealIntoAPipeIsRefusedAndUnredactedWritesAPrivateFile() throws {
        let piped = s.run(["reveal"])
        XCTAssertEqual(piped.status, 2, piped.all)
        XCTAssertTrue(piped.stderr.contains("refusing to reveal accounts into a pipe"), piped.stderr)
        XCTAssertTrue(piped.stderr.contains("--unredacted"), piped.stderr)
        XCTAssertFalse(piped.all.contains(secretMark))
        // PWNVAULT_PASSPHRASE_FILE is not enough: only a person typing or an explicit option unmasks.
        let unattended = s.run(["reveal", "--unredacted"])
        XCTAssertEqual(unattended.status, 3, unattended.all)
        XCTAssertFalse(unattended.all.contains(secretMark))
        let out = s.dir.appendingPathComponent("export.txt").path
        let r = Sandbox.exec("/bin/sh", ["-c", "umask 022; exec \"$0\" reveal --unredacted --passphrase-file \"$2\" > \"$1\"",
                                         Paths.binary, out, s.passphraseFile],
                             input: nil, environment: s.environment)
        XCTAssertEqual(r.status, 0, r.all)
        XCTAssertTrue((try String(contentsOfFile: out, encoding: .utf8)).contains(secretAccount))
        XCTAssertEqual(try FileManager.default.attributesOfItem(atPath: out)[.posixPermissions] as? Int, 0o600)
    }

    func testCtrlZAndFocusLossDuringALongCheckClearTheProgressBarAndItComesBack() throws {
        let server = try FakeHIBP()
        defer { _ = server }
        XCTAssertEqual(s.run(["add"] + (1...20).map { "clean.z\($0)@example.com" }).status, 0)
        saveModes("before")
        tmux.run("PWNVAULT_API_URL=\(server.apiURL) PWNVAULT_PASSPHRASE_FILE=\"$TEST_DIR/passphrase\" HIBP_API_KEY=\(FakeHIBP.key) \"$TEST_BIN\" check --all --rpm 60 >/dev/null")
        // No tmux client is attached, so the pane reports focus lost as soon as pwnvault asks: the bar
        // stays hidden until focus comes in.
        focusIn()
        tmux.wait(for: "/21", seconds: 15)
        tmux.type("\\e[O")
        tmux.waitUntilGone("░")
        focusIn()
        tmux.wait(for: "░")
        tmux.key("C-z")
        tmux.wait(for: "Stopped")
        XCTAssertFalse(tmux.screen.contains("░"), "the bar is cleared before the stop: \(tmux.screen)")
        tmux.run("fg")
        focusIn()
        tmux.wait(for: "░")
        tmux.key("C-c")
        tmux.waitUntilGone("░")
        tmux.wait(for: "interrupted:")
        tmux.waitForPrompt(4)
        assertModesRestored()
        XCTAssertFalse(tmux.history.contains("^[[O") || tmux.history.contains("^[[I"), "focus reports leaked to the shell")
    }

    private func focusIn() {
        usleep(300_000)   // let pwnvault turn focus reporting on (and tmux answer it) first
        tmux.type("\\e[I")
    }
}
