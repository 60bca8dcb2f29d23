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

    /// Saves `stty -a` and waits for the prompt after it: a command typed while stty still runs would be
    /// echoed ahead of that prompt, and the prompts counted later would be one short.
    private func saveModes(_ name: String) {
        let shown = tmux.history.split(separator: "\n").filter { $0.hasPrefix("pv$") }.count
        tmux.run("stty -a > \"$TEST_DIR/\(name)\"")
        tmux.waitForPrompt(shown + 1)
    }

    private func assertModesRestored(file: StaticString = #filePath, line: UInt = #line) {
        tmux.waitForPrompt(3, file: file, line: line)   // the scenario's command has ended
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
        XCTAssertTrue(unattended.stderr.contains("--passphrase-file PATH or --passphrase-fd N"), unattended.stderr)
        XCTAssertFalse(unattended.stderr.contains("PWNVAULT_PASSPHRASE_FILE"), "hints name only what reveal honours: \(unattended.stderr)")
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

    // MARK: focus followed from the passphrase on

    /// A second vault with the moderate KDF (about 0.35 s to derive the key): time for focus to move
    /// between the passphrase's Enter and the first frame, as it can for a person.
    private func slowVault() -> String {
        let path = s.dir.appendingPathComponent("slow-vault").path
        XCTAssertEqual(s.run(["init", "--weak-passphrase-ok", "--kdf", "moderate", "--vault", path]).status, 0)
        XCTAssertEqual(s.run(["add", secretAccount, "--vault", path]).status, 0)
        return path
    }

    /// Where the masked or unmasked account first appears in `bytes`, if anywhere.
    private func firstAccountText(_ bytes: String) -> String.Index? {
        [secretMark, "z•••"].compactMap { bytes.range(of: $0)?.lowerBound }.min()
    }

    func testInTmuxAFocusOutRightAfterEnterMeansTheFirstFrameIsTheNeutralLine() throws {
        let vault = slowVault()
        // Every byte the pane shows, in order (the pipe turns share mode on, hence --no-share).
        let recording = s.dir.appendingPathComponent("pane-output").path
        tmux.call(["pipe", tmux.socket, recording])
        tmux.run("\"$TEST_BIN\" reveal --no-share --timeout 60 --vault \"$TEST_DIR/slow-vault\"")
        tmux.wait(for: "Passphrase for")
        tmux.type(Sandbox.passphrase)
        // Enter, then at once focus moves away: both reach the pane before the key is derived.
        tmux.tmux("send-keys", "-t", "main:0.0", "Enter", ";", "send-keys", "-t", "main:0.0", "-l", "\u{1B}[O")
        tmux.wait(for: "hidden: focus lost")
        XCTAssertFalse(tmux.screen.contains(secretMark), tmux.screen)
        tmux.type("\\e[I")   // focus comes back: now it is shown
        tmux.wait(for: secretAccount)
        XCTAssertTrue(tmux.screen.contains("hidden without focus"), "tmux reports focus: \(tmux.screen)")
        tmux.type("q")
        tmux.waitForPrompt(2)
        assertNothingUnmaskedLeft()
        _ = vault

        var output = ""
        for _ in 0..<100 {   // pipe-pane writes through a shell: wait for the account to reach the file
            output = (try? String(contentsOfFile: recording, encoding: .utf8)) ?? ""
            if output.contains(secretAccount) { break }
            usleep(50_000)
        }
        let hidden = try XCTUnwrap(output.range(of: "hidden: focus lost")?.lowerBound, output)
        let shown = try XCTUnwrap(firstAccountText(output), output)
        XCTAssertLessThan(hidden, shown, "no account text before the focus-in: \(output)")
    }

    func testOnAPseudoTerminalAFocusOutRightAfterEnterMeansTheFirstFrameIsTheNeutralLine() throws {
        let vault = slowVault()
        // ptyrun plays the terminal: it answers the focus question (mode 1004 set, then the device
        // attributes), gets focus reports in the middle of the passphrase (they must not become part of
        // it), and sends a focus-out right behind the Enter.
        let r = s.runOnTerminal(["reveal", "--timeout", "60", "--vault", vault],
                                steps: [("\\x1b[?1004$p", "\\x1b[?1004;1$y\\x1b[?1;2c"),
                                        ("Passphrase for", "correct horse\\x1b[O battery\\x1b[I staple\\n\\x1b[O"),
                                        ("hidden: focus lost", "\\x1b[I"),
                                        (secretAccount, "q")],
                                passphraseFromFile: false)
        XCTAssertEqual(r.status, 0, r.stdout)
        XCTAssertFalse(r.stdout.contains("correct horse"), "the passphrase is not echoed")
        let hidden = try XCTUnwrap(r.stdout.range(of: "hidden: focus lost")?.lowerBound, r.stdout)
        let shown = try XCTUnwrap(firstAccountText(r.stdout), r.stdout)
        XCTAssertLessThan(hidden, shown, "the first frame is the neutral line: \(r.stdout)")
        XCTAssertTrue(r.stdout.contains("hidden without focus"), r.stdout)
        XCTAssertFalse(r.stdout.contains("cannot hide"), "focus is reported here: no warning: \(r.stdout)")
        XCTAssertTrue(r.stdout.hasSuffix("\u{1B}[?1004l\u{1B}[?25h\u{1B}[?1049l\u{1B}[c") || r.stdout.contains("\u{1B}[?1004l"),
                      "focus reporting is off again")
    }

    func testATerminalThatDoesNotSayItReportsFocusGetsOneLineAndTheShortTimeout() throws {
        // A bare pseudo-terminal answers nothing: the screen cannot promise to hide on focus loss.
        let r = s.runOnTerminal(["reveal"], steps: [("Passphrase for", Sandbox.passphrase + "\\n"), (secretAccount, "q")],
                                passphraseFromFile: false)
        XCTAssertEqual(r.status, 0, r.stdout)
        // One message, wrapped at spaces under its hanging indent by the one message writer: read as words.
        let words = Self.collapsed(r.stdout)
        XCTAssertEqual(words.components(separatedBy: "cannot hide when this window loses focus").count - 1, 1, r.stdout)
        XCTAssertTrue(words.contains("cannot hide when this window loses focus; it closes after 10 s. Fix: "), r.stdout)
        XCTAssertTrue(r.stdout.contains("closes in 10 s or on q or Esc"), r.stdout)
        XCTAssertFalse(r.stdout.contains("hidden without focus"), "no promise that cannot be kept: \(r.stdout)")
    }

    func testTmuxWithFocusEventsOffIsNamedWithItsFixAndNothingIsPromised() throws {
        tmux.tmux("set", "-g", "focus-events", "off")
        tmux.run("\"$TEST_BIN\" reveal 2>&1")
        tmux.wait(for: "Passphrase for")
        let before = Self.collapsed(tmux.screen)   // the message wraps at 100 columns, under its indent
        XCTAssertTrue(before.contains("pwnvault: tmux does not pass focus changes on (focus-events is off)"), before)
        XCTAssertTrue(before.contains("add 'set -g focus-events on' to ~/.tmux.conf"), before)
        tmux.type(Sandbox.passphrase)
        tmux.key("Enter")
        tmux.wait(for: secretAccount)
        let screen = tmux.screen
        XCTAssertTrue(screen.contains("closes in 10 s or on q or Esc"), screen)
        XCTAssertFalse(screen.contains("focus"), "the header promises nothing about focus: \(screen)")
        tmux.type("q")
        tmux.waitForPrompt(2)
        XCTAssertEqual(Self.collapsed(tmux.history).components(separatedBy: "cannot hide when this window loses focus").count - 1, 1,
                       "said in one line, once: \(tmux.history)")
    }

    /// Issue 32: the tmux warning and its fix once per tmux server (remembered in the cache folder), not
    /// on every reveal; another tmux server is told again. The short timeout stays every time.
    func testTmuxFocusWarningIsSaidOncePerTmuxServer() throws {
        func reveal(in tmux: TmuxSession, prompts: Int) -> String {
            tmux.tmux("set", "-g", "focus-events", "off")
            tmux.run("\"$TEST_BIN\" reveal 2>&1")
            tmux.wait(for: "Passphrase for")
            tmux.type(Sandbox.passphrase)
            tmux.key("Enter")
            tmux.wait(for: secretAccount)
            let screen = tmux.screen
            XCTAssertTrue(screen.contains("closes in 10 s or on q or Esc"), screen)
            tmux.type("q")
            tmux.waitForPrompt(prompts)
            return Self.collapsed(tmux.history)
        }
        let warning = "tmux does not pass focus changes on (focus-events is off)"
        let once = reveal(in: tmux, prompts: 2)
        XCTAssertEqual(once.components(separatedBy: warning).count - 1, 1, once)
        XCTAssertTrue(once.contains("tmux source-file ~/.tmux.conf"), "with the fix: \(once)")
        let twice = reveal(in: tmux, prompts: 3)
        XCTAssertEqual(twice.components(separatedBy: warning).count - 1, 1, "not again on this server: \(twice)")
        let other = try TmuxSession(environment: [
            "PWNVAULT_VAULT": s.vault, "PWNVAULT_KEYRING": "none", "TEST_BIN": Paths.binary,
            "TEST_DIR": s.dir.path, "HOME": s.home.path,
        ])
        defer { other.close() }
        let elsewhere = reveal(in: other, prompts: 2)
        XCTAssertEqual(elsewhere.components(separatedBy: warning).count - 1, 1, "another tmux server is told: \(elsewhere)")
    }

    func testDumbTerminalIsNamedAsWhatStoppedReveal() throws {
        let r = s.runOnTerminal(["reveal"], env: ["TERM": "dumb"], passphraseFromFile: false)
        XCTAssertEqual(r.status, 2, r.stdout)
        XCTAssertTrue(r.stdout.contains("pwnvault: error: refusing to reveal accounts: TERM=dumb"), r.stdout)
        XCTAssertFalse(r.stdout.contains("pipe"), "TERM=dumb is not a pipe: \(r.stdout)")
        XCTAssertFalse(r.stdout.contains("Passphrase for"), "refused before asking")
        let forced = s.runOnTerminal(["reveal", "--unredacted"], env: ["TERM": "dumb"], passphraseFromFile: false)
        XCTAssertEqual(forced.status, 2, "a dumb terminal's scrollback is no file: \(forced.stdout)")
        XCTAssertFalse(forced.stdout.contains(secretMark))
    }

    /// A mistyped passphrase gets three tries on reveal's private screen, as in every other command;
    /// the refusal is said in the next prompt, never on stderr over the private screen.
    func testRevealAsksAgainAfterAWrongPassphrase() {
        let r = s.runOnTerminal(["reveal"], steps: [("Passphrase for", "not the passphrase\n"),
                                                    ("try again (2 more attempts)", Sandbox.passphrase + "\n"), (secretAccount, "q")],
                                passphraseFromFile: false)
        XCTAssertEqual(r.status, 0, r.stdout)
        XCTAssertTrue(r.stdout.contains(secretAccount), r.stdout)
        let three = s.runOnTerminal(["reveal"], steps: [("Passphrase for", "wrong one\n"), ("2 more attempts", "wrong two\n"),
                                                        ("1 more attempt", "wrong three\n")],
                                    passphraseFromFile: false)
        XCTAssertNotEqual(three.status, 0, three.stdout)
        XCTAssertFalse(three.stdout.contains(secretAccount), three.stdout)
    }

    /// Types a focus-in report once pwnvault has turned focus reporting on: it is the pane's foreground
    /// process and has put the terminal into key-at-a-time input (`-icanon`), which it does right before
    /// writing `ESC[?1004h`. A fixed wait lost the race under load: a report typed before the mode is on
    /// is never read as one, and the bar stays hidden.
    private func focusIn(file: StaticString = #filePath, line: UInt = #line) {
        let tty = tmux.display("#{pane_tty}")
        var ready = false
        for _ in 0..<200 where !ready {
            if tmux.display("#{pane_current_command}") == "pwnvault" {
                let stty = Process()
                stty.executableURL = URL(fileURLWithPath: "/bin/stty")
                stty.arguments = ["-a", "-F", tty]
                let out = Pipe()
                stty.standardOutput = out
                try? stty.run()
                let settings = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
                stty.waitUntilExit()
                ready = settings.split(separator: " ").contains("-icanon")
            }
            if !ready { usleep(50_000) }
        }
        XCTAssertTrue(ready, "pwnvault never turned focus reporting on", file: file, line: line)
        usleep(100_000)   // and tmux has read the ESC[?1004h that follows
        tmux.type("\\e[I")
    }

    /// `text` with every run of white space (line breaks and a wrapped message's indent) as one space.
    /// (By scalars: a pseudo-terminal's "\r\n" is one Character, equal neither to "\r" nor to "\n".)
    static func collapsed(_ text: String) -> String {
        text.unicodeScalars.split(whereSeparator: { $0 == " " || $0 == "\n" || $0 == "\r" }).map { String(String.UnicodeScalarView($0)) }
            .joined(separator: " ")
    }

}
