import Foundation
import XCTest

/// HIBP's real refusals (a Cloudflare block, a revoked key's long 401 as text and in the older JSON
/// form, a 403 for a domain the key has not verified, 400s, 429s) give one message and one status in
/// every command that meets them: check, domain, config api-key, watch.
final class HIBPAnswersEndToEndTests: XCTestCase {
    var server: FakeHIBP!
    var s: Sandbox!
    static let blocked = "22222222222222222222222222222222"
    static let revoked = "abababababababababababababababab"
    static let revokedJSON = "cdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcd"

    override func setUpWithError() throws {
        server = try FakeHIBP()
        server.control("/__control/config", #"{"keys": {"\#(Self.revoked)": "revoked", "\#(Self.revokedJSON)": "revoked-json"}}"#)
        s = try Sandbox(inProcess: true)
        s.environment["PWNVAULT_API_URL"] = server.apiURL
        s.initVault()
        XCTAssertEqual(s.run(["add", "clean.ida@hibp-integration-tests.com", "pwned.joe@example.com"]).status, 0)
    }

    override func tearDown() { server = nil; s = nil }

    /// Each command with `key` (from HIBP_API_KEY, or typed for config api-key).
    private func everyCommand(key: String) -> [(String, RunResult)] {
        let env = ["HIBP_API_KEY": key]
        return [
            ("check", s.run(["check", "--all", "--force"], env: env)),
            ("domain", s.run(["domain", "hibp-integration-tests.com"], env: env)),
            ("config api-key", s.run(["config", "api-key"], input: key + "\n", env: ["HIBP_API_KEY": ""])),
            ("watch", s.run(["watch", "--full-every", "1"], env: env, passphraseFromFile: false)),
        ]
    }

    func testACloudflareBlockIsStatus6WithItsRayEverywhere() {
        for (command, r) in everyCommand(key: Self.blocked) {
            XCTAssertEqual(r.status, 6, "\(command): \(r.all)")
            XCTAssertTrue(r.stderr.contains("Have I Been Pwned's network (Cloudflare) blocked the request (403, cf-ray "), "\(command): \(r.stderr)")
            XCTAssertFalse(r.stderr.contains("rejected the API key"), "\(command): \(r.stderr)")
        }
    }

    func testARevokedKeysLongAnswerIsOneWholeSentenceAsTextAndAsJSON() {
        for key in [Self.revoked, Self.revokedJSON] {
            for (command, r) in everyCommand(key: key) {
                XCTAssertEqual(r.status, 7, "\(command): \(r.all)")
                XCTAssertTrue(r.stderr.contains("Access denied due to revoked hibp-api-key."), "\(command): \(r.stderr)")
                XCTAssertFalse(r.stderr.contains("statusCode"), "the JSON is read, not printed: \(r.stderr)")
                XCTAssertFalse(r.stderr.contains("…"), "never cut mid-sentence: \(r.stderr)")
                XCTAssertFalse(r.stderr.contains("The subscription this key belongs to"), "one sentence: \(r.stderr)")
            }
        }
    }

    func testADomainTheKeyHasNotVerifiedSaysWhichItMaySearch() {
        let piped = s.run(["domain", "example.com"], env: ["HIBP_API_KEY": FakeHIBP.key])
        XCTAssertEqual(piped.status, 7, piped.all)
        XCTAssertTrue(piped.stderr.contains("example.com is not verified for this key; it may search 1 other domain ('pwnvault domain' lists them)"), piped.stderr)
        XCTAssertFalse(piped.stderr.contains("blocked"), piped.stderr)
        let shown = s.runOnTerminal(["domain", "example.com"], env: ["HIBP_API_KEY": FakeHIBP.key])
        XCTAssertTrue(shown.stdout.contains("example.com is not verified for this key; it may search: hibp-integration-tests.com"), shown.stdout)
        let shared = s.runOnTerminal(["--share", "domain", "example.com"], env: ["HIBP_API_KEY": FakeHIBP.key])
        XCTAssertFalse(shared.stdout.contains("it may search: hibp-integration-tests.com"), "share mode names no verified domain: \(shared.stdout)")
    }

    func testA400IsWordedForTheDomainNotForAnAccount() {
        server.control("/__control/faults", #"{"400": 1}"#)
        let r = s.run(["domain", "hibp-integration-tests.com"], env: ["HIBP_API_KEY": FakeHIBP.key])
        XCTAssertEqual(r.status, 6, r.all)
        XCTAssertTrue(r.stderr.contains("does not accept this domain name (400)"), r.stderr)
        XCTAssertFalse(r.stderr.contains("account"), r.stderr)
    }

    func testA429IsWaitedForByDomainAndConfigAsByCheck() {
        server.control("/__control/faults", #"{"429:1": 1}"#)
        let domain = s.run(["domain", "hibp-integration-tests.com"], env: ["HIBP_API_KEY": FakeHIBP.key])
        XCTAssertTrue([0, 1].contains(domain.status), domain.all)
        server.control("/__control/faults", #"{"429:1": 1}"#)
        let config = s.run(["config", "api-key"], input: FakeHIBP.key + "\n", env: ["HIBP_API_KEY": ""])
        XCTAssertEqual(config.status, 0, config.all)
        XCTAssertTrue(config.stdout.contains("stored the HIBP API key"), config.all)
    }

    func testDoctorSaysA429OnTheKeyAsARateLimitNotAsAWaitTooLong() {
        // Doctor asks once and waits for nothing; its question goes through the check session, whose
        // answer to a 429 it may not wait for is "longer than the 0 s pwnvault waits": not doctor's words.
        server.control("/__control/faults", #"{"subscription/status=429:7": 1}"#)
        let r = s.run(["doctor"], env: ["HIBP_API_KEY": FakeHIBP.key])
        XCTAssertTrue(r.stdout.contains("rate limit for this key was exceeded (429); retry after 7 s"), r.all)
        XCTAssertFalse(r.all.contains("pwnvault waits"), r.all)
    }

    func testARunOf429sIsSaidOnceItAddsUpHoweverShortEachWait() {
        // Three 2-second waits in a row: none alone is worth a line, together they are 6.75 s of silence.
        XCTAssertEqual(s.run(["breaches"]).status, 0)   // the catalog cached: the faults meet the checks
        server.control("/__control/faults", #"{"429:2": 3}"#)
        let r = s.run(["check", "--all", "--force", "--rpm", "600"], env: ["HIBP_API_KEY": FakeHIBP.key])
        XCTAssertTrue([0, 1].contains(r.status), r.all)
        XCTAssertEqual(r.stderr.components(separatedBy: "HIBP asks to slow down (429)").count - 1, 1, r.stderr)
    }
}
