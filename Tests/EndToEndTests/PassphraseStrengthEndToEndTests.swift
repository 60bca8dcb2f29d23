import Foundation
import XCTest

/// `init` and `passwd` refuse a new passphrase that zxcvbn finds weak or that Pwned Passwords has seen
/// (the fake server's /range, k-anonymity), unless --weak-passphrase-ok; a failed lookup does not block.
final class PassphraseStrengthEndToEndTests: XCTestCase {
    var s: Sandbox!
    var server: FakeHIBP!

    override func setUpWithError() throws {
        s = try Sandbox(inProcess: true, keyring: false)
        server = try FakeHIBP()
    }
    override func tearDown() { s = nil; server = nil }

    /// Four words picked at random: zxcvbn estimates about 76 bits, and the fake has never seen it.
    static let strong = "plum forge lantern mosaic"

    private func initVault(_ passphrase: String, _ extra: [String] = [], url: String? = nil) -> RunResult {
        let file = s.writeFile("new-\(UUID().uuidString)", passphrase + "\n")
        return s.run(["init", "--kdf", "interactive"] + extra,
                     env: ["PWNVAULT_PASSPHRASE_FILE": file, "PWNVAULT_PASSWORDS_URL": url ?? server.base])
    }

    private var rangeRequests: [String] {
        server.log().compactMap { $0["path"] as? String }.filter { $0.hasPrefix("/range/") }
    }

    func testPasswordIsRefusedAsTooEasyToGuessWithoutAskingTheNetwork() {
        let r = initVault("password")
        XCTAssertEqual(r.status, 3, r.all)
        XCTAssertTrue(r.stderr.contains("pwnvault: error: the passphrase is too easy to guess: it is among the first few an attacker tries; add 4 words picked at random"), r.stderr)
        XCTAssertFalse(r.stderr.contains("bits"), "said in words a person uses, not zxcvbn's bits: \(r.stderr)")
        XCTAssertTrue(r.stderr.contains("pwnvault: hint: four or more words picked at random"), r.stderr)
        XCTAssertTrue(r.stderr.contains("--weak-passphrase-ok"), r.stderr)
        XCTAssertFalse(r.all.contains("password\n"))
        XCTAssertFalse(FileManager.default.fileExists(atPath: s.vault), "nothing was created")
        XCTAssertEqual(rangeRequests, [], "a passphrase refused on this machine is not looked up")
    }

    func testAKeyboardWalkAndAShortPhraseAreRefusedWithTheirEstimate() {
        // zxcvbn's 10, 20 and 27 bits, said as guesses (2^bits, two digits) and words to add (13 bits each).
        for (weak, tries, words) in [("qwertyuiop", "1,000", 4), ("1qaz2wsx3edc", "1,000,000", 3), ("correct horse", "130,000,000", 2)] {
            let r = initVault(weak)
            XCTAssertEqual(r.status, 3, "\(weak): \(r.all)")
            XCTAssertTrue(r.stderr.contains("it could be guessed in about \(tries) tries; add \(words) words picked at random"), "\(weak): \(r.stderr)")
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: s.vault))
    }

    /// zxcvbn rates "correct horse battery staple" at 70 bits, but everyone has read the comic: the fake's
    /// Pwned Passwords data has it 412 times. Only its SHA-1's first five hex characters were sent.
    func testAPassphraseSeenInBreachesIsRefusedWithItsCount() {
        let r = initVault(Sandbox.passphrase)
        XCTAssertEqual(r.status, 3, r.all)
        XCTAssertTrue(r.stderr.contains("pwnvault: error: the passphrase was seen 412 times in data breaches (Pwned Passwords)"), r.stderr)
        XCTAssertTrue(r.stderr.contains("pwnvault: hint: choose one that was never used anywhere; --weak-passphrase-ok uses it anyway"), r.stderr)
        XCTAssertEqual(rangeRequests, ["/range/ABF7A"], "SHA-1 ABF7AAD6438836DBE526AA231ABDE2D0EEF74D42: five characters")
        let headers = server.log().last?["headers"] as? [String: String] ?? [:]
        XCTAssertEqual(headers["add-padding"], "true")
        XCTAssertFalse(FileManager.default.fileExists(atPath: s.vault))
    }

    func testAStrongPassphraseIsAcceptedAfterOneLookup() {
        let r = initVault(Self.strong)
        XCTAssertEqual(r.status, 0, r.all)
        XCTAssertTrue(r.stdout.contains("created an empty vault"), r.stdout)
        XCTAssertFalse(r.stderr.contains("Pwned Passwords"), r.stderr)
        XCTAssertEqual(rangeRequests.count, 1)
        XCTAssertEqual(rangeRequests.first?.count, "/range/".count + 5)
    }

    func testWeakPassphraseOkSkipsBothChecksAndSendsNothing() {
        let r = initVault("password", ["--weak-passphrase-ok"])
        XCTAssertEqual(r.status, 0, r.all)
        XCTAssertTrue(FileManager.default.fileExists(atPath: s.vault))
        XCTAssertEqual(server.log().count, 0, "nothing is sent")
    }

    func testAFailedLookupDoesNotBlockAndSaysSoInOneLine() {
        // Nothing listens on the discard port: the connection is refused at once.
        let r = initVault(Self.strong, url: "http://127.0.0.1:9")
        XCTAssertEqual(r.status, 0, r.all)
        let lines = r.stderr.split(separator: "\n").filter { $0.contains("Pwned Passwords") }
        XCTAssertEqual(lines.count, 1, r.stderr)
        XCTAssertTrue(lines.first?.hasPrefix("pwnvault: the passphrase was not checked against Pwned Passwords (") ?? false, r.stderr)
    }

    func testPasswdRefusesPasswordAndKeepsTheOldPassphrase() {
        XCTAssertEqual(initVault(Self.strong).status, 0)
        let old = s.writeFile("old", Self.strong + "\n")
        let weak = s.writeFile("weak", "password\n")
        let env = ["PWNVAULT_PASSWORDS_URL": server.base]
        let refused = s.run(["passwd", "--passphrase-file", old, "--new-passphrase-file", weak], env: env)
        XCTAssertEqual(refused.status, 3, refused.all)
        XCTAssertTrue(refused.stderr.contains("the passphrase is too easy to guess: it is among the first few an attacker tries"), refused.stderr)
        XCTAssertEqual(s.run(["list"], env: ["PWNVAULT_PASSPHRASE_FILE": old]).status, 0, "the old passphrase still opens it")

        let seen = s.writeFile("seen", Sandbox.passphrase + "\n")
        let breached = s.run(["passwd", "--passphrase-file", old, "--new-passphrase-file", seen], env: env)
        XCTAssertEqual(breached.status, 3, breached.all)
        XCTAssertTrue(breached.stderr.contains("seen 412 times in data breaches"), breached.stderr)

        let strong = s.writeFile("strong", "glad tiny vessel orbit\n")
        let changed = s.run(["passwd", "--passphrase-file", old, "--new-passphrase-file", strong], env: env)
        XCTAssertEqual(changed.status, 0, changed.all)
        XCTAssertEqual(s.run(["list"], env: ["PWNVAULT_PASSPHRASE_FILE": strong]).status, 0)

        let forced = s.run(["passwd", "--weak-passphrase-ok", "--passphrase-file", strong, "--new-passphrase-file", weak], env: env)
        XCTAssertEqual(forced.status, 0, forced.all)
        XCTAssertEqual(s.run(["list"], env: ["PWNVAULT_PASSPHRASE_FILE": weak]).status, 0)
    }

    /// On a terminal, a refused passphrase is asked for again (three tries), like one that is too short.
    func testOnATerminalAWeakPassphraseIsAskedForAgain() {
        let r = s.runOnTerminal(["init", "--kdf", "interactive"],
                                steps: [("New passphrase", "qwertyuiop\n"), ("New passphrase", Self.strong + "\n"),
                                        ("Repeat it", Self.strong + "\n")],
                                env: ["PWNVAULT_PASSWORDS_URL": server.base], passphraseFromFile: false)
        XCTAssertEqual(r.status, 0, r.stdout)
        XCTAssertTrue(r.stdout.contains("too easy to guess"), r.stdout)
        XCTAssertFalse(r.stdout.contains(Self.strong), "no echo: \(r.stdout)")
        XCTAssertTrue(r.stdout.contains("created an empty vault"), r.stdout)
    }
}
