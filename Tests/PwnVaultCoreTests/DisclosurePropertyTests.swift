import TestSupport
import XCTest
@testable import PwnVaultCore

/// The disclosure gate over seeded random accounts and labels (issue 12): wherever accounts may not
/// appear (pipes, files, `--json`, share mode), no output of the gate holds the account, entered or
/// normalised, in any case; on a terminal, the mask never holds the whole account.
final class DisclosurePropertyTests: XCTestCase {
    private let gates = [("pipe", Disclosure(policy: DisplayPolicy(terminal: false))),
                         ("share", Disclosure(policy: DisplayPolicy(terminal: true, shareMode: true))),
                         ("pipe+share", Disclosure(policy: DisplayPolicy(terminal: false, shareMode: true)))]
    private let terminal = Disclosure(policy: DisplayPolicy(terminal: true))

    func testNoAccountStringPassesTheGate() throws {
        var g = SplitMix64(seed: 0xD15C_105E)
        var checked = 0
        while checked < 1500 {
            guard let parsed = try? AccountParser.parse(Self.randomAccount(using: &g)) else { continue }
            let id = Int.random(in: 1...99_999, using: &g)
            let account = Account(id: id, parsed: parsed, label: nil, addedAt: Date(timeIntervalSince1970: 0))
            var labelled = account
            labelled.label = Self.randomLabel(containing: [parsed.entered, parsed.normalized], using: &g)
            checked += 1
            // Strings shorter than 3 characters say nothing by themselves (`#12` holds "12").
            let secrets = Set([parsed.entered, parsed.normalized].map { $0.lowercased() }).filter { $0.count >= 3 }
            for (name, gate) in gates {
                for a in [account, labelled] {
                    let shown = [gate.account(a), gate.heading(a), gate.label(a) ?? ""].joined(separator: "\n").lowercased()
                    for secret in secrets {
                        XCTAssertFalse(shown.contains(secret), "\(name): account \(checked) (\(parsed.kind)) passed the gate: \(shown) holds \(secret)")
                    }
                    XCTAssertFalse(gate.account(a).contains("@"), "\(name): an address shape passed the gate")
                }
            }
            // On a terminal the account shows masked: never whole, and its label never spells it.
            let masked = terminal.account(labelled)
            for secret in secrets where secret.count >= 4 {
                XCTAssertFalse(masked.lowercased().contains(secret), "terminal: account \(checked) shows unmasked")
                XCTAssertFalse((terminal.label(labelled) ?? "").lowercased().contains(secret),
                               "terminal: a label spells account \(checked): \(terminal.label(labelled) ?? "") holds \(secret)")
            }
        }
    }

    // MARK: random accounts and labels

    static func randomAccount(using g: inout SplitMix64) -> String {
        let letters = Array("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-éøßÅ漢字ñü")
        func word(_ n: ClosedRange<Int>) -> String { String((0..<Int.random(in: n, using: &g)).map { _ in letters.randomElement(using: &g)! }) }
        func digits(_ n: ClosedRange<Int>) -> String { String((0..<Int.random(in: n, using: &g)).map { _ in "0123456789".randomElement(using: &g)! }) }
        switch Int.random(in: 0..<5, using: &g) {
        case 0: return word(1...30) + "@" + word(1...12) + "." + ["com", "org", "co.uk", "de", "example"].randomElement(using: &g)!
        case 1: return word(1...30) + "+" + word(1...8) + "@" + word(1...12) + ".com"
        case 2: return "+" + digits(7...15)
        case 3: return "(" + digits(3...3) + ") " + digits(3...3) + "-" + digits(4...4)
        default: return word(1...40)
        }
    }

    /// A label that may hold the account (as typed, upper-cased, normalised) among random words,
    /// other addresses and phone numbers, and characters that act on terminals.
    static func randomLabel(containing accounts: [String], using g: inout SplitMix64) -> String? {
        if Int.random(in: 0..<5, using: &g) == 0 { return nil }
        let pieces = ["Mum's", "work", "old", "✉", "\u{1B}[2J", "\t", "\u{202E}", "(mobile)", "–", "2024-01-15",
                      "other@example.net", "+44 7700 900123", "", " "]
        var words: [String] = []
        for _ in 0..<Int.random(in: 0...5, using: &g) { words.append(pieces.randomElement(using: &g)!) }
        for account in accounts where Bool.random(using: &g) {
            let form = [account, account.uppercased(), account.lowercased()].randomElement(using: &g)!
            words.insert(form, at: Int.random(in: 0...words.count, using: &g))
        }
        return words.joined(separator: Bool.random(using: &g) ? " " : "")
    }
}
