import Foundation
import XCTest

/// Issue 30: `PWNVAULT_MAX_WAIT` and `--max-wait` bound every wait of every command, not only each
/// single `retry-after`: a server that answers 429 with a short `Retry-After` forever (the pace halving
/// round after round) ends a single-account check, a range search and `watch`'s domain phase with
/// status 6 and one line that says why, against the fake HIBP server.
///
/// The runs are guarded by a generous deadline (a hang fails the test); how long they took is printed,
/// not asserted.
final class MaxWaitEndToEndTests: XCTestCase {
    var server: FakeHIBP!
    var s: Sandbox!

    override func setUpWithError() throws {
        server = try FakeHIBP()
        s = try Sandbox(inProcess: true)
        s.use(server)
    }

    override func tearDown() { server = nil; s = nil }

    private struct Bounded {
        var status: Int32
        var stdout: String
        var stderr: String
        var seconds: Double
        var all: String { "status \(status) after \(seconds) s\nstdout:\n\(stdout)\nstderr:\n\(stderr)" }
    }

    /// Runs `pwnvault ARGS` with the sandbox's environment plus `env`, killed after `deadline` seconds
    /// (then the test fails: it waited on).
    private func run(_ args: [String], env: [String: String] = [:], deadline: Double = 60,
                     file: StaticString = #filePath, line: UInt = #line) throws -> Bounded {
        let out = s.dir.appendingPathComponent("out-\(UUID().uuidString)"), err = s.dir.appendingPathComponent("err-\(UUID().uuidString)")
        FileManager.default.createFile(atPath: out.path, contents: nil)
        FileManager.default.createFile(atPath: err.path, contents: nil)
        let p = Process()
        p.executableURL = URL(fileURLWithPath: Paths.binary)
        p.arguments = args
        p.environment = s.environment.merging(env) { $1 }
        p.standardInput = FileHandle.nullDevice
        p.standardOutput = try FileHandle(forWritingTo: out)
        p.standardError = try FileHandle(forWritingTo: err)
        let started = Date()
        try p.run()
        while p.isRunning && Date().timeIntervalSince(started) < deadline { usleep(50_000) }
        let hung = p.isRunning
        if hung { kill(p.processIdentifier, SIGKILL) }
        p.waitUntilExit()
        let r = Bounded(status: p.terminationStatus, stdout: (try? String(contentsOf: out, encoding: .utf8)) ?? "",
                        stderr: (try? String(contentsOf: err, encoding: .utf8)) ?? "", seconds: Date().timeIntervalSince(started))
        if hung { XCTFail("still running after \(deadline) s: \(r.all)", file: file, line: line) }
        print("MaxWaitEndToEndTests: pwnvault \(args.joined(separator: " ")) ended in \(String(format: "%.1f", r.seconds)) s")
        return r
    }

    private func statuses() -> [Int] { server.log().compactMap { $0["status"] as? Int } }

    /// `Retry-After: 2` on every request, `PWNVAULT_MAX_WAIT=3`: each wait HIBP asks for is within the
    /// limit, but the run of 429s (the pace halving each round) is not waited out.
    func testASingleAccountCheckStopsWhenRetryAfterTwoNeverEnds() throws {
        s.initVault()
        XCTAssertEqual(s.run(["add", "clean.one@example.com"]).status, 0)
        XCTAssertEqual(s.run(["breaches"]).status, 0, "the catalog is cached first: the 429s are for the check")
        server.control("/__control/reset", "{}")
        server.control("/__control/faults", #"{"429:2": 1000}"#)
        let r = try run(["check", "#1"], env: ["PWNVAULT_MAX_WAIT": "3"])
        XCTAssertEqual(r.status, 6, r.all)
        XCTAssertTrue(r.stderr.contains("pwnvault: error: Have I Been Pwned kept refusing requests (429, too many requests): the next try would come "), r.all)
        XCTAssertTrue(r.stderr.contains("longer than the 3 s pwnvault waits"), r.all)
        XCTAssertTrue(r.stderr.contains("pwnvault: hint: results already checked are saved; run it again later, or allow longer waits with --max-wait SECONDS or PWNVAULT_MAX_WAIT"), r.all)
        XCTAssertEqual(r.stderr.components(separatedBy: "pwnvault: error:").count, 2, "one error line: \(r.stderr)")
        XCTAssertGreaterThan(statuses().filter { $0 == 429 }.count, 0)
        XCTAssertEqual(statuses().filter { $0 != 429 }, [], "nothing was answered")
        // The account keeps what it had (never checked), and `--max-wait` sets the same limit.
        XCTAssertTrue(s.run(["list"]).stdout.contains("never checked"), s.run(["list"]).all)
        let option = try run(["check", "#1", "--max-wait", "3"])
        XCTAssertEqual(option.status, 6, option.all)
        XCTAssertTrue(option.stderr.contains("longer than the 3 s pwnvault waits"), option.all)
    }

    /// The same for the range search (k-anonymity), which the issue saw waiting 12, 30, 61, 61 s…
    func testTheRangeSearchStopsWhenRetryAfterTwoNeverEnds() throws {
        server.control("/__control/config", #"{"entitlements": {"\#(FakeHIBP.key)": {"k_anonymity": true}}}"#)
        s.initVault()
        XCTAssertEqual(s.run(["add", "clean.two@example.com"]).status, 0)
        XCTAssertEqual(s.run(["breaches"]).status, 0)
        server.control("/__control/reset", "{}")
        server.control("/__control/faults", #"{"429:2": 1000}"#)
        let r = try run(["check", "#1", "--k-anonymity=require"], env: ["PWNVAULT_MAX_WAIT": "3"])
        XCTAssertEqual(r.status, 6, r.all)
        XCTAssertTrue(r.stderr.contains("pwnvault: error: Have I Been Pwned kept refusing requests (429, too many requests)"), r.all)
        XCTAssertTrue(r.stderr.contains("longer than the 3 s pwnvault waits"), r.all)
        let paths = server.log().compactMap { $0["path"] as? String }
        XCTAssertFalse(paths.isEmpty)
        XCTAssertTrue(paths.allSatisfy { $0.hasPrefix("/api/v3/breachedaccount/range/") }, "\(paths)")
    }

    /// `watch --max-wait 5` while the domain search answers `Retry-After: 30`: the run stops at once with
    /// status 6 and says so (the domain phase waited 30 s silently, whatever the limit, before).
    func testWatchStopsWhenTheDomainSearchAsksForALongerWait() throws {
        s.initVault()
        XCTAssertEqual(s.run(["add", "account-exists@hibp-integration-tests.com", "clean.three@example.com"]).status, 0)
        server.control("/__control/faults", #"{"breacheddomain=429:30": 1000}"#)
        let r = try run(["watch", "--max-wait", "5", "--rpm", "600"])
        XCTAssertEqual(r.status, 6, r.all)
        XCTAssertTrue(r.stderr.contains("pwnvault: error: Have I Been Pwned asked to wait 30 s before the next request, longer than the 5 s pwnvault waits"), r.all)
        XCTAssertTrue(r.stderr.contains("pwnvault: hint: results already checked are saved"), r.all)
        let paths = server.log().compactMap { $0["path"] as? String }
        XCTAssertTrue(paths.contains { $0.hasPrefix("/api/v3/breacheddomain/") }, "\(paths)")
        XCTAssertFalse(paths.contains { $0.contains("/breachedaccount/") }, "nothing is asked one by one after the stop: \(paths)")

        // PWNVAULT_MAX_WAIT sets it too; a short Retry-After forever is bounded the same way.
        server.control("/__control/reset", "{}")
        server.control("/__control/faults", #"{"breacheddomain=429:2": 1000}"#)
        let variable = try run(["watch", "--rpm", "600"], env: ["PWNVAULT_MAX_WAIT": "3"])
        XCTAssertEqual(variable.status, 6, variable.all)
        XCTAssertTrue(variable.stderr.contains("longer than the 3 s pwnvault waits"), variable.all)
    }
}
