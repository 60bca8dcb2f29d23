import Foundation
import XCTest
@testable import PwnVaultCore

/// What an account was ever found in (issue 9): first-seen dates, news, acknowledgement, and how the
/// vault payload keeps them (VAULT_FORMAT §7, *finding* and *monitor*).
final class FindingTests: XCTestCase {
    private let t0 = Date(timeIntervalSince1970: 1_700_000_000)
    private var t1: Date { t0.addingTimeInterval(86_400) }
    private var t2: Date { t0.addingTimeInterval(2 * 86_400) }

    private func account() -> Account {
        Account(id: 1, entered: "a@example.com", normalized: "a@example.com", kind: .email, label: nil, addedAt: t0)
    }

    private func answer(_ breaches: [String], at date: Date, pastes: [String]? = nil, sites: [String]? = nil) -> AccountCheck {
        AccountCheck(answer: .answer(breaches: breaches, pasteCount: pastes?.count, at: date), pastes: pastes, stealerLogSites: sites)
    }

    func testTheFirstAnswerMakesEverythingNewAndTheNextOnlyWhatItAdds() {
        var a = account()
        let first = a.record(answer(["Adobe", "Linked"], at: t1, pastes: ["Pastebin/1"], sites: ["shop.example"]))
        XCTAssertEqual(first.map(\.key), ["Adobe", "Linked", "Pastebin/1", "shop.example"])
        XCTAssertEqual(first.map(\.kind), [.breach, .breach, .paste, .stealerLog])
        XCTAssertEqual(a.newFindings.count, 4)
        let second = a.record(answer(["Adobe", "Linked", "Fresh"], at: t2, pastes: ["Pastebin/1"]))
        XCTAssertEqual(second.map(\.key), ["Fresh"])
        XCTAssertEqual(a.newFindings.map(\.key), ["Fresh"], "new = first seen by the latest answer")
        XCTAssertEqual(a.unacknowledgedFindings.count, 5, "the stealer log not listed again is kept")
        XCTAssertEqual(a.findings.first { $0.key == "Adobe" }?.firstSeen, t1, "first seen stays the first time")
    }

    func testAFailureAddsNothingAndKeepsWhatWasNew() {
        var a = account()
        a.record(answer(["Adobe"], at: t1))
        XCTAssertEqual(a.record(.failure("503", at: t2)), [])
        XCTAssertEqual(a.newFindings.map(\.key), ["Adobe"])
        XCTAssertEqual(a.result.lastFailure?.message, "503")
        XCTAssertEqual(a.result.breaches, ["Adobe"])
    }

    func testAcknowledgingAllOrByNameCaseInsensitively() {
        var a = account()
        a.record(answer(["Adobe", "Linked"], at: t1, pastes: ["P/1"]))
        XCTAssertEqual(a.acknowledge(breachNames: ["adobe"], at: t2), 1)
        XCTAssertEqual(a.unacknowledgedFindings.map(\.key), ["Linked", "P/1"])
        XCTAssertFalse(a.isNew(a.findings[0]))
        XCTAssertEqual(a.unknownBreachNames(["ADOBE", "Nope"]), ["Nope"])
        XCTAssertEqual(a.acknowledge(at: t2), 2)
        XCTAssertEqual(a.acknowledge(at: t2), 0, "twice is a no-op")
        XCTAssertTrue(a.unacknowledgedFindings.isEmpty)
        // seen again later: still acknowledged; a new one is new
        a.record(answer(["Adobe", "Linked", "Fresh"], at: t2.addingTimeInterval(60)))
        XCTAssertEqual(a.unacknowledgedFindings.map(\.key), ["Fresh"])
    }

    func testAVaultWrittenBeforeFindingsKeepsItsBreachesAsSeenAtTheirAnswer() {
        var a = account()
        a.result = .answer(breaches: ["Adobe"], pasteCount: nil, at: t1)
        XCTAssertEqual(a.knownFindings.map(\.key), ["Adobe"])
        XCTAssertEqual(a.knownFindings.first?.firstSeen, t1)
        let news = a.record(answer(["Adobe", "Fresh"], at: t2))
        XCTAssertEqual(news.map(\.key), ["Fresh"], "Adobe was known before the upgrade: not news")
        XCTAssertEqual(a.findings.count, 2)
    }

    func testPrintingAFindingShowsNoKey() {
        var a = account()
        a.record(answer(["VelvetRendezvous"], at: t1))
        XCTAssertEqual("\(a.findings[0])", "Finding(breach, redacted)")
        var dumped = ""
        dump(a.findings, to: &dumped)
        XCTAssertFalse(dumped.contains("Velvet"), dumped)
    }

    // MARK: payload

    private func roundTrip(_ payload: VaultPayload) throws -> (VaultPayload, String) {
        let plain = try PayloadCodec.encode(payload)
        let back = try plain.withUnsafeBytes { try PayloadCodec.decode($0) }
        let json = plain.withUnsafeBytes { bytes -> String in
            let n = bytes[..<8].reduce(0) { $0 << 8 | Int($1) }
            return String(decoding: bytes[8..<(8 + n)], as: UTF8.self)
        }
        return (back, json)
    }

    func testFindingsAndMonitorAreWrittenCanonicallyAndReadBack() throws {
        var a = account()
        a.record(answer(["Adobe"], at: t1, sites: ["shop.example"]))
        a.acknowledge(breachNames: ["Adobe"], at: t2)
        let payload = VaultPayload(nextID: 2, accounts: [a],
                                   monitor: MonitorState(lastFullCheck: t1, catalogMark: "834@2026-11-29T10:00:00Z"))
        let (back, json) = try roundTrip(payload)
        XCTAssertEqual(back, payload)
        XCTAssertTrue(json.contains(#""findings":[{"acknowledgedAt":"2023-11-16T22:13:20.000Z","firstSeen":"2023-11-15T22:13:20.000Z","key":"Adobe","kind":"breach"},{"firstSeen":"2023-11-15T22:13:20.000Z","key":"shop.example","kind":"stealer-log"}],"id":1"#), json)
        XCTAssertTrue(json.hasPrefix(#"{"accounts":["#), json)
        XCTAssertTrue(json.hasSuffix(#"],"monitor":{"catalogMark":"834@2026-11-29T10:00:00Z","lastFullCheck":"2023-11-15T22:13:20.000Z"},"nextID":2,"schema":1}"#), json)
        // Foundation's encoder, sorted, writes the same bytes (the reference of §7.1).
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .custom { date, e in
            var c = e.singleValueContainer()
            let ms = PayloadTimestamp.milliseconds(of: date)!
            var bytes = [UInt8](repeating: 0, count: 24)
            bytes.withUnsafeMutableBytes { PayloadTimestamp.write(milliseconds: ms, into: $0) }
            try c.encode(String(decoding: bytes, as: UTF8.self))
        }
        XCTAssertEqual(String(decoding: try encoder.encode(ReferencePayload(payload)), as: UTF8.self), json)
    }

    func testNoFindingsAndNoMonitorAreOmitted() throws {
        let (_, json) = try roundTrip(VaultPayload(nextID: 2, accounts: [account()]))
        XCTAssertFalse(json.contains("findings"), json)
        XCTAssertFalse(json.contains("monitor"), json)
    }

    func testAMalformedFindingIsDamagedAndNamedByPlace() {
        let cases: [(String, String)] = [
            (#"[{"kind":"breach","key":"A"}]"#, "the payload lacks accounts[0].findings[0].firstSeen"),
            (#"[{"kind":"rumour","key":"A","firstSeen":"2024-01-01T00:00:00.000Z"}]"#, "the payload has an invalid value at accounts[0].findings[0].kind"),
            (#"[{"kind":"paste","firstSeen":"2024-01-01T00:00:00.000Z"}]"#, "the payload lacks accounts[0].findings[0].key"),
            (#"[{"kind":"paste","key":"A","key":"B","firstSeen":"2024-01-01T00:00:00.000Z"}]"#, "the payload has accounts[0].findings[0].key twice"),
            (#"{"kind":"paste"}"#, "the payload has a value of the wrong type at accounts[0].findings"),
        ]
        for (findings, reason) in cases {
            let json = #"{"schema":1,"nextID":2,"accounts":[{"id":1,"entered":"e","normalized":"e","kind":"username","addedAt":"2024-01-01T00:00:00.000Z","result":{"status":"clean","breaches":[]},"findings":\#(findings)}]}"#
            XCTAssertThrowsError(try PayloadCodecTests.plaintext(json: json).withUnsafeBytes { try PayloadCodec.decode($0) }) { error in
                guard case let .damaged(r) = error as? VaultFormatError else { return XCTFail("\(error)") }
                XCTAssertEqual(r, reason, findings)
            }
        }
        let monitor = #"{"schema":1,"nextID":1,"accounts":[],"monitor":{"lastFullCheck":"yesterday"}}"#
        XCTAssertThrowsError(try PayloadCodecTests.plaintext(json: monitor).withUnsafeBytes { try PayloadCodec.decode($0) }) { error in
            guard case let .damaged(r) = error as? VaultFormatError else { return XCTFail("\(error)") }
            XCTAssertEqual(r, "the payload has an invalid value at monitor.lastFullCheck")
        }
    }

    // MARK: delivery (issue 21, item 6)

    func testFindingsAWatchRecordsWaitUntilMarkedAnnouncedOrAcknowledged() {
        var a = account()
        a.record(answer(["Adobe"], at: t1))
        XCTAssertEqual(a.unannouncedFindings.count, 0, "a command that shows what it finds leaves nothing waiting")
        a.record(answer(["Adobe", "Fresh", "Other"], at: t2, pastes: ["P/1"]), unannounced: true)
        XCTAssertEqual(a.unannouncedFindings.map(\.key), ["Fresh", "Other", "P/1"])
        XCTAssertEqual(a.markAnnounced(a.unannouncedFindings.filter { $0.key == "Fresh" }), 1)
        XCTAssertEqual(a.unannouncedFindings.map(\.key), ["Other", "P/1"])
        a.acknowledge(breachNames: ["Other"], at: t2)
        XCTAssertEqual(a.unannouncedFindings.map(\.key), ["P/1"], "what the user acknowledged is not news any more")
        XCTAssertNil(a.findings.first { $0.key == "Other" }?.unannounced, "and waits for nothing")
        a.record(answer(["Adobe", "Fresh", "Other"], at: t2.addingTimeInterval(60), pastes: ["P/1"]), unannounced: true)
        XCTAssertEqual(a.unannouncedFindings.map(\.key), ["P/1"], "a later answer neither repeats nor drops what waits")
    }

    func testUnannouncedIsWrittenLastOnlyWhenSetAndReadBack() throws {
        var a = account()
        a.record(answer(["Adobe", "Fresh"], at: t1), unannounced: true)
        a.markAnnounced(a.findings.filter { $0.key == "Adobe" })
        let payload = VaultPayload(nextID: 2, accounts: [a])
        let (back, json) = try roundTrip(payload)
        XCTAssertEqual(back, payload)
        XCTAssertTrue(json.contains(#""findings":[{"firstSeen":"2023-11-15T22:13:20.000Z","key":"Adobe","kind":"breach"},{"firstSeen":"2023-11-15T22:13:20.000Z","key":"Fresh","kind":"breach","unannounced":true}]"#), json)
        for (value, waits) in [("true", true), ("false", false), ("null", false)] {
            let text = #"{"schema":1,"nextID":2,"accounts":[{"id":1,"entered":"e","normalized":"e","kind":"username","addedAt":"2024-01-01T00:00:00.000Z","result":{"status":"breached","checkedAt":"2024-01-01T00:00:00.000Z","breaches":["A"]},"findings":[{"kind":"breach","key":"A","firstSeen":"2024-01-01T00:00:00.000Z","unannounced":\#(value)}]}]}"#
            let read = try PayloadCodecTests.plaintext(json: text).withUnsafeBytes { try PayloadCodec.decode($0) }
            XCTAssertEqual(read.accounts[0].unannouncedFindings.count, waits ? 1 : 0, value)
        }
        let wrong = #"{"schema":1,"nextID":2,"accounts":[{"id":1,"entered":"e","normalized":"e","kind":"username","addedAt":"2024-01-01T00:00:00.000Z","result":{"status":"clean","breaches":[]},"findings":[{"kind":"breach","key":"A","firstSeen":"2024-01-01T00:00:00.000Z","unannounced":1}]}]}"#
        XCTAssertThrowsError(try PayloadCodecTests.plaintext(json: wrong).withUnsafeBytes { try PayloadCodec.decode($0) }) { error in
            guard case let .damaged(r) = error as? VaultFormatError else { return XCTFail("\(error)") }
            XCTAssertEqual(r, "the payload has a value of the wrong type at accounts[0].findings[0].unannounced")
        }
    }

    // MARK: history, not a cache (issue 29)

    func testAFindingNoLongerListedIsKeptMarkedThenListedAgainWithoutBeingNew() {
        var a = account()
        a.record(answer(["Adobe", "Linked"], at: t1, pastes: ["P/1"], sites: ["shop.example"]))
        a.acknowledge(breachNames: ["Linked"], at: t1)
        // Nothing listed: the breaches stay, marked since this answer; the acknowledged one is marked
        // but is no news. Pastes and stealer logs not asked: left as they are.
        let gone = a.recordChanges(answer([], at: t2))
        XCTAssertEqual(gone.found.count, 0)
        XCTAssertEqual(gone.unlisted.map(\.key), ["Adobe"], "news: only what the user has not dealt with")
        XCTAssertEqual(a.findings.count, 4, "nothing is deleted")
        XCTAssertEqual(a.findings.filter { !$0.isListed }.map(\.key), ["Adobe", "Linked"])
        XCTAssertEqual(a.findings.first { $0.key == "Adobe" }?.unlistedSince, t2)
        XCTAssertEqual(a.findings.first { $0.key == "Linked" }?.acknowledgedAt, t1, "acknowledged stays acknowledged")
        XCTAssertTrue(a.findings.filter { $0.kind != .breach }.allSatisfy(\.isListed), "not asked: not unlisted")
        XCTAssertEqual(a.unacknowledgedFindings.map(\.key), ["Adobe", "P/1", "shop.example"], "an unlisted finding still counts")
        XCTAssertEqual(a.result.status, .clean, "the result is the latest answer's")

        // The same answer again: no news, the first date stays.
        let t3 = t2.addingTimeInterval(3600)
        XCTAssertTrue(a.recordChanges(answer([], at: t3, pastes: [], sites: ["shop.example"])).unlisted.map(\.key) == ["P/1"],
                      "a paste, once pastes are asked and not listed")
        XCTAssertEqual(a.findings.first { $0.key == "Adobe" }?.unlistedSince, t2)

        // Listed again: the mark goes, and it is not new (first seen stays t1).
        let t4 = t3.addingTimeInterval(3600)
        let back = a.recordChanges(answer(["Adobe"], at: t4))
        XCTAssertEqual(back.found.count, 0, "listed again is not new")
        XCTAssertEqual(back.unlisted.count, 0)
        XCTAssertTrue(a.findings.first { $0.key == "Adobe" }!.isListed)
        XCTAssertEqual(a.findings.first { $0.key == "Adobe" }?.firstSeen, t1)
        XCTAssertFalse(a.findings.first { $0.key == "Linked" }!.isListed == true, "Linked is still not listed")
        XCTAssertEqual(a.newFindings.count, 0)
        XCTAssertEqual(a.findings.first { $0.key == "Linked" }?.acknowledgedAt, t1)

        // A failure changes nothing.
        XCTAssertTrue(a.recordChanges(.failure("boom", at: t4.addingTimeInterval(60))).isEmpty)
        XCTAssertEqual(a.findings.filter { !$0.isListed }.map(\.key), ["Linked", "P/1"])
    }

    func testAWatchRunWaitsToDeliverTheChangeAndAListingAgainVoidsIt() {
        var a = account()
        a.record(answer(["Adobe", "Linked"], at: t1))
        let gone = a.recordChanges(answer(["Linked"], at: t2), unannounced: true)
        XCTAssertEqual(gone.unlisted.map(\.key), ["Adobe"])
        XCTAssertEqual(a.unannouncedFindings.map(\.key), ["Adobe"], "delivered by watch like a new finding")
        XCTAssertFalse(a.unannouncedFindings[0].isListed)
        a.record(answer(["Linked", "Adobe"], at: t2.addingTimeInterval(60)), unannounced: true)
        XCTAssertEqual(a.unannouncedFindings.count, 0, "listed again before delivery: nothing to say")
    }

    func testAnAnswerThatNeverListsSensitiveBreachesLeavesThemListed() {
        var a = account()
        a.record(AccountCheck.domainAnswer(breaches: ["Secret", "Adobe"], at: t1))   // a domain search: sensitive ones too
        let plain = a.recordChanges(answer([], at: t2), isSensitive: { $0 == "Secret" })
        XCTAssertEqual(plain.unlisted.map(\.key), ["Adobe"], "breachedaccount never lists a sensitive breach")
        XCTAssertTrue(a.findings.first { $0.key == "Secret" }!.isListed)
        let domain = a.recordChanges(AccountCheck.domainAnswer(breaches: [], at: t2.addingTimeInterval(60)), isSensitive: { $0 == "Secret" })
        XCTAssertEqual(domain.unlisted.map(\.key), ["Secret"], "a domain search lists them: one that does not, unlists")
    }

    func testUnlistedSinceIsWrittenLastOnlyWhenSetAndReadBack() throws {
        var a = account()
        a.record(answer(["Adobe", "Fresh"], at: t1))
        a.recordChanges(answer(["Fresh"], at: t2), unannounced: true)
        let payload = VaultPayload(nextID: 2, accounts: [a])
        let (back, json) = try roundTrip(payload)
        XCTAssertEqual(back, payload)
        XCTAssertTrue(json.contains(#""findings":[{"firstSeen":"2023-11-15T22:13:20.000Z","key":"Adobe","kind":"breach","unannounced":true,"unlistedSince":"2023-11-16T22:13:20.000Z"},{"firstSeen":"2023-11-15T22:13:20.000Z","key":"Fresh","kind":"breach"}]"#), json)
        // An older vault (no member) reads as listed; null is absent; anything but a timestamp is damage.
        func read(_ member: String) throws -> Account {
            let text = #"{"schema":1,"nextID":2,"accounts":[{"id":1,"entered":"e","normalized":"e","kind":"username","addedAt":"2024-01-01T00:00:00.000Z","result":{"status":"clean","checkedAt":"2024-01-02T00:00:00.000Z","breaches":[]},"findings":[{"kind":"breach","key":"A","firstSeen":"2024-01-01T00:00:00.000Z"\#(member)}]}]}"#
            return try PayloadCodecTests.plaintext(json: text).withUnsafeBytes { try PayloadCodec.decode($0) }.accounts[0]
        }
        XCTAssertTrue(try read("").findings[0].isListed)
        XCTAssertTrue(try read(#","unlistedSince":null"#).findings[0].isListed)
        XCTAssertEqual(try read(#","unlistedSince":"2024-01-02T00:00:00.000Z""#).findings[0].unlistedSince,
                       Date(timeIntervalSince1970: 1_704_153_600))
        for (value, reason) in [(#""yesterday""#, "an invalid value at"), ("1", "a value of the wrong type at")] {
            XCTAssertThrowsError(try read(#","unlistedSince":"# + value)) { error in
                guard case let .damaged(r) = error as? VaultFormatError else { return XCTFail("\(error)") }
                XCTAssertEqual(r, "the payload has \(reason) accounts[0].findings[0].unlistedSince", value)
            }
        }
        XCTAssertThrowsError(try read(#","unlistedSince":null,"unlistedSince":null"#)) { error in
            guard case let .damaged(r) = error as? VaultFormatError else { return XCTFail("\(error)") }
            XCTAssertEqual(r, "the payload has accounts[0].findings[0].unlistedSince twice")
        }
    }

    // MARK: the gate

    func testTheNotificationNamesLabelsIdsAndTitlesButNoAccountAndNoSensitiveBreach() {
        let catalog = BreachCatalog(breaches: [Breach(name: "Adobe", title: "Adobe", pwnCount: 1),
                                               Breach(name: "Velvet", title: "Velvet Club", pwnCount: 1, isSensitive: true)],
                                    fetchedAt: t0)
        var dad = Account(id: 2, entered: "dad@example.com", normalized: "dad@example.com", kind: .email, label: "Dad", addedAt: t0)
        var anon = Account(id: 5, entered: "x@example.org", normalized: "x@example.org", kind: .email,
                           label: "mail x@example.org", addedAt: t0)
        let dadNews = dad.record(answer(["Adobe", "Velvet"], at: t1))
        let anonNews = anon.record(answer(["Adobe"], at: t1, pastes: ["P/1", "P/2"]))
        let full = Disclosure.notificationText([(dad, dadNews), (anon, anonNews)], catalog: catalog, countOnly: false)
        XCTAssertEqual(full.summary, "pwnvault: news for 2 accounts")
        XCTAssertEqual(full.body, "Dad (#2): Adobe; 1 sensitive breach\nmail ••• (#5): Adobe; 2 pastes")
        let count = Disclosure.notificationText([(dad, dadNews)], catalog: catalog, countOnly: true)
        XCTAssertEqual(count.summary, "pwnvault: news for 1 account")
        XCTAssertFalse(count.body.contains("Adobe"))
        let none = Disclosure.notificationText([(dad, dadNews)], catalog: nil, countOnly: false)
        XCTAssertEqual(none.body, "Dad (#2): 2 breaches not in the catalog", "no catalog: nothing named")
    }

    func testAdviceComesFromTheDataClassesInTheTablesOrder() {
        let lines = BreachAdvice.lines(for: ["Phone numbers", "passwords", "IP addresses"])
        XCTAssertEqual(lines.count, 2)
        XCTAssertTrue(lines[0].hasPrefix("change the password"), lines[0])
        XCTAssertTrue(lines[1].contains("SIM-swap"), lines[1])
        XCTAssertEqual(BreachAdvice.lines(for: ["Genders"]), [])
    }
}
