import Foundation
@testable import PwnVaultCore
import TestSupport
import XCTest

/// DesktopNotifier against a real notification server on the private session bus
/// (Tests/Support/notification-server.py, which records each Notify call exactly as received), and
/// against buses and servers that are missing or never answer.
final class DesktopNotifierTests: XCTestCase {
    private func elapsed(_ body: () -> NotificationOutcome) -> (NotificationOutcome, Double) {
        let start = Date()
        let outcome = body()
        return (outcome, Date().timeIntervalSince(start))
    }

    func testTheServerReceivesExactlyTheNotificationAndNothingMore() throws {
        let server = try NotificationServer(markup: false)
        defer { server.stop() }
        let n = DesktopNotification(summary: "pwnvault: new breach", body: "Dad (#2): Adobe\n1 sensitive breach")
        XCTAssertEqual(DesktopNotifier().send(n), .sent(id: 1))
        XCTAssertEqual(DesktopNotifier().send(n), .sent(id: 2), "a second notification gets its own id")

        let recorded = server.notifications()
        XCTAssertEqual(recorded.count, 2, server.recording())
        let first = try XCTUnwrap(recorded.first)
        XCTAssertEqual(first["app_name"] as? String, "pwnvault")
        XCTAssertEqual(first["replaces_id"] as? Int, 0)
        XCTAssertEqual(first["app_icon"] as? String, "", "no icon path: it could name a folder")
        XCTAssertEqual(first["summary"] as? String, "pwnvault: new breach")
        XCTAssertEqual(first["body"] as? String, "Dad (#2): Adobe\n1 sensitive breach")
        XCTAssertEqual(first["actions"] as? [String], [])
        XCTAssertEqual(first["hints"] as? [String: Int], ["urgency": 1], "the urgency hint (normal) and nothing else")
        XCTAssertEqual(first["expire_timeout"] as? Int, 10_000)
        XCTAssertEqual(Set(first.keys), ["app_name", "replaces_id", "app_icon", "summary", "body", "actions", "hints",
                                         "expire_timeout", "id"])
    }

    func testTheExpiryCanBeLeftToTheServer() throws {
        let server = try NotificationServer()
        defer { server.stop() }
        XCTAssertEqual(DesktopNotifier(expiry: nil).send(DesktopNotification(summary: "s", body: "b")), .sent(id: 1))
        XCTAssertEqual(server.notifications().first?["expire_timeout"] as? Int, -1)
    }

    func testAServerThatInterpretsMarkupGetsTheBodyEscapedSoItShowsThePlainText() throws {
        let server = try NotificationServer(markup: true)
        defer { server.stop() }
        let body = #"Tom & Jerry <b>bold</b> <a href="https://evil.example/">link</a> <img src="/etc/passwd"/> &amp;"#
        XCTAssertEqual(DesktopNotifier().send(DesktopNotification(summary: "A <i>summary</i> & more", body: body)), .sent(id: 1))
        let first = try XCTUnwrap(server.notifications().first, server.recording())
        XCTAssertEqual(first["body"] as? String,
                       #"Tom &amp; Jerry &lt;b&gt;bold&lt;/b&gt; &lt;a href="https://evil.example/"&gt;link&lt;/a&gt; &lt;img src="/etc/passwd"/&gt; &amp;amp;"#)
        // The summary is plain text by the spec: never interpreted, so sent as it is.
        XCTAssertEqual(first["summary"] as? String, "A <i>summary</i> & more")
    }

    func testAServerWithoutMarkupGetsThePlainBody() throws {
        let server = try NotificationServer(markup: false)
        defer { server.stop() }
        let body = "Tom & Jerry <b>bold</b> &amp; ünïcödé •••"
        XCTAssertEqual(DesktopNotifier().send(DesktopNotification(summary: "s", body: body)), .sent(id: 1))
        XCTAssertEqual(server.notifications().first?["body"] as? String, body)
    }

    func testNoNotificationServiceOnTheBusIsUnavailableAtOnce() throws {
        guard ProcessInfo.processInfo.environment["PWNVAULT_KEYRING_SESSION"] != nil else {
            throw XCTSkip("needs the private session bus of Tests/Support/keyring-session.sh")
        }
        NotificationServer.waitUntilNameIsFree()
        XCTAssertFalse(NotificationServer.nameHasOwner())
        let (outcome, seconds) = elapsed { DesktopNotifier().send(DesktopNotification(summary: "s", body: "b")) }
        XCTAssertEqual(outcome, .unavailable(reason: "no notification service on the session bus"))
        XCTAssertLessThan(seconds, 0.5)
    }

    func testNoBusIsUnavailableAtOnce() throws {
        let missing = NSTemporaryDirectory() + "no-such-bus-\(UUID().uuidString)"
        let (outcome, seconds) = elapsed {
            DesktopNotifier(busAddress: "unix:path=\(missing)").send(DesktopNotification(summary: "s", body: "b"))
        }
        guard case let .unavailable(reason) = outcome else { return XCTFail("sent without a bus: \(outcome)") }
        XCTAssertTrue(reason.hasPrefix("no D-Bus session bus ("), reason)
        XCTAssertFalse(reason.contains("\n"), reason)
        XCTAssertLessThan(seconds, 0.5)
    }

    func testAServerThatNeverAnswersIsUnavailableWithinTheTimeout() throws {
        let server = try NotificationServer()
        defer { server.stop() }
        server.freeze()
        let (outcome, seconds) = elapsed {
            DesktopNotifier(timeout: .milliseconds(800)).send(DesktopNotification(summary: "s", body: "b"))
        }
        XCTAssertEqual(outcome, .unavailable(reason: "the notification service did not answer in time"))
        XCTAssertGreaterThanOrEqual(seconds, 0.75)
        XCTAssertLessThan(seconds, 1.6, "the deadline is kept")
        XCTAssertEqual(server.notifications().count, 0)
    }

    /// A bus socket that accepts connections but never speaks (a wedged dbus-daemon): the
    /// authentication handshake itself must give up at the deadline.
    func testABusThatNeverAnswersIsUnavailableWithinTheTimeout() throws {
        let dir = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("mute-bus-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("bus").path
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        XCTAssertGreaterThanOrEqual(fd, 0)
        defer { close(fd) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (i, byte) in path.utf8.prefix(raw.count - 1).enumerated() { raw[i] = byte }
        }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        XCTAssertEqual(bound, 0)
        XCTAssertEqual(listen(fd, 8), 0)   // never accepted: connect succeeds, nothing is ever said

        let (outcome, seconds) = elapsed {
            DesktopNotifier(busAddress: "unix:path=\(path)", timeout: .milliseconds(800))
                .send(DesktopNotification(summary: "s", body: "b"))
        }
        XCTAssertEqual(outcome, .unavailable(reason: "the notification service did not answer in time"))
        XCTAssertGreaterThanOrEqual(seconds, 0.75)
        XCTAssertLessThan(seconds, 1.6)
    }

    func testMarkupEscapingTouchesOnlyTheThreeSpecialCharacters() {
        XCTAssertEqual(NotificationMarkup.escaped(#"a&b<c>d"e'f •••"#), #"a&amp;b&lt;c&gt;d"e'f •••"#)
        XCTAssertEqual(NotificationMarkup.escaped(""), "")
    }

    func testReasonsAreOneShortLine() {
        let long = String(repeating: "x", count: 300) + "\n\u{1B}[31mred."
        for status in Int32(-6)...Int32(-1) {
            let reason = DesktopNotifier.reason(status: status, message: long)
            XCTAssertFalse(reason.contains("\n") || reason.contains("\u{1B}"), reason)
            XCTAssertLessThan(reason.count, 170, reason)
        }
    }
}
