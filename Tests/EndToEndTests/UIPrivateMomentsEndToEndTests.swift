import Foundation
import TestSupport
import XCTest

/// The ui's private moments at reveal's standard (issue 21, item 9): focus followed through `v`'s
/// passphrase and key derivation, reveal's warning and 10 s cap where focus is not reported, GNU screen
/// without a working alternate screen, exit statuses 128+signal, and nothing left on the normal screen.
final class UIPrivateMomentsEndToEndTests: XCTestCase {
    let secretAccount = "zanzibar.quokka@example.com"
    /// What any unmasked part of it holds: the renderer sends only the cells that change, so the first
    /// letter (the masked form's too) may not be written again.
    let secretMarks = ["anzibar", "quokka"]

    var s: Sandbox!

    override func setUpWithError() throws {
        s = try Sandbox(keyring: false)
        s.initVault()
        XCTAssertEqual(s.run(["add", secretAccount]).status, 0)
    }

    override func tearDown() { s = nil }

    private func holdsAccount(_ text: String) -> Bool { secretMarks.contains { text.contains($0) } }

    /// A second vault with the moderate KDF (about 0.35 s to derive the key): time for focus to move
    /// between the Enter of `v`'s passphrase and the next frame.
    private func slowVault() -> String {
        let path = s.dir.appendingPathComponent("slow-vault").path
        XCTAssertEqual(s.run(["init", "--weak-passphrase-ok", "--kdf", "moderate", "--vault", path]).status, 0)
        XCTAssertEqual(s.run(["add", secretAccount, "--vault", path]).status, 0)
        return path
    }

    // MARK: focus followed through the passphrase and the key derivation

    func testAFocusOutRightBehindTheEnterOfVsPassphraseMeansNoUnmaskedAccountIsEverWritten() throws {
        let vault = slowVault()
        // ptyrun plays a terminal that reports focus: it answers the question the ui asks when it opens
        // (mode 1004 set, then the device attributes). The focus-out comes right behind the Enter, while
        // the key is derived. Then, to show the passphrase was right and the account would be drawn,
        // focus comes back and `v` is typed again without a focus change.
        let r = s.runOnTerminal(["ui", "--vault", vault],
                                steps: [("\\x1b[?1004$p", "\\x1b[?1004;1$y\\x1b[?1;2c"),
                                        ("Accounts (1)", "v"),
                                        ("passphrase to reveal #1", Sandbox.passphrase + "\\r\\x1b[O"),
                                        ("hidden: focus lost", "\\x1b[I"),
                                        ("Accounts (1)", "v"),
                                        ("passphrase to reveal #1", Sandbox.passphrase + "\\r"),
                                        ("quokka", "jq")])
        XCTAssertEqual(r.status, 0, r.stdout)
        XCTAssertFalse(r.stdout.contains("wrong passphrase"), r.stdout)
        let prompts = r.stdout.components(separatedBy: "passphrase to reveal #1")
        XCTAssertGreaterThanOrEqual(prompts.count, 3, r.stdout)
        let firstReveal = prompts.dropFirst().dropLast().joined()   // from the first prompt to the second
        XCTAssertTrue(firstReveal.contains("hidden: focus lost"), firstReveal)
        XCTAssertFalse(holdsAccount(firstReveal), "an unmasked account was written after the focus-out: \(firstReveal)")
        XCTAssertTrue(holdsAccount(prompts.last ?? ""), "with focus kept it is shown: \(r.stdout)")
        XCTAssertFalse(r.stdout.contains("cannot hide when this window loses focus"), "focus is reported here: no warning")
        XCTAssertTrue(r.stdout.contains("(at most 30 s)"), r.stdout)
    }

    /// tmux with no client attached reports focus lost when reporting is turned on: a focus-in (a
    /// person clicking the window) shows the screen.
    private func showAgain(_ tmux: TmuxSession, _ text: String) {
        let deadline = Date().addingTimeInterval(10)
        while Date() < deadline {
            let screen = tmux.screen
            if screen.contains(text) { return }
            if screen.contains("hidden: focus lost") { tmux.type("\\e[I") }
            usleep(100_000)
        }
        tmux.wait(for: text)
    }

    func testInTmuxAFocusOutRightBehindTheEnterOfVsPassphraseMeansNoUnmaskedAccountIsEverWritten() throws {
        _ = slowVault()
        let tmux = try TmuxSession(environment: [
            "PWNVAULT_VAULT": s.vault, "PWNVAULT_KEYRING": "none", "PWNVAULT_PASSPHRASE_FILE": s.passphraseFile,
            "TEST_BIN": Paths.binary, "TEST_DIR": s.dir.path, "HOME": s.home.path,
        ])
        defer { tmux.close() }
        // Every byte the pane shows, in order (the pipe turns share mode on, hence --no-share).
        let recording = s.dir.appendingPathComponent("pane-output").path
        tmux.call(["pipe", tmux.socket, recording])
        tmux.run("\"$TEST_BIN\" ui --no-share --vault \"$TEST_DIR/slow-vault\"")
        showAgain(tmux, "Accounts (1)")
        tmux.type("v")
        tmux.wait(for: "passphrase to reveal #1")
        tmux.type(Sandbox.passphrase)
        // Enter, then at once focus moves away: both reach the ui before the key is derived.
        tmux.tmux("send-keys", "-t", "main:0.0", "Enter", ";", "send-keys", "-t", "main:0.0", "-l", "\u{1B}[O")
        tmux.wait(for: "hidden: focus lost")
        XCTAssertFalse(holdsAccount(tmux.screen), tmux.screen)
        showAgain(tmux, "Accounts (1)")
        // The same without a focus change: the passphrase was right, and the account is shown.
        tmux.type("v")
        tmux.wait(for: "passphrase to reveal #1")
        tmux.type(Sandbox.passphrase)
        tmux.key("Enter")
        showAgain(tmux, "quokka")
        tmux.type("j")
        tmux.waitUntilGone("quokka")
        tmux.type("q")
        tmux.waitForPrompt(2)
        var output = ""
        for _ in 0..<100 {   // pipe-pane writes through a shell: wait for the account to reach the file
            output = (try? String(contentsOfFile: recording, encoding: .utf8)) ?? ""
            if holdsAccount(output) { break }
            usleep(50_000)
        }
        let prompts = output.components(separatedBy: "passphrase to reveal #1")
        XCTAssertGreaterThanOrEqual(prompts.count, 3, output)
        let firstReveal = prompts.dropFirst().dropLast().joined()
        XCTAssertTrue(firstReveal.contains("hidden: focus lost"), firstReveal)
        XCTAssertFalse(holdsAccount(firstReveal), "an unmasked account was written after the focus-out: \(firstReveal)")
        XCTAssertTrue(holdsAccount(prompts.last ?? ""), output)
        XCTAssertFalse(output.contains("wrong passphrase"), output)
    }

    func testWhereFocusIsNotReportedVSaysSoAndKeepsTheAccountTenSeconds() throws {
        // A bare pseudo-terminal answers nothing: the ui cannot hide a revealed account on focus loss.
        let r = s.runOnTerminal(["ui"],
                                steps: [("Accounts (1)", "v"),
                                        ("passphrase to reveal #1", Sandbox.passphrase + "\\r"),
                                        ("quokka", "jq")])
        XCTAssertEqual(r.status, 0, r.stdout)
        let prompt = try XCTUnwrap(r.stdout.range(of: "passphrase to reveal #1"), r.stdout)
        let shown = try XCTUnwrap(r.stdout.range(of: "quokka"), r.stdout)
        // reveal's warning, wrapped over the lines above the status line at 100 columns.
        let warning = try XCTUnwrap(r.stdout.range(of: "so the private screen cannot"), "said before the passphrase: \(r.stdout)")
        XCTAssertLessThan(warning.lowerBound, shown.lowerBound)
        XCTAssertTrue(r.stdout.contains("pwnvault: this terminal has not said that it reports focus changes"), r.stdout)
        XCTAssertTrue(r.stdout.contains("hide when this window loses focus; it closes after 10 s. Fix: use a terminal"), r.stdout)
        XCTAssertTrue(r.stdout[prompt.upperBound...].contains("(at most 10 s)"), r.stdout)
        XCTAssertFalse(r.stdout.contains("(at most 30 s)"), r.stdout)
    }

    func testShareModeMarkerIsBlackOnYellow() throws {
        let r = s.runOnTerminal(["ui", "--share"], steps: [("SHARE MODE", "q")])
        XCTAssertEqual(r.status, 0, r.stdout)
        // Black (30) on yellow (43): readable whatever the theme's background; never reverse video of yellow.
        XCTAssertTrue(r.stdout.contains("\u{1B}[0;1;30;43m SHARE MODE"), r.stdout)
    }

    // MARK: exit statuses and the normal screen

    func testSigtermAndSighupExit143And129AndOfflineNothingStaysOnTheNormalScreen() throws {
        let tmux = try TmuxSession(environment: [
            "PWNVAULT_VAULT": s.vault, "PWNVAULT_KEYRING": "none", "PWNVAULT_PASSPHRASE_FILE": s.passphraseFile,
            "PWNVAULT_API_URL": "http://127.0.0.1:9/api/v3", "TEST_BIN": Paths.binary, "HOME": s.home.path,
        ])
        defer { tmux.close() }
        func pid() throws -> Int32 {
            let shell = tmux.display("#{pane_pid}")
            var found: Int32?
            for _ in 0..<100 where found == nil {
                let children = (try? String(contentsOfFile: "/proc/\(shell)/task/\(shell)/children", encoding: .utf8)) ?? ""
                found = children.split(separator: " ").compactMap { Int32($0) }.last
                if found == nil { usleep(50_000) }
            }
            return try XCTUnwrap(found, "pwnvault's pid")
        }
        func shown(_ text: String) { showAgain(tmux, text) }
        // Offline (HIBP at a refused port, no cached catalog): what the ui says about it goes to its
        // status line, and nothing of it stays on the normal screen.
        tmux.run("\"$TEST_BIN\" ui; echo \"RC=$?\"")
        shown("Accounts (1)")
        XCTAssertTrue(tmux.screen.contains("breach details unavailable"), tmux.screen)
        XCTAssertEqual(kill(try pid(), SIGTERM), 0)
        tmux.wait(for: "RC=143")
        tmux.run("\"$TEST_BIN\" ui; echo \"RC=$?\"")
        shown("Accounts (1)")
        XCTAssertEqual(kill(try pid(), SIGHUP), 0)
        tmux.wait(for: "RC=129")
        // reveal: SIGHUP at the passphrase prompt, SIGTERM on the private screen.
        tmux.run("\"$TEST_BIN\" reveal; echo \"RC=$?\"")
        tmux.wait(for: "Passphrase for")
        XCTAssertEqual(kill(try pid(), SIGHUP), 0)
        tmux.wait(for: "RC=129")
        tmux.run("\"$TEST_BIN\" reveal --timeout 60; echo \"RC=$?\"")
        tmux.wait(for: "Passphrase for")
        tmux.type(Sandbox.passphrase)
        tmux.key("Enter")
        shown("quokka")
        XCTAssertEqual(kill(try pid(), SIGTERM), 0)
        tmux.wait(for: "RC=143")
        let history = tmux.history
        XCTAssertFalse(history.contains("breach details unavailable"), "left on the normal screen: \(history)")
        XCTAssertFalse(holdsAccount(history), history)
        XCTAssertFalse(history.contains("RC=130"), history)
    }

    // MARK: GNU screen

    /// The window's words, one space apart: lines the ui wrapped at spaces read as one text again.
    private func words(_ window: String) -> String { window.split(whereSeparator: { $0 == " " || $0 == "\n" }).joined(separator: " ") }

    private func gnuScreen(altscreen: Bool) throws -> GNUScreenSession {
        var env = s.environment
        env["PWNVAULT_PASSPHRASE_FILE"] = s.passphraseFile
        env["TEST_BIN"] = Paths.binary
        return try GNUScreenSession(altscreen: altscreen, environment: env)
    }

    func testGNUScreenWithAltscreenOffRefusesToRevealAndItsScrollbackHoldsNoAccount() throws {
        let screen = try gnuScreen(altscreen: false)
        defer { screen.close() }
        screen.run("\"$TEST_BIN\" reveal; echo \"RC=$?\"")
        XCTAssertTrue(screen.wait(for: "RC=2"), screen.window)
        // Errors and hints wrap at word boundaries under where their text starts: read the words.
        var window = words(screen.window)
        XCTAssertTrue(window.contains("pwnvault: error: refusing to reveal accounts: GNU screen has its alternate screen off (altscreen off)"), window)
        XCTAssertTrue(window.contains("pwnvault: hint: turn it on with 'altscreen on'"), window)
        XCTAssertFalse(window.contains("Passphrase for"), "refused before asking: \(window)")
        // The ui's v: refused in the same words; then Ctrl-Z, fg and Ctrl-C.
        screen.run("\"$TEST_BIN\" ui; echo \"RC=$?\"")
        XCTAssertTrue(screen.wait(for: "Accounts (1)"), screen.window)
        screen.stuff("v")
        XCTAssertTrue(screen.wait(for: "reveal is refused: GNU screen has"), screen.window)
        XCTAssertTrue(words(screen.window).contains("its alternate screen off (altscreen off), so they would stay in screen's scrollback. Fix: turn it on with 'altscreen on'"),
                      screen.window)
        window = screen.window
        XCTAssertFalse(window.contains("passphrase to reveal"), window)
        screen.stuff("\u{1A}")
        XCTAssertTrue(screen.wait(for: "Stopped"), screen.window)
        screen.run("fg")
        XCTAssertTrue(screen.wait(for: "Accounts (1)"), screen.history)
        screen.stuff("\u{03}")
        XCTAssertTrue(screen.waitUntilGone("Accounts (1)"), screen.window)
        let history = screen.history
        XCTAssertFalse(holdsAccount(history), "screen's scrollback: \(history)")
    }

    func testGNUScreenWithAltscreenOnRevealsAndItsScrollbackHoldsNoAccountAfterQuitOrCtrlZ() throws {
        let screen = try gnuScreen(altscreen: true)
        defer { screen.close() }
        screen.run("\"$TEST_BIN\" reveal --timeout 60")
        XCTAssertTrue(screen.wait(for: "Passphrase for"), screen.window)
        XCTAssertTrue(screen.window.contains("GNU screen does not pass focus changes on"), screen.window)
        screen.stuff(Sandbox.passphrase + "\r")
        XCTAssertTrue(screen.wait(for: secretAccount), screen.window)
        screen.stuff("\u{1A}")
        XCTAssertTrue(screen.wait(for: "Stopped"), screen.window)
        XCTAssertFalse(holdsAccount(screen.history), "after Ctrl-Z: \(screen.history)")
        screen.run("fg")
        XCTAssertTrue(screen.wait(for: secretAccount), screen.window)
        screen.stuff("q")
        XCTAssertTrue(screen.waitUntilGone(secretAccount), screen.window)
        // The ui's v, then Ctrl-Z while the account is shown.
        screen.run("\"$TEST_BIN\" ui")
        XCTAssertTrue(screen.wait(for: "Accounts (1)"), screen.window)
        screen.stuff("v")
        XCTAssertTrue(screen.wait(for: "passphrase to reveal #1"), screen.window)
        XCTAssertTrue(words(screen.window).contains("GNU screen does not pass focus changes on, so the private screen cannot hide when this window loses focus; it closes after 10 s."),
                      "screen passes no focus changes on: \(screen.window)")
        screen.stuff(Sandbox.passphrase + "\r")
        XCTAssertTrue(screen.wait(for: "quokka"), screen.window)
        screen.stuff("\u{1A}")
        XCTAssertTrue(screen.wait(for: "Stopped"), screen.window)
        let history = screen.history
        XCTAssertFalse(holdsAccount(history), "screen's scrollback: \(history)")
        screen.run("fg")
        XCTAssertTrue(screen.wait(for: "Accounts (1)"), screen.window)
        screen.stuff("q")
        XCTAssertTrue(screen.waitUntilGone("Accounts (1)"), screen.window)
        XCTAssertFalse(holdsAccount(screen.history), screen.history)
    }
}
