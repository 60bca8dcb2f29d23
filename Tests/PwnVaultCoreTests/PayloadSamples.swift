import Foundation
@testable import PwnVaultCore

/// Random payloads for the codec's property tests, drawn from a seeded generator so that a failure
/// can be replayed. The text is hostile on purpose: quotes, backslashes, slashes, every control
/// character, DEL, combining marks (and both normal forms of the same letter), emoji sequences,
/// U+2028/U+2029, a byte-order mark, non-characters, private use and the last scalar.
enum PayloadSamples {
    private static let specials: [Unicode.Scalar] = [
        "\"", "\\", "/", "\u{7F}", "\u{85}", "\u{A0}", "\u{AD}", "\u{2028}", "\u{2029}", "\u{200D}", "\u{FE0F}",
        "\u{FEFF}", "\u{FFFD}", "\u{FFFE}", "\u{FFFF}", "\u{E000}", "\u{10FFFF}", "\u{1F3FB}", "é", "\u{0301}",
    ]

    /// Text of up to `maxLength` scalars.
    static func text<G: RandomNumberGenerator>(maxLength: Int = 24, using g: inout G) -> String {
        var text = String.UnicodeScalarView()
        for _ in 0..<Int.random(in: 0...maxLength, using: &g) {
            let scalar: UInt32
            switch Int.random(in: 0..<10, using: &g) {
            case 0...3: scalar = UInt32.random(in: 0x20...0x7E, using: &g)
            case 4: scalar = UInt32.random(in: 0x00...0x1F, using: &g)
            case 5: text.append(specials.randomElement(using: &g)!); continue
            case 6: scalar = UInt32.random(in: 0x0300...0x036F, using: &g)   // combining marks
            case 7: scalar = UInt32.random(in: 0x00C0...0x07FF, using: &g)   // Latin, Greek, Cyrillic, Hebrew, Arabic
            case 8: scalar = UInt32.random(in: 0x4E00...0x9FFF, using: &g)   // CJK
            default: scalar = UInt32.random(in: 0x1F300...0x1FAFF, using: &g) // emoji
            }
            text.append(Unicode.Scalar(scalar)!)
        }
        return String(text)
    }

    /// A date on a whole millisecond in the years 0001–9999, often near the edges.
    static func date<G: RandomNumberGenerator>(using g: inout G) -> Date {
        let earliest: Int64 = -62_135_596_800_000, latest: Int64 = 253_402_300_799_999
        let milliseconds: Int64
        switch Int.random(in: 0..<8, using: &g) {
        case 0: milliseconds = [earliest, latest, 0, -1, 1].randomElement(using: &g)!
        case 1: milliseconds = Int64.random(in: -10_000...10_000, using: &g)
        case 2...4: milliseconds = Int64.random(in: 1_500_000_000_000...1_800_000_000_000, using: &g)
        default: milliseconds = Int64.random(in: earliest...latest, using: &g)
        }
        return Date(timeIntervalSince1970: Double(milliseconds) / 1000)
    }

    /// A valid schema-1 payload of `count` accounts (ids unique, below `nextID`, in random order).
    static func payload<G: RandomNumberGenerator>(accounts count: Int, using g: inout G) -> VaultPayload {
        let nextID: Int
        switch Int.random(in: 0..<4, using: &g) {
        case 0: nextID = Int.max
        case 1: nextID = Int.random(in: (count + 1)...Int.max, using: &g)
        default: nextID = count + 1 + Int.random(in: 0...50, using: &g)
        }
        var ids = Set<Int>()
        while ids.count < count {
            ids.insert(Bool.random(using: &g) ? Int.random(in: 1..<nextID, using: &g)
                                               : Int.random(in: 1..<min(nextID, count + 60), using: &g))
        }
        let accounts = ids.shuffled(using: &g).map { id in
            Account(id: id, entered: text(using: &g), normalized: text(using: &g),
                    kind: AccountKind.allCases.randomElement(using: &g)!,
                    label: Bool.random(using: &g) ? text(using: &g) : nil,
                    addedAt: date(using: &g), result: result(using: &g), findings: findings(using: &g))
        }
        let monitor: MonitorState? = Bool.random(using: &g) ? nil : MonitorState(
            lastFullCheck: Bool.random(using: &g) ? date(using: &g) : nil,
            catalogMark: Bool.random(using: &g) ? text(using: &g) : nil,
            forceRunStartedAt: date(using: &g))
        return VaultPayload(schema: 1, nextID: nextID, accounts: accounts, monitor: monitor)
    }

    private static func findings<G: RandomNumberGenerator>(using g: inout G) -> [Finding] {
        (0..<Int.random(in: 0...3, using: &g)).map { _ in
            Finding(kind: FindingKind.allCases.randomElement(using: &g)!, key: text(maxLength: 12, using: &g),
                    firstSeen: date(using: &g), acknowledgedAt: Bool.random(using: &g) ? date(using: &g) : nil,
                    unannounced: Bool.random(using: &g), unlistedSince: Bool.random(using: &g) ? date(using: &g) : nil)
        }
    }

    private static func result<G: RandomNumberGenerator>(using g: inout G) -> CheckResult {
        let statuses: [CheckStatus] = [.neverChecked, .clean, .breached, .error]
        let pasteCount: Int?
        switch Int.random(in: 0..<4, using: &g) {
        case 0: pasteCount = nil
        case 1: pasteCount = Int.random(in: 0...Int.max, using: &g)
        default: pasteCount = Int.random(in: 0...20, using: &g)
        }
        let status = statuses.randomElement(using: &g)!
        // `.error` always has its failure: without one, a reader migrates it as a first-model result (§7.4).
        let failure = status == .error || Bool.random(using: &g) ? CheckFailure(at: date(using: &g), message: text(using: &g)) : nil
        return CheckResult(status: status,
                           checkedAt: Bool.random(using: &g) ? date(using: &g) : nil,
                           breaches: (0..<Int.random(in: 0...4, using: &g)).map { _ in text(maxLength: 12, using: &g) },
                           pasteCount: pasteCount,
                           lastFailure: failure)
    }
}

extension VaultPayload {
    /// The payload without the unknown members its reader kept, at every level: what a reader that
    /// drops them (Foundation's decoder) sees.
    var withoutUnknownMembers: VaultPayload {
        var copy = self
        copy.unknownMembers = UnknownJSONMembers()
        for i in copy.accounts.indices {
            copy.accounts[i].unknownMembers = UnknownJSONMembers()
            copy.accounts[i].result.unknownMembers = UnknownJSONMembers()
        }
        return copy
    }
}
