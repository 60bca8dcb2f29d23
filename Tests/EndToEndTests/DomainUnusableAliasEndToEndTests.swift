import Foundation
import XCTest

/// Issue 21, item 8: `domain` said "15 breached addresses" and listed 12, silently. The aliases HIBP
/// gives that are not valid accounts are now counted with why, in text and JSON, and never shown
/// (they are account data) in any mode.
final class DomainUnusableAliasEndToEndTests: XCTestCase {
    static let domain = "hibp-integration-tests.com"
    /// Aliases no account can be made of: a space, a second '@', a local part over 64 bytes.
    static let spaced = "two words"
    static let doubleAt = "x@y"
    static let long = String(repeating: "q", count: 70)

    var server: FakeHIBP!
    var s: Sandbox!

    override func setUpWithError() throws {
        server = try FakeHIBP()
        s = try Sandbox(inProcess: true)
        s.use(server)
        for alias in [Self.spaced, Self.doubleAt, Self.long] {
            server.control("/__control/accounts", #"{"account": "\#(alias)@\#(Self.domain)", "breaches": ["Adobe"]}"#)
        }
    }

    override func tearDown() { server = nil; s = nil }

    private func assertNoAlias(_ text: String, _ mode: String, file: StaticString = #filePath, line: UInt = #line) {
        for alias in [Self.spaced, Self.doubleAt, Self.long, "qqqqqqqqqq"] {
            XCTAssertFalse(text.contains(alias), "\(mode) shows an alias: \(text)", file: file, line: line)
        }
    }

    func testUnusableAliasesAreCountedWithWhyAndNeverShown() throws {
        let piped = s.run(["domain", Self.domain])
        XCTAssertEqual(piped.status, 1, piped.all)
        XCTAssertTrue(piped.stdout.hasPrefix("the domain: 15 breached addresses, 12 listed (3 not usable as accounts)\n"), piped.stdout)
        XCTAssertTrue(piped.stdout.hasSuffix("""
            not listed: 3 breached aliases HIBP gave that are not usable as accounts (not added)
              1  the account contains a space (only phone numbers may)
              1  the e-mail address contains more than one '@'
              1  the part of the e-mail address before the '@' is longer than 64 bytes

            """), piped.stdout)
        XCTAssertTrue(piped.stdout.contains("address 12  pwned in"), piped.stdout)
        XCTAssertFalse(piped.stdout.contains("address 13"), piped.stdout)
        assertNoAlias(piped.all, "a pipe")

        let terminal = s.runOnTerminal(["domain", Self.domain])
        XCTAssertTrue(terminal.stdout.contains("15 breached addresses, 12 listed (3 not usable as accounts)"), terminal.stdout)
        XCTAssertTrue(terminal.stdout.contains("the e-mail address contains more than one '@'"), terminal.stdout)
        assertNoAlias(terminal.stdout, "a terminal")
        assertNoAlias(s.runOnTerminal(["--share", "domain", Self.domain]).stdout, "share mode")

        let json = s.run(["domain", Self.domain, "--json"])
        XCTAssertEqual(json.status, 1, json.all)
        assertNoAlias(json.all, "JSON")
        let report = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        XCTAssertEqual(report["breachedAddresses"] as? Int, 15)
        XCTAssertEqual((report["addresses"] as? [Any])?.count, 12)
        XCTAssertEqual(report["unusable"] as? Int, 3)
        let reasons = try XCTUnwrap(report["unusableReasons"] as? [[String: Any]])
        XCTAssertEqual(reasons.map { $0["count"] as? Int }, [1, 1, 1])
        XCTAssertEqual(reasons.compactMap { $0["reason"] as? String }, [
            "the account contains a space (only phone numbers may)",
            "the e-mail address contains more than one '@'",
            "the part of the e-mail address before the '@' is longer than 64 bytes",
        ])

        // Saved: the usable ones only.
        s.initVault()
        let saved = s.run(["domain", Self.domain, "--save", "--json"])
        XCTAssertEqual(saved.status, 1, saved.all)
        let savedReport = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(saved.stdout.utf8)) as? [String: Any])
        XCTAssertEqual(savedReport["added"] as? Int, 12)
        XCTAssertEqual(savedReport["unusable"] as? Int, 3)
        let listed = s.run(["list", "--json"])
        XCTAssertEqual((try JSONSerialization.jsonObject(with: Data(listed.stdout.utf8)) as? [Any])?.count, 12, listed.all)
    }

    func testWithEveryAliasUsableNothingMoreIsSaid() throws {
        server = try FakeHIBP()   // a fresh server: only the usable test aliases
        s.environment["PWNVAULT_API_URL"] = server.apiURL
        let piped = s.run(["domain", Self.domain])
        XCTAssertTrue(piped.stdout.hasPrefix("the domain: 12 breached addresses\n"), piped.stdout)
        XCTAssertFalse(piped.stdout.contains("not listed"), piped.stdout)
        let report = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(s.run(["domain", Self.domain, "--json"]).stdout.utf8)) as? [String: Any])
        XCTAssertEqual(report["unusable"] as? Int, 0)
        XCTAssertEqual((report["unusableReasons"] as? [Any])?.count, 0)
    }
}
