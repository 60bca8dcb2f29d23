import Foundation
import TestSupport
import XCTest

/// `check --k-anonymity`: e-mail addresses looked up by the first 6 hex characters of their SHA-1
/// (`breachedaccount/range`) against the fake HIBP server, whose log shows what was sent.
final class KAnonymityEndToEndTests: XCTestCase {
    var server: FakeHIBP!
    var s: Sandbox!
    let accounts = ["pwned.kay@example.com", "pwned.lee@example.com", "clean.lou@example.com", "Pwned.Mo@Example.com"]

    override func setUpWithError() throws {
        server = try FakeHIBP()
        s = try Sandbox(inProcess: true)
        s.use(server)
        s.environment["PWNVAULT_K_ANONYMITY"] = "auto"
        // HIBP knows its accounts; the fake can list only those it was told about.
        for account in accounts {
            server.control("/__control/accounts", #"{"account": "\#(account)"}"#)
        }
        // subscription/status does not say what the plan includes: the probe these tests are about
        // (RangeAnswerEndToEndTests cover a plan that says).
        server.control("/__control/config", #"{"k_anonymity_field": false}"#)
        s.initVault()
        XCTAssertEqual(s.run(["add"] + accounts).status, 0)
    }

    override func tearDown() { server = nil; s = nil }

    private func grant(_ allowed: Bool) {
        server.control("/__control/config", #"{"entitlements": {"\#(FakeHIBP.key)": {"k_anonymity": \#(allowed)}}}"#)
    }

    private func accountPaths() -> [(path: String, status: Int)] {
        server.log().compactMap { e in
            guard let path = e["path"] as? String, path.contains("/breachedaccount/") else { return nil }
            return (path, e["status"] as? Int ?? 0)
        }
    }

    private func isRange(_ path: String) -> Bool {
        path.range(of: #"^/api/v3/breachedaccount/range/[0-9A-F]{6}$"#, options: .regularExpression) != nil
    }

    /// `check --all --force --json` with `extra`: its results by id (status, breach count, names) and
    /// its summary.
    private func check(_ extra: [String] = [], status expected: Int32 = 1) throws -> (results: [Int: String], summary: [String: Any]) {
        let r = s.run(["check", "--all", "--force", "--json"] + extra)
        XCTAssertEqual(r.status, expected, r.all)
        let json = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any], r.all)
        var results: [Int: String] = [:]
        for row in json["results"] as? [[String: Any]] ?? [] {
            results[row["id"] as? Int ?? -1] = "\(row["status"] ?? "") \(row["breachCount"] ?? "") \(row["breaches"] ?? "")"
        }
        return (results, json["summary"] as? [String: Any] ?? [:])
    }

    func testAKeyWithItSendsOnlyPrefixesAndFindsWhatTheWholeAddressFinds() throws {
        grant(true)
        let ranged = try check()
        XCTAssertEqual(ranged.summary["lookup"] as? String, "k-anonymity")
        let paths = accountPaths()
        XCTAssertEqual(paths.count, accounts.count)
        for (path, status) in paths {
            XCTAssertTrue(isRange(path), path)
            XCTAssertEqual(status, 200, path)
        }
        let everything = server.log().map { "\($0["path"] ?? "") \($0["query"] ?? "")" }.joined(separator: "\n").lowercased()
        for account in accounts {
            let local = String(account.lowercased().split(separator: "@")[0])
            XCTAssertFalse(everything.contains(local), "\(account) left whole:\n\(everything)")
        }
        XCTAssertFalse(everything.contains("example.com") || everything.contains("%40"), everything)

        let whole = try check(["--k-anonymity=off"])
        XCTAssertEqual(whole.summary["lookup"] as? String, "whole address")
        XCTAssertEqual(ranged.results, whole.results, "the same findings either way")
        XCTAssertEqual(ranged.results.count, accounts.count)
        XCTAssertTrue(ranged.results.values.contains { $0.hasPrefix("clean") }, "\(ranged.results)")
        XCTAssertTrue(ranged.results.values.contains { $0.hasPrefix("breached") }, "\(ranged.results)")
    }

    func testAutoFallsBackAfterOneRefusalAndRemembersIt() throws {
        let whole = try check(["--k-anonymity=off"])
        let before = accountPaths().count
        let auto = try check()
        XCTAssertEqual(auto.results, whole.results)
        XCTAssertEqual(auto.summary["lookup"] as? String, "whole address")
        let paths = accountPaths().dropFirst(before)
        let refused = paths.filter { isRange($0.path) }
        XCTAssertEqual(refused.count, 1, "\(paths)")
        XCTAssertEqual(refused.first?.status, 403)
        XCTAssertEqual(paths.filter { !isRange($0.path) }.count, accounts.count, "every account still looked up")
        // The next run remembers the refusal: no range request.
        let again = accountPaths().count
        _ = try check()
        XCTAssertTrue(accountPaths().dropFirst(again).allSatisfy { !isRange($0.path) })
    }

    /// With answers slower than the pace (300 ms at 6,000 a minute, 10 ms apart), all four lookups would
    /// be in flight before the first refusal came back: the first range search is a probe, and the rest
    /// wait for its answer, so the plan's refusal costs one request.
    func testARefusalCostsOneRequestEvenWhenAnswersAreSlowerThanThePace() throws {
        server = try FakeHIBP(arguments: ["--rpm", "6000", "--burst", "100", "--latency-ms", "300"])
        for account in accounts { server.control("/__control/accounts", #"{"account": "\#(account)"}"#) }
        server.control("/__control/config", #"{"k_anonymity_field": false}"#)
        s.use(server)
        let auto = try check()
        XCTAssertEqual(auto.summary["lookup"] as? String, "whole address")
        let paths = accountPaths()
        XCTAssertEqual(paths.filter { isRange($0.path) }.count, 1, "\(paths)")
        XCTAssertEqual(paths.filter { !isRange($0.path) }.count, accounts.count, "every account still looked up")
        XCTAssertEqual(auto.results.count, accounts.count)
    }

    /// The ui's checks look addresses up as `check` does: by prefix where the key allows it, never whole.
    func testTheUIsChecksSendOnlyPrefixes() throws {
        grant(true)
        let tmux = try TmuxSession(environment: s.environment.merging([
            "PWNVAULT_VAULT": s.vault, "PWNVAULT_PASSPHRASE_FILE": s.passphraseFile, "PWNVAULT_K_ANONYMITY": "auto",
            "PWNVAULT_API_URL": server.apiURL, "TEST_BIN": Paths.binary, "HOME": s.home.path, "TEST_KEY": FakeHIBP.key,
        ]) { $1 })
        defer { tmux.close() }
        tmux.run("HIBP_API_KEY=$TEST_KEY \"$TEST_BIN\" ui --rpm 600")
        let deadline = Date().addingTimeInterval(30)   // a loaded machine: the ui opens the vault first
        while Date() < deadline, !tmux.screen.contains("Accounts (4)") {
            if tmux.screen.contains("hidden: focus lost") { tmux.type("\\e[I") }
            usleep(100_000)
        }
        tmux.wait(for: "Accounts (4)", seconds: 30)
        tmux.type("R")
        tmux.wait(for: "check done: ", seconds: 30)
        tmux.type("q")
        let paths = accountPaths()
        XCTAssertEqual(paths.count, accounts.count, "\(paths)")
        XCTAssertTrue(paths.allSatisfy { isRange($0.path) }, "only 6-hex prefixes left: \(paths)")
        for account in accounts {
            XCTAssertFalse(server.log().contains { ($0["path"] as? String ?? "").lowercased().contains(account.lowercased().prefix(8)) }, account)
        }
    }

    func testRequireFailsWithStatus7AndSendsNoAddress() throws {
        let r = s.run(["check", "--all", "--k-anonymity=require", "--json"])
        XCTAssertEqual(r.status, 7, r.all)
        XCTAssertTrue(r.stderr.contains("k-anonymity"), r.stderr)
        let paths = accountPaths()
        XCTAssertFalse(paths.isEmpty)
        XCTAssertTrue(paths.allSatisfy { isRange($0.path) && $0.status == 403 }, "\(paths)")
        let env = s.run(["check", "--all"], env: ["PWNVAULT_K_ANONYMITY": "require"])
        XCTAssertEqual(env.status, 7, env.all)
        XCTAssertTrue(accountPaths().allSatisfy { isRange($0.path) }, "the setting too")
        let pastes = s.run(["check", "--all", "--k-anonymity=require", "--pastes"])
        XCTAssertEqual(pastes.status, 2, "pastes are searched by the whole address: " + pastes.all)
        XCTAssertEqual(s.run(["check", "--all", "--k-anonymity=maybe"]).status, 2)
    }
}
