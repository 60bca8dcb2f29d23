@testable import PwnVaultCLI
import PwnVaultCore
import XCTest

/// What the CLI module can do with the library's vault data, seen from here (PwnVaultCore imported
/// without `@testable`, as the commands see it): only the disclosure gate turns it into text.
///
/// These lines compiled before issue 21 sealed the gate in the types, and no longer do:
///
///     try context.console.json(session.payload)        // VaultPayload, Account, CheckResult, Finding: not Encodable
///     try context.console.json(account.findings)
///     let raw = address.value                          // VCardAddress.value: internal
///     let names = contact.formattedName, contact.emails // VCardContact's names and addresses: internal
///     let sites = try await client.stealerLogs(email)  // HIBPClient.stealerLogs / pastes: internal
///     let aliases: [String: [String]] = try await client.breachedDomain(domain)   // returns a DomainSearch
///     let names = lookup.breachNames                   // AccountLookup's breaches: internal
///     let all = catalog.resolve(lookup)                // internal
///     let raw = paste.id                               // Paste's members: internal, and it is not Encodable
///
/// The compiler keeps them out; the tests below check what still compiles: the conformances are gone
/// at run time too, and what the public API can build prints nothing of what it holds.
final class GateTypesTests: XCTestCase {
    private let email = "zz-secret-local@very-secret-domain.example"
    private let needles = ["zz-secret", "very-secret-domain", "zzsecret", "7700900"]

    private func leaks(_ text: String) -> [String] { needles.filter { text.lowercased().contains($0) } }

    private func isEncodable<T>(_: T.Type) -> Bool { T.self is any Encodable.Type }

    func testVaultTypesAreNotEncodable() {
        XCTAssertFalse(isEncodable(VaultPayload.self))
        XCTAssertFalse(isEncodable(Account.self))
        XCTAssertFalse(isEncodable(CheckResult.self))
        XCTAssertFalse(isEncodable(Finding.self))
        XCTAssertFalse(isEncodable(AccountCheck.self))
        XCTAssertFalse(isEncodable(ParsedAccount.self))
        XCTAssertFalse(isEncodable(Paste.self))
        XCTAssertFalse(isEncodable(DomainSearch.self))
        XCTAssertFalse(isEncodable(AccountLookup.self))
        XCTAssertFalse(isEncodable(VCardContact.self))
        XCTAssertFalse(isEncodable(VCardAddress.self))
        // What the commands do encode still is: the kinds and statuses, which hold no account.
        XCTAssertTrue(isEncodable(AccountKind.self))
        XCTAssertTrue(isEncodable(CheckStatus.self))
    }

    func testWhatThePublicAPIBuildsPrintsNothingItHolds() throws {
        let parsed = try AccountParser.parse(email, phones: .internationalOnly)
        let phone = try AccountParser.parse("+44 7700 900123", phones: .internationalOnly)
        let date = Date(timeIntervalSince1970: 1_700_000_000)
        var account = Account(id: 3, parsed: parsed, label: nil, addedAt: date)
        let search = DomainSearch(domain: "very-secret-domain.example", aliases: ["zz-secret-local": ["ZzSecretSensitive"]])
        if let attempt = search.check(for: account, at: date) { account.record(attempt) }
        XCTAssertEqual(account.findings.count, 1, "the fixture holds a sensitive breach")
        let values: [Any] = [
            parsed, phone, account, account.result, account.findings, account.dedupKey, search,
            search.accounts(at: date).map(\.account), search.accounts(at: date).map(\.result),
            AccountCheckRun.Target(index: 0, account: account), AccountCheckRun.Target(index: 1, parsed: phone),
            VaultPayload(nextID: 4, accounts: [account]),
        ]
        for value in values {
            var dumped = ""
            dump(value, to: &dumped)
            for text in [String(describing: value), String(reflecting: value), "\(value)", dumped] {
                XCTAssertEqual(leaks(text), [], text)
            }
        }
        XCTAssertEqual("\(account)", "Account(#3, email)")
    }

    /// `InternalError` describes an error it did not expect without default reflection, which would
    /// print every associated value and stored property.
    func testInternalErrorShowsNoAssociatedValues() {
        enum Failing: Error { case lookedUp(account: String), plain }
        struct Holding: Error { let account: String }
        struct Described: Error, CustomStringConvertible { var description: String { "the cache is full" } }

        XCTAssertEqual(InternalError(Failing.lookedUp(account: email)).message, "unexpected failure: Failing.lookedUp")
        XCTAssertEqual(InternalError(Failing.plain).message, "unexpected failure: Failing.plain")
        XCTAssertEqual(InternalError(Holding(account: email)).message, "unexpected failure: Holding")
        XCTAssertEqual(InternalError(Described()).message, "unexpected failure: the cache is full")
    }
}
