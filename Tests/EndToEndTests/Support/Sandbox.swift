import Foundation
import TestSupport
import XCTest

/// What one run of a program produced.
struct RunResult {
    let status: Int32
    let stdout: String
    let stderr: String
    var all: String { stdout + stderr }
}

/// Paths of the repository and the built products, found from the test bundle's location.
enum Paths {
    /// `.build/<config>/` — the folder holding the `pwnvault` binary and the test bundle.
    static let products: URL = {
        var url = URL(fileURLWithPath: CommandLine.arguments.first ?? ".").resolvingSymlinksInPath()
        while url.path != "/" {
            if FileManager.default.isExecutableFile(atPath: url.appendingPathComponent("pwnvault").path) { return url }
            url.deleteLastPathComponent()
        }
        // swift test runs the bundle from .build/<config>/; fall back to the conventional place.
        return URL(fileURLWithPath: FileManager.default.currentDirectoryPath).appendingPathComponent(".build/debug")
    }()

    static var binary: String { products.appendingPathComponent("pwnvault").path }

    /// The package root (the folder with Package.swift).
    static let root = PackageRoot.url

    /// Debian's python3 (scripts/setup.sh installs it), started directly: a version manager's shim earlier
    /// on PATH (pyenv's) costs a few tenths of a second a start, and the suite starts Python hundreds of
    /// times (the fake server, the pseudo-terminal driver).
    static let python = "/usr/bin/python3"

    static func support(_ name: String) -> String { root.appendingPathComponent("Tests/Support/\(name)").path }
}

/// A throw-away home for one test: its own HOME, XDG folders, vault path and passphrase file, and
/// helpers that run `pwnvault` in it: the real binary, or (`inProcess`) `run` inside the test process
/// with the same environment, stdin, captured outputs, fake server and vault (`InProcessRun`; Docs/TESTING.md
/// says which suites do and why). Terminals (`runOnTerminal`), background runs (`start`) and `runBinary`
/// always start the binary.
final class Sandbox {
    let dir: URL
    let home: URL
    var vault: String { home.appendingPathComponent(".local/share/pwnvault/vault").path }
    let passphraseFile: String
    static let passphrase = "correct horse battery staple"
    /// Environment for every run; tests add to it.
    var environment: [String: String]

    /// Every later run talks to `server` (the fake HIBP on loopback) with its key.
    func use(_ server: FakeHIBP) {
        environment["PWNVAULT_API_URL"] = server.apiURL
        environment["HIBP_API_KEY"] = FakeHIBP.key
    }

    /// Whether `run` runs the command line in-process (a test that reads only text and exit status).
    let inProcess: Bool

    init(inProcess: Bool = false, keyring: Bool = true, file: StaticString = #filePath, line: UInt = #line) throws {
        self.inProcess = inProcess
        dir = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("pwnvault-e2e-\(UUID().uuidString)")
        home = dir.appendingPathComponent("home")
        try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true,
                                                attributes: [.posixPermissions: 0o700])
        chmod(dir.path, 0o700)
        passphraseFile = dir.appendingPathComponent("passphrase").path
        FileManager.default.createFile(atPath: passphraseFile, contents: Data((Sandbox.passphrase + "\n").utf8),
                                       attributes: [.posixPermissions: 0o600])
        var env: [String: String] = [:]
        let inherited = ProcessInfo.processInfo.environment
        // The sanitizer settings too, so scripts/sanitize.sh's options and suppressions reach the binary.
        for key in ["PATH", "DBUS_SESSION_BUS_ADDRESS", "XDG_RUNTIME_DIR", "LANG", "CI",
                    "ASAN_OPTIONS", "LSAN_OPTIONS", "UBSAN_OPTIONS", "TSAN_OPTIONS", "SWIFT_BACKTRACE"] {
            if let v = inherited[key] { env[key] = v }
        }
        env["HOME"] = home.path
        env["XDG_DATA_HOME"] = home.appendingPathComponent(".local/share").path
        env["XDG_CACHE_HOME"] = home.appendingPathComponent(".cache").path
        env["XDG_CONFIG_HOME"] = home.appendingPathComponent(".config").path
        env["TERM"] = "xterm-256color"
        // The test keyring answers in milliseconds, but CI's four workers have made a call wait longer than
        // the 2 s default (a flaky failure, not a finding); tests of the timeout set their own value.
        env["PWNVAULT_KEYRING_TIMEOUT_MS"] = "20000"
        // Explicit, so runs inside another keyring session (which brings its own HOME) find the same vault.
        env["PWNVAULT_VAULT"] = home.appendingPathComponent(".local/share/pwnvault/vault").path
        // Only loopback: a run that would ask Pwned Passwords (init and passwd check a new passphrase)
        // and was not pointed at a test server meets a refused port here, never the real service.
        env["PWNVAULT_PASSWORDS_URL"] = "http://127.0.0.1:9"
        env["PWNVAULT_API_URL"] = "http://127.0.0.1:9/api/v3"
        if !keyring { env["PWNVAULT_KEYRING"] = "none" }
        // The fake's keys lack the k-anonymity search unless a test grants it, and `auto` would spend
        // one refused request on finding that out: the other tests count whole-address requests and
        // time their pacing. KAnonymityEndToEndTests sets auto and require itself.
        env["PWNVAULT_K_ANONYMITY"] = "off"
        environment = env
        if keyring, env["DBUS_SESSION_BUS_ADDRESS"] == nil {
            throw XCTSkip("no D-Bus session: run the tests through the README's test command (Tests/Support/keyring-session.sh)")
        }
    }

    deinit { try? FileManager.default.removeItem(at: dir) }

    /// Runs `pwnvault ARGS` with stdin from `input`, stdout and stderr captured (so: not a terminal):
    /// in-process when the sandbox is (and `InProcessRun` can: English, one run at a time), else the binary.
    @discardableResult
    func run(_ args: [String], input: String? = nil, env extra: [String: String] = [:],
             passphraseFromFile: Bool = true) -> RunResult {
        var env = environment.merging(extra) { $1 }
        if passphraseFromFile, env["PWNVAULT_PASSPHRASE_FILE"] == nil { env["PWNVAULT_PASSPHRASE_FILE"] = passphraseFile }
        if inProcess, let result = InProcessRun.run(args, input: input, environment: env) { return result }
        RunLedger.record(.binary)
        return Sandbox.exec(Paths.binary, args, input: input, environment: env)
    }

    /// `run` through the real binary whatever the sandbox's mode: for what needs a process of its own
    /// (start-up, exit statuses as a shell sees them, pipes).
    @discardableResult
    func runBinary(_ args: [String], input: String? = nil, env extra: [String: String] = [:],
                   passphraseFromFile: Bool = true) -> RunResult {
        var env = environment.merging(extra) { $1 }
        if passphraseFromFile, env["PWNVAULT_PASSPHRASE_FILE"] == nil { env["PWNVAULT_PASSPHRASE_FILE"] = passphraseFile }
        RunLedger.record(.binary)
        return Sandbox.exec(Paths.binary, args, input: input, environment: env)
    }

    /// Starts `pwnvault ARGS` in the background (passphrase from the sandbox's file, no input, stdout
    /// to `output`, stderr discarded), for tests that kill or interrupt it.
    func start(_ args: [String], output: FileHandle = .nullDevice) throws -> Process {
        RunLedger.record(.binary)
        let p = Process()
        p.executableURL = URL(fileURLWithPath: Paths.binary)
        p.arguments = args
        p.environment = environment.merging(["PWNVAULT_PASSPHRASE_FILE": passphraseFile]) { old, _ in old }
        p.standardInput = FileHandle.nullDevice
        p.standardOutput = output
        p.standardError = FileHandle.nullDevice
        try p.run()
        return p
    }

    /// `pwnvault init` with the interactive KDF preset (fast) and the sandbox's passphrase.
    func initVault(kdf: String = "interactive", file: StaticString = #filePath, line: UInt = #line) {
        let r = run(["init", "--weak-passphrase-ok", "--kdf", kdf])
        XCTAssertEqual(r.status, 0, "init failed: \(r.stderr)", file: file, line: line)
    }

    /// Writes `text` to a new 0600 file in the sandbox and returns its path.
    func writeFile(_ name: String, _ text: String) -> String {
        let path = dir.appendingPathComponent(name).path
        FileManager.default.createFile(atPath: path, contents: Data(text.utf8), attributes: [.posixPermissions: 0o600])
        return path
    }

    /// Runs `pwnvault ARGS` on a real pseudo-terminal through Tests/Support/ptyrun.py; stdout is the transcript.
    func runOnTerminal(_ args: [String], steps: [(expect: String, send: String)] = [], env extra: [String: String] = [:],
                       passphraseFromFile: Bool = true, timeout: Double = 30) -> RunResult {
        var env = environment.merging(extra) { $1 }
        if passphraseFromFile, env["PWNVAULT_PASSPHRASE_FILE"] == nil { env["PWNVAULT_PASSPHRASE_FILE"] = passphraseFile }
        var driver = [Paths.support("ptyrun.py"), "--timeout", String(timeout)]
        for s in steps { driver += ["--expect", s.expect, "--send", s.send] }
        driver += ["--", Paths.binary] + args
        RunLedger.record(.terminal)
        return Sandbox.exec(Paths.python, driver, input: nil, environment: env)
    }

    /// Runs any program with a clean environment; stdin from `input` (or /dev/null).
    static func exec(_ path: String, _ args: [String], input: String?, environment: [String: String]) -> RunResult {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: path)
        p.arguments = args
        p.environment = environment
        let out = Pipe(), err = Pipe(), inp = Pipe()
        p.standardOutput = out
        p.standardError = err
        p.standardInput = input == nil ? FileHandle.nullDevice : inp
        do { try p.run() } catch { return RunResult(status: -1, stdout: "", stderr: "cannot run \(path): \(error)") }
        if let input {
            // A program that exits before reading all of it (an early error) must fail its test, not
            // crash the whole bundle: the throwing write reports EPIPE instead of trapping.
            try? inp.fileHandleForWriting.write(contentsOf: Data(input.utf8))
            try? inp.fileHandleForWriting.close()
        }
        // Read both pipes concurrently so neither fills up.
        let errData = AnswerBox()
        let group = DispatchGroup()
        group.enter()
        DispatchQueue.global().async { errData.data = err.fileHandleForReading.readDataToEndOfFile(); group.leave() }
        let outData = out.fileHandleForReading.readDataToEndOfFile()
        group.wait()
        p.waitUntilExit()
        let status = p.terminationReason == .uncaughtSignal ? 128 + p.terminationStatus : p.terminationStatus
        return RunResult(status: status, stdout: String(decoding: outData, as: UTF8.self),
                         stderr: String(decoding: errData.data, as: UTF8.self))
    }
}
