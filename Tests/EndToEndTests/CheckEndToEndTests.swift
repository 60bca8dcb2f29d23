import Foundation
import XCTest

/// `check`, `show`, `breaches`, `breach` run for real against the fake HIBP server over loopback.
final class CheckEndToEndTests: XCTestCase {
    var server: FakeHIBP!
    var s: Sandbox!

    override func setUpWithError() throws {
        server = try FakeHIBP()
        s = try Sandbox(inProcess: true)
        s.use(server)
    }

    override func tearDown() { server = nil; s = nil }

    private func rows() throws -> [[String: Any]] {
        let r = s.run(["list", "--json"])
        XCTAssertEqual(r.status, 0, r.stderr)
        return try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [[String: Any]])
    }

    private func accountRequests() -> [String] {
        server.log().compactMap { $0["path"] as? String }.filter { $0.contains("/breachedaccount/") }
    }

    private func catalogRequests() -> Int {
        server.log().filter { ($0["path"] as? String ?? "").hasSuffix("/breaches") }.count
    }

    func testABreachNewerThanTheCachedCatalogIsNamedAfterOneMoreCatalogRequest() throws {
        s.initVault()
        XCTAssertEqual(s.run(["add", "clean.fay@example.com", "clean.gus@example.com"]).status, 0)
        XCTAssertEqual(s.run(["check", "--all"]).status, 0)   // caches the catalog (a day's worth)
        XCTAssertEqual(catalogRequests(), 1)
        // HIBP adds a breach after that; both accounts turn out to be in it.
        server.control("/__control/breaches", #"{"Name": "FreshlyLoaded2026", "Title": "Freshly Loaded 2026", "IsSensitive": false, "DataClasses": ["Email addresses"]}"#)
        for account in ["clean.fay@example.com", "clean.gus@example.com"] {
            server.control("/__control/accounts", #"{"account": "\#(account)", "breaches": ["FreshlyLoaded2026"]}"#)
        }
        let r = s.run(["check", "--all", "--force"], env: ["COLUMNS": "200"])
        XCTAssertEqual(r.status, 1, r.all)
        XCTAssertEqual(r.stdout.components(separatedBy: "Freshly Loaded 2026").count - 1, 2, r.all)
        XCTAssertFalse(r.all.contains("not named"), r.all)
        XCTAssertEqual(catalogRequests(), 2, "one more catalog request for the run, not one per result")
        // The refreshed copy was cached: show names it with no request of its own.
        let shown = s.run(["show", "#1"])
        XCTAssertTrue(shown.stdout.contains("Freshly Loaded 2026"), shown.all)
        XCTAssertEqual(catalogRequests(), 2)
    }

    func testCleanAndBreachedAccountsAreSavedAndTheExitStatusSaysSo() throws {
        s.initVault()
        XCTAssertEqual(s.run(["add", "clean.ann@example.com", "clean.ben@example.com"]).status, 0)
        let clean = s.run(["check", "--all"])
        XCTAssertEqual(clean.status, 0, clean.all)
        XCTAssertTrue(clean.stdout.contains("checked 2 of 2: 0 breached, 2 clean"), clean.stdout)
        XCTAssertEqual(s.run(["add", "pwned.cat@example.com"]).status, 0)
        let pwned = s.run(["check", "--all"])
        XCTAssertEqual(pwned.status, 1, pwned.all)
        XCTAssertEqual(accountRequests().count, 3, "the second run checks only the new account")
        let list = try rows()
        XCTAssertEqual(list.compactMap { $0["status"] as? String }, ["clean", "clean", "breached"])
        XCTAssertFalse((list[2]["breaches"] as? [String] ?? []).isEmpty)
        // every request named the client and carried the key in its header only
        for entry in server.log() {
            let headers = entry["headers"] as? [String: String] ?? [:]
            XCTAssertEqual(headers["user-agent"], "pwnvault/0.1.0")
            XCTAssertFalse((entry["query"] as? String ?? "").contains(FakeHIBP.key))
        }
    }

    func testAccountsOutsideTheVaultAreShownNotStoredUnlessSaved() throws {
        s.initVault()
        let r = s.run(["check", "pwned.dan@example.com"])
        XCTAssertEqual(r.status, 1, r.all)
        XCTAssertTrue(r.stdout.contains("argument 1  pwned in"), r.stdout)
        XCTAssertEqual(try rows().count, 0)
        let saved = s.run(["check", "pwned.dan@example.com", "--save"])
        XCTAssertEqual(saved.status, 1, saved.all)
        XCTAssertTrue(saved.stderr.contains("added to the vault as #1"), saved.stderr)
        XCTAssertEqual(try rows().first?["status"] as? String, "breached")
    }

    func testTheTestDomainWorksWithoutAKeyAndOtherAccountsSayHowToGetOne() throws {
        s.environment.removeValue(forKey: "HIBP_API_KEY")
        // The keyring session is shared by the whole suite: make sure no other test left a key in it.
        XCTAssertEqual(s.run(["config", "api-key", "--remove"]).status, 0)
        let test = s.run(["check", "account-exists@hibp-integration-tests.com"])
        XCTAssertEqual(test.status, 1, test.all)
        XCTAssertTrue(test.stderr.contains("public test key"), test.stderr)
        let headers = server.log().last?["headers"] as? [String: String]
        XCTAssertEqual(headers?["hibp-api-key"], "00000000000000000000000000000000")
        let other = s.run(["check", "someone@example.com"])
        XCTAssertEqual(other.status, 7, other.all)
        XCTAssertTrue(other.stderr.contains("pwnvault config api-key"), other.stderr)
        XCTAssertTrue(other.stderr.contains("haveibeenpwned.com/API/Key"), other.stderr)
    }

    func testEveryStatusCodeOfTheContract() throws {
        s.initVault()
        XCTAssertEqual(s.run(["add", "clean.eve@example.com", "fault-400@example.com"]).status, 0)
        // 400: an error for that account only; the run goes on
        let r400 = s.run(["check", "--all"])
        XCTAssertEqual(r400.status, 8, r400.all)
        XCTAssertEqual(try rows().compactMap { $0["status"] as? String }, ["clean", "error"])
        // 401: one clear message, the run stops
        let r401 = s.run(["check", "clean.eve@example.com"], env: ["HIBP_API_KEY": "33333333333333333333333333333333"])
        XCTAssertEqual(r401.status, 7, r401.all)
        XCTAssertEqual(r401.stderr.components(separatedBy: "pwnvault: error:").count - 1, 1, r401.stderr)
        XCTAssertTrue(r401.stderr.contains("401"), r401.stderr)
        XCTAssertTrue(r401.stderr.contains("hint: HIBP_API_KEY is set and wins over any stored key"), "the hint names what applies: \(r401.stderr)")
        XCTAssertFalse(r401.stderr.contains("store a valid key"), r401.stderr)
        // 403 (blocked by Cloudflare): the cf-ray is shown; the network's doing, not the key's (6)
        let r403 = s.run(["check", "clean.eve@example.com"], env: ["HIBP_API_KEY": "22222222222222222222222222222222"])
        XCTAssertEqual(r403.status, 6, r403.all)
        XCTAssertTrue(r403.stderr.contains("cf-ray"), r403.stderr)
        // a malformed key never leaves the machine
        let before = server.log().count
        let bad = s.run(["check", "clean.eve@example.com"], env: ["HIBP_API_KEY": "not-a-key"])
        XCTAssertEqual(bad.status, 7, bad.all)
        XCTAssertEqual(server.log().count, before)
        // 503 bursts and 429s are retried: the results arrive, each account once
        server.control("/__control/reset", "{}")
        server.control("/__control/faults", #"{"503": 2, "429": 2}"#)
        let retried = s.run(["check", "--all", "--force"])
        XCTAssertEqual(retried.status, 8, "fault-400 still fails: \(retried.all)")
        XCTAssertEqual(try rows().first?["status"] as? String, "clean")
        let stats = server.stats()
        XCTAssertEqual(stats["too_many_requests"] as? Int, 2)
        let byStatus = stats["by_status"] as? [String: Int] ?? [:]
        XCTAssertEqual(byStatus["503"], 2)
    }

    func testA429WaitsRetryAfterAndLosesOrDuplicatesNothing() throws {
        s.initVault()
        let accounts = (1...6).map { "pwned.r\($0)@example.com" }
        XCTAssertEqual(s.run(["add"] + accounts).status, 0)
        XCTAssertEqual(s.run(["breaches"]).status, 0, "the catalog is cached first: the faults are for the checks")
        server.control("/__control/faults", #"{"429": 3}"#)
        let r = s.run(["check", "--all", "--rpm", "600"])
        XCTAssertEqual(r.status, 1, r.all)
        XCTAssertEqual(try rows().compactMap { $0["status"] as? String }, Array(repeating: "breached", count: 6))
        let requests = accountRequests()
        XCTAssertEqual(requests.count, 9, "6 answers + 3 refused: \(requests)")
        XCTAssertEqual(Set(requests).count, 6)
        // after a 429 the same request waits at least retry-after (1 s) before it is sent again
        let log = server.log().filter { ($0["path"] as? String ?? "").contains("/breachedaccount/") }
        for (i, entry) in log.enumerated() where entry["status"] as? Int == 429 {
            let path = entry["path"] as? String
            let t = entry["monotonic"] as? Double ?? 0
            let retry = log[(i + 1)...].first { $0["path"] as? String == path }
            XCTAssertGreaterThanOrEqual((retry?["monotonic"] as? Double ?? 0) - t, 1.0, "retry of \(path ?? "")")
        }
    }

    func testAKnownRateGetsNoTooManyRequestsAtAll() throws {
        // HIBP-like enforcement: a token bucket of 2 (a bucket of 1 would punish a few ms of scheduling
        // jitter between two requests paced 102 ms apart, which no real limiter does).
        server.control("/__control/config", #"{"burst": 2, "keys": {"11111111111111111111111111111111": 600}}"#)
        s.initVault()
        XCTAssertEqual(s.run(["add"] + (1...12).map { "clean.k\($0)@example.com" }).status, 0)
        let r = s.run(["check", "--all"])   // the rate comes from subscription/status
        XCTAssertEqual(r.status, 0, r.all)
        XCTAssertEqual(server.stats()["too_many_requests"] as? Int, 0)
        XCTAssertTrue(server.log().contains { ($0["path"] as? String ?? "").hasSuffix("/subscription/status") })
        // the rate is remembered: the next run does not ask again
        server.control("/__control/reset", "{}")
        XCTAssertEqual(s.run(["check", "--all", "--force"]).status, 0)
        XCTAssertFalse(server.log().contains { ($0["path"] as? String ?? "").hasSuffix("/subscription/status") })
        XCTAssertEqual(server.stats()["too_many_requests"] as? Int, 0)
    }

    func testOneAccountWithItsPastesIsPacedAtTheKeysRateNotTheGuess() throws {
        // A strict limiter (one token, 600 a minute): the two requests of one address with its pastes
        // must be one interval apart, at the key's own rate, learned once and remembered.
        server.control("/__control/config", #"{"burst": 1, "keys": {"11111111111111111111111111111111": 600}}"#)
        let status = { self.server.log().filter { ($0["path"] as? String ?? "").hasSuffix("/subscription/status") }.count }
        let r = s.run(["check", "clean.pastes@example.com", "--pastes", "--k-anonymity=off"])
        XCTAssertEqual(r.status, 0, r.all)
        XCTAssertEqual(status(), 1, "two keyed requests for one account: the rate is asked, not guessed")
        XCTAssertEqual(server.stats()["too_many_requests"] as? Int, 0)
        // Remembered: the next one-account run uses it without asking again.
        server.control("/__control/reset", "{}")
        XCTAssertEqual(s.run(["check", "clean.pastes@example.com", "--pastes", "--k-anonymity=off"]).status, 0)
        XCTAssertEqual(status(), 0)
        XCTAssertEqual(server.stats()["too_many_requests"] as? Int, 0)
        // One request alone asks nothing.
        server.control("/__control/reset", "{}")
        XCTAssertEqual(s.run(["check", "clean.alone@example.com", "--k-anonymity=off"]).status, 0)
        let keyed = server.log().filter { entry in
            ["/breachedaccount/", "/pasteaccount/", "/subscription/"].contains { (entry["path"] as? String ?? "").contains($0) }
        }
        XCTAssertEqual(keyed.count, 1, "one account without pastes: one request, no rate question")
    }

    /// A first run whose catalog cannot be had (malformed here) while the checks can: the checks go on,
    /// the result lines come without breach details, and one line says why.
    func testAFirstRunWithoutItsCatalogStillChecksAndSaysWhy() throws {
        s.initVault()
        XCTAssertEqual(s.run(["add", "pwned.nocat@example.com", "clean.nocat@example.com"]).status, 0)
        // Two malformed answers: the catalog's and subscription/status's, whichever reaches the server first.
        server.control("/__control/faults", #"{"malformed": 2}"#)
        let r = s.run(["check", "--all"])
        XCTAssertEqual(r.status, 1, r.all)
        XCTAssertEqual(r.stderr.components(separatedBy: "breach details unavailable:").count, 2, "said once: \(r.stderr)")
        XCTAssertTrue(r.stderr.contains("'pwnvault breaches --refresh' tries again"), "with a hint: \(r.stderr)")
        XCTAssertTrue(r.stderr.contains("could not learn the API key's rate limit"), r.stderr)
        XCTAssertEqual(Set(try rows().compactMap { $0["status"] as? String }), ["breached", "clean"])
        XCTAssertEqual(accountRequests().count, 2)
    }

    /// Starts `check --all` at one request a second and sends `signal` once three lookups were made.
    private func checkAllThenSignal(_ signal: Int32) throws -> Process {
        let p = try s.start(["check", "--all", "--rpm", "60"])
        let deadline = Date().addingTimeInterval(20)
        while accountRequests().count < 3 && Date() < deadline { usleep(50_000) }
        usleep(250_000)
        kill(p.processIdentifier, signal)
        p.waitUntilExit()
        return p
    }

    func testAnInterruptedRunKeepsWhatFinishedAndTheNextRunContinues() throws {
        s.initVault()
        XCTAssertEqual(s.run(["add"] + (1...6).map { "clean.i\($0)@example.com" }).status, 0)
        let p = try checkAllThenSignal(SIGINT)
        XCTAssertEqual(p.terminationStatus, 130)
        let done = try rows().filter { $0["status"] as? String == "clean" }.count
        XCTAssertGreaterThanOrEqual(done, 2)
        XCTAssertLessThan(done, 6)
        server.control("/__control/reset", "{}")
        let again = s.run(["check", "--all", "--rpm", "600"])
        XCTAssertEqual(again.status, 0, again.all)
        XCTAssertEqual(accountRequests().count, 6 - done, "only what was missing is checked again")
        XCTAssertEqual(try rows().filter { $0["status"] as? String == "clean" }.count, 6)
    }

    func testAKilledRunStillLeavesAVaultThatOpensWithItsFinishedResults() throws {
        s.initVault()
        XCTAssertEqual(s.run(["add"] + (1...5).map { "clean.x\($0)@example.com" }).status, 0)
        _ = try checkAllThenSignal(SIGKILL)
        XCTAssertGreaterThanOrEqual(try rows().filter { $0["status"] as? String == "clean" }.count, 2)
    }

    /// Results are saved off the request path (a save never delays the next request), but a result is
    /// printed only once it is saved: killed right after some rows were printed, the vault holds each
    /// printed account's result.
    func testAResultPrintedBeforeAKillIsInTheVault() throws {
        server.control("/__control/config", #"{"latency_ms": 100}"#)
        s.initVault()
        let accounts = (1...20).map { $0 % 3 == 0 ? "pwned.p\($0)@example.com" : "clean.p\($0)@example.com" }
        XCTAssertEqual(s.run(["add"] + accounts).status, 0)
        let outputPath = s.writeFile("check-output", "")
        let output = try XCTUnwrap(FileHandle(forWritingAtPath: outputPath))
        let p = try s.start(["check", "--all", "--rpm", "600"], output: output)
        try output.close()
        /// The result rows printed so far: account id and whether it was shown breached.
        func printed() -> [(id: Int, breached: Bool)] {
            let text = (try? String(contentsOfFile: outputPath, encoding: .utf8)) ?? ""
            return text.split(separator: "\n").compactMap { line in
                guard line.hasPrefix("#"), let id = Int(line.dropFirst().prefix { $0.isNumber }) else { return nil }
                return (id, line.contains("pwned in"))
            }
        }
        let deadline = Date().addingTimeInterval(30)
        while printed().count < 6 && Date() < deadline { usleep(5_000) }
        kill(p.processIdentifier, SIGKILL)
        p.waitUntilExit()
        let shown = printed()
        XCTAssertGreaterThanOrEqual(shown.count, 6, "rows printed before the kill")
        XCTAssertLessThan(shown.count, accounts.count, "the kill came in the middle of the run")
        XCTAssertTrue(shown.contains { $0.breached } && shown.contains { !$0.breached }, "\(shown)")
        let status = Dictionary(try rows().map { ($0["id"] as? Int ?? 0, $0["status"] as? String) }) { a, _ in a }
        for row in shown {
            XCTAssertEqual(status[row.id], row.breached ? "breached" : "clean", "account #\(row.id) was printed before the kill")
        }
    }

    func testFaultsBecomeErrorsNotCrashes() throws {
        s.initVault()
        XCTAssertEqual(s.run(["add", "fault-malformed@example.com", "fault-oversized@example.com", "clean.fay@example.com"]).status, 0)
        server.control("/__control/config", #"{"timeout_s": 3}"#)
        server.control("/__control/faults", #"{"timeout": 1}"#)
        let r = s.run(["check", "--all"], env: ["PWNVAULT_HTTP_TIMEOUT": "1"])
        XCTAssertEqual(r.status, 8, r.all)
        let list = try rows()
        XCTAssertEqual(list.compactMap { $0["status"] as? String }, ["error", "error", "clean"], r.all)
        XCTAssertTrue(r.stdout.contains("cannot read"), r.stdout)
        XCTAssertTrue(r.stdout.contains("larger than"), r.stdout)
    }

    /// Nothing from HIBP's data can drive the terminal: no ESC, BEL or C1 control reaches the output.
    func testEscapeSequencesInTheDataNeverReachTheTerminal() throws {
        s.initVault()
        XCTAssertEqual(s.run(["add", "fault-escape@example.com"]).status, 0)
        var outputs: [String] = []
        outputs.append(s.runOnTerminal(["check", "#1"]).stdout)
        // `cat` as the pager passes on exactly what pwnvault wrote (less adds its own screen controls).
        outputs.append(s.runOnTerminal(["show", "#1"], env: ["NO_COLOR": "1", "PAGER": "cat"]).stdout)
        outputs.append(s.runOnTerminal(["breach", "TitleBleed"], env: ["NO_COLOR": "1"]).stdout)
        outputs.append(s.runOnTerminal(["breach", "C1Control"], env: ["NO_COLOR": "1"]).stdout)
        outputs.append(s.run(["breaches", "--search", "e"]).all)
        outputs.append(s.run(["breach", "Escapade", "--json"]).all)
        for (i, out) in outputs.enumerated() {
            let scalars = out.unicodeScalars
            if i == 0 {  // the check line may be colored by us: only our SGR sequences are allowed
                let stripped = out.replacingOccurrences(of: #"\u{1B}\[[0-9;]*m"#, with: "", options: .regularExpression)
                XCTAssertFalse(stripped.unicodeScalars.contains { $0.value == 0x1B }, "output \(i): \(out.debugDescription)")
            } else {
                XCTAssertFalse(scalars.contains { $0.value == 0x1B }, "output \(i): \(out.debugDescription)")
            }
            XCTAssertFalse(scalars.contains { $0.value == 0x07 || (0x80...0x9F).contains($0.value) }, "output \(i): \(out.debugDescription)")
        }
    }

    func testABreachDescriptionIsRenderedAsTextWithNumberedLinks() throws {
        let catalog = try JSONSerialization.jsonObject(with: Data(contentsOf: Paths.root.appendingPathComponent("tools/fake-hibp/catalog.json")))
        let breaches = (catalog as? [[String: Any]]) ?? ((catalog as? [String: Any])?["breaches"] as? [[String: Any]]) ?? []
        let withLink = try XCTUnwrap(breaches.first { ($0["Description"] as? String ?? "").contains("<a href") && ($0["Description"] as? String ?? "").contains("&quot;") })
        let name = try XCTUnwrap(withLink["Name"] as? String)
        let r = s.run(["breach", name])
        XCTAssertEqual(r.status, 0, r.all)
        XCTAssertFalse(r.stdout.contains("<a") || r.stdout.contains("</") || r.stdout.contains("&quot;") || r.stdout.contains("&amp;"), r.stdout)
        XCTAssertTrue(r.stdout.contains("[1]"), r.stdout)
        XCTAssertTrue(r.stdout.range(of: #"\n\[1\] https?://"#, options: .regularExpression) != nil, r.stdout)
        XCTAssertTrue(r.stdout.contains("accounts affected:"), r.stdout)
        let adobe = s.run(["breach", "adobe"])
        XCTAssertTrue(adobe.stdout.contains("accounts affected:  152,445,165"), adobe.stdout)
        XCTAssertTrue(adobe.stdout.contains("flags:              verified"), adobe.stdout)
        let unknown = s.run(["breach", String(name.dropLast())])
        XCTAssertEqual(unknown.status, 2, unknown.all)
        XCTAssertTrue(unknown.stderr.contains("did you mean '\(name)'?"), unknown.stderr)
    }

    func testNewOutputIsMaskedOnATerminalAndRedactedElsewhere() throws {
        s.initVault()
        XCTAssertEqual(s.run(["add", "pwned.gina@example.com", "--label", "Gina"]).status, 0)
        let piped = s.run(["check", "#1"])
        XCTAssertEqual(piped.status, 1)
        let shown = s.run(["show", "#1"])
        let json = s.run(["check", "#1", "--json"])
        for out in [piped.all, shown.all, json.all, s.run(["show", "#1", "--json"]).all] {
            XCTAssertFalse(out.contains("gina") || out.contains("pwned.g") || out.contains("example"), out)
        }
        XCTAssertTrue(shown.stdout.contains("#1  Gina"), shown.stdout)
        XCTAssertTrue(shown.stdout.contains("pwned in"), shown.stdout)
        // A result longer than the screen goes through the pager; less would wait for a key until the
        // driver's 30 s timeout killed it, cat ends with the output (what pwnvault wrote, unchanged).
        let tty = s.runOnTerminal(["show", "#1"], env: ["PAGER": "cat"])
        XCTAssertEqual(tty.status, 0, tty.all)
        XCTAssertTrue(tty.stdout.contains("p•••a@e•••.com"), tty.stdout)
        XCTAssertFalse(tty.stdout.contains("gina"), tty.stdout)
    }

    func testTheAPIKeyIsNeverPrintedOrWrittenAndIsStoredInTheKeyring() throws {
        s.environment.removeValue(forKey: "HIBP_API_KEY")
        let store = s.run(["config", "api-key"], input: FakeHIBP.key + "\n")
        XCTAssertEqual(store.status, 0, store.all)
        s.initVault()
        XCTAssertEqual(s.run(["add", "pwned.hal@example.com"]).status, 0)
        let r = s.run(["check", "--all", "--json"])
        XCTAssertEqual(r.status, 1, r.all)
        XCTAssertFalse(r.all.contains(FakeHIBP.key))
        XCTAssertEqual((server.log().last?["headers"] as? [String: String])?["hibp-api-key"], FakeHIBP.key)
        // no file pwnvault wrote holds it
        let files = FileManager.default.enumerator(atPath: s.home.path)?.compactMap { $0 as? String } ?? []
        for f in files {
            let data = (try? Data(contentsOf: s.home.appendingPathComponent(f))) ?? Data()
            XCTAssertNil(data.range(of: Data(FakeHIBP.key.utf8)), f)
        }
        let found = Sandbox.exec("/usr/bin/env", ["secret-tool", "search", "--all", "type", "hibp-api-key"], input: nil,
                                 environment: s.environment)
        XCTAssertTrue(found.all.contains("label = pwnvault HIBP API key"), found.all)
        XCTAssertEqual(s.run(["config", "api-key", "--remove"]).status, 0)
        XCTAssertEqual(s.run(["config", "api-key"], input: "short\n").status, 2)
    }

    func testOnlyHTTPSOrLoopbackHTTPIsAccepted() throws {
        for url in ["http://10.0.0.1/api/v3", "http://example.com/api/v3", "ftp://127.0.0.1/", "http://127.0.0.1.evil.example/api/v3"] {
            let r = s.run(["breaches"], env: ["PWNVAULT_API_URL": url])
            XCTAssertEqual(r.status, 2, "\(url): \(r.all)")
            XCTAssertTrue(r.stderr.contains("PWNVAULT_API_URL"), r.stderr)
            XCTAssertEqual(r.stderr.components(separatedBy: "pwnvault: error:").count - 1, 1)
        }
    }

    func testBrowsingTheCatalog() throws {
        let all = s.run(["breaches", "--json"])
        XCTAssertEqual(all.status, 0, all.stderr)
        let list = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(all.stdout.utf8)) as? [[String: Any]])
        XCTAssertGreaterThanOrEqual(list.count, 40)
        let bySize = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(s.run(["breaches", "--sort", "size", "--json"]).stdout.utf8)) as? [[String: Any]])
        let counts = bySize.compactMap { $0["pwnCount"] as? Int64 ?? ($0["pwnCount"] as? Int).map(Int64.init) }
        XCTAssertEqual(counts, counts.sorted(by: >))
        let adobe = s.run(["breaches", "--search", "adobe"])
        XCTAssertTrue(adobe.stdout.contains("Adobe"), adobe.stdout)
        XCTAssertEqual(s.run(["breaches", "--sort", "colour"]).status, 2)
        // the catalog is cached: a second call sends no request
        let before = server.log().count
        XCTAssertEqual(s.run(["breaches"]).status, 0)
        XCTAssertEqual(server.log().count, before)
        XCTAssertEqual(s.run(["breaches", "--refresh"]).status, 0)
        XCTAssertEqual(server.log().count, before + 1)
    }

    func testPastesAreCountedForEmailAddressesOnly() throws {
        let fixtures = s.writeFile("fixtures.json", #"{"accounts": {"paula@example.com": {"breaches": ["Adobe"], "pastes": 2}}}"#)
        server = nil
        server = try FakeHIBP(arguments: ["--fixtures", fixtures])
        s.environment["PWNVAULT_API_URL"] = server.apiURL
        s.initVault()
        XCTAssertEqual(s.run(["add", "paula@example.com", "pwned_username"]).status, 0)
        let r = s.run(["check", "--all", "--pastes"])
        XCTAssertEqual(r.status, 1, r.all)
        XCTAssertTrue(r.stdout.contains("2 pastes"), r.stdout)
        let list = try rows()
        XCTAssertEqual(list.first?["pasteCount"] as? Int, 2)
        XCTAssertNil(list.last?["pasteCount"] as? Int, "usernames have no pastes")
        let pasteRequests = server.log().compactMap { $0["path"] as? String }.filter { $0.contains("/pasteaccount/") }
        XCTAssertEqual(pasteRequests.count, 1)
    }

    func testProgressShowsOnATerminalAndDroppedConnectionsAreRetried() throws {
        s.initVault()
        XCTAssertEqual(s.run(["add"] + (1...4).map { "clean.p\($0)@example.com" }).status, 0)
        XCTAssertEqual(s.run(["breaches"]).status, 0)
        server.control("/__control/faults", #"{"drop": 1}"#)
        let tty = s.runOnTerminal(["check", "--all", "--rpm", "240"])
        XCTAssertEqual(tty.status, 0, tty.stdout)
        XCTAssertTrue(tty.stdout.contains("4/4"), tty.stdout)
        XCTAssertTrue(tty.stdout.contains("breached 0"), tty.stdout)
        XCTAssertTrue(tty.stdout.contains("left"), "an estimate of the time left: \(tty.stdout)")
        XCTAssertTrue(tty.stdout.contains("checked 4 of 4: 0 breached, 4 clean"), tty.stdout)
        // piped: no progress bar at all
        let piped = s.run(["check", "--all", "--force", "--rpm", "600"])
        XCTAssertFalse(piped.all.contains("█") || piped.all.contains("░"), piped.all)
    }

    func testTheCatalogIsPagedOnATerminalAndNotifyGivesTheAddress() throws {
        let paged = s.runOnTerminal(["breaches"], env: ["PAGER": "sed 's/^/PAGED:/'"])
        XCTAssertEqual(paged.status, 0, paged.stdout)
        XCTAssertGreaterThan(paged.stdout.components(separatedBy: "PAGED:").count, 40, paged.stdout)
        XCTAssertTrue(paged.stdout.contains("PAGED:43 of 43 breaches"), paged.stdout)
        let notify = s.run(["notify"])
        XCTAssertEqual(notify.status, 0)
        XCTAssertEqual(notify.stdout, "https://haveibeenpwned.com/NotifyMe\n")
    }

    func testNothingReachableIsANetworkFailure() throws {
        let r = s.run(["check", "clean.ivy@example.com", "--rpm", "600"], env: ["PWNVAULT_API_URL": "http://127.0.0.1:1/api/v3"])
        XCTAssertEqual(r.status, 6, r.all)
        XCTAssertTrue(r.stdout.contains("0 of 1 checked; HIBP unreachable: the connection was refused"), r.all)
        XCTAssertTrue(r.stderr.contains("pwnvault: error: Have I Been Pwned cannot be reached"), r.all)
    }

    func testTheAPIKeyPromptNeverEchoesEvenWithADumbTerminal() throws {
        s.environment.removeValue(forKey: "HIBP_API_KEY")
        let r = s.runOnTerminal(["config", "api-key"], steps: [("HIBP API key", FakeHIBP.key + "\n")], env: ["TERM": "dumb"])
        XCTAssertEqual(r.status, 0, r.stdout)
        XCTAssertFalse(r.stdout.contains(FakeHIBP.key), r.stdout)
        XCTAssertEqual(s.run(["config", "api-key", "--remove"]).status, 0, "leave the shared keyring as it was")
    }
}
