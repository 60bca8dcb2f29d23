import Foundation
@testable import PwnVaultCore
import TestSupport
import XCTest

/// Issue 9, monitoring, against the fake HIBP server with news made at run time: what is new and
/// what is acknowledged, exit statuses a script can use, `watch` at one request when nothing changed,
/// a resumable forced run, advice, stealer logs.
final class MonitorEndToEndTests: XCTestCase {
    static let dad = "account-exists@hibp-integration-tests.com"      // Adobe, 1 paste
    static let many = "multiple-breaches@hibp-integration-tests.com"  // 3 breaches
    static let mum = "clean-mum@example.com"                          // nothing

    var server: FakeHIBP!
    var s: Sandbox!

    override func setUpWithError() throws {
        server = try FakeHIBP()
        s = try Sandbox(inProcess: true)
        s.use(server)
    }

    override func tearDown() { server = nil; s = nil }

    private func json(_ text: String, file: StaticString = #filePath, line: UInt = #line) throws -> Any {
        try JSONSerialization.jsonObject(with: Data(text.utf8))
    }

    private func listRows() throws -> [[String: Any]] {
        let r = s.run(["list", "--json"])
        XCTAssertEqual(r.status, 0, r.stderr)
        return try XCTUnwrap(try json(r.stdout) as? [[String: Any]])
    }

    private func paths() -> [String] { server.log().compactMap { $0["path"] as? String } }

    /// A breach that appears in the catalog now, and in `account`'s answers.
    private func makeNews(_ name: String, title: String, for account: String, sensitive: Bool = false,
                          dataClasses: [String] = ["Email addresses", "Passwords"]) {
        let classes = dataClasses.map { "\"\($0)\"" }.joined(separator: ",")
        server.control("/__control/breaches", #"{"Name": "\#(name)", "Title": "\#(title)", "IsSensitive": \#(sensitive), "DataClasses": [\#(classes)]}"#)
        server.control("/__control/accounts", #"{"account": "\#(account)", "breaches": ["\#(name)"]\#(sensitive ? #", "ownerVerified": true"# : "")}"#)
    }

    private func vaultWithThree() {
        s.initVault()
        XCTAssertEqual(s.run(["add", Self.dad, "--label", "Dad"]).status, 0)
        XCTAssertEqual(s.run(["add", Self.many]).status, 0)
        XCTAssertEqual(s.run(["add", Self.mum, "--label", "Mum"]).status, 0)
    }

    /// Changes the vault as an earlier run would have left it.
    private func edit(_ change: (inout VaultPayload) -> Void) throws {
        let session = try VaultSession.open(at: try VaultLocation(path: s.vault), keyring: DisabledKeyring()) { _ in
            SecretBytes(copying: Array(Sandbox.passphrase.utf8))
        }
        try session.update { change(&$0) }
    }

    // MARK: new, acknowledged, exit status

    func testNewThenAcknowledgedThenNewsFoundByWatchWithTheStatusesAScriptNeeds() throws {
        vaultWithThree()
        let first = s.run(["check", "--all"])
        XCTAssertEqual(first.status, 1, "a first check finds new breaches: \(first.all)")
        XCTAssertTrue(first.stdout.contains("#1  Dad  pwned in 1 breach: Adobe NEW"), first.stdout)
        XCTAssertTrue(first.stdout.contains("news for 2 accounts"), first.stdout)
        var rows = try listRows()
        XCTAssertEqual(rows.map { $0["new"] as? Int }, [1, 3, 0])
        XCTAssertTrue(s.run(["list"]).stdout.contains("breached (3, 3 to acknowledge)"))

        // Nothing due, nothing acknowledged: still 1 (the scope of --all is the vault).
        let notDue = s.run(["check", "--all"])
        XCTAssertEqual(notDue.status, 1, notDue.all)
        XCTAssertTrue(notDue.stderr.contains("checked within the last day"), notDue.stderr)
        XCTAssertTrue(notDue.stderr.contains("status 1: 2 accounts have findings to acknowledge; see them with 'pwnvault list --status unacknowledged'"), notDue.stderr)
        XCTAssertEqual(Set(s.run(["list", "--status", "unacknowledged", "--json"]).stdout.components(separatedBy: "\"id\" : ").dropFirst().map { $0.prefix(1) }), ["1", "2"])

        let acked = s.run(["ack", "--all"])
        XCTAssertEqual(acked.status, 0, acked.all)
        XCTAssertEqual(acked.stdout, "#1: acknowledged 1 finding\n#2: acknowledged 3 findings\n")
        XCTAssertEqual(s.run(["check", "--all"]).status, 0, "nothing due and everything acknowledged")
        let again = s.run(["check", "--all", "--force"])
        XCTAssertEqual(again.status, 0, again.all)
        XCTAssertFalse(again.stdout.contains("NEW"), again.stdout)
        XCTAssertTrue(s.run(["list"]).stdout.contains("breached (3)  "))

        // A breach is added on the server: watch finds it (the catalog changed).
        makeNews("FreshLeak", title: "Fresh Leak", for: Self.mum, dataClasses: ["Email addresses", "Phone numbers"])
        server.control("/__control/reset", "{}")
        let watch = s.run(["watch"])
        XCTAssertEqual(watch.status, 1, watch.all)
        XCTAssertTrue(watch.stdout.hasPrefix("#3  Mum  NEW: Fresh Leak\n"), watch.stdout)
        // A changed catalog means a full check: Dad and #2 are on the key's verified domain, answered by
        // one domain search; Mum alone is asked for.
        XCTAssertEqual(paths().filter { $0.contains("/breachedaccount/") }.count, 1, watch.all)
        XCTAssertEqual(paths().filter { $0.contains("/breacheddomain/hibp-integration-tests.com") }.count, 1)
        XCTAssertEqual(paths().filter { $0.hasSuffix("/subscribeddomains") }.count, 1)
        rows = try listRows()
        XCTAssertEqual(rows[2]["status"] as? String, "breached")
        XCTAssertEqual(rows[2]["new"] as? Int, 1)

        let show = s.run(["show", "#3"])
        XCTAssertTrue(show.stdout.contains("Fresh Leak"), show.stdout)
        XCTAssertFalse(show.stdout.contains("NEW"), "show is a stored view: 'to acknowledge', not NEW: \(show.stdout)")
        XCTAssertTrue(show.stdout.contains("→ expect text-message phishing"), "advice from the data classes: \(show.stdout)")
        XCTAssertTrue(show.stdout.contains("1 finding to acknowledge (1 breach); when dealt with: pwnvault ack '#3'"), show.stdout)
        let shown = try XCTUnwrap(try json(s.run(["show", "#3", "--json"]).stdout) as? [String: Any])
        let breach = try XCTUnwrap((shown["breaches"] as? [[String: Any]])?.first)
        XCTAssertEqual(breach["new"] as? Bool, true)
        XCTAssertEqual(breach["acknowledged"] as? Bool, false)
        XCTAssertEqual((breach["advice"] as? [String])?.count, 2, "\(breach)")

        // A re-check: no longer new (seen before), still not acknowledged, so still status 1.
        let recheck = s.run(["check", "#3", "--json"])
        XCTAssertEqual(recheck.status, 1, recheck.all)
        let row = try XCTUnwrap(((try json(recheck.stdout) as? [String: Any])?["results"] as? [[String: Any]])?.first)
        XCTAssertEqual(row["new"] as? Int, 0, "a count, as in list --json and show --json")
        XCTAssertEqual(row["unacknowledged"] as? Int, 1)
        XCTAssertTrue(s.run(["list"]).stdout.contains("breached (1, 1 to acknowledge)"))

        // Acknowledging one breach by name, case-insensitively; an unknown name changes nothing.
        let wrong = s.run(["ack", "#3", "Adobe"])
        XCTAssertEqual(wrong.status, 2, wrong.all)
        XCTAssertTrue(wrong.stderr.contains("#3 was never found in the breach named by argument 2; nothing was acknowledged"), wrong.stderr)
        XCTAssertFalse(wrong.stderr.contains("Adobe"), "the typed name is not repeated: \(wrong.stderr)")
        XCTAssertEqual(s.run(["ack", "#3", "freshleak"]).status, 0)
        XCTAssertEqual(s.run(["check", "#3"]).status, 0)
        let showAcked = s.run(["show", "#3"]).stdout
        XCTAssertTrue(showAcked.contains("Fresh Leak  (acknowledged)"), showAcked)
        XCTAssertFalse(showAcked.contains("→"), "no advice for what was dealt with: \(showAcked)")
    }

    func testAnAccountOutsideTheVaultCountsAsUnacknowledged() throws {
        XCTAssertEqual(s.run(["check", Self.dad]).status, 1)
        XCTAssertEqual(s.run(["check", Self.mum]).status, 0)
    }

    // MARK: watch

    func testAQuietWatchMakesOneRequestAndPrintsNothing() throws {
        vaultWithThree()
        XCTAssertEqual(s.run(["check", "--all"]).status, 1)
        let first = s.run(["watch"])   // no full check recorded yet: checks everything, nothing new
        XCTAssertEqual(first.status, 0, first.all)
        XCTAssertEqual(first.stdout, "")
        server.control("/__control/reset", "{}")
        let quiet = s.run(["watch"])
        XCTAssertEqual(quiet.status, 0, quiet.all)
        XCTAssertEqual(quiet.stdout + quiet.stderr, "", "cron convention: nothing to say")
        XCTAssertEqual(paths().map { String($0.split(separator: "?").first ?? "") }, ["/api/v3/breaches"], "the catalog only")
        XCTAssertNil(server.log().first?["headers"].flatMap { ($0 as? [String: Any])?["hibp-api-key"] }, "no key needed")
        let report = try XCTUnwrap(try json(s.run(["watch", "--json"]).stdout) as? [String: Any])
        XCTAssertEqual(report["fullCheck"] as? Bool, false)
    }

    func testFullEveryForcesTheFullCheckAndANewAccountIsCheckedAlone() throws {
        vaultWithThree()
        XCTAssertEqual(s.run(["watch"]).status, 1, "the first watch finds everything new")
        XCTAssertEqual(s.run(["add", "clean-newcomer@example.com"]).status, 0)
        server.control("/__control/reset", "{}")
        XCTAssertEqual(s.run(["watch"]).status, 0)
        XCTAssertEqual(paths().filter { $0.contains("/breachedaccount/") }.count, 1, "only the account never checked")

        // The last full check was 8 days ago: --full-every 7 (the default) checks everyone again.
        try edit { $0.monitor?.lastFullCheck = Date().addingTimeInterval(-8 * 86_400) }
        server.control("/__control/reset", "{}")
        let full = try XCTUnwrap(try json(s.run(["watch", "--json"]).stdout) as? [String: Any])
        XCTAssertEqual(full["fullCheck"] as? Bool, true)
        XCTAssertTrue((full["reason"] as? String ?? "").contains("7 days old"), "\(full)")
        XCTAssertEqual(paths().filter { $0.contains("/breachedaccount/") }.count, 2, "two on the verified domain, by domain search")
        XCTAssertEqual(paths().filter { $0.contains("/breacheddomain/") }.count, 1)
        // ... and 2 days ago with --full-every 1.
        try edit { $0.monitor?.lastFullCheck = Date().addingTimeInterval(-2 * 86_400) }
        server.control("/__control/reset", "{}")
        XCTAssertEqual(s.run(["watch", "--full-every", "1"]).status, 0)
        XCTAssertEqual(paths().filter { $0.contains("/breachedaccount/") || $0.contains("/breacheddomain/") }.count, 3)
        server.control("/__control/reset", "{}")
        XCTAssertEqual(s.run(["watch", "--full-every", "1"]).status, 0)
        XCTAssertEqual(paths().filter { $0.contains("/breachedaccount/") }.count, 0)
        let bad = s.run(["watch", "--full-every", "0"])
        XCTAssertEqual(bad.status, 2, bad.all)
    }

    func testWatchNamesNoSensitiveBreachAndNoAccount() throws {
        s.initVault()
        XCTAssertEqual(s.run(["add", "clean.sis@example.com", "--label", "Sis"]).status, 0)
        XCTAssertEqual(s.run(["watch"]).status, 0)
        makeNews("SecretClub", title: "Secret Club", for: "clean.sis@example.com", sensitive: true)
        makeNews("OpenForum", title: "Open Forum", for: "clean.sis@example.com")
        for mode in [["watch"], ["watch", "--json"]] {
            try edit { $0.monitor = nil; for i in $0.accounts.indices { $0.accounts[i].findings = []; $0.accounts[i].result = .neverChecked } }
            let r = s.run(mode)
            XCTAssertEqual(r.status, 1, r.all)
            for secret in ["clean.sis", "SecretClub", "Secret Club"] {
                XCTAssertFalse(r.all.contains(secret), "\(mode) printed \(secret): \(r.all)")
            }
            XCTAssertTrue(r.stdout.contains("Open Forum") || r.stdout.contains("OpenForum"), r.stdout)
        }
        XCTAssertTrue(s.run(["watch", "--full-every", "1"]).stdout.isEmpty)
        try edit { $0.monitor = nil; for i in $0.accounts.indices { $0.accounts[i].findings = []; $0.accounts[i].result = .neverChecked } }
        XCTAssertTrue(s.run(["watch"]).stdout.contains("#1  Sis  NEW: Open Forum; 1 sensitive breach\n"))
    }

    func testWatchNeverPromptsWhenTheKeyringIsLocked() throws {
        let s = try Sandbox(inProcess: true, keyring: false)
        s.environment.removeValue(forKey: "PWNVAULT_KEYRING")
        s.environment.removeValue(forKey: "DBUS_SESSION_BUS_ADDRESS")
        var env = s.environment
        env["PWNVAULT_API_URL"] = server.apiURL
        env["HIBP_API_KEY"] = FakeHIBP.key
        env["PWNVAULT"] = Paths.binary
        env["PASSFILE"] = s.passphraseFile
        let r = Sandbox.exec("/bin/bash", [Paths.support("keyring-session.sh"), "--", "/bin/bash", "-c", """
            set -u
            PWNVAULT_PASSPHRASE_FILE=$PASSFILE "$PWNVAULT" init --weak-passphrase-ok --kdf interactive >/dev/null 2>&1 || exit 90
            "$PWNVAULT" add clean-locked@example.com >/dev/null 2>&1 || exit 91
            "$PWNVAULT" watch >/dev/null 2>&1; echo "unlocked=$?"
            gdbus call --session --dest org.freedesktop.secrets --object-path /org/freedesktop/secrets \
              --method org.freedesktop.Secret.Service.Lock '["/org/freedesktop/secrets/collection/login"]' >/dev/null || exit 92
            "$PWNVAULT" watch </dev/null; echo "locked=$?"
            PWNVAULT_PASSPHRASE_FILE=$PASSFILE "$PWNVAULT" watch </dev/null; echo "with-passphrase-file=$?"
            """], input: nil, environment: env)
        XCTAssertEqual(r.status, 0, r.all)
        XCTAssertTrue(r.stdout.contains("unlocked=0"), r.all)
        XCTAssertTrue(r.stdout.contains("locked=5"), r.all)
        XCTAssertTrue(r.stdout.contains("with-passphrase-file=5"), "keyring only, even with a passphrase file: \(r.all)")
        XCTAssertTrue(r.stderr.contains("watch never asks for a passphrase"), r.stderr)
        XCTAssertFalse(r.all.lowercased().contains("passphrase for"), "never prompts: \(r.all)")
        XCTAssertEqual(r.stderr.components(separatedBy: "pwnvault: error:").count - 1, 2, "one line each time: \(r.stderr)")
    }

    // MARK: news delivered once (issue 21, item 6)

    private static let killed = (1...6).map { "clean.k\($0)@example.com" }

    /// Six accounts, each with news on the server (one request each: not on the key's domain).
    private func vaultWithSixNews() {
        s.initVault()
        XCTAssertEqual(s.run(["add"] + Self.killed).status, 0)
        server.control("/__control/breaches", #"{"Name": "KillLeak", "Title": "Kill Leak", "DataClasses": ["Email addresses"]}"#)
        for account in Self.killed {
            server.control("/__control/accounts", #"{"account": "\#(account)", "breaches": ["KillLeak"]}"#)
        }
    }

    /// Starts `watch ARGS` and SIGKILLs it once the server answered `answered` accounts; returns its stdout.
    private func watchKilled(after answered: Int, _ args: [String] = []) throws -> String {
        server.control("/__control/reset", "{}")
        let out = s.writeFile("killed-\(answered)-\(UUID().uuidString).out", "")
        let handle = try XCTUnwrap(FileHandle(forWritingAtPath: out))
        let p = try s.start(["watch", "--rpm", "120"] + args, output: handle)
        let deadline = Date().addingTimeInterval(30)
        while paths().filter({ $0.contains("/breachedaccount/") }).count < answered && Date() < deadline { usleep(20_000) }
        usleep(150_000)   // the answer is saved (with its news) before the next request
        kill(p.processIdentifier, SIGKILL)
        p.waitUntilExit()
        try handle.close()
        XCTAssertEqual(p.terminationReason, .uncaughtSignal, "killed mid-run after \(answered)")
        return try String(contentsOfFile: out, encoding: .utf8)
    }

    /// How often each account's row appears in `text` ("#ID  ...  NEW: Kill Leak").
    private func rows(_ text: String) -> [Int: Int] {
        var count: [Int: Int] = [:]
        for line in text.split(separator: "\n") where line.contains("NEW: Kill Leak") {
            if let id = Int(line.dropFirst().prefix { $0.isNumber }) { count[id, default: 0] += 1 }
        }
        return count
    }

    func testAWatchKilledMidRunLosesNoNewsAndTheNextRunRepeatsNone() throws {
        for answered in [1, 3, 5] {
            try setUpWithError()   // a fresh server and vault each time
            vaultWithSixNews()
            let first = try watchKilled(after: answered)
            // The killed run saved the findings of the accounts answered (they are no longer news to a check)...
            let saved = try listRows().filter { $0["status"] as? String == "breached" }.count
            XCTAssertGreaterThanOrEqual(saved, answered, "killed after \(answered)")
            // ... and the next run reports them with the ones it finds itself.
            server.control("/__control/reset", "{}")
            let second = s.run(["watch", "--rpm", "600"])
            XCTAssertEqual(second.status, 1, second.all)
            var total = rows(first)
            total.merge(rows(second.stdout)) { $0 + $1 }
            XCTAssertEqual(total, Dictionary(uniqueKeysWithValues: (1...6).map { ($0, 1) }),
                           "killed after \(answered): every finding reported exactly once\n\(first)\n--\n\(second.stdout)")
            let third = s.run(["watch", "--rpm", "600", "--full-every", "1"])
            XCTAssertEqual(third.status, 0, third.all)
            XCTAssertEqual(third.stdout, "", "delivered news is not repeated")
        }
    }

    func testNewsLeftWaitingIsDeliveredEvenWhenNothingIsDueAndNotWhenAcknowledged() throws {
        vaultWithSixNews()
        XCTAssertEqual(s.run(["watch", "--rpm", "600"]).status, 1)
        XCTAssertEqual(s.run(["watch"]).status, 0, "delivered, and nothing due")
        // As a run killed between saving and printing leaves it: #2 and #5 wait, #3 too but is acknowledged.
        try edit { payload in
            for i in payload.accounts.indices where [2, 3, 5].contains(payload.accounts[i].id) {
                for j in payload.accounts[i].findings.indices { payload.accounts[i].findings[j].unannounced = true }
            }
        }
        XCTAssertEqual(s.run(["ack", "#3"]).status, 0)
        server.control("/__control/reset", "{}")
        let r = s.run(["watch", "--json"])
        XCTAssertEqual(r.status, 1, r.all)
        let report = try XCTUnwrap(try json(r.stdout) as? [String: Any])
        XCTAssertEqual(report["fullCheck"] as? Bool, false)
        XCTAssertEqual((report["news"] as? [[String: Any]])?.compactMap { $0["id"] as? Int }, [2, 5], r.stdout)
        XCTAssertEqual(paths().map { String($0.split(separator: "?").first ?? "") }, ["/api/v3/breaches"], "the catalog only")
        let again = s.run(["watch"])
        XCTAssertEqual(again.status, 0, again.all)
        XCTAssertEqual(again.stdout, "", "delivered once")
    }

    func testANotificationThatDidNotGoOutIsSentOnceByTheNextRun() throws {
        NotificationServer.waitUntilNameIsFree()
        vaultWithSixNews()
        // The service is down: the first run is killed; a complete run then cannot notify either.
        _ = try watchKilled(after: 2, ["--notify"])
        server.control("/__control/reset", "{}")
        let down = s.run(["watch", "--notify", "--rpm", "600"])
        XCTAssertEqual(down.status, 1, down.all)
        XCTAssertEqual(rows(down.stdout).count, 6, down.stdout)
        XCTAssertTrue(down.stderr.contains("no desktop notification:"), down.stderr)
        XCTAssertTrue(down.stderr.contains("the next 'watch' reports it again"), down.stderr)

        let notifications = try NotificationServer(markup: true)
        defer { notifications.stop() }
        let up = s.run(["watch", "--notify", "--rpm", "600"])
        XCTAssertEqual(up.status, 1, up.all)
        let sent = notifications.notifications()
        XCTAssertEqual(sent.count, 1, notifications.recording())
        XCTAssertEqual(sent.first?["summary"] as? String, "pwnvault: news for 6 accounts")
        XCTAssertEqual(s.run(["watch", "--notify", "--full-every", "1", "--rpm", "600"]).status, 0)
        XCTAssertEqual(notifications.notifications().count, 1, "notified once")
    }

    func testAKilledWatchWithNotificationsNotifiesOnceInTheNextRun() throws {
        let notifications = try NotificationServer(markup: true)
        defer { notifications.stop() }
        vaultWithSixNews()
        _ = try watchKilled(after: 4, ["--notify"])
        XCTAssertEqual(notifications.notifications().count, 0, "killed before the end: nothing sent")
        server.control("/__control/reset", "{}")
        let next = s.run(["watch", "--notify", "--rpm", "600"])
        XCTAssertEqual(next.status, 1, next.all)
        XCTAssertEqual(rows(next.stdout).count, 6, next.stdout)
        XCTAssertEqual(notifications.notifications().count, 1, notifications.recording())
        XCTAssertEqual(notifications.notifications().first?["summary"] as? String, "pwnvault: news for 6 accounts")
        XCTAssertEqual(s.run(["watch", "--notify", "--full-every", "1", "--rpm", "600"]).status, 0)
        XCTAssertEqual(notifications.notifications().count, 1, "notified once")
    }

    // MARK: resumable forced run

    func testAnInterruptedForcedRunContinuesWhereItStopped() throws {
        s.initVault()
        XCTAssertEqual(s.run(["add"] + (1...6).map { "clean.f\($0)@example.com" }).status, 0)
        XCTAssertEqual(s.run(["check", "--all"]).status, 0)
        server.control("/__control/reset", "{}")
        let p = try s.start(["check", "--all", "--force", "--rpm", "60"])
        let deadline = Date().addingTimeInterval(20)
        while paths().filter({ $0.contains("/breachedaccount/") }).count < 3 && Date() < deadline { usleep(50_000) }
        usleep(250_000)
        kill(p.processIdentifier, SIGINT)
        p.waitUntilExit()
        XCTAssertEqual(p.terminationStatus, 130)
        let done = paths().filter { $0.contains("/breachedaccount/") }.count
        XCTAssertLessThan(done, 6)
        server.control("/__control/reset", "{}")
        let again = s.run(["check", "--all", "--force", "--rpm", "600"])
        XCTAssertEqual(again.status, 0, again.all)
        XCTAssertTrue(again.stderr.contains("continuing the forced run started"), again.stderr)
        XCTAssertEqual(paths().filter { $0.contains("/breachedaccount/") }.count, 6 - done, "not from #1 again")
        // Finished: the next forced run starts over, and watch knows a full check was made.
        server.control("/__control/reset", "{}")
        XCTAssertEqual(s.run(["watch"]).status, 0)
        XCTAssertEqual(paths().filter { $0.contains("/breachedaccount/") }.count, 0, "the forced run counts as a full check")
        XCTAssertEqual(s.run(["check", "--all", "--force", "--rpm", "600"]).status, 0)
        XCTAssertEqual(paths().filter { $0.contains("/breachedaccount/") }.count, 6)
    }

    // MARK: pastes and stealer logs

    func testNewPastesAndStealerLogsAreFindingsAndARefusalIsReportedOnce() throws {
        s.initVault()
        XCTAssertEqual(s.run(["add", "stealer-log@hibp-integration-tests.com", Self.dad, "clean-x@example.com"]).status, 0)
        let r = s.run(["check", "--all", "--pastes", "--stealer-logs"])
        XCTAssertEqual(r.status, 1, r.all)
        XCTAssertTrue(r.stdout.contains("in info-stealer logs of 3 websites (3 NEW)"), r.stdout)
        XCTAssertTrue(r.stdout.contains("; 1 paste (1 NEW)"), r.stdout)
        // clean-x is on a domain the key did not verify: HIBP refuses that one; said once, the run goes on.
        XCTAssertEqual(r.stderr.components(separatedBy: "stealer logs not checked").count - 1, 1, r.stderr)
        XCTAssertFalse(r.stdout.contains("brightmere"), "stealer-log websites are counted, not named: \(r.stdout)")
        server.control("/__control/config", #"{"stealer_logs": false}"#)
        let refused = s.run(["check", "--all", "--force", "--stealer-logs"])
        XCTAssertEqual(refused.status, 1, refused.all)
        XCTAssertEqual(refused.stderr.components(separatedBy: "stealer logs not checked").count - 1, 1, refused.stderr)
        XCTAssertTrue(refused.stdout.contains("checked 3 of 3"), refused.stdout)
        XCTAssertEqual(s.run(["ack", "--all"]).status, 0)
        XCTAssertEqual(s.run(["check", "--all"]).status, 0)
    }

    // MARK: domain search

    func testADomainSearchListsEveryBreachedAddressMaskedAndSavesThem() throws {
        // A verified domain is account data: named on a terminal only, "domain N" piped, in JSON and shared.
        let domains = s.run(["domain"])
        XCTAssertEqual(domains.status, 0, domains.all)
        XCTAssertTrue(domains.stdout.hasPrefix("domain 1  12 breached addresses"), domains.stdout)
        XCTAssertTrue(s.runOnTerminal(["domain"]).stdout.contains("hibp-integration-tests.com  12 breached addresses"))
        XCTAssertFalse(s.runOnTerminal(["--share", "domain"]).stdout.contains("hibp-integration-tests.com"))
        XCTAssertFalse(s.run(["domain", "--json"]).stdout.contains("hibp-integration-tests.com"))

        s.initVault()
        XCTAssertEqual(s.run(["add", Self.dad, "--label", "Dad"]).status, 0)
        let piped = s.run(["domain", "hibp-integration-tests.com"])
        XCTAssertEqual(piped.status, 1, piped.all)
        XCTAssertEqual(paths().filter { $0.contains("/breacheddomain/") }.count, 1, "one request for the whole domain")
        XCTAssertTrue(piped.stdout.hasPrefix("the domain: 12 breached addresses\n"), piped.stdout)
        XCTAssertTrue(piped.stdout.contains("#1  Dad  pwned in 1 breach: Adobe\n"), piped.stdout)
        XCTAssertTrue(piped.stdout.contains("address 2  pwned in"), piped.stdout)
        XCTAssertTrue(piped.stdout.contains("1 sensitive breach, not named"), "domain search returns sensitive breaches: \(piped.stdout)")
        for secret in ["multiple-breaches", "sensitive-breach", "VelvetRendezvous", "@hibp-integration-tests.com"] {
            XCTAssertFalse(piped.all.contains(secret), "printed \(secret): \(piped.all)")
        }
        let terminal = s.runOnTerminal(["domain", "hibp-integration-tests.com"]).stdout
        XCTAssertTrue(terminal.contains("•••"), terminal)
        XCTAssertFalse(terminal.contains("multiple-breaches"), terminal)

        let saved = s.run(["domain", "hibp-integration-tests.com", "--save", "--json"])
        XCTAssertEqual(saved.status, 1, saved.all)
        let report = try XCTUnwrap(try json(saved.stdout) as? [String: Any])
        XCTAssertEqual(report["added"] as? Int, 11)
        let rows = try listRows()
        XCTAssertEqual(rows.count, 12)
        XCTAssertTrue(rows.allSatisfy { $0["status"] as? String == "breached" }, "\(rows)")
        XCTAssertEqual(s.run(["ack", "--all"]).status, 0)
        XCTAssertEqual(s.run(["domain", "hibp-integration-tests.com", "--save"]).status, 0, "all acknowledged")

        let saveAlone = s.run(["domain", "--save"])
        XCTAssertEqual(saveAlone.status, 2, saveAlone.all)
        XCTAssertTrue(saveAlone.stderr.contains("--save needs a DOMAIN"), saveAlone.stderr)
        let ackBoth = s.run(["ack", "--all", "#1"])
        XCTAssertEqual(ackBoth.status, 2, ackBoth.all)
        XCTAssertEqual(s.run(["ack"]).status, 2)
        let bad = s.run(["domain", "alice@example.com"])
        XCTAssertEqual(bad.status, 2, bad.all)
        XCTAssertFalse(bad.all.contains("alice"), bad.all)
        server.control("/__control/config", #"{"domains": []}"#)
        let refused = s.run(["domain", "hibp-integration-tests.com"])
        XCTAssertEqual(refused.status, 7, refused.all)
    }

    // MARK: desktop notifications

    /// The notification is another output of the gate: labels and ids, breach titles, counts for the
    /// sensitive; never an account. Checked against a real notification server on the private bus.
    func testWatchNotifiesPrivatelyAndOnlyWhenSomethingIsNew() throws {
        let notifications = try NotificationServer(markup: true)
        defer { notifications.stop() }
        s.initVault()
        XCTAssertEqual(s.run(["add", "clean.sis@example.com", "--label", "Sis"]).status, 0)
        XCTAssertEqual(s.run(["add", "clean.bro@example.com"]).status, 0)
        XCTAssertEqual(s.run(["watch", "--notify"]).status, 0)
        XCTAssertEqual(notifications.notifications().count, 0, "nothing new: no notification")

        makeNews("SecretClub", title: "Secret Club", for: "clean.sis@example.com", sensitive: true)
        makeNews("OpenForum", title: "Open Forum & Co <b>", for: "clean.sis@example.com")
        server.control("/__control/accounts", #"{"account": "clean.bro@example.com", "breaches": ["OpenForum"]}"#)
        let r = s.run(["watch", "--notify"])
        XCTAssertEqual(r.status, 1, r.all)
        let sent = notifications.notifications()
        XCTAssertEqual(sent.count, 1, notifications.recording())
        XCTAssertEqual(sent.first?["app_name"] as? String, "pwnvault")
        XCTAssertEqual(sent.first?["summary"] as? String, "pwnvault: news for 2 accounts")
        XCTAssertEqual(sent.first?["body"] as? String,
                       "Sis (#1): Open Forum &amp; Co &lt;b&gt;; 1 sensitive breach\n#2: Open Forum &amp; Co &lt;b&gt;",
                       "labels or ids, titles, the sensitive one counted; markup escaped for a server that reads it")
        for secret in ["clean.sis", "clean.bro", "example.com", "SecretClub", "Secret Club"] {
            XCTAssertFalse(notifications.recording().contains(secret), "the notification holds \(secret): \(notifications.recording())")
        }
        XCTAssertEqual(s.run(["watch", "--notify"]).status, 0)
        XCTAssertEqual(notifications.notifications().count, 1, "the same news is not sent twice")

        makeNews("Later", title: "Later", for: "clean.bro@example.com")
        XCTAssertEqual(s.run(["check", "--all", "--force", "--notify=count"]).status, 1)
        let counted = notifications.notifications().last
        XCTAssertEqual(counted?["summary"] as? String, "pwnvault: news for 1 account")
        XCTAssertFalse((counted?["body"] as? String ?? "").contains("Later"), "\(String(describing: counted))")
        XCTAssertEqual(s.run(["watch", "--notify=loud"]).status, 2)
    }

    func testNoNotificationServiceIsOneLineAndTheRunStillSucceeds() throws {
        NotificationServer.waitUntilNameIsFree()
        s.initVault()
        XCTAssertEqual(s.run(["add", Self.dad]).status, 0)
        let r = s.run(["watch", "--notify"])
        XCTAssertEqual(r.status, 1, "news, reported on stdout: \(r.all)")
        XCTAssertTrue(r.stdout.contains("NEW: Adobe"), r.stdout)
        XCTAssertEqual(r.stderr.components(separatedBy: "no desktop notification:").count - 1, 1, r.stderr)
        XCTAssertEqual(r.stderr.split(separator: "\n").count, 1, r.stderr)
    }
}
