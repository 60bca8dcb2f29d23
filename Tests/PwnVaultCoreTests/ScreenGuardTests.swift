import Foundation
import Glibc
import TestSupport
import XCTest
@testable import PwnVaultCore

/// The private screen and the screen guard: key parsing, the exact bytes on a pseudo-terminal, and
/// what a person sees in a real tmux pane (visible screen and scrollback) after quitting, a timeout,
/// Ctrl-Z, Ctrl-C and focus changes.
final class ScreenGuardTests: XCTestCase {
    // MARK: KeyReader

    func testKeyReaderFocusReportsAndKeys() {
        var reader = KeyReader()
        XCTAssertEqual(reader.feed(Array("\u{1B}[O\u{1B}[Iq\u{03}".utf8)), [.focusOut, .focusIn, .byte(0x71), .interrupt])
        XCTAssertFalse(reader.isWaitingAfterEscape)
        // Arrows (CSI and SS3) and PgDn are keys; Alt+x and modified keys are sequences; none is Esc or focus.
        XCTAssertEqual(reader.feed(Array("\u{1B}[A\u{1B}OB\u{1B}x\u{1B}[1;5O\u{1B}[6~\u{1B}[15~".utf8)),
                       [.key(.up), .key(.down), .sequence, .sequence, .key(.pageDown), .sequence])
        // Answers to queries: device attributes, and whether focus reporting (mode 1004) is on.
        XCTAssertEqual(reader.feed(Array("\u{1B}[?1;2c\u{1B}[?1004;1$y\u{1B}[?1004;0$y\u{1B}[?1004$y".utf8)),
                       [.deviceAttributes, .modeReport(mode: 1004, setting: 1), .modeReport(mode: 1004, setting: 0), .sequence])
    }

    func testKeyReaderLoneEscapeNeedsTheDelay() {
        var reader = KeyReader()
        XCTAssertEqual(reader.feed([0x1B]), [])
        XCTAssertTrue(reader.isWaitingAfterEscape)
        XCTAssertEqual(reader.flush(), [.escape])
        XCTAssertFalse(reader.isWaitingAfterEscape)
        // A focus report split across two reads is still one report.
        XCTAssertEqual(reader.feed([0x1B, UInt8(ascii: "[")]), [])
        XCTAssertEqual(reader.feed([UInt8(ascii: "O")]), [.focusOut])
        // ESC ESC: the first is the Esc key. A sequence broken by a control byte gives that byte afresh.
        XCTAssertEqual(reader.feed([0x1B, 0x1B]), [.escape])
        XCTAssertEqual(reader.flush(), [.escape])
        XCTAssertEqual(reader.feed([0x1B, UInt8(ascii: "["), UInt8(ascii: "1"), 0x03]), [.sequence, .interrupt])
        XCTAssertEqual(reader.feed([0x1B, UInt8(ascii: "["), UInt8(ascii: "1")]), [])
        XCTAssertEqual(reader.flush(), [.sequence])
    }

    func testKeyReaderBoundsLongSequences() {
        var reader = KeyReader()
        let long = [0x1B, UInt8(ascii: "[")] + [UInt8](repeating: UInt8(ascii: "1"), count: 1000)
        let events = reader.feed(long)
        // Cut off at 64 bytes (ESC, [ and 62 digits); the remaining digits are plain keys.
        XCTAssertEqual(events.first, .sequence)
        XCTAssertEqual(events.dropFirst().count, 1000 - (KeyReader.maximumSequenceLength - 2))
        XCTAssertTrue(events.dropFirst().allSatisfy { $0 == .byte(UInt8(ascii: "1")) })
        XCTAssertFalse(reader.isWaitingAfterEscape)
    }

    // MARK: PrivateScreen on a pseudo-terminal, in process

    /// A pty pair whose slave side has ordinary settings (echo, canonical, ISIG), as at a shell.
    private struct Pty {
        var master: Int32 = -1, slave: Int32 = -1
        init() throws {
            var size = winsize(ws_row: 5, ws_col: 20, ws_xpixel: 0, ws_ypixel: 0)
            guard openpty(&master, &slave, nil, nil, &size) == 0 else { throw XCTSkip("no pseudo-terminal") }
            var t = termios()
            tcgetattr(slave, &t)
            t.c_lflag |= tcflag_t(ECHO | ICANON | ISIG | IEXTEN)
            tcsetattr(slave, TCSANOW, &t)
            _ = fcntl(master, F_SETFL, fcntl(master, F_GETFL) | O_NONBLOCK)
        }
        func close() { Glibc.close(master); Glibc.close(slave) }
        func settings() -> [UInt8] {
            var t = termios()
            tcgetattr(slave, &t)
            return withUnsafeBytes(of: &t) { Array($0) }
        }
        func lflag() -> tcflag_t {
            var t = termios()
            tcgetattr(slave, &t)
            return t.c_lflag
        }
        func readAvailable() -> [UInt8] {
            var all: [UInt8] = [], buffer = [UInt8](repeating: 0, count: 4096)
            while true {
                let n = Glibc.read(master, &buffer, buffer.count)
                if n <= 0 { return all }
                all += buffer.prefix(n)
            }
        }
        func type(_ bytes: [UInt8]) { _ = bytes.withUnsafeBytes { write(master, $0.baseAddress, $0.count) } }
    }

    /// Runs a private screen on `pty` in a background thread, acting as the terminal meanwhile:
    /// `script` gets everything the screen wrote so far and returns bytes to type (or nil to type
    /// nothing more). Answers the device-attributes query when `answerQueries`.
    private func runPrivateScreen(on pty: Pty, timeout: TimeInterval, answerQueries: Bool = true,
                                  lines: [String] = ["top secret line", "second"],
                                  script: @escaping ([UInt8]) -> [UInt8]?) -> (reason: PrivateScreen.EndReason?, output: [UInt8], duringLFlag: tcflag_t?) {
        let outcome = Outcome()
        let done = DispatchSemaphore(value: 0)
        let thread = Thread {
            // Read only after `done` is signalled, so no lock is needed.
            outcome.result = Result { try PrivateScreen(output: pty.slave, input: pty.slave).run(timeout: timeout) { _, _ in lines } }
            done.signal()
        }
        thread.start()
        var output: [UInt8] = []
        var during: tcflag_t?
        var answered = false
        var scriptDone = false
        while done.wait(timeout: .now() + 0.01) == .timedOut {
            output += pty.readAvailable()
            if during == nil, output.count >= PrivateScreenTerminal.enterSequence.count { during = pty.lflag() }
            if !scriptDone {
                if let bytes = script(output) { if !bytes.isEmpty { pty.type(bytes) } } else { scriptDone = true }
            }
            if answerQueries, !answered, output.suffix(3) == PrivateScreenTerminal.deviceAttributesQuery[...] {
                answered = true
                pty.type(Array("\u{1B}[?1;2c".utf8))
            }
        }
        output += pty.readAvailable()
        if case let .failure(error)? = outcome.result { XCTFail("\(error)") }
        return (try? outcome.result?.get(), output, during)
    }

    /// Unchecked: written by the screen's thread before it signals `done`, read only after the wait.
    private final class Outcome: @unchecked Sendable {
        var result: Result<PrivateScreen.EndReason, Error>?
    }

    private func contains(_ haystack: [UInt8], _ needle: String) -> Bool {
        let n = Array(needle.utf8)
        guard n.count <= haystack.count else { return false }
        return (0...(haystack.count - n.count)).contains { Array(haystack[$0..<($0 + n.count)]) == n }
    }

    func testQuitWritesExactlyTheEnterAndLeaveSequencesAndRestoresTheSettings() throws {
        let pty = try Pty()
        defer { pty.close() }
        let before = pty.settings()
        var typed = false
        let r = runPrivateScreen(on: pty, timeout: 20) { out in
            guard !typed, self.contains(out, "second") else { return typed ? nil : [] }
            typed = true
            return Array("q".utf8)
        }
        XCTAssertEqual(r.reason, .userQuit)
        let expectedStart = PrivateScreenTerminal.enterSequence + PrivateScreenTerminal.clearSequence
            + Array("top secret line\u{1B}[2;1Hsecond".utf8)
        XCTAssertEqual(Array(r.output.prefix(expectedStart.count)), expectedStart)
        let expectedEnd = PrivateScreenTerminal.leaveSequence + PrivateScreenTerminal.deviceAttributesQuery
        XCTAssertEqual(Array(r.output.suffix(expectedEnd.count)), expectedEnd)
        // During: no echo, no canonical mode, ISIG kept. After: exactly the settings from before.
        let during = try XCTUnwrap(r.duringLFlag)
        XCTAssertEqual(during & tcflag_t(ECHO | ICANON), 0)
        XCTAssertNotEqual(during & tcflag_t(ISIG), 0)
        XCTAssertEqual(pty.settings(), before)
    }

    func testFocusOutBlanksFocusInRedrawsAndLoneEscapeQuits() throws {
        let pty = try Pty()
        defer { pty.close() }
        var step = 0
        var blankedOutput: [UInt8] = []
        let r = runPrivateScreen(on: pty, timeout: 20) { out in
            switch step {
            case 0 where self.contains(out, "second"):
                step = 1
                return Array("\u{1B}[O".utf8)
            case 1 where self.contains(out, TerminalCells.truncate(PrivateScreen.hiddenLine, to: 20)):
                step = 2
                blankedOutput = out
                return Array("\u{1B}[I".utf8)
            case 2 where out.count > blankedOutput.count && self.contains(Array(out[blankedOutput.count...]), "second"):
                step = 3
                return [0x1B]   // Esc, alone
            case 3:
                return nil
            default:
                return []
            }
        }
        XCTAssertEqual(r.reason, .userQuit)
        XCTAssertEqual(step, 3)
        // The blank frame: a clear, then the neutral line only.
        let blankFrame = PrivateScreenTerminal.clearSequence + Array(TerminalCells.truncate(PrivateScreen.hiddenLine, to: 20).utf8)
        XCTAssertTrue(contains(blankedOutput, String(decoding: blankFrame, as: UTF8.self)))
    }

    func testTimeoutEndsEvenWhenTheTerminalDoesNotAnswerTheQuery() throws {
        let pty = try Pty()
        defer { pty.close() }
        let before = pty.settings()
        var typed = false
        let r = runPrivateScreen(on: pty, timeout: 0.5, answerQueries: false) { out in
            guard !typed, self.contains(out, "second") else { return typed ? nil : [] }
            typed = true
            return Array("\u{1B}[Ab".utf8)   // an arrow and a letter: neither quits nor shows anything new
        }
        XCTAssertEqual(r.reason, .timeout)
        XCTAssertEqual(pty.settings(), before)
        XCTAssertTrue(contains(r.output, String(decoding: PrivateScreenTerminal.leaveSequence, as: UTF8.self)))
    }

    func testLinesAreMadeSafeAndCutToTheScreen() throws {
        let pty = try Pty()   // 20 columns, 5 rows
        defer { pty.close() }
        var typed = false
        let lines = ["\u{1B}]0;title\u{07}ok\u{1B}[31mred", "a very long line that is wider than twenty"] + (1...10).map { "row \($0)" }
        let r = runPrivateScreen(on: pty, timeout: 20, lines: lines) { out in
            guard !typed, self.contains(out, "row 3") else { return typed ? nil : [] }
            typed = true
            return Array("q".utf8)
        }
        XCTAssertEqual(r.reason, .userQuit)
        let frame = PrivateScreenTerminal.clearSequence
            + Array("okred\u{1B}[2;1Ha very long line th…\u{1B}[3;1Hrow 1\u{1B}[4;1Hrow 2\u{1B}[5;1Hrow 3".utf8)
        XCTAssertTrue(contains(r.output, String(decoding: frame, as: UTF8.self)))
        XCTAssertFalse(contains(r.output, "row 4"))
        XCTAssertFalse(contains(r.output, "title"))
    }

    func testRefusesWhatIsNotATerminal() throws {
        var fds: [Int32] = [0, 0]
        XCTAssertEqual(pipe(&fds), 0)
        defer { close(fds[0]); close(fds[1]) }
        XCTAssertThrowsError(try PrivateScreen(output: fds[1], input: fds[0]).run(timeout: 1) { _, _ in ["x"] }) {
            XCTAssertEqual($0 as? ScreenError, .notATerminal)
        }
    }

    // MARK: ScreenGuard in process

    func testReportedInterruptionHidesStopsDrawingAndHandsTheSignalBack() throws {
        // A distinctive previous disposition, to see that it comes back.
        var marker = sigaction()
        marker.__sigaction_handler.sa_handler = { _ in }
        var original = sigaction()
        sigaction(SIGTERM, &marker, &original)
        defer { sigaction(SIGTERM, &original, nil) }
        let markerHandler = TerminalIO.disposition(SIGTERM).__sigaction_handler.sa_handler.map { unsafeBitCast($0, to: Int.self) }

        let events = EventLog()
        let interrupted = DispatchSemaphore(value: 0)
        let guardian = try ScreenGuard.install(terminal: -1, interrupts: .report,
                                               onHide: { events.add("hide") }, onShow: { events.add("show") },
                                               onInterrupt: { events.add("interrupt \($0)"); interrupted.signal() })
        XCTAssertTrue(guardian.draw { events.add("draw") })
        XCTAssertNotEqual(TerminalIO.disposition(SIGTERM).__sigaction_handler.sa_handler.map { unsafeBitCast($0, to: Int.self) },
                          markerHandler, "the guard handles SIGTERM while installed")
        kill(getpid(), SIGTERM)
        XCTAssertEqual(interrupted.wait(timeout: .now() + 10), .success)
        XCTAssertEqual(guardian.interruption, SIGTERM)
        XCTAssertFalse(guardian.draw { events.add("draw after") })
        XCTAssertFalse(guardian.isShown)
        // A second SIGTERM would meet the previous disposition at once.
        XCTAssertEqual(TerminalIO.disposition(SIGTERM).__sigaction_handler.sa_handler.map { unsafeBitCast($0, to: Int.self) },
                       markerHandler)
        guardian.uninstall()
        XCTAssertEqual(events.all, ["draw", "hide", "interrupt \(SIGTERM)"])
    }

    func testOwnerHideAndShow() throws {
        let events = EventLog()
        let guardian = try ScreenGuard.install(terminal: -1, interrupts: .terminate,
                                               onHide: { events.add("hide") }, onShow: { events.add("show") })
        defer { guardian.uninstall() }
        guardian.hide()
        XCTAssertFalse(guardian.draw { events.add("draw") })
        guardian.hide()
        guardian.show()
        XCTAssertTrue(guardian.draw { events.add("draw") })
        XCTAssertEqual(events.all, ["hide", "show", "draw"])
    }

    /// Unchecked: its mutable state is only touched with `lock` held.
    private final class EventLog: @unchecked Sendable {
        private let lock = NSLock()
        private var events: [String] = []
        func add(_ e: String) { lock.lock(); events.append(e); lock.unlock() }
        var all: [String] { lock.lock(); defer { lock.unlock() }; return events }
    }

    // MARK: the child process run inside tmux

    /// Not a test of its own: the tmux tests run this test binary again from the pane's shell, with
    /// `PWNVAULT_SCREEN_HELPER` naming what to show (`private` or `guard`) and `TEST_DIR` a folder for
    /// the result. The secret-looking marker is made here from `TEST_SEED`, so it never appears in
    /// anything typed at the shell.
    func testScreenChildProcess() throws {
        let env = ProcessInfo.processInfo.environment
        guard let scenario = env["PWNVAULT_SCREEN_HELPER"], let dir = env["TEST_DIR"], let seed = env["TEST_SEED"] else {
            throw XCTSkip("runs only as the child of the tmux tests")
        }
        let marker = ScreenGuardTests.marker(seed: seed)
        let result = dir + "/result"
        switch scenario {
        case "private":
            let timeout = env["TEST_TIMEOUT"].flatMap(Double.init) ?? 20
            let reason = try PrivateScreen().run(timeout: timeout) { columns, rows in
                ["pwnvault reveal (\(columns)x\(rows))", "", "  \(marker)", "", "q to close"]
            }
            let text: String
            switch reason {
            case .timeout: text = "timeout"
            case .userQuit: text = "userQuit"
            case let .interrupted(signal): text = "interrupted \(signal)"
            }
            try text.write(toFile: result, atomically: false, encoding: .utf8)
        case "guard":
            try runProgressScreen(marker: marker, result: result)
        default:
            XCTFail("unknown scenario \(scenario)")
        }
    }

    /// A progress line on stderr, redrawn every 50 ms, guarded; on an interruption it stops, says how
    /// much it kept, and exits 130 as `check --all` would.
    private func runProgressScreen(marker: String, result: String) throws {
        let count = Counter()
        func line() -> [UInt8] { Array("\r\u{1B}[2Kchecking \(marker) \(count.value)".utf8) }
        let guardian = try ScreenGuard.install(terminal: STDERR_FILENO, interrupts: .report,
                                               onHide: { TerminalIO.writeAll(STDERR_FILENO, Array("\r\u{1B}[2K".utf8)) },
                                               onShow: { TerminalIO.writeAll(STDERR_FILENO, line()) })
        let deadline = Date().addingTimeInterval(30)
        while guardian.interruption == nil && Date() < deadline {
            count.increment()
            guardian.draw { TerminalIO.writeAll(STDERR_FILENO, line()) }
            usleep(50_000)
        }
        let signal = guardian.interruption
        guardian.uninstall()
        TerminalIO.writeAll(STDERR_FILENO, Array("stopped early, kept the finished results\n".utf8))
        try "interrupted \(signal ?? 0)".write(toFile: result, atomically: false, encoding: .utf8)
        exit(ExitStatus.interrupted.rawValue)
    }

    /// Unchecked: its mutable state is only touched with `lock` held.
    private final class Counter: @unchecked Sendable {
        private let lock = NSLock()
        private var n = 0
        func increment() { lock.lock(); n += 1; lock.unlock() }
        var value: Int { lock.lock(); defer { lock.unlock() }; return n }
    }

    static func marker(seed: String) -> String { "pv-secret-" + String(seed.reversed()) }

    // MARK: tmux

    /// A tmux pane whose shell knows how to start the child, with a fresh marker and result folder.
    private struct Scene {
        let tmux: TmuxSession
        let dir: URL
        let marker: String
        var prompts = 1

        init(attachClient: Bool = false) throws {
            dir = FileManager.default.temporaryDirectory.appendingPathComponent("pwnvault-screen-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
            let seed = String(UInt64.random(in: 1_000_000_000...9_999_999_999))
            marker = ScreenGuardTests.marker(seed: seed)
            let binary = try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")
            tmux = try TmuxSession(environment: ["TEST_DIR": dir.path, "TEST_SEED": seed, "TEST_BINARY": binary])
            if attachClient { tmux.attachClient() }
        }

        func close() {
            tmux.close()
            try? FileManager.default.removeItem(at: dir)
        }

        /// Runs a shell command and waits for the prompt after it.
        mutating func shell(_ command: String) {
            tmux.run(command)
            prompts += 1
            tmux.waitForPrompt(prompts)
        }

        /// Starts the child (without waiting for it to end).
        mutating func start(_ scenario: String, timeout: Int? = nil) {
            let t = timeout.map { "TEST_TIMEOUT=\($0) " } ?? ""
            tmux.run("\(t)PWNVAULT_SCREEN_HELPER=\(scenario) \"$TEST_BINARY\" PwnVaultCoreTests.ScreenGuardTests/testScreenChildProcess")
        }

        /// Waits for the child to end (the next prompt).
        mutating func waitForEnd() {
            prompts += 1
            tmux.waitForPrompt(prompts)
        }

        var result: String? { try? String(contentsOf: dir.appendingPathComponent("result"), encoding: .utf8) }

        func file(_ name: String) -> String? { try? String(contentsOf: dir.appendingPathComponent(name), encoding: .utf8) }

        func assertMarkerGone(_ when: String, file: StaticString = #filePath, line: UInt = #line) {
            XCTAssertFalse(tmux.screen.contains(marker), "visible \(when):\n\(tmux.screen)", file: file, line: line)
            XCTAssertFalse(tmux.history.contains(marker), "in the scrollback \(when)", file: file, line: line)
        }

        func assertNormalScreen(file: StaticString = #filePath, line: UInt = #line) {
            XCTAssertEqual(tmux.display("#{alternate_on} #{cursor_flag}"), "0 1", "alternate screen off, cursor shown",
                           file: file, line: line)
        }
    }

    func testPrivateScreenInTmuxStartsBlankShowsOnKeyHidesOnFocusOutAndLeavesNothing() throws {
        var s = try Scene()
        defer { s.close() }
        s.shell("stty -a > \"$TEST_DIR/before\"")
        s.start("private")
        // No client is attached, so tmux answers "focus reporting on" with a focus-out: blank.
        s.tmux.wait(for: "hidden: focus lost")
        XCTAssertFalse(s.tmux.screen.contains(s.marker))
        s.tmux.type(" ")
        s.tmux.wait(for: s.marker)
        XCTAssertEqual(s.tmux.display("#{alternate_on} #{cursor_flag}"), "1 0", "alternate screen, cursor hidden")
        s.tmux.type("\\e[O")
        s.tmux.wait(for: "hidden: focus lost")
        XCTAssertFalse(s.tmux.screen.contains(s.marker))
        s.tmux.type("\\e[I")
        s.tmux.wait(for: s.marker)
        s.tmux.type("q")
        s.waitForEnd()
        XCTAssertEqual(s.result, "userQuit")
        s.assertMarkerGone("after q")
        s.assertNormalScreen()
        s.shell("stty -a > \"$TEST_DIR/after\"")
        XCTAssertNotNil(s.file("before"))
        XCTAssertEqual(s.file("after"), s.file("before"))
    }

    func testPrivateScreenInTmuxTimesOut() throws {
        var s = try Scene()
        defer { s.close() }
        s.start("private", timeout: 2)
        s.tmux.wait(for: "hidden: focus lost")
        s.tmux.type("x")
        s.tmux.wait(for: s.marker)
        s.waitForEnd()
        XCTAssertEqual(s.result, "timeout")
        s.assertMarkerGone("after the timeout")
        s.assertNormalScreen()
    }

    func testPrivateScreenInTmuxCtrlZClearsBeforeStoppingAndFgRedraws() throws {
        var s = try Scene()
        defer { s.close() }
        s.shell("stty -a > \"$TEST_DIR/before\"")
        s.start("private")
        s.tmux.wait(for: "hidden: focus lost")
        s.tmux.type(" ")
        s.tmux.wait(for: s.marker)
        s.tmux.key("C-z")
        s.tmux.wait(for: "Stopped")
        s.waitForEnd()
        s.assertMarkerGone("while stopped")
        s.assertNormalScreen()
        s.shell("stty -a > \"$TEST_DIR/stopped\"")
        XCTAssertEqual(s.file("stopped"), s.file("before"), "the shell gets its settings back while we are stopped")
        s.tmux.run("fg")
        s.tmux.wait(for: "hidden: focus lost")   // re-entered; tmux, without a client, reports focus-out again
        s.tmux.type(" ")
        s.tmux.wait(for: s.marker)
        s.tmux.key("C-c")
        s.waitForEnd()
        XCTAssertEqual(s.result, "interrupted \(SIGINT)")
        s.assertMarkerGone("after Ctrl-C")
        s.assertNormalScreen()
        s.shell("stty -a > \"$TEST_DIR/after\"")
        XCTAssertEqual(s.file("after"), s.file("before"))
    }

    func testPrivateScreenFollowsRealFocusOfAnAttachedClientAndTurnsReportingOff() throws {
        var s = try Scene(attachClient: true)
        defer { s.close() }
        s.start("private")
        // A focused client: tmux reports focus-in, so the screen shows at once.
        s.tmux.wait(for: s.marker)
        s.tmux.tmux("split-window", "-v", "-t", "main:0.0", "cat -v")   // the new pane takes the focus
        s.tmux.wait(for: "hidden: focus lost")
        s.tmux.tmux("select-pane", "-t", "main:0.0")
        s.tmux.wait(for: s.marker)
        s.tmux.type("q")
        s.waitForEnd()
        XCTAssertEqual(s.result, "userQuit")
        s.assertMarkerGone("after q")
        // Focus reporting must be off: move the focus away and back while `cat -v` shows what arrives.
        s.tmux.run("cat -v; echo cat-ended")
        s.tmux.tmux("select-pane", "-t", "main:0.1")
        s.tmux.tmux("select-pane", "-t", "main:0.0")
        s.tmux.key("C-d")
        s.tmux.wait(for: "cat-ended")
        XCTAssertFalse(s.tmux.screen.contains("^[[O"), s.tmux.screen)
        XCTAssertFalse(s.tmux.screen.contains("^[[I"), s.tmux.screen)
    }

    func testScreenGuardClearsTheProgressLineOnCtrlZRedrawsOnFgAndReportsCtrlC() throws {
        var s = try Scene()
        defer { s.close() }
        s.shell("stty -a > \"$TEST_DIR/before\"")
        s.start("guard")
        s.tmux.wait(for: s.marker)
        s.tmux.key("C-z")
        s.tmux.wait(for: "Stopped")
        s.waitForEnd()
        s.assertMarkerGone("while stopped")
        s.tmux.run("fg")
        s.tmux.wait(for: s.marker)
        s.tmux.key("C-c")
        s.waitForEnd()
        XCTAssertEqual(s.result, "interrupted \(SIGINT)")
        s.assertMarkerGone("after Ctrl-C")
        XCTAssertTrue(s.tmux.screen.contains("kept the finished results"))
        s.shell("echo status=$?")
        XCTAssertTrue(s.tmux.screen.contains("status=130"), s.tmux.screen)
        s.shell("stty -a > \"$TEST_DIR/after\"")
        XCTAssertEqual(s.file("after"), s.file("before"))
    }
}
