import Foundation
import Glibc
import XCTest
@testable import PwnVaultCore

final class TerminalTests: XCTestCase {
    // MARK: capabilities

    /// A real pseudo-terminal (its slave side) and a real pipe, so `isatty` answers for real.
    private func withTerminalAndPipe(_ body: (_ tty: Int32, _ pipe: Int32) throws -> Void) throws {
        var master: Int32 = -1, slave: Int32 = -1
        XCTAssertEqual(openpty(&master, &slave, nil, nil, nil), 0)
        defer { close(master); close(slave) }
        var fds: [Int32] = [0, 0]
        XCTAssertEqual(pipe(&fds), 0)
        defer { close(fds[0]); close(fds[1]) }
        try body(slave, fds[0])
    }

    func testDetectsTerminalsPerStream() throws {
        try withTerminalAndPipe { tty, pipe in
            let map: [Int32: Int32] = [STDIN_FILENO: pipe, STDOUT_FILENO: tty, STDERR_FILENO: pipe]
            let caps = TerminalCapabilities.detect(environment: ["TERM": "xterm-256color"], isTerminal: { isatty(map[$0]!) == 1 },
                                                   windowColumns: { nil })
            XCTAssertEqual(caps, TerminalCapabilities(stdoutIsTerminal: true, stderrIsTerminal: false, stdinIsTerminal: false,
                                                      colorsOnStdout: true, colorsOnStderr: false, columns: 80))
        }
    }

    /// The width: the window's, then COLUMNS, then 80; none when stdout is no terminal.
    func testColumnsComeFromTheWindowThenCOLUMNSThen80() throws {
        try withTerminalAndPipe { tty, pipe in
            let onTTY: (Int32) -> Bool = { $0 == STDOUT_FILENO ? isatty(tty) == 1 : isatty(pipe) == 1 }
            XCTAssertEqual(TerminalCapabilities.detect(environment: ["COLUMNS": "132"], isTerminal: onTTY, windowColumns: { 60 }).columns, 60)
            XCTAssertEqual(TerminalCapabilities.detect(environment: ["COLUMNS": "132"], isTerminal: onTTY, windowColumns: { nil }).columns, 132)
            XCTAssertEqual(TerminalCapabilities.detect(environment: ["COLUMNS": "x"], isTerminal: onTTY, windowColumns: { nil }).columns, 80)
            XCTAssertNil(TerminalCapabilities.detect(environment: ["COLUMNS": "132"], isTerminal: { _ in false }, windowColumns: { 60 }).columns)
        }
    }

    func testDumbTerminalIsNoTerminalAndNoColorTurnsColorsOff() throws {
        try withTerminalAndPipe { tty, _ in
            let allTTY: (Int32) -> Bool = { _ in isatty(tty) == 1 }
            XCTAssertEqual(TerminalCapabilities.detect(environment: ["TERM": "dumb"], isTerminal: allTTY), .none)
            let noColor = TerminalCapabilities.detect(environment: ["TERM": "xterm", "NO_COLOR": "1"], isTerminal: allTTY)
            XCTAssertTrue(noColor.stdoutIsTerminal && noColor.stderrIsTerminal && noColor.stdinIsTerminal)
            XCTAssertFalse(noColor.colorsOnStdout || noColor.colorsOnStderr)
            let emptyNoColor = TerminalCapabilities.detect(environment: ["NO_COLOR": ""], isTerminal: allTTY)
            XCTAssertTrue(emptyNoColor.colorsOnStdout && emptyNoColor.colorsOnStderr)
        }
    }

    func testDetectAsksTheRealStandardInput() throws {
        try withTerminalAndPipe { tty, pipe in
            let savedStdin = dup(STDIN_FILENO)
            defer { dup2(savedStdin, STDIN_FILENO); close(savedStdin) }
            dup2(tty, STDIN_FILENO)
            XCTAssertTrue(TerminalCapabilities.detect(environment: [:]).stdinIsTerminal)
            XCTAssertFalse(TerminalCapabilities.detect(environment: ["TERM": "dumb"]).stdinIsTerminal)
            dup2(pipe, STDIN_FILENO)
            XCTAssertFalse(TerminalCapabilities.detect(environment: [:]).stdinIsTerminal)
        }
    }

    // MARK: readLine(fd:)

    /// Writes `bytes` into a pipe, closes the write end, reads a line from the read end, and returns
    /// the secret with what was left unread.
    private func readLine(from bytes: [UInt8]) throws -> (line: [UInt8], rest: [UInt8]) {
        var fds: [Int32] = [0, 0]
        XCTAssertEqual(pipe(&fds), 0)
        defer { close(fds[0]) }
        XCTAssertEqual(bytes.withUnsafeBytes { write(fds[1], $0.baseAddress, $0.count) }, bytes.count)
        close(fds[1])
        let secret = try PassphrasePrompt.readLine(fd: fds[0])
        var rest = [UInt8](repeating: 0, count: 4096)
        let n = read(fds[0], &rest, rest.count)
        return (secret.withUnsafeBytes { Array($0) }, Array(rest.prefix(max(0, n))))
    }

    func testReadLineTakesTheFirstLineOnly() throws {
        let r = try readLine(from: Array("correct horse\nsecond line\n".utf8))
        XCTAssertEqual(r.line, Array("correct horse".utf8))
        XCTAssertEqual(r.rest, Array("second line\n".utf8))
    }

    func testReadLineLineEndings() throws {
        XCTAssertEqual(try readLine(from: Array("crlf\r\n".utf8)).line, Array("crlf".utf8))
        XCTAssertEqual(try readLine(from: Array("no newline".utf8)).line, Array("no newline".utf8))
        XCTAssertEqual(try readLine(from: Array("\n".utf8)).line, [])
        XCTAssertEqual(try readLine(from: []).line, [])
        XCTAssertEqual(try readLine(from: Array("inner\rcarriage\n".utf8)).line, Array("inner\rcarriage".utf8))
    }

    func testReadLineKeepsEveryByte() throws {
        let bytes: [UInt8] = [0x00, 0xFF, 0x1B, 0x5B, 0x32, 0x4A, 0xC3, 0xA9, 0x20, 0x09]
        XCTAssertEqual(try readLine(from: bytes + [0x0A]).line, bytes)
    }

    func testReadLineLengthLimit() throws {
        let longest = [UInt8](repeating: 0x61, count: PassphrasePrompt.maxBytes)
        XCTAssertEqual(try readLine(from: longest + [0x0A]).line, longest)
        XCTAssertEqual(try readLine(from: longest).line, longest)
        XCTAssertThrowsError(try readLine(from: longest + [0x61, 0x0A])) {
            XCTAssertEqual($0 as? TerminalError, .passphraseTooLong)
        }
    }

    func testReadLineReportsReadErrors() throws {
        var fds: [Int32] = [0, 0]
        XCTAssertEqual(pipe(&fds), 0)
        close(fds[0]); close(fds[1])
        XCTAssertThrowsError(try PassphrasePrompt.readLine(fd: fds[0])) { error in
            guard case .readFailed? = error as? TerminalError else { return XCTFail("\(error)") }
            XCTAssertEqual((error as? TerminalError)?.exitStatus, .authentication)
        }
    }

    // MARK: the prompt, through a real pseudo-terminal

    /// Not a test of its own: the pseudo-terminal tests run this test binary again, in a child process
    /// whose controlling terminal is the pty, with `PWNVAULT_PROMPT_HELPER_RESULT` naming a file for the result.
    func testPromptChildProcess() throws {
        guard let resultPath = ProcessInfo.processInfo.environment["PWNVAULT_PROMPT_HELPER_RESULT"] else {
            throw XCTSkip("runs only as the child of the pseudo-terminal tests")
        }
        let outcome: String
        do {
            let secret = try PassphrasePrompt.read(prompt: "Passphrase for test vault: ")
            outcome = "ok " + secret.withUnsafeBytes { Sodium.hex(Array($0)) }
        } catch let error as TerminalError {
            outcome = "error \(error)"
        }
        try outcome.write(toFile: resultPath, atomically: false, encoding: .utf8)
    }

    private struct Flags: Decodable, Equatable { var echo, echonl, icanon, isig: Bool }
    private struct Observed: Decodable {
        var status: String?
        var during, after: Flags?
        var while_stopped, resumed: [Flags]?
        var stops: [String?]?
        var screen: String?
        var prompts: Int?
        var deadline: Bool?
    }

    /// Runs `PromptDriverScript` for `scenario`; returns what it saw and what the child wrote as its result.
    private func drive(_ scenario: String) throws -> (observed: Observed, result: String?) {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("pwnvault-pty-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let script = dir.appendingPathComponent("driver.py"), result = dir.appendingPathComponent("result")
        try PromptDriverScript.source.write(to: script, atomically: true, encoding: .utf8)

        let testBinary = try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        process.arguments = [script.path, scenario, result.path, testBinary,
                             "PwnVaultCoreTests.TerminalTests/testPromptChildProcess"]
        let output = Pipe()
        process.standardOutput = output
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        XCTAssertEqual(process.terminationStatus, 0, "the driver failed: is python3 installed?")
        let observed = try JSONDecoder().decode(Observed.self, from: data)
        XCTAssertNil(observed.deadline, "the prompt hung")
        return (observed, try? String(contentsOf: result, encoding: .utf8))
    }

    private let promptSettings = Flags(echo: false, echonl: true, icanon: true, isig: true)
    private let ordinarySettings = Flags(echo: true, echonl: false, icanon: true, isig: true)

    func testPromptReadsWithEchoOffAndRestoresTheTerminal() throws {
        let (seen, result) = try drive("enter")
        XCTAssertEqual(seen.during, promptSettings)
        XCTAssertEqual(seen.status, "exited 0")
        XCTAssertEqual(seen.after, ordinarySettings)
        XCTAssertEqual(result, "ok " + Sodium.hex(Array("correct horse é battery".utf8)))
        let screen = try XCTUnwrap(seen.screen)
        XCTAssertTrue(screen.contains("Passphrase for test vault: \r\n"), "ECHONL should end the prompt line")
        for word in ["correct", "horse", "battery"] { XCTAssertFalse(screen.contains(word), "\(word) was echoed") }
    }

    func testCtrlCRestoresEchoAndEndsWithSIGINT() throws {
        let (seen, result) = try drive("ctrl-c")
        XCTAssertEqual(seen.during, promptSettings)
        XCTAssertEqual(seen.status, "signaled \(SIGINT)")
        XCTAssertEqual(seen.after, ordinarySettings)
        XCTAssertNil(result)
        XCTAssertFalse(try XCTUnwrap(seen.screen).contains("half typed"))
    }

    func testTerminatingSignalsRestoreEcho() throws {
        for (name, number) in [("SIGTERM", SIGTERM), ("SIGHUP", SIGHUP), ("SIGQUIT", SIGQUIT)] {
            let (seen, result) = try drive("kill-" + name)
            XCTAssertEqual(seen.during, promptSettings, name)
            XCTAssertEqual(seen.status, "signaled \(number)", name)
            XCTAssertEqual(seen.after, ordinarySettings, name)
            XCTAssertNil(result, name)
        }
    }

    func testCtrlZRestoresEchoWhileStoppedAndPromptsAgainOnContinue() throws {
        let (seen, result) = try drive("ctrl-z")
        XCTAssertEqual(seen.during, promptSettings)
        XCTAssertEqual(seen.stops, ["stopped \(SIGTSTP)", "stopped \(SIGTSTP)"])
        XCTAssertEqual(seen.while_stopped, [ordinarySettings, ordinarySettings])
        XCTAssertEqual(seen.resumed, [promptSettings, promptSettings])
        XCTAssertEqual(seen.prompts, 3)
        XCTAssertEqual(seen.status, "exited 0")
        XCTAssertEqual(seen.after, ordinarySettings)
        XCTAssertEqual(result, "ok " + Sodium.hex(Array("after resume".utf8)))
    }

    func testNoControllingTerminalIsReported() throws {
        let (seen, result) = try drive("no-tty")
        XCTAssertEqual(seen.status, "exited 0")
        XCTAssertEqual(result, "error noTerminal")
        XCTAssertEqual(TerminalError.noTerminal.exitStatus, .authentication)
        XCTAssertNotNil(TerminalError.noTerminal.hint)
    }
}
