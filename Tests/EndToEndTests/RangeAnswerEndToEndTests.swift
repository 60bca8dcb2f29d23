import Foundation
import TestSupport
import XCTest

/// Issue 29: an answer that is not a search result never becomes "no breach found". Against the fake
/// HIBP server in a mode without `breachedaccount/range` (404, as for any path it does not know), and
/// with `subscription/status` saying the plan includes the range search, does not, or not saying.
final class RangeAnswerEndToEndTests: XCTestCase {
    var server: FakeHIBP!
    var s: Sandbox!
    /// Two in breaches, one clean (the fake's deterministic rule: "pwned" in the local part).
    let accounts = ["pwned.kay@example.com", "pwned.lee@example.com", "clean.lou@example.com"]

    override func setUpWithError() throws {
        server = try FakeHIBP()
        s = try Sandbox(inProcess: true)
        s.use(server)
        s.environment["PWNVAULT_K_ANONYMITY"] = "auto"
        for account in accounts { server.control("/__control/accounts", #"{"account": "\#(account)"}"#) }
        s.initVault()
        XCTAssertEqual(s.run(["add"] + accounts).status, 0)
    }

    override func tearDown() { server = nil; s = nil }

    /// A server that has no range search, and whose `subscription/status` does not say (as one written
    /// without it would answer).
    private func withoutRangeEndpoint() {
        server.control("/__control/config", #"{"range_endpoint": false, "k_anonymity_field": false, "k_anonymity": true}"#)
    }

    private func paths() -> [(path: String, status: Int)] {
        server.log().compactMap { e in
            guard let path = e["path"] as? String else { return nil }
            return (path, e["status"] as? Int ?? 0)
        }
    }

    private func isRange(_ path: String) -> Bool { path.contains("/breachedaccount/range/") }

    private func json(_ text: String) throws -> [String: Any] {
        try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any], text)
    }

    /// Every account's status in `list --json`, by id.
    private func statuses() throws -> [Int: String] {
        let r = s.run(["list", "--json"])
        XCTAssertEqual(r.status, 0, r.all)
        let rows = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [[String: Any]])
        return Dictionary(uniqueKeysWithValues: rows.map { ($0["id"] as? Int ?? -1, $0["status"] as? String ?? "") })
    }

    // MARK: a server without the range search

    func testAutoFindsTheBreachesThroughTheWholeAddressAndSaysSoOnce() throws {
        withoutRangeEndpoint()
        let r = s.run(["check", "--all", "--json"])
        XCTAssertEqual(r.status, 1, "two accounts are in breaches: \(r.all)")
        let report = try json(r.stdout)
        XCTAssertEqual((report["summary"] as? [String: Any])?["lookup"] as? String, "whole address")
        let rows = try XCTUnwrap(report["results"] as? [[String: Any]])
        XCTAssertEqual(rows.map { $0["status"] as? String }, ["breached", "breached", "clean"], r.stdout)
        XCTAssertEqual(try statuses(), [1: "breached", 2: "breached", 3: "clean"])
        let ranged = paths().filter { isRange($0.path) }
        XCTAssertEqual(ranged.count, 1, "one probe: \(paths())")
        XCTAssertEqual(ranged.first?.status, 404)
        XCTAssertEqual(paths().filter { $0.path.contains("/breachedaccount/") && !isRange($0.path) }.count, accounts.count)
        XCTAssertTrue(r.stderr.contains("has no k-anonymity search (it answered HTTP 404 to breachedaccount/range"), r.stderr)
        XCTAssertTrue(r.stderr.contains("e-mail addresses are sent whole instead"), r.stderr)

        // Remembered like a refusal: no range request, and the fallback is not told again.
        let before = paths().count
        let again = s.run(["check", "--all", "--force"])
        XCTAssertEqual(again.status, 1, again.all)
        XCTAssertFalse(paths().dropFirst(before).contains { isRange($0.path) }, "\(paths())")
        XCTAssertFalse(again.stderr.contains("k-anonymity"), again.stderr)

        // doctor and status name the fallback.
        let doctor = s.run(["doctor"])
        let lookup = doctor.stdout.split(separator: "\n").first { $0.contains("lookup") }.map(String.init) ?? ""
        XCTAssertTrue(lookup.contains("whole address") && lookup.contains("it has none"), doctor.all)
        let status = s.run(["status", "--json"])
        XCTAssertEqual(try json(status.stdout)["lookup"] as? String, "whole address", status.all)
        XCTAssertTrue(s.run(["status"]).stdout.contains("it has none"))
    }

    func testRequireExits7AndMarksNothingClean() throws {
        withoutRangeEndpoint()
        let r = s.run(["check", "--all", "--k-anonymity=require"])
        XCTAssertEqual(r.status, 7, r.all)
        XCTAssertTrue(r.stderr.contains("no k-anonymity search (it answered HTTP 404 to breachedaccount/range), and --k-anonymity=require sends no address whole"), r.stderr)
        XCTAssertFalse(r.stdout.contains("no breach found"), r.stdout)
        XCTAssertEqual(Set(try statuses().values), ["never-checked"])
        XCTAssertTrue(paths().filter { $0.path.contains("/breachedaccount/") }.allSatisfy { isRange($0.path) }, "nothing sent whole: \(paths())")
        XCTAssertEqual(s.run(["status", "--json"], env: ["PWNVAULT_K_ANONYMITY": "require"]).status, 0)
    }

    func testWatchTheSame() throws {
        withoutRangeEndpoint()
        let require = s.run(["watch"], env: ["PWNVAULT_K_ANONYMITY": "require"])
        XCTAssertEqual(require.status, 7, require.all)
        XCTAssertEqual(Set(try statuses().values), ["never-checked"], "a refused search marks nothing clean")
        XCTAssertTrue(paths().filter { $0.path.contains("/breachedaccount/") }.allSatisfy { isRange($0.path) })

        let auto = s.run(["watch"])
        XCTAssertEqual(auto.status, 1, auto.all)
        XCTAssertEqual(try statuses(), [1: "breached", 2: "breached", 3: "clean"])
        XCTAssertTrue(auto.stderr.contains("has no k-anonymity search"), auto.stderr)
    }

    // MARK: what the plan says

    private func plan(_ field: String) {
        switch field {
        case "true": server.control("/__control/config", #"{"k_anonymity": true}"#)
        case "false": server.control("/__control/config", #"{"k_anonymity": false}"#)
        default: server.control("/__control/config", #"{"k_anonymity": false, "k_anonymity_field": false}"#)
        }
    }

    func testThePlanIncludesIt() throws {
        plan("true")
        let r = s.run(["check", "--all"])
        XCTAssertEqual(r.status, 1, r.all)
        let lookups = paths().filter { $0.path.contains("/breachedaccount/") }
        XCTAssertEqual(lookups.count, accounts.count)
        XCTAssertTrue(lookups.allSatisfy { isRange($0.path) && $0.status == 200 }, "\(lookups)")
        XCTAssertTrue(s.run(["status"]).stdout.contains("the key's plan includes it"))
    }

    func testThePlanExcludesIt() throws {
        plan("false")
        let r = s.run(["check", "--all"])
        XCTAssertEqual(r.status, 1, r.all)
        XCTAssertFalse(paths().contains { isRange($0.path) }, "no range request: \(paths())")
        XCTAssertFalse(r.all.lowercased().contains("k-anonymity"), "nothing said about it: \(r.all)")
        XCTAssertEqual(try statuses(), [1: "breached", 2: "breached", 3: "clean"])
        // The plan is remembered with the rate: the next run asks nothing and still sends no range request.
        let again = s.run(["check", "--all", "--force"])
        XCTAssertFalse(paths().contains { isRange($0.path) }, "\(paths())")
        XCTAssertFalse(again.all.lowercased().contains("k-anonymity"), again.all)
        // require stops before any request: status 7, nothing sent whole.
        let before = paths().count
        let require = s.run(["check", "--all", "--force", "--k-anonymity=require"])
        XCTAssertEqual(require.status, 7, require.all)
        XCTAssertTrue(require.stderr.contains("plan does not include the k-anonymity search"), require.stderr)
        XCTAssertFalse(paths().dropFirst(before).contains { $0.path.contains("/breachedaccount/") }, "\(paths())")
        let doctor = s.run(["doctor"]).stdout
        XCTAssertTrue(doctor.contains("the key's plan does not include the k-anonymity search"), doctor)
    }

    func testThePlanDoesNotSay() throws {
        plan("absent")
        let r = s.run(["check", "--all"])
        XCTAssertEqual(r.status, 1, r.all)
        let ranged = paths().filter { isRange($0.path) }
        XCTAssertEqual(ranged.map(\.status), [403], "one probe: \(paths())")
        XCTAssertTrue(r.stderr.contains("the k-anonymity search was refused"), r.stderr)
        let again = s.run(["check", "--all", "--force"])
        XCTAssertEqual(paths().filter { isRange($0.path) }.count, 1, "remembered")
        XCTAssertFalse(again.stderr.contains("k-anonymity"), again.stderr)
        XCTAssertTrue(s.run(["doctor"]).stdout.contains("HIBP refused this key the k-anonymity search"))
    }

    // MARK: the ui

    func testTheUISaysWhatCheckSays() throws {
        withoutRangeEndpoint()
        let tmux = try TmuxSession(environment: s.environment.merging([
            "PWNVAULT_VAULT": s.vault, "PWNVAULT_PASSPHRASE_FILE": s.passphraseFile, "PWNVAULT_K_ANONYMITY": "auto",
            "PWNVAULT_API_URL": server.apiURL, "TEST_BIN": Paths.binary, "HOME": s.home.path, "TEST_KEY": FakeHIBP.key,
        ]) { $1 })
        defer { tmux.close() }
        tmux.run("HIBP_API_KEY=$TEST_KEY \"$TEST_BIN\" ui")
        let deadline = Date().addingTimeInterval(30)
        while Date() < deadline, !tmux.screen.contains("Accounts (3)") {
            if tmux.screen.contains("hidden: focus lost") { tmux.type("\\e[I") }
            usleep(100_000)
        }
        tmux.wait(for: "Accounts (3)", seconds: 30)
        tmux.type("R")
        // While the run goes on and on its closing line, the status line (the last row) says it in short;
        // the sentence check prints is above it.
        tmux.wait(for: "check done: ", seconds: 30)
        let screen = tmux.screen
        let statusLine = screen.split(separator: "\n").last.map(String.init) ?? ""
        XCTAssertTrue(statusLine.hasPrefix("check done: 3 of 3 checked, 2 pwned; sent whole: the server has no k-anonymity search"), screen)
        XCTAssertTrue(screen.contains("pwnvault: the server at the api address has no k-anonymity search (it answered HTTP 404"), screen)
        tmux.type("q")
        // The ui's results are saved as they come: the one clean account is the one in no breach.
        var saved: [Int: String] = [:]
        let saveDeadline = Date().addingTimeInterval(10)
        repeat { saved = try statuses(); if saved.values.contains("never-checked") { usleep(100_000) } }
            while saved.values.contains("never-checked") && Date() < saveDeadline
        XCTAssertEqual(saved, [1: "breached", 2: "breached", 3: "clean"], "never green from a missing search")
    }
}
