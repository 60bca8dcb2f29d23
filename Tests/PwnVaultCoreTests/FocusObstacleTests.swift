import XCTest
@testable import PwnVaultCore

/// What is known, from the environment alone, to keep focus changes from reaching the private screen.
final class FocusObstacleTests: XCTestCase {
    func testTmuxIsAskedAndOnlyItsOffCounts() {
        var asked: [[String]] = []
        func tmux(_ answer: String?) -> ([String], [String: String]) -> String? {
            { arguments, _ in asked.append(arguments); return answer }
        }
        let inTmux = ["TMUX": "/tmp/tmux-1000/default,1,0"]
        XCTAssertEqual(FocusObstacle.detect(environment: inTmux, runCommand: tmux("off\n"))?.fix,
                       "add 'set -g focus-events on' to ~/.tmux.conf, then run: tmux source-file ~/.tmux.conf")
        XCTAssertEqual(FocusObstacle.detect(environment: inTmux, runCommand: tmux("off\n"))?.tmuxServer, "/tmp/tmux-1000/default,1",
                       "the server (socket and pid), whatever the session")
        XCTAssertEqual(asked.last, ["tmux", "show-options", "-gv", "focus-events"])
        XCTAssertNil(FocusObstacle.detect(environment: inTmux, runCommand: tmux("on\n")))
        XCTAssertNil(FocusObstacle.detect(environment: inTmux, runCommand: tmux(nil)), "a failing helper tells nothing")
        asked = []
        XCTAssertNil(FocusObstacle.detect(environment: [:], runCommand: tmux("off")))
        XCTAssertEqual(asked, [], "tmux is asked only inside tmux")
    }

    func testGnuScreenNeverPassesFocusOn() {
        let obstacle = FocusObstacle.detect(environment: ["STY": "1234.pts-0.host"], runCommand: { _, _ in nil })
        XCTAssertEqual(obstacle?.reason, "GNU screen does not pass focus changes on")
    }

    func testTheTrackerTakesReportsAndAnswersOnly() {
        var tracker = FocusTracker()
        XCTAssertTrue(tracker.take(.modeReport(mode: 1004, setting: 2)))
        XCTAssertEqual(tracker.reporting, .notReported)
        XCTAssertTrue(tracker.take(.focusOut))
        XCTAssertEqual(tracker.reporting, .reported, "a report proves it, whatever the answer said")
        XCTAssertFalse(tracker.focused)
        XCTAssertFalse(tracker.take(.byte(0x61)))
        XCTAssertTrue(tracker.take(.deviceAttributes))
        XCTAssertTrue(tracker.deviceAttributesSeen)
    }
}
