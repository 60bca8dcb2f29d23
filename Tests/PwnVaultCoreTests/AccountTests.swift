@testable import PwnVaultCore
import XCTest

final class AccountTests: XCTestCase {
    /// The vault compares stored accounts by `Account.dedupKey` without parsing them again: it must agree
    /// with what the parser says for the same input.
    func testStoredDedupKeyAgreesWithTheParser() throws {
        for raw in ["Alice@Example.COM", "  bob_THE_builder ", "+44 7700 900123", "ÉLODIE@exemple.fr", "Zoë.Smith"] {
            let parsed = try AccountParser.parse(raw)
            let stored = Account(id: 1, entered: parsed.entered, normalized: parsed.normalized, kind: parsed.kind,
                                 label: nil, addedAt: Date())
            XCTAssertEqual(stored.dedupKey, parsed.dedupKey, raw)
        }
    }
}
