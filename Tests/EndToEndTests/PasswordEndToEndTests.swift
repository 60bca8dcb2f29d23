import Foundation
import XCTest

/// `pwnvault password` for real: against the fake HIBP server (k-anonymity, padding), against a
/// padding-only range server, on a terminal, and offline against generated files.
final class PasswordEndToEndTests: XCTestCase {
    var s: Sandbox!

    override func setUpWithError() throws { s = try Sandbox(inProcess: true, keyring: false) }
    override func tearDown() { s = nil }

    /// Upper-case SHA-1 hex of each password, computed by Python's hashlib (independent of pwnvault).
    private func sha1(_ passwords: [String]) -> [String] {
        let script = "import hashlib,sys\nfor l in sys.stdin.read().split('\\n'):\n print(hashlib.sha1(l.encode()).hexdigest().upper())"
        let r = Sandbox.exec(Paths.python, ["-c", script], input: passwords.joined(separator: "\n"), environment: s.environment)
        return r.stdout.split(separator: "\n").map(String.init)
    }

    func testOnlyAFiveCharacterPrefixLeavesAndEachLineGetsItsResult() throws {
        let server = try FakeHIBP()
        let passwords = ["password", "an unusual passphrase nobody used 7f3a", "123456", "hunter2"]
        let r = s.run(["password"], input: passwords.joined(separator: "\r\n") + "\n\n", env: ["PWNVAULT_PASSWORDS_URL": server.base])
        XCTAssertEqual(r.status, 1, r.all)
        XCTAssertEqual(r.stdout, "line 1: seen 9,659,365 times\nline 2: not found\nline 3: seen 42,146,820 times\nline 4: seen 34,912 times\n")
        XCTAssertEqual(r.stderr, "")
        let log = server.log()
        XCTAssertEqual(log.count, passwords.count)
        let hashes = sha1(passwords)
        for (entry, hash) in zip(log, hashes) {
            XCTAssertEqual(entry["path"] as? String, "/range/\(hash.prefix(5))")
            XCTAssertEqual(entry["query"] as? String ?? "", "")
            let headers = entry["headers"] as? [String: String] ?? [:]
            XCTAssertEqual(headers["add-padding"], "true")
            XCTAssertEqual(headers["user-agent"], "pwnvault/0.1.0")
            let everything = "\(entry)"
            XCTAssertFalse(everything.contains(String(hash.dropFirst(5).prefix(8))), "nothing past the prefix is sent")
        }
        for secret in passwords + hashes { XCTAssertFalse(r.all.contains(secret)) }

        let none = s.run(["password", "--json"], input: "an unusual passphrase nobody used 7f3a\n", env: ["PWNVAULT_PASSWORDS_URL": server.base])
        XCTAssertEqual(none.status, 0, none.all)
        let json = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(none.stdout.utf8)) as? [String: Any])
        XCTAssertEqual(json["source"] as? String, "api")
        let rows = try XCTUnwrap(json["results"] as? [[String: Any]])
        XCTAssertEqual(rows.first?["line"] as? Int, 1)
        XCTAssertEqual(rows.first?["found"] as? Bool, false)
    }

    /// A range server whose answer carries the password's own suffix as padding (count 0): "not found".
    func testPaddingLinesAreIgnored() throws {
        let dir = s.dir.path
        let script = """
        import hashlib, http.server, os, sys
        pad = hashlib.sha1(b"padded-only").hexdigest().upper()
        real = hashlib.sha1(b"counted").hexdigest().upper()
        class H(http.server.BaseHTTPRequestHandler):
            def do_GET(self):
                with open(os.path.join(sys.argv[1], "requests"), "a") as f:
                    f.write("%s %s\\n" % (self.path, self.headers.get("add-padding")))
                prefix = self.path.rsplit("/", 1)[-1]
                lines = ["%035X:0" % (i * 7919) for i in range(900)]
                if prefix == pad[:5]: lines.append(pad[5:] + ":0")
                if prefix == real[:5]: lines += [real[5:] + ":5"]
                body = "\\r\\n".join(sorted(lines)).encode()
                self.send_response(200); self.send_header("content-length", str(len(body))); self.end_headers()
                self.wfile.write(body)
            def log_message(self, *a): pass
        s = http.server.HTTPServer(("127.0.0.1", 0), H)
        open(os.path.join(sys.argv[1], "port.tmp"), "w").write(str(s.server_address[1]))
        os.rename(os.path.join(sys.argv[1], "port.tmp"), os.path.join(sys.argv[1], "port"))
        s.serve_forever()
        """
        let server = Process()
        server.executableURL = URL(fileURLWithPath: Paths.python)
        server.arguments = ["-c", script, dir]
        try server.run()
        defer { kill(server.processIdentifier, SIGKILL); server.waitUntilExit() }
        var port: String?
        for _ in 0..<500 where port == nil {
            port = try? String(contentsOfFile: dir + "/port", encoding: .utf8)
            if port == nil { usleep(20_000) }
        }
        let base = "http://127.0.0.1:\(try XCTUnwrap(port, "the range server did not start"))"
        let r = s.run(["password"], input: "padded-only\ncounted\n", env: ["PWNVAULT_PASSWORDS_URL": base])
        XCTAssertEqual(r.status, 1, r.all)
        XCTAssertEqual(r.stdout, "line 1: not found\nline 2: seen 5 times\n")
        let requests = try String(contentsOfFile: dir + "/requests", encoding: .utf8)
        XCTAssertEqual(requests, sha1(["padded-only", "counted"]).map { "/range/\($0.prefix(5)) true\n" }.joined())
    }

    func testAPasswordTypedOnTheTerminalIsNotEchoed() throws {
        let server = try FakeHIBP()
        let r = s.runOnTerminal(["password"], steps: [("Password to check", "letmein\n")], env: ["PWNVAULT_PASSWORDS_URL": server.base])
        XCTAssertEqual(r.status, 1, r.stdout)
        XCTAssertTrue(r.stdout.contains("seen 1,052,154 times"), r.stdout)
        XCTAssertFalse(r.stdout.contains("letmein"), r.stdout)
    }

    func testAnUnsafePasswordsAddressIsRefusedBeforeAnythingIsRead() {
        let r = s.run(["password"], input: "password\n", env: ["PWNVAULT_PASSWORDS_URL": "http://passwords.example.com"])
        XCTAssertEqual(r.status, 2, r.all)
        XCTAssertTrue(r.stderr.contains("PWNVAULT_PASSWORDS_URL"), r.stderr)
    }

    func testOfflineLookupsInAGeneratedFile() throws {
        // 3,000 known passwords and 30,000 random hashes between the smallest and the largest of
        // theirs (so the first and the last line are passwords'), sorted, CRLF, no final line ending.
        let path = s.dir.appendingPathComponent("pwned.txt").path
        let script = """
        import hashlib, os, sys
        rows = {hashlib.sha1(("offline-%d" % i).encode()).hexdigest().upper(): i + 1 for i in range(3000)}
        lo, hi = min(rows), max(rows)
        while len(rows) < 33000:
            h = os.urandom(20).hex().upper()
            if lo < h < hi: rows.setdefault(h, 1 + len(rows) % 977)
        with open(sys.argv[1], "w") as f: f.write("\\r\\n".join("%s:%d" % (h, rows[h]) for h in sorted(rows)))
        """
        XCTAssertEqual(Sandbox.exec(Paths.python, ["-c", script, path], input: nil, environment: s.environment).status, 0)
        let picks = [0, 1, 17, 999, 2998, 2999]
        let input = picks.map { "offline-\($0)" } + ["never-in-the-file", "offline-3000"]
        let r = s.run(["password", "--offline", path], input: input.joined(separator: "\n") + "\n")
        XCTAssertEqual(r.status, 1, r.all)
        func grouped(_ n: Int) -> String { n >= 1000 ? "\(n / 1000),\(String(format: "%03d", n % 1000))" : "\(n)" }
        let expected = picks.enumerated().map { "line \($0.offset + 1): seen \(grouped($0.element + 1)) times" }
            + ["line 7: not found", "line 8: not found"]
        XCTAssertEqual(r.stdout.split(separator: "\n").map(String.init), expected)

        // The first and the last line of the file.
        let text = try String(contentsOfFile: path, encoding: .utf8)
        XCTAssertFalse(text.hasSuffix("\n"))
        let lines = text.components(separatedBy: "\r\n")
        let allHashes = sha1((0..<3000).map { "offline-\($0)" })
        for line in [lines.first!, lines.last!] {
            let i = try XCTUnwrap(allHashes.firstIndex(of: String(line.prefix(40))), "a password's line")
            let one = s.run(["password", "--offline", path], input: "offline-\(i)\n")
            XCTAssertEqual(one.stdout, "line 1: seen \(grouped(i + 1)) times\n")
            XCTAssertEqual(one.status, 1)
        }

        let unsorted = s.writeFile("unsorted.txt", lines.reversed().joined(separator: "\n"))
        let refused = s.run(["password", "--offline", unsorted], input: "offline-1\n")
        XCTAssertEqual(refused.status, 2, refused.all)
        XCTAssertTrue(refused.stderr.contains("is not sorted by hash"), refused.stderr)
        XCTAssertEqual(refused.stdout, "")

        let missing = s.run(["password", "--offline", s.dir.appendingPathComponent("nope.txt").path], input: "x\n")
        XCTAssertEqual(missing.status, 2, missing.all)
        XCTAssertTrue(missing.stderr.contains("cannot read"), missing.stderr)
    }
}
