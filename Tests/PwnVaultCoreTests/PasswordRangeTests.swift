import Foundation
import XCTest
@testable import PwnVaultCore

/// Reading range answers, and what the Pwned Passwords client sends.
final class PasswordRangeTests: XCTestCase {
    /// Answers every request with one body and records the requests.
    /// Unchecked: each test sends its requests one after another (awaited), never two at once.
    final class RangeServer: HTTPTransport, @unchecked Sendable {
        let status: Int
        let body: String
        private(set) var requests: [HTTPRequest] = []
        init(status: Int = 200, body: String) { self.status = status; self.body = body }
        func send(_ request: HTTPRequest) async throws -> HTTPResponse {
            requests.append(request)
            return HTTPResponse(status: status, body: Data(body.utf8))
        }
    }

    private func hash(_ password: String) -> PasswordHash { PasswordHash(password: SecretBytes(copying: Array(password.utf8))) }
    private func suffix(_ hash: PasswordHash) -> String { hash.withHex { String(decoding: $0.dropFirst(5), as: UTF8.self) } }

    /// A plausible range: `others` filler lines and, when given, the line for `password` with `count`.
    private func body(for password: String, count: Int?, others: Int = 40, separator: String = "\r\n") -> String {
        var lines = (0..<others).map { i in
            "\(hash("filler-\(i)").withHex { String(decoding: $0.dropFirst(5), as: UTF8.self) }):\(i + 1)"
        }
        if let count { lines.append("\(suffix(hash(password))):\(count)") }
        return lines.sorted().joined(separator: separator)
    }

    private func seen(_ password: String, _ body: String) throws -> Int {
        try PasswordRange.timesSeen(hash(password), in: Data(body.utf8))
    }

    func testFindsTheCountOfThePasswordsSuffix() throws {
        XCTAssertEqual(try seen("hunter2", body(for: "hunter2", count: 34_912)), 34_912)
        XCTAssertEqual(try seen("hunter2", body(for: "hunter2", count: nil)), 0)
        XCTAssertEqual(try seen("hunter2", body(for: "hunter2", count: 7, separator: "\n")), 7)
        XCTAssertEqual(try seen("hunter2", body(for: "hunter2", count: 7).lowercased()), 7, "hex case does not matter")
        XCTAssertEqual(try seen("hunter2", body(for: "hunter2", count: 7) + "\r\n"), 7, "a final line ending is fine")
    }

    func testPaddingLinesWithACountOfZeroAreIgnored() throws {
        XCTAssertEqual(try seen("hunter2", body(for: "hunter2", count: 0)), 0)
    }

    func testAnswersNotInTheFormatAreRefused() {
        let good = body(for: "hunter2", count: 3)
        let broken = [good + "\r\n<html>oops</html>",
                      good.replacingOccurrences(of: ":", with: ";"),
                      good + "\r\n" + String(repeating: "A", count: 34) + ":5",
                      good + "\r\n" + String(repeating: "G", count: 35) + ":5",
                      good + "\r\n" + String(repeating: "A", count: 35) + ":",
                      good + "\r\n" + String(repeating: "A", count: 35) + ":-5",
                      good + "\r\n" + String(repeating: "A", count: 35) + ":" + String(repeating: "9", count: 19)]
        for text in broken {
            XCTAssertThrowsError(try seen("hunter2", text)) { XCTAssertEqual($0 as? HIBPError, .malformedBody) }
        }
    }

    func testTheClientSendsOnlyTheFivePrefixCharactersAndAsksForPadding() async throws {
        let server = RangeServer(body: body(for: "letmein", count: 1_052_154))
        let client = PwnedPasswordsClient(baseURL: URL(string: "https://passwords.example/base/")!, version: "9.9", transport: server)
        let h = hash("letmein")
        let full = h.withHex { String(decoding: $0, as: UTF8.self) }
        let count = try await client.timesSeen(h)
        XCTAssertEqual(count, 1_052_154)
        XCTAssertEqual(server.requests.count, 1)
        let request = try XCTUnwrap(server.requests.first)
        XCTAssertEqual(request.url.absoluteString, "https://passwords.example/base/range/\(full.prefix(5))")
        XCTAssertEqual(request.headers["add-padding"], "true")
        XCTAssertEqual(request.headers["user-agent"], "pwnvault/9.9")
        XCTAssertTrue(request.secretHeaders.isEmpty)
        let sent = request.url.absoluteString + request.headers.map { $0.key + $0.value }.joined()
        XCTAssertFalse(sent.contains(full.dropFirst(5).prefix(6)), "no more of the hash than the prefix is sent")
        XCTAssertFalse(sent.contains("letmein"))
    }

    func testStatusesOtherThan200AreErrors() async {
        for (status, expected) in [(404, HIBPError.unexpectedStatus(404)), (503, .unavailable), (403, .forbidden(cfRay: nil, detail: ""))] {
            let client = PwnedPasswordsClient(version: "1", transport: RangeServer(status: status, body: ""))
            do {
                _ = try await client.timesSeen(hash("x"))
                XCTFail("status \(status) must not read as a result")
            } catch { XCTAssertEqual(error as? HIBPError, expected) }
        }
    }
}
