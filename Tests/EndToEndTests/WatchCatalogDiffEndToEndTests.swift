import Foundation
import TestSupport
import XCTest

/// Issue 22: `watch` reads what changed in the catalog. Against the fake HIBP server, the catalog
/// changes in each way HIBP can change it, and `watch` asks exactly for the accounts the change can
/// concern (counted at the server); a relevant breach is found and reported.
final class WatchCatalogDiffEndToEndTests: XCTestCase {
    // Two personal addresses, one on the key's verified domain, a username and a phone number.
    static let ann = "clean.ann@example.com"
    static let ben = "clean.ben@example.net"
    static let cat = "clean-cat@hibp-integration-tests.com"
    static let user = "bob_the_builder"
    static let phone = "+44 7700 900123"
    /// What each account's requests contain (k-anonymity is off: the account is in the path).
    static let marks = ["ann": "clean.ann", "ben": "clean.ben", "cat": "clean-cat", "user": "bob_the_builder", "phone": "447700900123"]

    var server: FakeHIBP!
    var s: Sandbox!

    override func setUpWithError() throws {
        server = try FakeHIBP()
        s = try Sandbox(inProcess: true)
        s.use(server)
        s.environment["PWNVAULT_K_ANONYMITY"] = "off"
    }

    override func tearDown() { server = nil; s = nil }

    private func paths() -> [String] { server.log().compactMap { $0["path"] as? String } }

    /// Who was asked for one by one, by short name, and how many domain searches were made.
    private func asked() -> (accounts: [String], domainSearches: Int) {
        let p = paths()
        let accounts = Self.marks.filter { _, mark in p.contains { $0.contains("/breachedaccount/") && $0.contains(mark) } }.keys.sorted()
        return (accounts, p.filter { $0.contains("/breacheddomain/") }.count)
    }

    private func breach(_ json: String) { server.control("/__control/breaches", json) }

    /// Runs `watch --json` after the change and returns its report.
    private func watch(expecting status: Int32 = 0, file: StaticString = #filePath, line: UInt = #line) throws -> [String: Any] {
        let r = s.run(["watch", "--json"])
        XCTAssertEqual(r.status, status, r.all, file: file, line: line)
        return try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any], r.all, file: file, line: line)
    }

    private func reset() { server.control("/__control/reset", "{}") }

    func testEachKindOfCatalogChangeAsksExactlyTheAccountsItCanConcern() throws {
        s.initVault()
        for (account, label) in [(Self.ann, "Ann"), (Self.ben, "Ben"), (Self.cat, "Cat"), (Self.user, "User"), (Self.phone, "Phone")] {
            XCTAssertEqual(s.run(["add", account, "--label", label]).status, 0)
        }
        breach(#"{"Name": "Base", "DataClasses": ["Email addresses", "Phone numbers", "Usernames"]}"#)
        breach(#"{"Name": "Telco", "DataClasses": ["Names", "Phone numbers"]}"#)
        XCTAssertTrue([0, 1].contains(s.run(["watch"]).status), "the first run checks everyone")
        reset()
        XCTAssertEqual(try watch()["fullCheck"] as? Bool, false)
        XCTAssertEqual(paths().map { String($0.split(separator: "?").first ?? "") }, ["/api/v3/breaches"], "nothing changed: the catalog only")

        // A modification without a larger PwnCount (IsVerified flips, a new description): nobody.
        reset()
        breach(#"{"Name": "Base", "IsVerified": false, "Description": "Now unverified.", "ModifiedDate": "2030-01-01T00:00:00Z"}"#)
        var report = try watch()
        XCTAssertEqual(report["fullCheck"] as? Bool, false)
        XCTAssertEqual(asked().accounts, [])
        XCTAssertEqual(asked().domainSearches, 0)

        // A retired breach, a spam list: nobody.
        reset()
        breach(#"{"Name": "Gone", "IsRetired": true, "DataClasses": ["Email addresses", "Phone numbers", "Usernames"]}"#)
        breach(#"{"Name": "Spammy", "IsSpamList": true, "DataClasses": ["Email addresses"]}"#)
        _ = try watch()
        XCTAssertEqual(asked().accounts, [])
        XCTAssertEqual(asked().domainSearches, 0)

        // A new sensitive breach of e-mail addresses: only the verified domain's search, no address one by one.
        reset()
        breach(#"{"Name": "Hidden", "IsSensitive": true, "DataClasses": ["Email addresses"]}"#)
        _ = try watch()
        XCTAssertEqual(asked().accounts, [])
        XCTAssertEqual(asked().domainSearches, 1)
        XCTAssertEqual(paths().filter { $0.hasSuffix("/subscribeddomains") }.count, 1)

        // A new breach of phone numbers only: the phone. Of usernames only: the username.
        reset()
        breach(#"{"Name": "Mobile", "DataClasses": ["Phone numbers"]}"#)
        report = try watch()
        XCTAssertEqual(asked().accounts, ["phone"])
        XCTAssertEqual(report["checked"] as? Int, 1)
        reset()
        breach(#"{"Name": "Gamers", "DataClasses": ["Passwords", "Usernames"]}"#)
        _ = try watch()
        XCTAssertEqual(asked().accounts, ["user"])

        // Data classes widened later: Telco now holds usernames too (phones could be found in it before).
        reset()
        breach(#"{"Name": "Telco", "DataClasses": ["Names", "Phone numbers", "Usernames"]}"#)
        _ = try watch()
        XCTAssertEqual(asked().accounts, ["user"])

        // A sensitive breach made public: the e-mail addresses (Cat by its domain's search).
        reset()
        breach(#"{"Name": "Hidden", "IsSensitive": false}"#)
        report = try watch()
        XCTAssertEqual(report["fullCheck"] as? Bool, false)
        XCTAssertEqual(asked().accounts, ["ann", "ben"])
        XCTAssertEqual(asked().domainSearches, 1)

        // A larger PwnCount of a breach holding every kind: a full check.
        reset()
        breach(#"{"Name": "Base", "PwnCount": 5000}"#)
        report = try watch()
        XCTAssertEqual(report["fullCheck"] as? Bool, true, "\(report)")
        XCTAssertEqual(asked().accounts, ["ann", "ben", "phone", "user"])
        XCTAssertEqual(asked().domainSearches, 1)

        // Each change was acted on once: the next run asks nobody.
        reset()
        _ = try watch()
        XCTAssertEqual(asked().accounts, [])
        XCTAssertEqual(asked().domainSearches, 0)
    }

    func testANewRelevantBreachIsFoundAndReportedAndASensitiveOneOnTheVerifiedDomainToo() throws {
        s.initVault()
        for (account, label) in [(Self.ann, "Ann"), (Self.ben, "Ben"), (Self.cat, "Cat"), (Self.phone, "Phone")] {
            XCTAssertEqual(s.run(["add", account, "--label", label]).status, 0)
        }
        XCTAssertEqual(s.run(["watch"]).status, 0)

        // Added with an AddedDate older than every breach in the catalog: new all the same.
        reset()
        breach(#"{"Name": "OldLeak", "Title": "Old Leak", "AddedDate": "2009-01-01T00:00:00Z", "DataClasses": ["Email addresses", "Passwords"]}"#)
        server.control("/__control/accounts", #"{"account": "\#(Self.ben)", "breaches": ["OldLeak"]}"#)
        let found = s.run(["watch"])
        XCTAssertEqual(found.status, 1, found.all)
        XCTAssertEqual(found.stdout, "#2  Ben  NEW: Old Leak\ndetails and what to do: pwnvault show '#ID'; when dealt with: pwnvault ack '#ID'\n")
        XCTAssertEqual(asked().accounts, ["ann", "ben"], "the addresses, not the phone")
        XCTAssertEqual(asked().domainSearches, 1, "Cat by its domain's search")

        // A sensitive breach Cat is in: found by the domain search alone, reported without its name.
        reset()
        breach(#"{"Name": "SecretClub", "Title": "Secret Club", "IsSensitive": true, "DataClasses": ["Email addresses"]}"#)
        server.control("/__control/accounts", #"{"account": "\#(Self.cat)", "breaches": ["SecretClub"], "ownerVerified": true}"#)
        let hidden = s.run(["watch"])
        XCTAssertEqual(hidden.status, 1, hidden.all)
        XCTAssertTrue(hidden.stdout.hasPrefix("#3  Cat  NEW: 1 sensitive breach\n"), hidden.stdout)
        XCTAssertFalse(hidden.all.contains("Secret"), hidden.all)
        XCTAssertEqual(asked().accounts, [])
        XCTAssertEqual(asked().domainSearches, 1)

        // Reported once: the next run is quiet and asks nobody.
        reset()
        let quiet = s.run(["watch"])
        XCTAssertEqual(quiet.status, 0, quiet.all)
        XCTAssertEqual(quiet.stdout, "")
        XCTAssertEqual(asked().accounts, [])
    }
}
