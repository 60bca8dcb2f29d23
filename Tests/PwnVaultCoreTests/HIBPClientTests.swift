import XCTest
@testable import PwnVaultCore
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The client's logic over an in-memory transport: URLs, headers, status mapping, decoding.
/// The real `CurlTransport` is exercised over loopback in `HIBPClientTests` too (see the
/// `testTransport…` and `testFakeHIBP…` tests below).
final class HIBPClientTests: XCTestCase {
    static let key = "11111111111111111111111111111111"

    /// Answers every request with `respond`, and remembers what was sent (the secret header as bytes).
    /// Unchecked: its mutable state is only touched with `lock` held.
    final class StubTransport: HTTPTransport, @unchecked Sendable {
        struct Sent { let request: HTTPRequest; let apiKey: String? }
        private let lock = NSLock()
        private var log: [Sent] = []
        let respond: @Sendable (HTTPRequest) throws -> HTTPResponse

        init(_ respond: @escaping @Sendable (HTTPRequest) throws -> HTTPResponse) { self.respond = respond }
        convenience init(status: Int, headers: [String: String] = [:], body: String = "") {
            self.init { _ in HTTPResponse(status: status, headers: headers, body: Data(body.utf8)) }
        }

        func send(_ request: HTTPRequest) async throws -> HTTPResponse {
            let key = request.secretHeaders["hibp-api-key"]?.withUnsafeBytes { String(decoding: $0, as: UTF8.self) }
            lock.withLock { log.append(Sent(request: request, apiKey: key)) }
            return try respond(request)
        }

        var sent: [Sent] { lock.lock(); defer { lock.unlock() }; return log }
    }

    func client(_ transport: any HTTPTransport, key: String? = HIBPClientTests.key,
                base: String = "https://haveibeenpwned.com/api/v3/") -> HIBPClient {
        HIBPClient(baseURL: URL(string: base)!, apiKey: key.map { SecretBytes(copying: Array($0.utf8)) },
                   version: "0.1.0", transport: transport)
    }

    func assertThrows<T>(_ expected: HIBPError, _ body: () async throws -> T, file: StaticString = #filePath, line: UInt = #line) async {
        do {
            _ = try await body()
            XCTFail("expected \(expected)", file: file, line: line)
        } catch {
            XCTAssertEqual(error as? HIBPError, expected, file: file, line: line)
        }
    }

    // MARK: requests

    func testAccountIsPercentEncodedInThePath() async throws {
        let stub = StubTransport(status: 404)
        _ = try await client(stub).breachedAccount(" jo+hn/doe@exämple.com ")
        let url = stub.sent[0].request.url.absoluteString
        XCTAssertEqual(url, "https://haveibeenpwned.com/api/v3/breachedaccount/jo%2Bhn%2Fdoe%40ex%C3%A4mple.com")
        XCTAssertEqual(HIBPClient.percentEncode("a-b.c_d~e f?#%&="), "a-b.c_d~e%20f%3F%23%25%26%3D")
    }

    func testTheRangeSearchSendsSixHexCharactersAndMatchesItsOwnSuffix() async throws {
        // HIBP's own example (troyhunt.com): test@example.com hashes to 567159D622FFBB50B11B0EFD307BE358624A26EE.
        XCTAssertEqual(HIBPClient.rangeHash("  Test@Example.COM\n"), "567159D622FFBB50B11B0EFD307BE358624A26EE")
        let body = #"[{"hashSuffix":"0000000000000000000000000000000000","websites":["Decoy"]},"#
            + #"{"hashSuffix":"d622ffbb50b11b0efd307be358624a26ee","websites":["Adobe","Stratfor"]}]"#
        let stub = StubTransport(status: 200, body: body)
        let found = try await client(stub).breachedAccountRange("test@example.com")
        XCTAssertEqual(found.breachNames, ["Adobe", "Stratfor"])
        XCTAssertEqual(stub.sent[0].request.url.absoluteString, "https://haveibeenpwned.com/api/v3/breachedaccount/range/567159")
        XCTAssertNotNil(stub.sent[0].apiKey)
        let other = try await client(stub).breachedAccountRange("someone@example.com")
        XCTAssertEqual(other, .clean, "a suffix that is not the address's own is someone else's")
        let pascal = StubTransport(status: 200, body: #"[{"HashSuffix":"D622FFBB50B11B0EFD307BE358624A26EE","Websites":["Adobe"]}]"#)
        let pascalFound = try await client(pascal).breachedAccountRange("test@example.com")
        XCTAssertEqual(pascalFound.breachNames, ["Adobe"])
        // Issue 29: a 404 is what a server without the endpoint answers, never "no breach found".
        await assertThrows(.noRangeSearch(status: 404)) {
            try await self.client(StubTransport(status: 404)).breachedAccountRange("test@example.com")
        }
        await assertThrows(.forbidden(cfRay: nil, detail: "No k-anonymity.")) {
            try await self.client(StubTransport(status: 403, body: "No k-anonymity.")).breachedAccountRange("test@example.com")
        }
    }

    func testHeadersAndKeyAreSentWhereNeeded() async throws {
        let stub = StubTransport(status: 404)
        let c = client(stub)
        _ = try await c.breachedAccount("a@example.com")
        _ = try? await c.breaches()
        let account = stub.sent[0], catalog = stub.sent[1]
        XCTAssertEqual(account.request.headers["user-agent"], "pwnvault/0.1.0")
        XCTAssertEqual(account.apiKey, Self.key)
        XCTAssertNil(account.request.headers["hibp-api-key"], "the key travels only as a secret header")
        XCTAssertNil(catalog.apiKey, "the public catalog is fetched without the key")
        XCTAssertEqual(catalog.request.headers["user-agent"], "pwnvault/0.1.0")
        XCTAssertFalse("\(account.request)".contains("example.com") || "\(account.request)".contains(Self.key),
                       "a request never prints its account or key")
    }

    func testQueryParameters() async throws {
        let stub = StubTransport(status: 404)
        let c = client(stub, base: "http://127.0.0.1:9/api/v3")
        _ = try await c.breachedAccount("a@b.c", truncate: false, domain: "adobe.com")
        _ = try await c.breachedAccount("a@b.c")
        _ = try await c.pastes("a@b.c")
        _ = try? await c.breaches(domain: "adobe.com")
        _ = try await c.breach(named: "Adobe")
        _ = try? await c.subscriptionStatus()
        XCTAssertEqual(stub.sent.map(\.request.url.absoluteString), [
            "http://127.0.0.1:9/api/v3/breachedaccount/a%40b.c?truncateResponse=false&domain=adobe.com",
            "http://127.0.0.1:9/api/v3/breachedaccount/a%40b.c",
            "http://127.0.0.1:9/api/v3/pasteaccount/a%40b.c",
            "http://127.0.0.1:9/api/v3/breaches?Domain=adobe.com",
            "http://127.0.0.1:9/api/v3/breach/Adobe",
            "http://127.0.0.1:9/api/v3/subscription/status",
        ])
    }

    func testMissingKeyFailsBeforeSending() async {
        let stub = StubTransport(status: 200, body: "[]")
        await assertThrows(.missingAPIKey) { try await self.client(stub, key: nil).breachedAccount("a@b.c") }
        XCTAssertTrue(stub.sent.isEmpty)
        XCTAssertEqual(HIBPError.missingAPIKey.exitStatus, .apiAuthorization)
    }

    func testEmptyOrDotAccountsAreRefused() async {
        let stub = StubTransport(status: 404)
        for bad in ["", "  ", ".", ".."] {
            await assertThrows(.badRequest(.account)) { try await self.client(stub).breachedAccount(bad) }
        }
        XCTAssertTrue(stub.sent.isEmpty)
    }

    // MARK: answers

    func testNotFoundMeansClean() async throws {
        let c = client(StubTransport(status: 404))
        let lookup = try await c.breachedAccount("clean@example.com")
        XCTAssertEqual(lookup, .clean)
        let pastes = try await c.pastes("clean@example.com")
        XCTAssertEqual(pastes, [])
        let breach = try await c.breach(named: "Nope")
        XCTAssertNil(breach)
        let empty = try await client(StubTransport(status: 200, body: "[]")).breachedAccount("x@y.z")
        XCTAssertEqual(empty, .clean)
    }

    /// Issue 29, the one table (`HIBPEndpoint`): a 404 is "not found" only where HIBP documents it, and
    /// only with HIBP's empty body; a range answer counts only as the documented, non-empty list.
    func testA404IsNotFoundOnlyWhereDocumentedAndARangeAnswerOnlyInItsShape() async throws {
        let page = StubTransport(status: 404, body: "<html><body>404 Not Found</body></html>")
        await assertThrows(.unexpectedStatus(404)) { try await self.client(page).breachedAccount("a@b.c") }
        await assertThrows(.unexpectedStatus(404)) { try await self.client(page).pastes("a@b.c") }
        let blank = try await client(StubTransport(status: 404, body: " \r\n")).breachedAccount("a@b.c")
        XCTAssertEqual(blank, .clean, "HIBP's empty 404 (whitespace allowed)")
        await assertThrows(.unexpectedStatus(404)) { try await self.client(StubTransport(status: 404)).subscriptionStatus() }
        await assertThrows(.unexpectedStatus(404)) { try await self.client(StubTransport(status: 404)).subscribedDomains() }
        XCTAssertEqual(HIBPEndpoint.allCases.filter { $0.notFound == .answer },
                       [.breachedAccount, .pasteAccount, .stealerLogsByEmail, .breachedDomain, .breach])
        for body in ["[]", "{}", "<html>Not a list</html>", #"[{"hashSuffix":"XYZ","websites":["Adobe"]}]"#,
                     #"[{"Name":"Adobe"}]"#] {
            await assertThrows(.noRangeSearch(status: 200)) {
                try await self.client(StubTransport(status: 200, body: body)).breachedAccountRange("test@example.com")
            }
        }
        XCTAssertEqual(HIBPError.noRangeSearch(status: 404).stopsRun, false, "auto goes whole")
        XCTAssertEqual(HIBPError.kAnonymityUnavailable(status: 404).exitStatus, .apiAuthorization)
        XCTAssertEqual(HIBPError.kAnonymityUnavailable(status: nil).exitStatus.rawValue, 7)
    }

    func testSubscriptionStatusSaysWhatThePlanIncludes() async throws {
        for (body, expected) in [(#"{"SubscriptionName":"Pwned 5","Rpm":1000,"IncludesKAnon":true}"#, true as Bool?),
                                 (#"{"SubscriptionName":"Pwned 1","Rpm":10,"IncludesKAnon":false}"#, false),
                                 (#"{"SubscriptionName":"Pwned 1","Rpm":10}"#, nil)] {
            let status = try await client(StubTransport(status: 200, body: body)).subscriptionStatus()
            XCTAssertEqual(status.includesKAnonymity, expected, body)
        }
    }

    func testBreachedAccountDecodes() async throws {
        let lookup = try await client(StubTransport(status: 200, body: #"[{"Name":"Adobe"},{"Name":"LinkedIn"}]"#))
            .breachedAccount("pwned@example.com")
        XCTAssertEqual(lookup.breachNames, ["Adobe", "LinkedIn"])
        let full = try await client(StubTransport(status: 200, body: "[\(BreachDecodingTests.adobeJSON)]"))
            .breachedAccount("pwned@example.com", truncate: false)
        XCTAssertEqual(full.breaches.first?.pwnCount, 152_445_165)
        let status = try await client(StubTransport(status: 200, body: #"{"SubscriptionName":"Pwned 3","Rpm":1000}"#))
            .subscriptionStatus()
        XCTAssertEqual(status.rpm, 1000)
    }

    func testStatusesMapToTypedErrors() async {
        let cases: [(Int, [String: String], String, HIBPError)] = [
            (400, [:], "Bad request", .badRequest(.account)),
            (401, [:], "Access denied due to invalid hibp-api-key.", .unauthorized(detail: "Access denied due to invalid hibp-api-key.")),
            (403, ["CF-RAY": "8a1b2c3d4e5f6789-AMS"], "<html><title>Request Blocked</title></html>", .forbidden(cfRay: "8a1b2c3d4e5f6789-AMS", detail: "")),
            (403, [:], "", .forbidden(cfRay: nil, detail: "")),
            (403, [:], "Forbidden: the subscription of this hibp-api-key does not include stealer logs.",
             .forbidden(cfRay: nil, detail: "Forbidden: the subscription of this hibp-api-key does not include stealer logs.")),
            // HIBP's older JSON 401: the message, not the JSON.
            (401, [:], #"{ "statusCode": 401, "message": "Access denied due to invalid hibp-api-key." }"#,
             .unauthorized(detail: "Access denied due to invalid hibp-api-key.")),
            (429, ["Retry-After": "2"], #"{"statusCode":429,"message":"Rate limit is exceeded. Try again in 2 seconds."}"#, .rateLimited(retryAfter: 2)),
            (429, [:], "", .rateLimited(retryAfter: nil)),
            (429, ["retry-after": "99999"], "", .rateLimited(retryAfter: 99999)),
            (503, [:], "<html>Service Unavailable</html>", .unavailable),
            (502, [:], "", .unexpectedStatus(502)),
            (200, [:], "<html>not json</html>", .malformedBody),
            (200, [:], #"{"Name":"Adobe"}"#, .malformedBody),
        ]
        for (status, headers, body, expected) in cases {
            await assertThrows(expected) {
                try await self.client(StubTransport(status: status, headers: headers, body: body)).breachedAccount("a@b.c")
            }
        }
    }

    func testUnauthorizedDetailIsShortCleanAndNeverEchoesTheKey() async {
        let body = "Access denied:\u{1B}[31m key \(Self.key) is\n\n not   valid " + String(repeating: "x", count: 400)
        do {
            _ = try await client(StubTransport(status: 401, body: body)).pastes("a@b.c")
            XCTFail("expected 401")
        } catch let error as HIBPError {
            guard case let .unauthorized(detail) = error else { return XCTFail("\(error)") }
            XCTAssertFalse(detail.contains(Self.key))
            XCTAssertFalse(detail.unicodeScalars.contains { $0.value < 0x20 })
            XCTAssertTrue(detail.hasPrefix("Access denied:[31m key ******"), detail)
            XCTAssertLessThanOrEqual(detail.count, 200)
            XCTAssertEqual(error.exitStatus, .apiAuthorization)
            XCTAssertEqual(error.hint?.contains("pwnvault config api-key"), true)
            XCTAssertEqual(error.message, "Have I Been Pwned rejected the API key (401): " + detail)
        } catch { XCTFail("\(error)") }
    }

    func testLongAnswersAreCutAtASentenceNeverInsideOne() {
        let first = "Access denied due to invalid hibp-api-key."
        let long = first + " " + String(repeating: "Your key may have expired or been revoked and must be renewed at the site ", count: 4) + "now."
        XCTAssertEqual(HIBPClient.shortDetail(Data(long.utf8), hiding: nil), first)
        let json = #"{"statusCode":401,"message":"\#(long)"}"#
        XCTAssertEqual(HIBPClient.shortDetail(Data(json.utf8), hiding: nil), first)
        // One sentence longer than the limit: whole words and an ellipsis.
        let words = String(repeating: "word ", count: 80)
        let cut = HIBPClient.shortDetail(Data(words.utf8), hiding: nil)
        XCTAssertTrue(cut.hasSuffix("word…"), cut)
        XCTAssertLessThanOrEqual(cut.count, 200)
        XCTAssertEqual(HIBPClient.wholeSentences("Short.", limit: 200), "Short.")
        XCTAssertEqual(HIBPClient.wholeSentences("One cause. Then more.", limit: 200), "One cause.", "the cause, said once")
        XCTAssertEqual(HIBPClient.wholeSentences("Version 1.5 is out", limit: 200), "Version 1.5 is out", "a dot inside a word ends nothing")
    }

    func testA400IsWordedForWhatWasAsked() {
        let response = HTTPResponse(status: 400, headers: [:], body: Data())
        XCTAssertEqual(HIBPClient.error(for: response, apiKey: nil, subject: .of(endpoint: "breacheddomain")), .badRequest(.domain))
        XCTAssertEqual(HIBPClient.error(for: response, apiKey: nil, subject: .of(endpoint: "subscription")), .badRequest(.apiKey))
        XCTAssertEqual(HIBPClient.error(for: response, apiKey: nil, subject: .of(endpoint: "breachedaccount")), .badRequest(.account))
        XCTAssertTrue(HIBPError.badRequest(.domain).message.contains("domain"))
        XCTAssertFalse(HIBPError.badRequest(.domain).hint!.contains("account"))
        XCTAssertFalse(HIBPError.badRequest(.apiKey).message.contains("account"))
        XCTAssertTrue(HIBPError.badRequest(.account).hint!.contains("typos"))
    }

    func testExitStatusesAndRetryClasses() {
        // A Cloudflare block is the network's (6); HIBP refusing the key's request is the key's (7).
        XCTAssertEqual(HIBPError.forbidden(cfRay: "x", detail: "").exitStatus, .network)
        XCTAssertEqual(HIBPError.forbidden(cfRay: nil, detail: "Forbidden").exitStatus, .apiAuthorization)
        XCTAssertTrue(HIBPError.forbidden(cfRay: "x", detail: "").stopsRun)
        for e: HIBPError in [.badRequest(.account), .rateLimited(retryAfter: 1), .unavailable, .timeout, .transport(reason: "x"),
                             .malformedBody, .bodyTooLarge, .unexpectedStatus(500)] {
            XCTAssertEqual(e.exitStatus, .network, "\(e)")
            XCTAssertFalse(e.stopsRun)
            let withoutNames = ["Have I Been Pwned", "HTTP"].reduce(e.message) { $0.replacingOccurrences(of: $1, with: "") }
            XCTAssertEqual(withoutNames, withoutNames.lowercased(), "messages are lower-case but for names as their owners write them")
            XCTAssertFalse(e.message.contains("\n"))
        }
        XCTAssertTrue(HIBPError.unauthorized(detail: "").stopsRun)
        XCTAssertTrue(HIBPError.unexpectedStatus(504).isRetryable)
        XCTAssertFalse(HIBPError.unexpectedStatus(418).isRetryable)
        XCTAssertFalse(HIBPError.badRequest(.account).isRetryable)
        XCTAssertEqual(HIBPError.forbidden(cfRay: "abc-AMS", detail: "").message,
                       "Have I Been Pwned's network (Cloudflare) blocked the request (403, cf-ray abc-AMS)")
    }

    func testTransportFailuresMap() async {
        let failures: [(HTTPTransportError, HIBPError)] = [
            (.timeout, .timeout), (.bodyTooLarge(limit: 10), .bodyTooLarge),
            (.connection(reason: "the connection was lost"), .transport(reason: "the connection was lost")),
            (.unreachable(reason: "the connection was refused"), .unreachable(reason: "the connection was refused")),
        ]
        for (thrown, expected) in failures {
            await assertThrows(expected) { try await self.client(StubTransport { _ in throw thrown }).breaches() }
        }
        do {
            _ = try await client(StubTransport { _ in throw CancellationError() }).breaches()
            XCTFail("expected cancellation")
        } catch { XCTAssertTrue(error is CancellationError, "cancellation passes through unchanged") }
    }

    // MARK: the real transport, over loopback

    /// A small misbehaving HTTP server (Python standard library) for what a well-behaved fake
    /// cannot do: stream forever, hang, redirect, echo what it received.
    static let misbehavingServer = #"""
    import http.server, json, socketserver, sys, threading, time
    sent = {"big": 0}
    class H(http.server.BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"
        def log_message(self, *a): pass
        def reply(self, code, body, headers=()):
            self.send_response(code)
            for k, v in headers: self.send_header(k, v)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)
        def do_GET(self):
            p = self.path
            if p.startswith("/echo"):
                self.reply(200, json.dumps({"path": p, "headers": {k.lower(): v for k, v in self.headers.items()}}).encode(),
                           [("Content-Type", "application/json"), ("X-Mixed-Case", "Yes")])
            elif p == "/stream":
                self.send_response(200); self.send_header("Connection", "close"); self.end_headers()
                chunk = b"x" * 65536
                try:
                    for _ in range(1024):                    # up to 64 MiB, over 2 s at least
                        self.wfile.write(chunk); self.wfile.flush(); sent["big"] += len(chunk); time.sleep(0.002)
                except OSError:
                    pass
            elif p == "/declared":
                self.send_response(200); self.send_header("Content-Length", str(100 << 20)); self.end_headers()
                try:
                    for _ in range(200):
                        self.wfile.write(b"y" * 4096); self.wfile.flush(); sent["big"] += 4096; time.sleep(0.01)
                except OSError:
                    pass
            elif p.startswith("/hang"):
                time.sleep(30)
            elif p == "/redirect":
                self.reply(302, b"", [("Location", "/echo/redirected")])
            elif p == "/sent":
                self.reply(200, str(sent["big"]).encode())
            else:
                self.reply(404, b"")
    class S(socketserver.ThreadingMixIn, http.server.HTTPServer):
        daemon_threads = True
    s = S(("127.0.0.1", 0), H)
    print(s.server_address[1], flush=True)
    s.serve_forever()
    """#

    /// Starts a Python server whose first stdout line is its port; stops it after the test.
    func startPython(_ arguments: [String], portFile: URL? = nil) throws -> Int {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        process.arguments = arguments
        let out = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle.nullDevice
        try process.run()
        // Not waitUntilExit: it waits on a run loop an async test's thread does not run.
        // SIGKILL: the spawning thread may block SIGTERM, and the child inherits that mask.
        addTeardownBlock { kill(process.processIdentifier, SIGKILL) }
        if let portFile {
            for _ in 0..<200 {
                if let text = try? String(contentsOf: portFile, encoding: .utf8), let port = Int(text.trimmingCharacters(in: .whitespacesAndNewlines)) {
                    return port
                }
                usleep(25_000)
            }
            throw XCTSkip("the fake HIBP server did not report its port")
        }
        var line = Data()
        while true {
            let byte = out.fileHandleForReading.readData(ofLength: 1)
            if byte.isEmpty || byte == Data("\n".utf8) { break }
            line.append(byte)
        }
        guard let port = Int(String(decoding: line, as: UTF8.self)) else { throw XCTSkip("python3 could not start a server") }
        return port
    }

    func startMisbehavingServer() throws -> Int {
        try startPython(["-c", Self.misbehavingServer])
    }

    func get(_ transport: CurlTransport, _ port: Int, _ path: String, timeout: Duration? = nil) async throws -> HTTPResponse {
        try await transport.send(HTTPRequest(url: URL(string: "http://127.0.0.1:\(port)\(path)")!,
                                             headers: ["User-Agent": "pwnvault/test"], timeout: timeout))
    }

    func testTransportSendsHeadersAndLowercasesResponseHeaders() async throws {
        let port = try startMisbehavingServer()
        let c = HIBPClient(baseURL: URL(string: "http://127.0.0.1:\(port)/echo/api/v3/")!,
                           apiKey: SecretBytes(copying: Array(Self.key.utf8)), version: "9.9.9", transport: CurlTransport())
        let request = try c.request(["breachedaccount", HIBPClient.accountSegment("a+b/c@d.e")], query: [], needsKey: true)
        let response = try await CurlTransport().send(request)
        XCTAssertEqual(response.status, 200)
        XCTAssertEqual(response.headers["x-mixed-case"], "Yes")
        XCTAssertEqual(response.header("Content-Type"), "application/json")
        let echo = try JSONSerialization.jsonObject(with: response.body) as? [String: Any]
        let headers = echo?["headers"] as? [String: String]
        XCTAssertEqual(echo?["path"] as? String, "/echo/api/v3/breachedaccount/a%2Bb%2Fc%40d.e", "the encoding survives the wire")
        XCTAssertEqual(headers?["user-agent"], "pwnvault/9.9.9")
        XCTAssertEqual(headers?["hibp-api-key"], Self.key)
    }

    func testTransportAbortsAStreamingBodyPastTheCap() async throws {
        let port = try startMisbehavingServer()
        let transport = CurlTransport(maxBodyBytes: 1 << 20)
        do {
            _ = try await get(transport, port, "/stream")
            XCTFail("a 64 MiB body must not be accepted")
        } catch { XCTAssertEqual(error as? HTTPTransportError, .bodyTooLarge(limit: 1 << 20)) }
        usleep(300_000)   // let the server notice the closed connection before asking it
        let sent = try await get(CurlTransport(), port, "/sent")
        let bytes = Int(String(decoding: sent.body, as: UTF8.self)) ?? -1
        XCTAssertGreaterThan(bytes, 0)
        XCTAssertLessThan(bytes, 32 << 20, "the transfer was aborted, not downloaded to the end")
    }

    func testTransportRefusesADeclaredOversizedBodyAtTheHeaders() async throws {
        let port = try startMisbehavingServer()
        do {
            _ = try await get(CurlTransport(maxBodyBytes: 1 << 20), port, "/declared")
            XCTFail("a declared 100 MiB body must be refused")
        } catch { XCTAssertEqual(error as? HTTPTransportError, .bodyTooLarge(limit: 1 << 20)) }
    }

    /// A request's own cap (Pwned Passwords' ranges) holds on the run's one transport, whose cap is larger.
    func testARequestsOwnBodyCapHoldsOnTheSharedTransport() async throws {
        let port = try startMisbehavingServer()
        var request = HTTPRequest(url: URL(string: "http://127.0.0.1:\(port)/declared")!, headers: ["User-Agent": "pwnvault/test"])
        request.maxBodyBytes = 1 << 20
        do {
            _ = try await CurlTransport(maxBodyBytes: 200 << 20).send(request)
            XCTFail("a declared 100 MiB body must be refused by the request's cap")
        } catch { XCTAssertEqual(error as? HTTPTransportError, .bodyTooLarge(limit: 1 << 20)) }
    }

    func testTransportTimesOut() async throws {
        let port = try startMisbehavingServer()
        do {
            _ = try await get(CurlTransport(timeout: .milliseconds(400)), port, "/hang")
            XCTFail("a hanging server must time out")
        } catch { XCTAssertEqual(error as? HTTPTransportError, .timeout) }
        let c = HIBPClient(baseURL: URL(string: "http://127.0.0.1:\(port)/hang/")!, apiKey: nil, version: "0",
                           transport: CurlTransport(), timeout: .milliseconds(300))
        await assertThrows(.timeout) { try await c.breaches() }
    }

    func testTransportDoesNotFollowRedirects() async throws {
        let port = try startMisbehavingServer()
        let response = try await get(CurlTransport(), port, "/redirect")
        XCTAssertEqual(response.status, 302, "a redirect would carry the api key elsewhere")
        XCTAssertEqual(response.header("location"), "/echo/redirected")
    }

    func testTransportReportsARefusedConnectionWithoutTheURL() async throws {
        let port = try startMisbehavingServer()
        _ = port
        // A port nobody listens on: bind, note, close.
        let closed = try startPython(["-c", "import socket; s=socket.socket(); s.bind(('127.0.0.1',0)); print(s.getsockname()[1], flush=True); s.close()"])
        let c = HIBPClient(baseURL: URL(string: "http://127.0.0.1:\(closed)/api/v3/")!,
                           apiKey: SecretBytes(copying: Array(Self.key.utf8)), version: "0", transport: CurlTransport())
        do {
            _ = try await c.breachedAccount("secret.person@example.com")
            XCTFail("nothing listens there")
        } catch let error as HIBPError {
            guard case .unreachable = error else { return XCTFail("\(error)") }
            XCTAssertTrue(error.stopsRun, "nothing else can get through either")
            XCTAssertFalse(error.message.contains("secret.person"), error.message)
        }
    }

    func testTransportCancellation() async throws {
        let port = try startMisbehavingServer()
        let transport = CurlTransport()
        let url = URL(string: "http://127.0.0.1:\(port)/hang")!
        let task = Task { try await transport.send(HTTPRequest(url: url, headers: ["User-Agent": "pwnvault/test"])) }
        usleep(200_000)
        task.cancel()
        do {
            _ = try await task.value
            XCTFail("cancelled")
        } catch { XCTAssertTrue(error is CancellationError, "\(error)") }
    }

    // MARK: the fake HIBP server (tools/fake-hibp), when present

    func fakeHIBP(_ extra: [String] = []) throws -> Int {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let script = ProcessInfo.processInfo.environment["PWNVAULT_FAKE_HIBP"].map { URL(fileURLWithPath: $0) }
            ?? root.appendingPathComponent("tools/fake-hibp/fake_hibp.py")
        guard FileManager.default.fileExists(atPath: script.path) else {
            if ProcessInfo.processInfo.environment["CI"] != nil { XCTFail("tools/fake-hibp/fake_hibp.py is missing"); return 0 }
            throw XCTSkip("tools/fake-hibp/fake_hibp.py is not in this checkout yet")
        }
        let portFile = FileManager.default.temporaryDirectory.appendingPathComponent("fake-hibp-\(UUID().uuidString).port")
        addTeardownBlock { try? FileManager.default.removeItem(at: portFile) }
        return try startPython([script.path, "--port", "0", "--port-file", portFile.path] + extra, portFile: portFile)
    }

    func fakeClient(_ port: Int, key: String? = HIBPClientTests.key) -> HIBPClient {
        HIBPClient(baseURL: URL(string: "http://127.0.0.1:\(port)/api/v3/")!,
                   apiKey: key.map { SecretBytes(copying: Array($0.utf8)) }, version: "0.1.0", transport: CurlTransport())
    }

    func testFakeHIBPCleanAndPwned() async throws {
        let port = try fakeHIBP()
        guard port > 0 else { return }
        let c = fakeClient(port)
        let clean = try await c.breachedAccount("clean.person@example.com")
        XCTAssertEqual(clean, .clean)
        let pwned = try await c.breachedAccount("pwned.person@example.com")
        XCTAssertFalse(pwned.breachNames.isEmpty)
        let catalog = try await c.breaches()
        XCTAssertFalse(catalog.isEmpty)
        let resolved = BreachCatalog(breaches: catalog, fetchedAt: Date()).resolve(pwned)
        XCTAssertTrue(resolved.allSatisfy(\.hasDetails), "every breach of a lookup is in the catalog")
    }

    func testFakeHIBPRejectsABadKey() async throws {
        let port = try fakeHIBP()
        guard port > 0 else { return }
        do {
            _ = try await fakeClient(port, key: "00000000000000000000000000000009").breachedAccount("pwned@example.com")
            XCTFail("a wrong key must be refused")
        } catch let error as HIBPError {
            guard case .unauthorized = error else { return XCTFail("\(error)") }
        }
    }

    func testFakeHIBPRateLimitCarriesRetryAfter() async throws {
        let port = try fakeHIBP(["--rpm", "1"])
        guard port > 0 else { return }
        let c = fakeClient(port)
        var limited: HIBPError?
        for i in 0..<5 {
            do { _ = try await c.breachedAccount("clean\(i)@example.com") } catch let error as HIBPError { limited = error; break }
        }
        guard case let .rateLimited(retryAfter)? = limited else { return XCTFail("expected a 429, got \(String(describing: limited))") }
        XCTAssertNotNil(retryAfter)
        XCTAssertGreaterThan(retryAfter ?? 0, 0)
    }
    func testFakeHIBPFaultAccounts() async throws {
        let port = try fakeHIBP(["--rpm", "0", "--quiet"])
        guard port > 0 else { return }
        let c = fakeClient(port)
        await assertThrows(.unavailable) { try await c.breachedAccount("fault-503@example.com") }
        await assertThrows(.badRequest(.account)) { try await c.breachedAccount("fault-400@example.com") }
        await assertThrows(.malformedBody) { try await c.breachedAccount("fault-malformed@example.com") }
        await assertThrows(.bodyTooLarge) { try await c.breachedAccount("fault-oversized@example.com", truncate: false) }
        let impatient = HIBPClient(baseURL: c.baseURL, apiKey: SecretBytes(copying: Array(Self.key.utf8)), version: "0.1.0",
                                   transport: CurlTransport(), timeout: .milliseconds(300))
        await assertThrows(.timeout) { try await impatient.breachedAccount("fault-timeout@example.com") }
        // No user agent: the fake answers like Cloudflare, with a cf-ray.
        let bare = HTTPRequest(url: URL(string: "http://127.0.0.1:\(port)/api/v3/breaches")!, headers: ["user-agent": ""])
        let response = try await CurlTransport().send(bare)
        let ray = response.header("cf-ray")
        XCTAssertNotNil(ray)
        XCTAssertEqual(HIBPClient.error(for: response, apiKey: nil), .forbidden(cfRay: ray, detail: ""))
    }

    func testFakeHIBPSchedulerKeepsBelowTheRateAndRetries429() async throws {
        let port = try fakeHIBP(["--rpm", "600", "--latency-ms", "150", "--quiet"])
        guard port > 0 else { return }
        let c = fakeClient(port)
        // Two injected 429s (retry-after: 1) on top of the server's own limit, which pacing must never hit.
        var faults = URLRequest(url: URL(string: "http://127.0.0.1:\(port)/__control/faults")!)
        faults.httpMethod = "POST"
        faults.httpBody = Data(#"{"429": 2, "503": 1}"#.utf8)
        _ = try await URLSession.shared.data(for: faults)

        let accounts = (0..<12).map { $0 % 2 == 0 ? "clean\($0)@example.com" : "pwned\($0)@example.com" }
        let seen = BreachCatalogTests.Counter()
        let collected = CollectedNames()
        let summary = try await CheckScheduler(requestsPerMinute: 600).run(accounts, perform: { try await c.breachedAccount($0) },
                                                                            onResult: { index, result, _ in
            seen.increment()
            collected.add(accounts[index], (try? result.get())?.breachNames ?? ["error"])
        })
        XCTAssertEqual(summary.lookupsAnswered, 12)
        XCTAssertEqual(summary.requests, 15, "each injected fault costs one retry")
        XCTAssertEqual(seen.value, 12)
        XCTAssertEqual(collected.names.keys.sorted(), accounts.sorted())
        for (account, names) in collected.names {
            XCTAssertEqual(names.isEmpty, account.hasPrefix("clean"), account)
        }
        let (statsData, _) = try await URLSession.shared.data(from: URL(string: "http://127.0.0.1:\(port)/__control/stats")!)
        let stats = try JSONSerialization.jsonObject(with: statsData) as? [String: Any]
        XCTAssertEqual(stats?["rate_limited"] as? Int, 0, "pacing never ran into the server's own limit")
    }

    /// Unchecked: its mutable state is only touched with `lock` held.
    final class CollectedNames: @unchecked Sendable {
        private let lock = NSLock()
        private var map: [String: [String]] = [:]
        func add(_ account: String, _ names: [String]) { lock.withLock { map[account] = names } }
        var names: [String: [String]] { lock.withLock { map } }
    }
}
