import Foundation
import XCTest

/// `ack` is no oracle (issue 21, item 1): without the passphrase, every answer to a sensitive breach's
/// name is byte for byte the same whether or not the account is in that breach, in every output
/// mode; with the passphrase, acknowledging works and says so. The typed name is never repeated.
final class AckOracleEndToEndTests: XCTestCase {
    var server: FakeHIBP!
    var s: Sandbox!
    /// The vault file where #1 is in every sensitive breach of the catalog, and where #1 is in none.
    var inVault = Data(), outVault = Data()

    /// Every sensitive breach of the fake server's catalog, name and title.
    static let sensitive: [(name: String, title: String)] = {
        let url = Paths.root.appendingPathComponent("tools/fake-hibp/catalog.json")
        let catalog = (try? JSONSerialization.jsonObject(with: Data(contentsOf: url))) as? [String: Any]
        let breaches = catalog?["breaches"] as? [[String: Any]] ?? []
        return breaches.filter { $0["IsSensitive"] as? Bool == true }
            .compactMap { b in (b["Name"] as? String).map { ($0, b["Title"] as? String ?? $0) } }
    }()

    enum Mode: String, CaseIterable { case pipe, json, pipeShare, terminal, share }

    override func setUpWithError() throws {
        XCTAssertGreaterThan(Self.sensitive.count, 0, "the catalog has sensitive breaches")
        let names = Self.sensitive.map { "\"\($0.name)\"" }.joined(separator: ", ")
        server = try FakeHIBP(fixtures: """
        {"accounts": {"in.person@example.com": {"breaches": [\(names), "Adobe"], "ownerVerified": true},
                      "out.person@example.com": {"breaches": ["Adobe"], "ownerVerified": true}}}
        """)
        s = try Sandbox(inProcess: true, keyring: false)
        s.use(server)
        // The same vault path twice: #1 in every sensitive breach, then #1 in none of them.
        inVault = try vault(with: "in.person@example.com")
        outVault = try vault(with: "out.person@example.com")
    }

    override func tearDown() { server = nil; s = nil }

    private func vault(with account: String) throws -> Data {
        try? FileManager.default.removeItem(atPath: (s.vault as NSString).deletingLastPathComponent)
        s.initVault()
        XCTAssertEqual(s.run(["add", account]).status, 0)
        let checked = s.run(["check", "--all"])
        XCTAssertEqual(checked.status, 1, checked.all)
        return try Data(contentsOf: URL(fileURLWithPath: s.vault))
    }

    private func install(_ data: Data) throws {
        try data.write(to: URL(fileURLWithPath: s.vault))
    }

    private func run(_ args: [String], _ mode: Mode) -> RunResult {
        switch mode {
        case .pipe: return s.run(args)
        case .json: return s.run(args + ["--json"])
        case .pipeShare: return s.run(args + ["--share"])
        // Asked for the passphrase on a terminal, the person gives up (Ctrl-C).
        case .terminal: return s.runOnTerminal(args, steps: [("Passphrase for", "\\x03")], timeout: 20)
        case .share: return s.runOnTerminal(args + ["--share"], steps: [("Passphrase for", "\\x03")], timeout: 20)
        }
    }

    func testWithoutThePassphraseEveryAnswerIsTheSameInAndNotInEverySensitiveBreach() throws {
        var runs = 0
        for breach in Self.sensitive {
            for typed in [breach.name, breach.name.lowercased(), breach.title] {
                for mode in Mode.allCases {
                    try install(inVault)
                    let inside = run(["ack", "#1", typed], mode)
                    try install(outVault)
                    let outside = run(["ack", "#1", typed], mode)
                    let what = "ack #1 \(typed) [\(mode.rawValue)]"
                    XCTAssertEqual(inside.status, outside.status, "\(what): \(inside.all) / \(outside.all)")
                    XCTAssertEqual(inside.stdout, outside.stdout, what)
                    XCTAssertEqual(inside.stderr, outside.stderr, what)
                    XCTAssertNotEqual(inside.status, 0, "\(what) acknowledged without the passphrase: \(inside.all)")
                    for text in [breach.name, breach.title] {
                        XCTAssertNil(inside.all.range(of: text, options: .caseInsensitive), "\(what) repeated the name: \(inside.all)")
                    }
                    runs += 1
                }
            }
            // Nothing was acknowledged: the vault is as it was.
            XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: s.vault)), outVault)
        }
        XCTAssertGreaterThanOrEqual(runs, 3 * 3 * Mode.allCases.count)
    }

    func testPipedWithoutThePassphraseSaysWhatItNeeds() throws {
        try install(inVault)
        let r = s.run(["ack", "#1", Self.sensitive[0].name])
        XCTAssertEqual(r.status, 3, r.all)
        XCTAssertEqual(r.stdout, "")
        XCTAssertTrue(r.stderr.contains("acknowledged by name only with the passphrase"), r.stderr)
        XCTAssertTrue(r.stderr.contains("hint: pass --passphrase-file PATH"), r.stderr)
        // A breach that is not sensitive is public: it needs no passphrase.
        XCTAssertEqual(s.run(["ack", "#1", "Adobe"]).stdout, "#1: acknowledged 1 finding\n")
    }

    func testWithThePassphraseAcknowledgingWorksAndSaysSo() throws {
        let file = ["--passphrase-file", s.passphraseFile]
        for breach in Self.sensitive {
            try install(inVault)
            let acked = s.run(["ack", "#1", breach.name] + file)
            XCTAssertEqual(acked.status, 0, acked.all)
            XCTAssertEqual(acked.stdout, "#1: acknowledged 1 finding\n")
            let again = s.run(["ack", "#1", breach.name.uppercased()] + file)
            XCTAssertEqual(again.status, 0, again.all)
            XCTAssertEqual(again.stdout, "nothing to acknowledge for #1\n")
            // By title, as 'show' and 'breach' print it.
            try install(inVault)
            let byTitle = s.run(["ack", "#1", breach.title, "--json"] + file)
            XCTAssertEqual(byTitle.status, 0, byTitle.all)
            let report = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(byTitle.stdout.utf8)) as? [String: Any])
            XCTAssertEqual(report["acknowledged"] as? Int, 1)
            XCTAssertNil(byTitle.all.range(of: breach.name, options: .caseInsensitive), byTitle.all)

            // Not in it: said, by position, never by the name typed.
            try install(outVault)
            let absent = s.run(["ack", "#1", breach.title] + file)
            XCTAssertEqual(absent.status, 2, absent.all)
            XCTAssertTrue(absent.stderr.contains("#1 was never found in the breach named by argument 2; nothing was acknowledged"), absent.stderr)
            XCTAssertNil(absent.all.range(of: breach.title, options: .caseInsensitive), absent.all)
            XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: s.vault)), outVault)
        }
        // Typed at the terminal's prompt, as reveal asks for it.
        try install(inVault)
        let typed = s.runOnTerminal(["ack", "#1", Self.sensitive[0].title],
                                    steps: [("Passphrase for", Sandbox.passphrase + "\\n")], timeout: 30)
        XCTAssertEqual(typed.status, 0, typed.all)
        XCTAssertTrue(typed.stdout.contains("#1: acknowledged 1 finding"), typed.stdout)
        XCTAssertFalse(typed.stdout.contains(Sandbox.passphrase), "the passphrase is not echoed")
    }

    func testBreachNeverRepeatsWhatWasTyped() throws {
        let r = s.run(["breach", "VelvetRendezvoux"])
        XCTAssertEqual(r.status, 2, r.all)
        XCTAssertTrue(r.stderr.contains("no breach by that name or title in the catalog"), r.stderr)
        XCTAssertFalse(r.stderr.contains("VelvetRendezvoux"), r.stderr)
    }
}
