import Foundation
import Glibc
import TestSupport
import XCTest
@testable import PwnVaultCore

/// Share-mode detection: every rule against a made-up process table and made-up helper output, then
/// the real thing under `script`, a plain pseudo-terminal, and a tmux session with clients and a pipe.
final class ShareModeDetectorTests: XCTestCase {
    // MARK: made-up processes and helpers

    private struct Table: ProcessTable {
        var ownIndex: Int? = 4
        var holders: [Int: [Int32]] = [:]
        var parents: [Int32: Int32] = [:]
        var names: [Int32: String] = [:]
        func ownPseudoTerminalIndex() -> Int? { ownIndex }
        func masterHolders(ofPseudoTerminal index: Int) -> [Int32] { holders[index] ?? [] }
        func parent(of pid: Int32) -> Int32? { parents[pid] }
        func name(of pid: Int32) -> String? { names[pid] }
    }

    /// Answers helper commands by their first two words; records every call with its environment.
    private final class Runner {
        var answers: [String: String] = [:]
        var calls: [(arguments: [String], environment: [String: String])] = []
        var run: CommandRunner {
            { arguments, environment in
                self.calls.append((arguments, environment))
                return self.answers[arguments.prefix(2).joined(separator: " ")]
            }
        }
    }

    private func detect(_ env: [String: String], table: Table = Table(), runner: Runner = Runner()) -> String? {
        ShareModeDetector(processes: table, runCommand: runner.run).detect(environment: env)?.description
    }

    func testNothingSeenIsNil() {
        let runner = Runner()
        XCTAssertNil(detect([:], runner: runner))
        XCTAssertNil(detect(["ASCIINEMA_REC": "", "TMUX": "", "STY": ""], runner: runner))
        XCTAssertTrue(runner.calls.isEmpty, "no helper runs without a reason to")
    }

    func testAsciinema() {
        XCTAssertEqual(detect(["ASCIINEMA_REC": "1"]), "asciinema is recording this terminal (ASCIINEMA_REC is set)")
    }

    func testTmateIsToldByItsSocketWithoutRunningAnything() {
        let runner = Runner()
        XCTAssertEqual(detect(["TMUX": "/tmp/tmate-1000/QnZ2xY,12345,0"], runner: runner),
                       "this is a tmate session, shared over the network")
        XCTAssertTrue(runner.calls.isEmpty)
    }

    func testTmuxClientsAndPipe() {
        let env = ["TMUX": "/tmp/tmux-1000/default,4242,0", "TMUX_PANE": "%7", "PATH": "/usr/bin"]
        let runner = Runner()
        runner.answers["tmux display-message"] = "2 0 $1\n"
        XCTAssertEqual(detect(env, runner: runner), "this tmux session has 2 clients attached")
        let call = runner.calls.first
        XCTAssertEqual(call?.arguments, ["tmux", "display-message", "-p", "-t", "%7", "#{session_attached} #{pane_pipe} #{session_id}"])
        XCTAssertEqual(call?.environment["TMUX"], env["TMUX"], "tmux finds its server through TMUX")

        runner.answers["tmux display-message"] = "1 1 $1\n"
        XCTAssertEqual(detect(env, runner: runner), "this tmux pane is piped to a program (pipe-pane)")

        runner.answers["tmux display-message"] = "1 0 $1\n"
        runner.answers["tmux list-clients"] = "/dev/pts/9\n"
        XCTAssertNil(detect(env, runner: runner))
        XCTAssertEqual(runner.calls.last?.arguments, ["tmux", "list-clients", "-t", "$1", "-F", "#{client_tty}"])
    }

    func testTmuxClientWhoseTerminalIsRecorded() {
        let env = ["TMUX": "/tmp/tmux-1000/default,4242,0", "TMUX_PANE": "%0"]
        let runner = Runner()
        runner.answers["tmux display-message"] = "1 0 $3"
        runner.answers["tmux list-clients"] = "/dev/pts/9\n"
        let table = Table(ownIndex: 4, holders: [4: [4242], 9: [300]], parents: [300: 1], names: [4242: "tmux: server", 300: "script"])
        XCTAssertEqual(detect(env, table: table, runner: runner),
                       "the terminal of this tmux session's client is recorded or shared by util-linux script")
    }

    func testAFailingOrStaleTmuxIsNoAlarm() {
        XCTAssertNil(detect(["TMUX": "/tmp/tmux-1000/gone,1,0"]))
        let runner = Runner()
        runner.answers["tmux display-message"] = "garbage"
        XCTAssertNil(detect(["TMUX": "/tmp/tmux-1000/default,1,0"], runner: runner))
    }

    func testScreenMultiUserMode() {
        let runner = Runner()
        runner.answers["screen -ls"] = """
        There are screens on:
        \t4321.pts-3.host\t(Multi, attached)
        \t999.other\t(Detached)
        2 Sockets in /run/screen/S-me.
        """
        XCTAssertEqual(detect(["STY": "4321.pts-3.host"], runner: runner), "this GNU screen session is in multi-user mode")
        XCTAssertNil(detect(["STY": "999.other"], runner: runner))
        runner.answers["screen -ls"] = "There is a screen on:\n\t4321.pts-3.host\t(Attached)\n"
        XCTAssertNil(detect(["STY": "4321.pts-3.host"], runner: runner))
    }

    func testRecorderHoldingTheMasterOrAmongItsAncestors() {
        var table = Table(holders: [4: [200]], parents: [200: 1], names: [200: "script"])
        XCTAssertEqual(detect([:], table: table), "this terminal is recorded or shared by util-linux script")
        // A terminal program started by a recorder: found one step up.
        table = Table(holders: [4: [210]], parents: [210: 209, 209: 1], names: [210: "python3", 209: "asciinema"])
        XCTAssertEqual(detect([:], table: table), "this terminal is recorded or shared by asciinema")
        // An ordinary terminal emulator or SSH server, or no pseudo-terminal at all: nothing.
        table = Table(holders: [4: [220]], parents: [220: 1], names: [220: "sshd"])
        XCTAssertNil(detect([:], table: table))
        table = Table(ownIndex: nil, holders: [4: [200]], parents: [200: 1], names: [200: "script"])
        XCTAssertNil(detect([:], table: table))
    }

    func testAncestorWalkEndsOnACycle() {
        let table = Table(holders: [4: [10]], parents: [10: 11, 11: 10], names: [10: "a", 11: "b"])
        XCTAssertNil(detect([:], table: table))
    }

    func testProcParsing() {
        XCTAssertEqual(SystemProcessTable.parent(inStat: "1234 (odd) name (x)) S 987 1234 1234 0 -1"), 987)
        XCTAssertNil(SystemProcessTable.parent(inStat: "garbage"))
        XCTAssertEqual(SystemProcessTable.ttyIndex(inFDInfo: "pos:\t0\nflags:\t02\nmnt_id:\t24\nino:\t91\ntty-index:\t17\n"), 17)
        XCTAssertNil(SystemProcessTable.ttyIndex(inFDInfo: "pos:\t0\n"))
    }

    func testSystemCommandRunsFindsAndTimesOut() {
        XCTAssertEqual(SystemCommand.run(["printf", "%s", "$X"], environment: ["PATH": "/usr/bin:/bin", "X": "unused"]), "$X")
        XCTAssertEqual(SystemCommand.run(["sh", "-c", "printf %s \"$X\""], environment: ["PATH": "/usr/bin:/bin", "X": "from env"]), "from env")
        XCTAssertNil(SystemCommand.run(["sh", "-c", "exit 3"], environment: [:]))
        XCTAssertNil(SystemCommand.run(["no-such-command-pwnvault"], environment: ["PATH": "/usr/bin"]))
        XCTAssertNil(SystemCommand.run(["sleep", "5"], environment: [:], timeLimit: 0.2), "killed after its time limit")
    }

    // MARK: the real thing

    /// Not a test of its own: run under `script`, a plain pty or tmux by the tests below, it writes what
    /// the detector sees (with the real process table and helpers) to `PWNVAULT_SHARE_HELPER`.
    func testShareModeChildProcess() throws {
        guard let resultPath = ProcessInfo.processInfo.environment["PWNVAULT_SHARE_HELPER"] else {
            throw XCTSkip("runs only as the child of the share-mode tests")
        }
        let reason = ShareModeDetector().detect(environment: ProcessInfo.processInfo.environment)
        try (reason?.description ?? "none").write(toFile: resultPath, atomically: false, encoding: .utf8)
    }

    private var testBinary: String { get throws { try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") } }
    private static let childTest = "PwnVaultCoreTests.ShareModeDetectorTests/testShareModeChildProcess"

    /// Runs `command` (which runs the child), in an environment without any sharing variable.
    private func runChild(_ command: [String]) throws -> String? {
        let result = FileManager.default.temporaryDirectory.appendingPathComponent("pwnvault-share-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: result) }
        var env = ProcessInfo.processInfo.environment
        for name in ["ASCIINEMA_REC", "TMUX", "TMUX_PANE", "STY"] { env[name] = nil }
        env["PWNVAULT_SHARE_HELPER"] = result.path
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = command
        process.environment = env
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        return try? String(contentsOf: result, encoding: .utf8)
    }

    func testUnderScriptTheRecorderIsFound() throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/script") else { throw XCTSkip("util-linux script is not installed") }
        let binary = try testBinary
        // `script -c` runs the command through a shell: quote the two words.
        let seen = try runChild(["script", "-qec", "'\(binary)' \(ShareModeDetectorTests.childTest)", "/dev/null"])
        XCTAssertEqual(seen, "this terminal is recorded or shared by util-linux script")
    }

    func testOnAPlainPseudoTerminalNothingIsSeen() throws {
        // The holder of the pty is python3, whose ancestors are this test run: if the run itself is
        // recorded (CI under `script`), that is rightly seen too, so this control needs a clean run.
        let me = SystemProcessTable()
        var pid: Int32? = getpid()
        while let p = pid, p > 1 {
            if let name = me.name(of: p), ShareModeDetector.recorders[name] != nil { throw XCTSkip("this test run is recorded by \(name)") }
            pid = me.parent(of: p)
        }
        let seen = try runChild(["python3", "-c", "import pty, sys; pty.spawn(sys.argv[1:])", try testBinary,
                                 ShareModeDetectorTests.childTest])
        XCTAssertEqual(seen, "none")
    }

    func testInTmuxClientsAndPipeAreSeen() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("pwnvault-share-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let tmux = try TmuxSession(environment: ["TEST_DIR": dir.path, "TEST_BINARY": try testBinary])
        defer { tmux.close() }
        var prompts = 1
        func seen(_ name: String) -> String? {
            tmux.run("PWNVAULT_SHARE_HELPER=\"$TEST_DIR/\(name)\" \"$TEST_BINARY\" \(ShareModeDetectorTests.childTest) >/dev/null 2>&1")
            prompts += 1
            tmux.waitForPrompt(prompts)
            return try? String(contentsOf: dir.appendingPathComponent(name), encoding: .utf8)
        }
        XCTAssertEqual(seen("alone"), "none", "no client attached: nobody else is watching")
        tmux.attachClient()
        XCTAssertEqual(seen("one-client"), "none")
        tmux.call(["pipe", tmux.socket, dir.appendingPathComponent("piped-output").path])
        XCTAssertEqual(seen("piped"), "this tmux pane is piped to a program (pipe-pane)")
        tmux.tmux("pipe-pane", "-t", "main:0.0")   // no command: stops piping
        tmux.attachClient()
        XCTAssertEqual(seen("two-clients"), "this tmux session has 2 clients attached")
    }
}
