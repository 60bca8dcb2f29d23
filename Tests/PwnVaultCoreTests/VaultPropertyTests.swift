import TestSupport
import XCTest
@testable import PwnVaultCore

/// Properties of the vault format over seeded random inputs (issue 12). Deterministic: a failure names
/// its seed and case, and the same seed reproduces it.
final class VaultPropertyTests: XCTestCase {
    /// One vault under a fixed key; each case seals another payload under its header (no Argon2id per case).
    private static let key = SecretBytes(copying: (0..<32).map { UInt8($0) &* 13 &+ 5 })
    private static let passphrase = "property passphrase"
    private static let created = try! VaultFile.create(passphrase: SecretBytes(copying: Array(passphrase.utf8)),
                                                        kdf: .interactive, payload: VaultPayload(), key: key,
                                                        salt: Array(repeating: 9, count: 16), vaultID: Array(repeating: 8, count: 16),
                                                        wrapNonce: Array(repeating: 7, count: 24), payloadNonce: Array(repeating: 6, count: 24))

    /// Save → open returns the same payload: 0, 1, 2 and random counts up to 60 accounts, then 10,000 once.
    func testSaveThenOpenReturnsTheSamePayloadForRandomPayloads() throws {
        var g = SplitMix64(seed: 0x5EA1_0FE2)
        let counts = [0, 1, 2] + (0..<37).map { _ in Int.random(in: 0...60, using: &g) }
        for (n, count) in counts.enumerated() {
            let payload = Self.randomPayload(accounts: count, using: &g)
            let file = try VaultFile.seal(payload, header: Self.created.header, key: Self.key)
            let opened = try VaultFile.open(file, key: Self.key)
            XCTAssertEqual(opened.payload, payload, "case \(n): \(count) accounts")
        }
    }

    func testSaveThenOpenReturnsTheSamePayloadForTenThousandAccounts() throws {
        var g = SplitMix64(seed: 10_000)
        let payload = Self.randomPayload(accounts: 10_000, using: &g)
        let file = try VaultFile.seal(payload, header: Self.created.header, key: Self.key)
        XCTAssertLessThanOrEqual(file.count, VaultStore.maximumSize)
        let opened = try VaultFile.open(file, key: Self.key)
        XCTAssertEqual(opened.payload.accounts.count, 10_000)
        XCTAssertEqual(opened.payload, payload)
    }

    /// Every single-bit change of a vault file is refused when it is opened with the key (all 34,496
    /// bits of a one-block file with random accounts and labels), and a sample of header bits is also
    /// refused on the passphrase path (each sample runs Argon2id).
    func testEverySingleBitChangeIsRefused() throws {
        var g = SplitMix64(seed: 0xB17_F11B)
        let payload = Self.randomPayload(accounts: 4, using: &g)
        let file = try VaultFile.seal(payload, header: Self.created.header, key: Self.key)
        XCTAssertEqual(file.count, VaultHeader.size + PayloadCodec.blockSize + Sodium.macBytes, "one block keeps the test fast")
        XCTAssertEqual(try VaultFile.open(file, key: Self.key).payload, payload)
        var accepted: [Int] = []
        var changed = file
        for bit in 0..<(file.count * 8) {
            changed[bit / 8] ^= 1 << (bit % 8)
            if (try? VaultFile.open(changed, key: Self.key)) != nil { accepted.append(bit) }
            changed[bit / 8] ^= 1 << (bit % 8)
        }
        XCTAssertEqual(accepted, [], "bits whose change was accepted (of \(file.count * 8))")

        // The passphrase path: salt, vault id, wrap nonce, wrapped key, payload nonce, length, MAC (the
        // Argon2id limits are left out: an in-bounds change would only make the sample slow).
        let passphrase = SecretBytes(copying: Array(Self.passphrase.utf8))
        let header = try VaultFile.readHeader(file)
        XCTAssertTrue(VaultFile.authenticates(header, key: try VaultFile.unwrapKey(header, passphrase: passphrase)))
        for _ in 0..<6 {
            let bit = Int.random(in: (VaultHeader.Layout.salt * 8)..<(VaultHeader.size * 8), using: &g)
            changed = file
            changed[bit / 8] ^= 1 << (bit % 8)
            let refused: Bool
            if let changedHeader = try? VaultFile.readHeader(changed),
               let key = try? VaultFile.unwrapKey(changedHeader, passphrase: passphrase) {
                refused = (try? VaultFile.open(changed, key: key)) == nil
            } else {
                refused = true
            }
            XCTAssertTrue(refused, "header bit \(bit) changed and the vault still opened with the passphrase")
        }
    }

    // MARK: random payloads

    /// Text from pools that stress the JSON writer and reader: quotes and backslashes, every C0
    /// control, DEL and C1, combining marks, bidi controls, CJK, astral emoji and ZWJ sequences, BOM,
    /// noncharacters, the last code point.
    static func randomText(_ length: ClosedRange<Int>, using g: inout SplitMix64) -> String {
        let pools: [[Unicode.Scalar]] = [
            Array("abcdefghijklmnopqrstuvwxyzABCXYZ0123456789 .-_+@".unicodeScalars),
            Array("\"\\/{}[]:,".unicodeScalars),
            (0...0x1F).map { Unicode.Scalar($0)! } + [Unicode.Scalar(0x7F)!, Unicode.Scalar(0x85)!, Unicode.Scalar(0x9B)!],
            Array("éøßñÅçü\u{0301}\u{0308}\u{200D}\u{202E}\u{2066}\u{FEFF}\u{FFFF}\u{FFFD}\u{10FFFF}".unicodeScalars),
            Array("漢字かなカナ한국어עבריתالعربية".unicodeScalars),
            Array("😀👩👧🏳️‍🌈🇬🇧🧑🏽‍💻".unicodeScalars),
        ]
        var scalars = String.UnicodeScalarView()
        for _ in 0..<Int.random(in: length, using: &g) {
            let pool = pools[Int.random(in: 0..<pools.count, using: &g)]
            scalars.append(pool[Int.random(in: 0..<pool.count, using: &g)])
        }
        return String(scalars)
    }

    /// A date with whole milliseconds in the years 0001-9999 (what §7's timestamps hold).
    static func randomDate(using g: inout SplitMix64) -> Date {
        let milliseconds = Int64.random(in: -62_135_596_800_000...253_402_300_799_999, using: &g)
        return Date(timeIntervalSince1970: Double(milliseconds) / 1000)
    }

    static func randomPayload(accounts count: Int, using g: inout SplitMix64) -> VaultPayload {
        var ids = Set<Int>()
        while ids.count < count { ids.insert(Int.random(in: 1...max(1, count * 3), using: &g)) }
        let accounts = ids.sorted().shuffled(using: &g).map { id -> Account in
            let kind = AccountKind.allCases.randomElement(using: &g)!
            let result: CheckResult
            switch Int.random(in: 0..<4, using: &g) {
            case 0: result = .neverChecked
            case 1: result = .answer(breaches: (0..<Int.random(in: 0...4, using: &g)).map { _ in randomText(1...12, using: &g) },
                                     pasteCount: Bool.random(using: &g) ? nil : Int.random(in: 0...Int.max, using: &g),
                                     at: randomDate(using: &g))
            case 2: result = .failure(randomText(0...30, using: &g), at: randomDate(using: &g))
            default: result = CheckResult.answer(breaches: ["Adobe"], pasteCount: 0, at: randomDate(using: &g))
                                .recording(.failure(randomText(0...30, using: &g), at: randomDate(using: &g)))
            }
            return Account(id: id, entered: randomText(0...40, using: &g), normalized: randomText(0...40, using: &g), kind: kind,
                           label: Bool.random(using: &g) ? nil : randomText(0...64, using: &g),
                           addedAt: randomDate(using: &g), result: result)
        }
        return VaultPayload(nextID: (ids.max() ?? 0) + Int.random(in: 1...1000, using: &g), accounts: accounts)
    }
}
