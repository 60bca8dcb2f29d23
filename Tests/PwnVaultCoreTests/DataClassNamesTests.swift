import Foundation
import TestSupport
import XCTest
@testable import PwnVaultCore

/// Issue 32: HIBP's data classes are shown in the reader's language from one table beside the catalog
/// code (`DataClassNames`); a class the table lacks is shown in English and listed here, never left
/// out silently.
final class DataClassNamesTests: XCTestCase {
    /// Every data class named by any catalog the fake server can serve (tools/fake-hibp/catalog*.json:
    /// their breaches and `otherDataClasses`), and the advice table's keys.
    func testEveryDataClassOfTheFakeServersCatalogsIsInTheTable() throws {
        let folder = PackageRoot.url.appendingPathComponent("tools/fake-hibp")
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.path)
            .filter { $0.hasPrefix("catalog") && $0.hasSuffix(".json") }.sorted()
        XCTAssertFalse(files.isEmpty, "no catalog in \(folder.path)")
        var classes: [String: String] = [:]   // class → the first file naming it
        for file in files {
            let object = try JSONSerialization.jsonObject(with: Data(contentsOf: folder.appendingPathComponent(file)))
            let breaches = (object as? [[String: Any]]) ?? ((object as? [String: Any])?["breaches"] as? [[String: Any]]) ?? []
            var names = breaches.flatMap { $0["DataClasses"] as? [String] ?? [] }
            names += (object as? [String: Any])?["otherDataClasses"] as? [String] ?? []
            for name in names where classes[name] == nil { classes[name] = file }
        }
        XCTAssertGreaterThan(classes.count, 20, "the catalogs were read: \(classes.keys.sorted())")
        let missing = classes.keys.filter { !DataClassNames.contains($0) }.sorted()
        XCTAssertEqual(missing, [], "data classes shown in English, to add to DataClassNames (with their translation): "
                       + missing.map { "\($0) (\(classes[$0]!))" }.joined(separator: ", "))
        for key in BreachAdvice.table.flatMap(\.classes) {
            XCTAssertTrue(DataClassNames.contains(key), "the advice table's \(key) is not in DataClassNames")
        }
    }

    /// The table holds HIBP's real catalog's classes (about 150 at the end of 2026), each once.
    func testTheTableIsWholeAndHasNoTwins() {
        XCTAssertGreaterThanOrEqual(DataClassNames.known.count, 150)
        XCTAssertEqual(Set(DataClassNames.known.map { $0.lowercased() }).count, DataClassNames.known.count)
    }

    /// Any casing finds the entry; a class the table lacks is shown as HIBP wrote it, on one line.
    func testAnUnknownClassIsShownAsWrittenAndCleaned() {
        XCTAssertTrue(DataClassNames.contains("EMAIL ADDRESSES"))
        XCTAssertEqual(DataClassNames.shown("email addresses"), "Email addresses")
        XCTAssertEqual(DataClassNames.shown("Quantum\u{1B}[31m states\n"), Sanitizer.singleLine("Quantum\u{1B}[31m states\n"))
        XCTAssertEqual(DataClassNames.list(["Passwords", "Names"]), "Passwords, Names")
    }
}
