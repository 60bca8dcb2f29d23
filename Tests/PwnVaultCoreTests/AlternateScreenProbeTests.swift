@testable import PwnVaultCore
import XCTest

/// Reading the terminal's answers to the alternate-screen question (the real GNU screen is in
/// UIPrivateMomentsEndToEndTests).
final class AlternateScreenProbeTests: XCTestCase {
    func testCursorPositionReportsAreFoundAmongOtherBytes() {
        let bytes = Array("x\u{1B}[4;1R\u{1B}[O\u{1B}[12;80R\u{1B}[?1;2c\u{1B}[2;2R\u{1B}[;R".utf8)
        let found = AlternateScreenProbe.cursorPositions(in: bytes)
        XCTAssertEqual(found.map(\.row), [4, 12, 2])
        XCTAssertEqual(found.map(\.column), [1, 80, 2])
    }

    func testTheVerdicts() {
        // Both moves undone by leaving the alternate screen: it works (what screen says with altscreen on).
        XCTAssertEqual(AlternateScreenProbe.judge([(4, 1), (4, 1), (4, 1)]), .works)
        // Both moves stayed: the sequence was ignored (screen with altscreen off, seen for real).
        XCTAssertEqual(AlternateScreenProbe.judge([(4, 1), (1, 1), (2, 2)]), .ignored)
        // Starting at the home position cannot hide an ignored sequence: the second move still shows.
        XCTAssertEqual(AlternateScreenProbe.judge([(1, 1), (1, 1), (2, 2)]), .ignored)
        XCTAssertEqual(AlternateScreenProbe.judge([(1, 1), (1, 1), (1, 1)]), .works)
        // Too few answers, or answers that fit neither: not proven.
        XCTAssertEqual(AlternateScreenProbe.judge([(4, 1)]), .unknown)
        XCTAssertEqual(AlternateScreenProbe.judge([(4, 1), (4, 1), (2, 2)]), .unknown)
    }

    func testOutsideGNUScreenNothingIsAsked() {
        XCTAssertNil(AlternateScreenProbe.underGNUScreen(environment: ["TMUX": "/tmp/x"]))
        XCTAssertNil(AlternateScreenProbe.underGNUScreen(environment: ["STY": ""]))
    }
}
