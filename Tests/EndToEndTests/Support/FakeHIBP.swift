import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import XCTest

/// The fake HIBP server (tools/fake-hibp/fake_hibp.py) on a loopback port, for one test.
final class FakeHIBP {
    static let key = "11111111111111111111111111111111"
    let process = Process()
    let port: Int
    let dir: URL
    /// The loopback address it listens on: 127.0.0.1, or ::1.
    let host: String
    var apiURL: String { "http://\(authority)/api/v3" }
    /// For the tests' own control requests (Foundation's URLSession cannot reach `[::1]`); `localhost`
    /// reaches a server on ::1 as well.
    var base: String { host == "::1" ? "http://localhost:\(port)" : "http://\(authority)" }
    var authority: String { host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)" }

    /// `fixtures`: the server's accounts as JSON (`{"accounts": {"a@example.com": {"breaches": […]}}}`),
    /// written into the server's own folder (removed with it).
    init(host: String = "127.0.0.1", arguments: [String] = ["--rpm", "6000", "--burst", "100"], fixtures: String? = nil) throws {
        self.host = host
        dir = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("fake-hibp-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        var arguments = arguments
        if let fixtures {
            let file = dir.appendingPathComponent("fixtures.json")
            try Data(fixtures.utf8).write(to: file)
            arguments += ["--fixtures", file.path]
        }
        let portFile = dir.appendingPathComponent("port").path
        process.executableURL = URL(fileURLWithPath: Paths.python)
        process.arguments = [Paths.root.appendingPathComponent("tools/fake-hibp/fake_hibp.py").path,
                             "--host", host, "--port", "0", "--port-file", portFile, "--quiet", "--key", FakeHIBP.key + ":6000",
                             "--key", "22222222222222222222222222222222:blocked"] + arguments
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        let deadline = Date().addingTimeInterval(15)
        var found: Int?
        while found == nil && Date() < deadline {
            if let text = try? String(contentsOfFile: portFile, encoding: .utf8), let p = Int(text.trimmingCharacters(in: .whitespacesAndNewlines)) {
                found = p
            } else {
                usleep(20_000)
            }
        }
        guard let found else { kill(process.processIdentifier, SIGKILL); throw XCTSkip("the fake HIBP server did not start") }
        port = found
    }

    deinit {
        kill(process.processIdentifier, SIGKILL)   // SIGTERM may be blocked in the thread that spawned it
        process.waitUntilExit()
        try? FileManager.default.removeItem(at: dir)
    }

    /// POSTs JSON to a control endpoint.
    func control(_ path: String, _ json: String) {
        _ = request("POST", path, body: json)
    }

    /// The requests the server received (method, path, query, headers, status).
    func log() -> [[String: Any]] {
        let data = request("GET", "/__control/log", body: nil)
        return (try? JSONSerialization.jsonObject(with: data)) as? [[String: Any]] ?? []
    }

    func stats() -> [String: Any] {
        (try? JSONSerialization.jsonObject(with: request("GET", "/__control/stats", body: nil))) as? [String: Any] ?? [:]
    }

    private func request(_ method: String, _ path: String, body: String?) -> Data {
        var req = URLRequest(url: URL(string: base + path)!)
        req.httpMethod = method
        req.setValue("pwnvault-tests", forHTTPHeaderField: "user-agent")
        if let body { req.httpBody = Data(body.utf8); req.setValue("application/json", forHTTPHeaderField: "content-type") }
        let done = DispatchSemaphore(value: 0)
        let result = AnswerBox()
        URLSession.shared.dataTask(with: req) { data, _, _ in result.data = data ?? Data(); done.signal() }.resume()
        done.wait()
        return result.data
    }
}

/// The body of one control request. Unchecked: written once by URLSession's callback before it
/// signals the semaphore, read only after the wait, so the semaphore orders the two accesses.
final class AnswerBox: @unchecked Sendable {
    var data = Data()
}
