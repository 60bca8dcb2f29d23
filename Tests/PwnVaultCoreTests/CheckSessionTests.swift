import XCTest
@testable import PwnVaultCore

/// `CheckSession` in process: an in-memory HIBP (`HTTPTransport`), a virtual clock, a real vault (real
/// libsodium, the keyring disabled) and a cache folder of its own. Only what the session decides is
/// asserted (which accounts, which requests, what is saved, which events in which order), never a time.
final class CheckSessionTests: XCTestCase {

    // MARK: the harness

    typealias VirtualClock = CheckSchedulerTests.VirtualClock

    /// Runs `body` on `CheckSchedulerTests`' stepping executor, moving `clock` to the next deadline
    /// whenever every task waits (so a request starts only once everything before it is done), and
    /// waits for it here, on the test's own thread.
    func onVirtualTime<T: Sendable>(_ clock: VirtualClock, _ body: @escaping @Sendable () async throws -> T) throws -> T {
        let executor = CheckSchedulerTests.SteppingExecutor()
        defer { executor.stop() }
        let done = CheckSchedulerTests.Flag()
        let box = Box<Result<T, Error>>()
        let task = Task(executorPreference: executor) {
            do { box.value = .success(try await body()) } catch { box.value = .failure(error) }
            done.set()
        }
        CheckSchedulerTests.step(clock, executor, until: done, cancel: { task.cancel() })
        while !done.isSet { usleep(1000) }
        return try box.value!.get()
    }

    /// Unchecked: written by the task before `done` is set, read after.
    final class Box<T>: @unchecked Sendable { var value: T? }

    /// HIBP in memory: answers by endpoint with `answer(endpoint, subject, attempt)` (attempts count
    /// from 1 per endpoint and subject) and logs every request.
    /// Unchecked: its mutable state is only touched with `lock` held.
    final class MemoryHIBP: HTTPTransport, @unchecked Sendable {
        struct Sent: Equatable { let endpoint: String; let subject: String; let attempt: Int }
        private let lock = NSLock()
        private var sent: [Sent] = []
        var answer: @Sendable (_ endpoint: String, _ subject: String, _ attempt: Int) -> HTTPResponse

        init(answer: @escaping @Sendable (String, String, Int) -> HTTPResponse) { self.answer = answer }

        func send(_ request: HTTPRequest) async throws -> HTTPResponse {
            let parts = request.url.pathComponents.filter { $0 != "/" }
            // …/api/v3/<endpoint>[/<subject>]
            let tail = Array(parts.drop { $0 != "v3" }.dropFirst())
            let endpoint = tail.first ?? "", subject = tail.dropFirst().joined(separator: "/")
            let (attempt, respond): (Int, @Sendable (String, String, Int) -> HTTPResponse) = lock.withLock {
                let n = sent.filter { $0.endpoint == endpoint && $0.subject == subject }.count + 1
                sent.append(Sent(endpoint: endpoint, subject: subject, attempt: n))
                return (n, answer)
            }
            return respond(endpoint, subject, attempt)
        }

        var log: [Sent] { lock.withLock { sent } }
        func count(_ endpoint: String) -> Int { log.filter { $0.endpoint == endpoint }.count }
        func setAnswer(_ a: @escaping @Sendable (String, String, Int) -> HTTPResponse) { lock.withLock { answer = a } }
    }

    /// The events of a run, in the order they came.
    /// Unchecked: `items` is only touched with `lock` held.
    final class Events: @unchecked Sendable {
        private let lock = NSLock()
        private var items: [CheckSessionEvent] = []
        func add(_ e: CheckSessionEvent) { lock.withLock { items.append(e) } }
        var all: [CheckSessionEvent] { lock.withLock { items } }
        /// A word per event: started, waiting, notice, saved, result, finished.
        var kinds: [String] {
            all.map { e in
                switch e {
                case .started: return "started"
                case .waiting: return "waiting"
                case .notice: return "notice"
                case .saved: return "saved"
                case .result: return "result"
                case .finished: return "finished"
                }
            }
        }
    }

    static let key = SecretBytes(copying: Array("11111111111111111111111111111111".utf8))
    static let start = Date(timeIntervalSince1970: 1_780_000_000)

    static func json(_ text: String, status: Int = 200, headers: [String: String] = [:]) -> HTTPResponse {
        HTTPResponse(status: status, headers: headers, body: Data(text.utf8))
    }

    static func breach(_ name: String) -> String {
        #"{"Name":"\#(name)","Title":"\#(name)","Domain":"\#(name.lowercased()).test","BreachDate":"2020-01-01","AddedDate":"2020-02-01T00:00:00Z","PwnCount":1000,"DataClasses":["Email addresses"]}"#
    }

    var folders: [URL] = []

    override func tearDown() {
        for f in folders { try? FileManager.default.removeItem(at: f) }
        super.tearDown()
    }

    func folder() throws -> URL {
        let f = FileManager.default.temporaryDirectory.appendingPathComponent("pwnvault-session-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: f, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        folders.append(f)
        return f
    }

    /// A real vault (Argon2id at its cheapest preset) holding `addresses` as accounts #1, #2, …
    func vault(_ addresses: [String]) throws -> VaultSession {
        let location = try VaultLocation(path: try folder().appendingPathComponent("vault").path)
        let session = try VaultSession.create(at: location, keyring: DisabledKeyring(),
                                              passphrase: SecretBytes(copying: Array("check session test".utf8)),
                                              kdf: .interactive).session
        try session.update { payload in
            for (n, a) in addresses.enumerated() {
                payload.accounts.append(Account(id: n + 1, parsed: try AccountParser.parse(a, phones: .internationalOnly),
                                                label: nil, addedAt: Self.start))
            }
            payload.nextID = addresses.count + 1
        }
        return session
    }

    func session(_ hibp: MemoryHIBP, vault: VaultSession?, cache: URL, now: Date = CheckSessionTests.start,
                 clock: VirtualClock = VirtualClock(), options: CheckSession.Options = .init()) -> CheckSession {
        CheckSession(transport: hibp, baseURL: URL(string: "https://hibp.test/api/v3/")!, version: "0.1.0", apiKey: Self.key,
                     clock: clock, now: { now }, cacheDirectory: cache, vault: vault, options: options, random: { 0.5 })
    }

    /// Runs the session's checks of `entries` on virtual time; the report and every event.
    func run(_ hibp: MemoryHIBP, vault: VaultSession?, cache: URL, now: Date = CheckSessionTests.start,
             options: CheckSession.Options = .init(), _ entries: [CheckEntry]) throws -> (CheckRunReport, Events, CheckSession) {
        let clock = VirtualClock()
        let s = session(hibp, vault: vault, cache: cache, now: now, clock: clock, options: options)
        let events = Events()
        let report = try onVirtualTime(clock) { await s.run(entries) { events.add($0) } }
        return (report, events, s)
    }

    /// Clean for everyone (404), a catalog without breaches.
    static let allClean: @Sendable (String, String, Int) -> HTTPResponse = { endpoint, _, _ in
        endpoint == "breaches" ? json("[]") : HTTPResponse(status: 404)
    }

    // MARK: selection

    func testDueAccountsAreTheUnansweredTheFailedAndTheStale() throws {
        let vault = try vault(["never@example.com", "fresh@example.com", "stale@example.com", "failed@example.com"])
        let now = Self.start.addingTimeInterval(3 * 86_400)
        try vault.update { p in
            p.accounts[1].record(AccountCheck(answer: .answer(breaches: [], pasteCount: nil, at: now.addingTimeInterval(-3600))))
            p.accounts[2].record(AccountCheck(answer: .answer(breaches: [], pasteCount: nil, at: now.addingTimeInterval(-2 * 86_400))))
            p.accounts[3].record(AccountCheck(answer: .answer(breaches: [], pasteCount: nil, at: now.addingTimeInterval(-3600))))
            p.accounts[3].record(AccountCheck(answer: .failure("HIBP answered 503", at: now.addingTimeInterval(-60))))
        }
        XCTAssertEqual(CheckSession.due(in: vault.payload, now: now).map(\.id), [1, 3, 4])
    }

    func testAForcedRunTakesEveryAccountAndAnInterruptedOneContinues() throws {
        let vault = try vault(["a@example.com", "b@example.com", "c@example.com"])
        let now = Self.start.addingTimeInterval(86_400)
        // A new forced run: every account, and its start saved before anything is checked.
        let first = try CheckSession.forced(vault, now: now)
        XCTAssertEqual(first.accounts.map(\.id), [1, 2, 3])
        XCTAssertNil(first.resumed)
        XCTAssertEqual(vault.payload.monitor?.forceRunStartedAt, now)

        // It was interrupted after #2 was answered: the next run (an hour later) continues it.
        try vault.update { p in p.accounts[1].record(AccountCheck(answer: .answer(breaches: [], pasteCount: nil, at: now.addingTimeInterval(60)))) }
        let later = now.addingTimeInterval(3600)
        let second = try CheckSession.forced(vault, now: later)
        XCTAssertEqual(second.accounts.map(\.id), [1, 3])
        XCTAssertEqual(second.resumed, CheckSession.Resumed(startedAt: now, alreadyChecked: 1, total: 3))
        XCTAssertEqual(vault.payload.monitor?.forceRunStartedAt, now, "the interrupted run's start is kept")

        // More than a day later the old run is forgotten: a new one takes every account.
        let third = try CheckSession.forced(vault, now: now.addingTimeInterval(2 * 86_400))
        XCTAssertEqual(third.accounts.map(\.id), [1, 2, 3])
        XCTAssertNil(third.resumed)
    }

    // MARK: the key's rate

    func testTheLearnedRateIsRememberedAndUsedForOneAccountToo() throws {
        let cache = try folder()
        let hibp = MemoryHIBP { endpoint, _, _ in
            endpoint == "subscription" ? Self.json(#"{"SubscriptionName":"Pwned 1","Description":"","Rpm":50,"IncludesStealerLogs":false}"#)
                : HTTPResponse(status: 404)
        }
        let clock = VirtualClock()
        let first = session(hibp, vault: nil, cache: cache, clock: clock)
        let rpm = try onVirtualTime(clock) { try await first.discoverRate(given: nil, requests: 3) }
        XCTAssertEqual(rpm, 50)
        XCTAssertEqual(hibp.count("subscription"), 1)

        // The next run, of one account: the remembered rate, no question.
        let next = session(hibp, vault: nil, cache: cache)
        XCTAssertFalse(next.asksForRate(given: nil, requests: 1))
        let again = try onVirtualTime(VirtualClock()) { try await next.discoverRate(given: nil, requests: 1) }
        XCTAssertEqual(again, 50)
        XCTAssertEqual(hibp.count("subscription"), 1, "a remembered rate is not asked again")
        XCTAssertFalse(next.schedule.limiter.isGuess, "the remembered rate paces the run")
    }

    func testARateHIBPDoesNotSayIsANoticeAndTheRunGoesOnAtTheGuess() throws {
        let hibp = MemoryHIBP { _, _, _ in HTTPResponse(status: 500) }
        let events = Events()
        let clock = VirtualClock()
        let s = session(hibp, vault: nil, cache: try folder(), clock: clock, options: .init(maxWait: 60))
        let rpm = try onVirtualTime(clock) { try await s.discoverRate(given: nil, requests: 2) { events.add($0) } }
        XCTAssertNil(rpm)
        XCTAssertEqual(events.kinds, ["notice"])
        guard case .notice(.rateUnknown)? = events.all.first else { return XCTFail("expected the rate-unknown notice") }
        XCTAssertTrue(s.schedule.limiter.isGuess)
    }

    // MARK: the run

    func testEventsComeInOrderAndEachResultIsSavedBeforeItIsReported() throws {
        let vault = try vault(["a@example.com", "b@example.com"])
        let hibp = MemoryHIBP(answer: Self.allClean)
        let (report, events, _) = try run(hibp, vault: vault, cache: try folder(), vault.payload.accounts.map(CheckEntry.init(account:)))
        XCTAssertEqual(events.kinds.first, "started")
        XCTAssertEqual(events.kinds.last, "finished")
        guard case .started(let total)? = events.all.first else { return XCTFail() }
        XCTAssertEqual(total, 2)
        // Every result comes after a save that holds its account.
        var saved: Set<Int> = []
        for e in events.all {
            if case let .saved(ids) = e { saved.formUnion(ids) }
            if case let .result(o) = e {
                XCTAssertTrue(saved.contains(o.entry!.account!.id), "#\(o.entry!.account!.id) reported before it was saved")
                XCTAssertTrue(o.saved)
            }
        }
        XCTAssertEqual(events.kinds.filter { $0 == "result" }.count, 2)
        XCTAssertEqual(report.clean, 2)
        XCTAssertEqual(report.exitStatus(storedIn: vault, all: true), .success)
        XCTAssertEqual(vault.payload.accounts.map(\.result.status), [.clean, .clean])
    }

    func testA429IsWaitedForAndTheSameAccountAskedAgain() throws {
        let vault = try vault(["a@example.com"])
        let hibp = MemoryHIBP { endpoint, _, attempt in
            if endpoint == "breachedaccount" && attempt == 1 { return Self.json("{}", status: 429, headers: ["retry-after": "30"]) }
            return HTTPResponse(status: 404)
        }
        let (report, events, _) = try run(hibp, vault: vault, cache: try folder(), options: .init(maxWait: 60),
                                          vault.payload.accounts.map(CheckEntry.init(account:)))
        XCTAssertNil(report.stop)
        XCTAssertEqual(report.clean, 1)
        XCTAssertEqual(report.failed, 0)
        XCTAssertEqual(hibp.log.filter { $0.endpoint == "breachedaccount" }.map(\.attempt), [1, 2])
        // The 30 s wait is longer than the 5 s said out loud: one waiting event, during the checks.
        let waits = events.all.compactMap { e -> CheckSessionEvent.WaitReason? in
            if case let .waiting(reason, _) = e { return reason } else { return nil }
        }
        XCTAssertEqual(waits, [.checks])
        XCTAssertEqual(events.kinds.filter { $0 != "saved" }, ["started", "waiting", "result", "finished"])
    }

    func testARefusedKeyStopsTheRunAndKeepsTheResultsSoFar() throws {
        let vault = try vault(["a@example.com", "b@example.com", "c@example.com"])
        let hibp = MemoryHIBP { endpoint, subject, _ in
            if endpoint == "breachedaccount" && subject.hasPrefix("b") { return Self.json(#""Access denied due to invalid hibp-api-key.""#, status: 401) }
            return HTTPResponse(status: 404)
        }
        let (report, events, _) = try run(hibp, vault: vault, cache: try folder(), vault.payload.accounts.map(CheckEntry.init(account:)))
        guard case .unauthorized? = report.stop as? HIBPError else { return XCTFail("expected the 401 to stop the run, got \(String(describing: report.stop))") }
        XCTAssertEqual(report.checks.map { $0.entry!.account!.id }, [1], "the account answered before the refusal is kept")
        XCTAssertEqual(hibp.log.filter { $0.subject.hasPrefix("c") }.count, 0, "nothing starts after the refusal")
        XCTAssertEqual(vault.payload.accounts.map(\.result.status), [.clean, .neverChecked, .neverChecked])
        XCTAssertEqual(events.kinds.last, "finished")
    }

    func testNewsIsRecordedOnce() throws {
        let vault = try vault(["a@example.com"])
        let hibp = MemoryHIBP { endpoint, _, _ in
            endpoint == "breachedaccount" ? Self.json(#"[{"Name":"Adobe"}]"#) : HTTPResponse(status: 404)
        }
        let first = try run(hibp, vault: vault, cache: try folder(), vault.payload.accounts.map(CheckEntry.init(account:))).0
        XCTAssertEqual(first.checks.first?.news.count, 1)
        XCTAssertEqual(first.news.map(\.account.id), [1])
        XCTAssertEqual(first.exitStatus(storedIn: vault, all: true), .breachesFound)

        let later = Self.start.addingTimeInterval(2 * 86_400)
        let second = try run(hibp, vault: vault, cache: try folder(), now: later, vault.payload.accounts.map(CheckEntry.init(account:))).0
        XCTAssertEqual(second.checks.first?.news.count, 0, "a breach already known is not news again")
        XCTAssertTrue(second.news.isEmpty)
        XCTAssertEqual(vault.payload.accounts[0].knownFindings.count, 1)
        XCTAssertEqual(vault.payload.accounts[0].result.checkedAt, later)
    }

    func testTheCatalogIsFetchedAgainOnceForANameItLacks() throws {
        let cache = try folder()
        let hibp = MemoryHIBP { endpoint, _, _ in endpoint == "breaches" ? Self.json("[\(Self.breach("Adobe"))]") : HTTPResponse(status: 404) }
        // The cached copy (fetched now, so not stale) knows Adobe only.
        let loader = try session(hibp, vault: nil, cache: cache).catalogLoader(refresh: true)
        _ = try onVirtualTime(VirtualClock()) { try await loader() }
        XCTAssertEqual(hibp.count("breaches"), 1)

        // HIBP added Fresh since: two accounts are found in it, and in Ghost, which no copy of the catalog
        // lists (HIBP's own catalog lags): fetching again once is all a run does for it.
        hibp.setAnswer { endpoint, _, _ in
            switch endpoint {
            case "breaches": return Self.json("[\(Self.breach("Adobe")),\(Self.breach("Fresh"))]")
            case "breachedaccount": return Self.json(#"[{"Name":"Fresh"},{"Name":"Ghost"}]"#)
            default: return HTTPResponse(status: 404)
            }
        }
        let entries = try ["a@example.com", "b@example.com"].map {
            CheckEntry(parsed: try AccountParser.parse($0, phones: .internationalOnly), source: "argument")
        }
        let (report, _, s) = try run(hibp, vault: nil, cache: cache, entries)
        let catalog = s.pendingCatalog(refresh: false)
        XCTAssertEqual(report.breached, 2)
        var told: [RunCatalogEvent] = []
        for o in report.checks {
            let c = catalog.get(for: o.result) { told.append($0) }
            XCTAssertNotNil(c?.breach(named: "Fresh"), "the refreshed copy names the new breach")
        }
        XCTAssertEqual(hibp.count("breaches"), 2, "one refresh for the run, not one per result")
        XCTAssertEqual(told.count, 1)
        guard case .loaded(let load)? = told.first else { return XCTFail("expected the refresh to be reported") }
        XCTAssertTrue(load.fetched)
    }

    // MARK: watch's plan

    func catalog(_ json: [String]) throws -> BreachCatalog {
        BreachCatalog(breaches: try JSONDecoder().decode([Breach].self, from: Data("[\(json.joined(separator: ","))]".utf8)),
                      fetchedAt: Self.start)
    }

    /// An account answered (clean) an hour before `start`, so only the plan can choose it.
    func answered(_ raw: String, id: Int) throws -> Account {
        var a = Account(id: id, parsed: try AccountParser.parse(raw, phones: .internationalOnly), label: nil, addedAt: Self.start)
        a.record(AccountCheck(answer: .answer(breaches: [], pasteCount: nil, at: Self.start.addingTimeInterval(-3600))))
        return a
    }

    func testWatchChecksEveryAccountWithoutAFullCheckOrWhenTheLastIsTooOld() throws {
        let accounts = [try answered("a@example.com", id: 1), try answered("someone_42", id: 2)]
        let now = try catalog([Self.breach("Adobe")])
        let none = CheckSession.WatchPlan(accounts: accounts, monitor: nil, catalog: now, now: Self.start, fullEvery: 7)
        XCTAssertEqual(none.full, .noFullCheckYet)
        XCTAssertEqual(none.chosen.map(\.id), [1, 2])

        let old = MonitorState(lastFullCheck: Self.start.addingTimeInterval(-8 * 86_400), catalogMark: now.mark)
        XCTAssertEqual(CheckSession.WatchPlan(accounts: accounts, monitor: old, catalog: now, now: Self.start, fullEvery: 7).full,
                       .olderThan(days: 7))
    }

    func testWatchChecksOnlyTheAccountsACatalogChangeConcerns() throws {
        let accounts = [try answered("a@example.com", id: 1), try answered("someone_42", id: 2)]
        let before = try catalog([Self.breach("Adobe")])
        let monitor = MonitorState(lastFullCheck: Self.start.addingTimeInterval(-86_400), catalogMark: before.mark)
        // Nothing changed: nobody is checked.
        let quiet = CheckSession.WatchPlan(accounts: accounts, monitor: monitor, catalog: before, now: Self.start, fullEvery: 7)
        XCTAssertNil(quiet.full)
        XCTAssertFalse(quiet.triggered)
        XCTAssertTrue(quiet.nothingToCheck)
        // A new breach of e-mail addresses: the address is checked, the username is not.
        let after = try catalog([Self.breach("Adobe"), Self.breach("Fresh")])
        let plan = CheckSession.WatchPlan(accounts: accounts, monitor: monitor, catalog: after, now: Self.start, fullEvery: 7)
        XCTAssertNil(plan.full)
        XCTAssertTrue(plan.triggered)
        XCTAssertEqual(plan.chosen.map(\.id), [1])
        // With addresses only, the same change concerns every account: a full check.
        let emails = [try answered("a@example.com", id: 1), try answered("b@example.com", id: 2)]
        XCTAssertEqual(CheckSession.WatchPlan(accounts: emails, monitor: monitor, catalog: after, now: Self.start, fullEvery: 7).full,
                       .changeConcernsEveryAccount)
    }

    // MARK: getting a run ready

    func testPreparingAsksTheRateWhileTheCatalogLoadsAndTheChecksDoNotWaitForIt() throws {
        let hibp = MemoryHIBP { endpoint, _, _ in
            switch endpoint {
            case "subscription": return Self.json(#"{"SubscriptionName":"Pwned 1","Description":"","Rpm":50,"IncludesStealerLogs":false}"#)
            case "breaches": return Self.json("[\(Self.breach("Adobe"))]")
            default: return HTTPResponse(status: 404)
            }
        }
        let entries = try ["a@example.com", "b@example.com"].map {
            CheckEntry(parsed: try AccountParser.parse($0, phones: .internationalOnly), source: "argument")
        }
        let clock = VirtualClock()
        let s = session(hibp, vault: nil, cache: try folder(), clock: clock)
        let catalog = try onVirtualTime(clock) { try await s.prepare(entries, givenRate: nil, refreshCatalog: false) }
        XCTAssertEqual(hibp.count("subscription"), 1)
        XCTAssertFalse(s.schedule.limiter.isGuess, "the rate HIBP stated paces the run")
        XCTAssertNotNil(catalog.get(report: { _ in XCTFail("nothing went wrong") })?.breach(named: "Adobe"))
        XCTAssertEqual(hibp.count("breaches"), 1)
    }

    func testPreparingStopsBeforeAnyAccountWhenHIBPCannotBeReached() throws {
        final class Unreachable: HTTPTransport {
            func send(_ request: HTTPRequest) async throws -> HTTPResponse {
                throw HTTPTransportError.unreachable(reason: "the connection was refused")
            }
        }
        let s = CheckSession(transport: Unreachable(), baseURL: URL(string: "https://hibp.test/api/v3/")!, version: "0.1.0",
                             apiKey: Self.key, clock: VirtualClock(), now: { Self.start }, cacheDirectory: try folder(), vault: nil,
                             options: .init())
        let entry = CheckEntry(parsed: try AccountParser.parse("a@example.com", phones: .internationalOnly), source: "argument")
        // --rpm given: no rate question, so the catalog is what meets the refusal.
        XCTAssertThrowsError(try onVirtualTime(VirtualClock()) { try await s.prepare([entry], givenRate: 100, refreshCatalog: false) }) { error in
            XCTAssertTrue((error as? HIBPError)?.isUnreachable == true, "\(error)")
        }
    }
}
