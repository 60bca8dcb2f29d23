import Foundation
import XCTest
@testable import PwnVaultCore

/// The posix_spawn-based `Subprocess` that replaced Foundation's Process and Pipe, run on real programs.
final class SubprocessTests: XCTestCase {
    private func sh(_ script: String, input: [UInt8]? = nil, output: Subprocess.Output = .capture(),
                    error: Subprocess.Output = .capture(), timeLimit: Double = 20, drainLimit: Double? = nil) -> Subprocess.Result? {
        Subprocess.run("/bin/sh", arguments: ["-c", script], environment: ["PATH": "/usr/bin:/bin"], input: input,
                       output: output, error: error, timeLimit: timeLimit, drainLimit: drainLimit)
    }

    func testExitStatusAndBothStreams() throws {
        let r = try XCTUnwrap(sh("echo out; echo err >&2; exit 3"))
        XCTAssertEqual(r.termination, .exited(3))
        XCTAssertEqual(String(decoding: r.output, as: UTF8.self), "out\n")
        XCTAssertEqual(String(decoding: r.errorOutput, as: UTF8.self), "err\n")
        XCTAssertTrue(r.outputComplete)
    }

    func testSignalIsReported() throws {
        XCTAssertEqual(try XCTUnwrap(sh("kill -TERM $$")).termination, .signaled(SIGTERM))
    }

    func testTimeLimitKillsIt() throws {
        let start = Date()
        let r = try XCTUnwrap(sh("echo started; exec sleep 30", timeLimit: 0.5))
        XCTAssertEqual(r.termination, .timedOut)
        XCTAssertEqual(String(decoding: r.output, as: UTF8.self), "started\n")
        XCTAssertLessThan(Date().timeIntervalSince(start), 10)
    }

    func testNoInputMeansEndOfFile() throws {
        let r = try XCTUnwrap(sh("cat; echo done", timeLimit: 10))
        XCTAssertEqual(r.termination, .exited(0))
        XCTAssertEqual(String(decoding: r.output, as: UTF8.self), "done\n")
    }

    func testInputIsFedAndClosed() throws {
        let r = try XCTUnwrap(sh("tr a-z A-Z", input: Array("hello\n".utf8)))
        XCTAssertEqual(String(decoding: r.output, as: UTF8.self), "HELLO\n")
    }

    func testLargeOutputsOnBothStreamsAndLargeInputDoNotStall() throws {
        let r = try XCTUnwrap(sh("head -c 3000000 /dev/zero; head -c 2000000 /dev/zero >&2"))
        XCTAssertEqual(r.termination, .exited(0))
        XCTAssertEqual(r.output.count, 3_000_000)
        XCTAssertEqual(r.errorOutput.count, 2_000_000)
        let big = [UInt8](repeating: 0x61, count: 4_000_000)
        let echoed = try XCTUnwrap(sh("cat; cat /dev/null >&2", input: big))
        XCTAssertEqual(echoed.output.count, big.count)
    }

    func testProgramThatIgnoresItsInputDoesNotKillTheCaller() throws {
        // Writing to a pipe nobody reads raises SIGPIPE; the caller must survive it.
        let r = try XCTUnwrap(sh("exit 0", input: [UInt8](repeating: 1, count: 1_000_000)))
        XCTAssertEqual(r.termination, .exited(0))
    }

    func testOutputLimitAndDiscard() throws {
        let r = try XCTUnwrap(sh("head -c 100000 /dev/zero; echo err >&2", output: .capture(limit: 10), error: .discard))
        XCTAssertEqual(r.output.count, 10)
        XCTAssertEqual(r.errorOutput, [])
    }

    func testGrandchildHoldingThePipeIsNotWaitedForPastTheDrainLimit() throws {
        let start = Date()
        let r = try XCTUnwrap(sh("sleep 5 & echo hi", drainLimit: 0.3))
        XCTAssertEqual(r.termination, .exited(0))
        XCTAssertEqual(String(decoding: r.output, as: UTF8.self), "hi\n")
        XCTAssertFalse(r.outputComplete)
        XCTAssertLessThan(Date().timeIntervalSince(start), 4)
    }

    func testEnvironmentIsExactlyTheOneGiven() throws {
        let r = try XCTUnwrap(Subprocess.run("/usr/bin/env", arguments: [], environment: ["ONLY": "this"], timeLimit: 10))
        XCTAssertEqual(String(decoding: r.output, as: UTF8.self), "ONLY=this\n")
    }

    func testMissingProgramIsNil() {
        XCTAssertNil(Subprocess.run("/nonexistent/program", arguments: [], environment: [:], timeLimit: 1))
        XCTAssertFalse(Subprocess.launch("/nonexistent/program", arguments: [], environment: [:]))
    }

    func testSignalsAreDefaultInTheChild() throws {
        // pwnvault ignores SIGPIPE; a child must not inherit that: `yes | head` ends by SIGPIPE.
        let previous = signal(SIGPIPE, SIG_IGN)
        defer { signal(SIGPIPE, previous) }
        let r = try XCTUnwrap(sh("yes | head -c 1 >/dev/null; echo done"))
        XCTAssertEqual(String(decoding: r.output, as: UTF8.self), "done\n")
        let status = try XCTUnwrap(Subprocess.run("/bin/sh", arguments: ["-c", "kill -PIPE $$; exit 0"], environment: [:], timeLimit: 10))
        XCTAssertEqual(status.termination, .signaled(SIGPIPE))
    }

    /// A descriptor the caller left without close-on-exec (as libcurl leaves its sockets) is not
    /// inherited: the program sees its 0, 1 and 2 and nothing else pwnvault had open.
    func testNoDescriptorButTheStandardThreeReachesTheProgram() throws {
        let leaky = open("/dev/null", O_RDONLY)   // no O_CLOEXEC, on purpose
        XCTAssertGreaterThan(leaky, 2)
        defer { close(leaky) }
        let r = try XCTUnwrap(Subprocess.run("/bin/ls", arguments: ["-1", "/proc/self/fd"], environment: [:], timeLimit: 10))
        let open = String(decoding: r.output, as: UTF8.self).split(separator: "\n").compactMap { Int32($0) }
        // ls itself holds one more: the directory it is reading.
        XCTAssertEqual(open.filter { $0 > 2 }.count, 1, "descriptors in the child: \(open)")
    }

    /// The pager, started by pwnvault's other posix_spawn, inherits nothing either.
    func testThePagerInheritsNoDescriptorEither() throws {
        let leaky = open("/dev/null", O_RDONLY)
        defer { close(leaky) }
        let listing = FileManager.default.temporaryDirectory.appendingPathComponent("pager-fds-\(getpid())").path
        defer { try? FileManager.default.removeItem(atPath: listing) }
        let pager = try XCTUnwrap(Pager(command: "ls -1 /proc/self/fd > '\(listing)'; cat >/dev/null"))
        pager.write("some text\n")
        pager.finish()
        let open = try String(contentsOfFile: listing, encoding: .utf8).split(separator: "\n").compactMap { Int32($0) }
        XCTAssertEqual(open.filter { $0 > 2 }.count, 1, "descriptors in the pager: \(open)")   // ls's directory
        XCTAssertFalse(open.contains(leaky))
    }
}
