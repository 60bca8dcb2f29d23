import Foundation
import XCTest

/// Each command reads and checks its options before it does anything (issue 31's typed options): a
/// value or a combination it cannot run with is refused with two lines (the error, the usage hint) and
/// status 2, before the vault, the keyring, the passphrase, a file or the network is asked for anything.
final class OptionsFirstEndToEndTests: XCTestCase {
    /// (arguments, the error line's text). Run with no vault, no keyring, no API key and HIBP unreachable:
    /// any of those reached first would say something else (and, but for usage errors, another status).
    static let refused: [([String], String)] = [
        (["passwd", "--kdf", "fast"], "invalid value for '--kdf': expected interactive, moderate or sensitive"),
        (["passwd", "--new-passphrase-fd", "x"], "invalid value for '--new-passphrase-fd': not a file descriptor number"),
        (["domain", "--save"], "--save needs a DOMAIN"),
        (["reveal", "--timeout", "0"], "invalid value for '--timeout': a whole number of seconds from 1 to 3600"),
        (["import", "missing.vcf", "--region", "UK"],
         "invalid value for '--region': libphonenumber has no numbering plan for that region; give a country's ISO 3166 code (GB, not UK)"),
        (["check", "--all", "alice@example.com"], "--all checks the whole vault: give either --all or accounts, not both"),
        (["check", "alice@example.com", "--force"], "--force goes with --all"),
        (["check", "alice@example.com", "--pastes", "--k-anonymity=require"],
         "pastes and stealer logs are searched by the whole address, which --k-anonymity=require never sends"),
        (["watch", "--full-every", "0"], "invalid value for '--full-every': a whole number of days from 1 to 365"),
        (["ui", "--rpm", "0"], "invalid value for '--rpm': a whole number of requests per minute, 1 or more"),
        (["ack", "--all", "#1"], "--all acknowledges the whole vault: give either --all or one account"),
        (["add", "-", "alice@example.com"], "'-' (read from stdin) cannot be mixed with accounts as arguments"),
        (["list", "--status", "bogus"], "invalid value for '--status': expected breached, clean, new, unacknowledged, failed, never"),
        (["schedule", "status", "--every", "6h"], "--every goes with 'schedule enable' only"),
        (["completions", "--list", "ids", "#3"], "--list ids takes no account"),
    ]

    func testAUsageErrorComesBeforeTheVaultTheKeyringAndTheNetwork() throws {
        let s = try Sandbox(keyring: false)
        for (args, message) in Self.refused {
            let r = s.run(args, input: "")
            let shown = args.joined(separator: " ")
            XCTAssertEqual(r.status, 2, "\(shown): \(r.all)")
            XCTAssertEqual(r.stdout, "", shown)
            let lines = r.stderr.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            XCTAssertEqual(lines.count, 3, "\(shown): two lines and the final newline: \(r.stderr)")
            XCTAssertEqual(lines.first, "pwnvault: error: \(message)", shown)
            XCTAssertEqual(lines.dropFirst().first?.hasPrefix("pwnvault: hint: usage: pwnvault \(args[0])"), true, "\(shown): \(r.stderr)")
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: s.vault), "nothing was created")
    }
}
