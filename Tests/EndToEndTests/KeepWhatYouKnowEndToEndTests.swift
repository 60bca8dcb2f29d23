import Foundation
import XCTest

/// Issue 8, "nothing the user knew is ever lost", against the fake HIBP server: a failed re-check
/// keeps the saved breaches next to the failure; an unreachable HIBP stops the run once; a
/// Retry-After is announced when long and refused when longer than the limit.
final class KeepWhatYouKnowEndToEndTests: XCTestCase {
    /// The test domain's account with one breach (Adobe) and one paste.
    static let adobe = "account-exists@hibp-integration-tests.com"

    /// `inProcess: false` for the scenarios that run side by side: each has its own process, as before
    /// (a 1 s HTTP timeout inside a test process busy with five other scenarios is not what is tested).
    private func makeSandbox(_ server: FakeHIBP, inProcess: Bool = true) throws -> Sandbox {
        let s = try Sandbox(inProcess: inProcess)
        s.use(server)
        return s
    }

    private func listRows(_ s: Sandbox, file: StaticString = #filePath, line: UInt = #line) throws -> [[String: Any]] {
        let r = s.run(["list", "--json"])
        XCTAssertEqual(r.status, 0, r.stderr, file: file, line: line)
        return try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [[String: Any]], file: file, line: line)
    }

    private func json(_ text: String) throws -> [String: Any] {
        try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any], text)
    }

    /// A vault whose account #1 was checked as breached (Adobe).
    private func breachedVault(_ server: FakeHIBP) throws -> Sandbox {
        let s = try makeSandbox(server)
        s.initVault()
        XCTAssertEqual(s.run(["add", Self.adobe]).status, 0)
        let first = s.run(["check", "#1"])
        XCTAssertEqual(first.status, 1, first.all)
        XCTAssertEqual(try listRows(s).first?["breaches"] as? [String], ["Adobe"])
        return s
    }

    /// Each fault, once the retries are used up: the saved breaches survive in list, list --json,
    /// show and show --json, the failure is recorded next to them, and the next good answer clears it.
    func testAFailedRecheckKeepsTheSavedBreachesUnderEveryFault() throws {
        // (fault, how many requests it must spoil: the first try and 3 retries for passing failures,
        //  words of the message the user sees)
        let faults: [(String, Int, String)] = [("503", 4, "unavailable (503)"), ("500", 4, "status 500"),
                                               ("timeout", 4, "did not answer in time"), ("drop", 4, "could not reach"),
                                               ("malformed", 1, "cannot read"), ("oversized", 1, "larger than")]
        let failures = Failures()
        // Safe: recheck returns what went wrong instead of asserting, and reads no state of the test
        // case, so the scenarios may run on several threads at once.
        nonisolated(unsafe) let test = self
        // The retries wait seconds of backoff: run the faults side by side, each with its own server.
        DispatchQueue.concurrentPerform(iterations: faults.count) { i in
            let (fault, count, words) = faults[i]
            do {
                let problems = try test.recheck(under: fault, count: count, words: words)
                failures.add(problems.map { "\(fault): \($0)" })
            } catch {
                failures.add(["\(fault): \(error)"])
            }
        }
        XCTAssertEqual(failures.all, [], failures.all.joined(separator: "\n"))
    }

    /// The scenario of one fault; returns what went wrong (assertions from several threads at once
    /// are collected, not raised).
    private func recheck(under fault: String, count: Int, words: String) throws -> [String] {
        var problems: [String] = []
        func expect(_ condition: Bool, _ what: String, _ output: String) {
            if !condition { problems.append("\(what)\n\(output)") }
        }
        let server = try FakeHIBP()
        let s = try makeSandbox(server, inProcess: false)
        s.initVault()
        expect(s.run(["add", Self.adobe]).status == 0, "add", "")
        let first = s.run(["check", "#1"])
        expect(first.status == 1, "first check is breached", first.all)

        server.control("/__control/config", #"{"timeout_s": 3}"#)
        server.control("/__control/faults", #"{"\#(fault)": \#(count)}"#)
        // A 1 s client timeout only where the fault is a server that does not answer: under load an
        // oversized answer took longer than that, timed out, and its retry got the normal answer.
        let failed = s.run(["check", "#1"], env: fault == "timeout" ? ["PWNVAULT_HTTP_TIMEOUT": "1"] : [:])
        expect(failed.status == 6, "a check that failed for every account exits 6", failed.all)
        expect(failed.stdout.contains("#1  not checked: ") && failed.stdout.contains(words), "the check line says why", failed.all)
        expect(failed.stdout.contains("kept the result of") && failed.stdout.contains("breached (1, 1 to acknowledge)"), "and what was kept (the breach is still new: no answer since)", failed.all)

        let list = s.run(["list"])
        expect(list.stdout.contains("breached (1, 1 to acknowledge) · last check failed"), "list keeps the breach and notes the failure", list.all)
        let rows = (try? JSONSerialization.jsonObject(with: Data(s.run(["list", "--json"]).stdout.utf8))) as? [[String: Any]] ?? []
        let row = rows.first ?? [:]
        expect(row["status"] as? String == "breached", "list --json status", "\(row)")
        expect(row["breaches"] as? [String] == ["Adobe"], "list --json breaches", "\(row)")
        expect(row["checkedAt"] != nil, "list --json keeps when the breaches were seen", "\(row)")
        let lastFailure = row["lastFailure"] as? [String: Any] ?? [:]
        expect((lastFailure["error"] as? String ?? "").contains(words) && lastFailure["at"] is String,
               "list --json records the failure next to them", "\(row)")

        let show = s.run(["show", "#1"])
        expect(show.stdout.contains("pwned in 1 breach") && show.stdout.contains("Adobe"), "show keeps the breach", show.all)
        expect(show.stdout.contains("the latest check failed (") && show.stdout.contains(words), "show says why the latest failed", show.all)
        let shown = (try? JSONSerialization.jsonObject(with: Data(s.run(["show", "#1", "--json"]).stdout.utf8))) as? [String: Any] ?? [:]
        expect((shown["breaches"] as? [[String: Any]])?.first?["name"] as? String == "Adobe", "show --json keeps the breach", "\(shown)")
        expect(((shown["lastFailure"] as? [String: Any])?["error"] as? String ?? "").contains(words), "show --json has the failure", "\(shown)")

        // check --all tries it again although it was checked today, and a good answer clears the failure
        let again = s.run(["check", "--all"])
        expect(again.status == 1, "check --all re-checks an account whose last attempt failed", again.all)
        let cleared = (try? JSONSerialization.jsonObject(with: Data(s.run(["list", "--json"]).stdout.utf8))) as? [[String: Any]] ?? []
        expect(cleared.first?["lastFailure"] == nil && cleared.first?["status"] as? String == "breached", "a good answer clears the failure", "\(cleared)")
        return problems
    }

    func testCheckJSONCarriesTheSavedAnswerAndTheFailure() throws {
        let server = try FakeHIBP()
        let s = try breachedVault(server)
        server.control("/__control/faults", #"{"malformed": 1}"#)
        let r = s.run(["check", "#1", "--json"])
        XCTAssertEqual(r.status, 6, r.all)
        let report = try json(r.stdout)
        let row = try XCTUnwrap((report["results"] as? [[String: Any]])?.first)
        XCTAssertEqual(row["status"] as? String, "breached")
        XCTAssertEqual(row["breaches"] as? [String], ["Adobe"])
        XCTAssertNotNil(row["checkedAt"])
        XCTAssertTrue((row["error"] as? String ?? "").contains("cannot read"), "\(row)")
        XCTAssertTrue(((row["lastFailure"] as? [String: Any])?["error"] as? String ?? "").contains("cannot read"), "\(row)")
        let summary = try XCTUnwrap(report["summary"] as? [String: Any])
        XCTAssertEqual(summary["checked"] as? Int, 0)
        XCTAssertEqual(summary["failed"] as? Int, 1)
        XCTAssertFalse(r.all.contains("account-exists"), "never an account")
    }

    /// Connection refused: one message, a summary that says nothing was checked, exit 6, and the
    /// saved answers unchanged; with the rate asked from HIBP (the first request) and with --rpm.
    func testAnUnreachableAPIStopsTheRunAfterOneError() throws {
        let server = try FakeHIBP()
        let s = try breachedVault(server)
        XCTAssertEqual(s.run(["add", "clean.u1@example.com", "clean.u2@example.com", "clean.u3@example.com"]).status, 0)
        let before = try listRows(s)
        let closed = try closedPort()
        for extra in [[], ["--rpm", "600"]] {
            let r = s.run(["check", "--all", "--force"] + extra, env: ["PWNVAULT_API_URL": "http://127.0.0.1:\(closed)/api/v3"])
            XCTAssertEqual(r.status, 6, r.all)
            XCTAssertEqual(r.stderr.components(separatedBy: "pwnvault: error:").count - 1, 1, r.stderr)
            XCTAssertTrue(r.stderr.contains("Have I Been Pwned cannot be reached: the connection was refused"), r.stderr)
            XCTAssertTrue(r.stdout.contains("0 of 4 checked; HIBP unreachable: the connection was refused"), r.stdout)
            XCTAssertFalse(r.stdout.contains("not checked"), "no line per account: \(r.stdout)")
            let after = try listRows(s)
            XCTAssertEqual(after.map { $0["status"] as? String }, before.map { $0["status"] as? String })
            XCTAssertEqual(after.first?["breaches"] as? [String], ["Adobe"])
            XCTAssertNil(after.first?["lastFailure"], "the error is about the run, not the account")
        }
        XCTAssertTrue(s.run(["list"]).stdout.contains("breached (1, 1 to acknowledge)"))
    }

    /// `Retry-After: 999999` is not waited for: the run ends at once with status 6 and a clear
    /// message, and what was checked before it stays saved.
    func testAHugeRetryAfterEndsTheRunAndKeepsFinishedResults() throws {
        let server = try FakeHIBP()
        let s = try makeSandbox(server)
        s.initVault()
        XCTAssertEqual(s.run(["add", "clean.w1@example.com", "clean.w2@example.com", "clean.w3@example.com"]).status, 0)
        XCTAssertEqual(s.run(["breaches"]).status, 0, "the catalog is cached first: the faults are for the checks")
        // The first lookup is answered (a "timeout" of no time), the second is told to wait 999999 s.
        server.control("/__control/config", #"{"timeout_s": 0.01}"#)
        server.control("/__control/faults", #"{"timeout": 1, "429:999999": 1}"#)
        let p = try s.start(["check", "--all", "--rpm", "60"])
        let deadline = Date().addingTimeInterval(60)   // a guard against a hang, not a measurement
        while p.isRunning && Date() < deadline { usleep(100_000) }
        if p.isRunning { kill(p.processIdentifier, SIGKILL); p.waitUntilExit(); return XCTFail("check waited for the retry-after") }
        XCTAssertEqual(p.terminationStatus, 6)
        let rows = try listRows(s)
        XCTAssertEqual(rows.compactMap { $0["status"] as? String }, ["clean", "never-checked", "never-checked"])

        server.control("/__control/faults", #"{"429:999999": 1}"#)
        let r = s.run(["check", "--all", "--rpm", "60"])
        XCTAssertEqual(r.status, 6, r.all)
        XCTAssertTrue(r.stderr.contains("pwnvault: error: Have I Been Pwned asked to wait 999999 s before the next request, longer than the 60 s pwnvault waits"), r.stderr)
        XCTAssertTrue(r.stderr.contains("pwnvault: hint: results already checked are saved"), r.stderr)
        XCTAssertTrue(r.stdout.contains("0 of 2 checked; stopped: HIBP asked to wait 999999 s (the limit is 60 s)"), r.stdout)

        // the limit is the user's: --max-wait and PWNVAULT_MAX_WAIT
        server.control("/__control/faults", #"{"429:10": 1}"#)
        let option = s.run(["check", "--all", "--rpm", "60", "--max-wait", "5"])
        XCTAssertEqual(option.status, 6, option.all)
        XCTAssertTrue(option.stderr.contains("asked to wait 10 s before the next request, longer than the 5 s"), option.stderr)
        server.control("/__control/faults", #"{"429:10": 1}"#)
        let variable = s.run(["check", "--all", "--rpm", "60"], env: ["PWNVAULT_MAX_WAIT": "5"])
        XCTAssertEqual(variable.status, 6, variable.all)
        XCTAssertTrue(variable.stderr.contains("longer than the 5 s"), variable.stderr)
        let bad = s.run(["check", "--all", "--max-wait", "0"])
        XCTAssertEqual(bad.status, 2, bad.all)
    }

    /// A wait over 5 s is announced on stderr, once, with how long and that Ctrl-C keeps the results.
    func testALongerWaitIsAnnounced() throws {
        let server = try FakeHIBP()
        let s = try makeSandbox(server)
        s.initVault()
        XCTAssertEqual(s.run(["add", "clean.a1@example.com"]).status, 0)
        XCTAssertEqual(s.run(["breaches"]).status, 0)
        server.control("/__control/faults", #"{"429:6": 1}"#)
        let r = s.run(["check", "#1"])
        XCTAssertEqual(r.status, 0, r.all)
        XCTAssertEqual(r.stderr.components(separatedBy: "HIBP asks to slow down (429): waiting 6 s before asking again").count - 1, 1, r.stderr)
        XCTAssertTrue(r.stderr.contains("Ctrl-C stops here and keeps the results so far"), r.stderr)
        XCTAssertTrue(r.stdout.contains("#1  no breach found"), r.stdout)
        // a short wait is not worth a word
        server.control("/__control/faults", #"{"429": 1}"#)
        let quiet = s.run(["check", "#1"])
        XCTAssertEqual(quiet.status, 0, quiet.all)
        XCTAssertFalse(quiet.stderr.contains("waiting"), quiet.stderr)
    }

    /// A port on loopback that nobody listens on.
    private func closedPort() throws -> Int {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: Paths.python)
        p.arguments = ["-c", "import socket; s=socket.socket(); s.bind(('127.0.0.1',0)); print(s.getsockname()[1]); s.close()"]
        let out = Pipe()
        p.standardOutput = out
        try p.run()
        p.waitUntilExit()
        let text = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        return try XCTUnwrap(Int(text.trimmingCharacters(in: .whitespacesAndNewlines)))
    }
}

/// Problems found by scenarios running on several threads. Unchecked: every access holds the lock.
private final class Failures: @unchecked Sendable {
    private var stored: [String] = []
    private let lock = NSLock()
    func add(_ more: [String]) { lock.lock(); stored += more; lock.unlock() }
    var all: [String] { lock.lock(); defer { lock.unlock() }; return stored }
}
