@testable import PwnVaultCLI
import PwnVaultCore
import XCTest

/// The wording of look-alike warnings: ids and script names, never account text.
final class LookalikeWarningTests: XCTestCase {
    func m(_ id: Int, _ scripts: [String]) -> Lookalike.Match { Lookalike.Match(id: id, scripts: scripts) }

    func testEachKindOfFinding() {
        XCTAssertEqual(AccountAdder.warning(Lookalike(id: 4, scripts: ["Latin", "Cyrillic"], mixedScripts: ["Latin", "Cyrillic"],
                                                      resembles: [m(1, ["Latin"])])),
                       "#4 looks like #1 (mixed scripts: Latin and Cyrillic)")
        XCTAssertEqual(AccountAdder.warning(Lookalike(id: 5, scripts: ["Cyrillic"], mixedScripts: [],
                                                      resembles: [m(1, ["Latin"]), m(2, ["Latin"])])),
                       "#5 looks like #1 and #2 (written in Cyrillic, #1 and #2 in Latin)")
        XCTAssertEqual(AccountAdder.warning(Lookalike(id: 6, scripts: ["Latin"], mixedScripts: [], resembles: [m(1, ["Latin"])])),
                       "#6 looks like #1 (characters that look alike)")
        XCTAssertEqual(AccountAdder.warning(Lookalike(id: 7, scripts: ["Latin", "Greek", "Cyrillic"],
                                                      mixedScripts: ["Latin", "Greek", "Cyrillic"], resembles: [])),
                       "#7 mixes scripts in one part (Latin, Greek and Cyrillic); it can be mistaken for another account")
    }
}
