import Foundation
import XCTest
@testable import PwnVaultCore

/// The Secret Service keyring against a real gnome-keyring-daemon, with `secret-tool` as an
/// independent client.
///
/// Run inside a private keyring session (the tests refuse to write to a desktop's real keyring):
///
///     Tests/Support/keyring-session.sh -- swift test --filter SecretServiceKeyringTests
///
/// Without one, the tests that need the keyring are skipped, or fail when `CI` is set.
/// Locked, missing and hung keyrings need a bus of their own, and GLib keeps one bus per process:
/// those tests re-run this test binary as a probe inside `keyring-session.sh --locked` (and so on),
/// where `testProbeInChildProcess` makes the assertions.
final class SecretServiceKeyringTests: XCTestCase {
    private let keyring = SecretServiceKeyring()
    private var createdItems: [KeyringItem] = []

    override func tearDownWithError() throws {
        if Self.privateSessionProblem() == nil {
            for item in createdItems { _ = try? keyring.clear(item) }
        }
    }

    // MARK: - In this process's private keyring session

    func testStoreThenLookupGivesBackTheExactBytes() throws {
        try requirePrivateSession()
        // Lengths around every base64 padding case, a typical key, and the largest allowed secret.
        for length in [1, 2, 3, 4, 5, 31, 32, 33, 64, 255, SecretServiceKeyring.maximumSecretBytes] {
            let item = newVaultItem()
            let secret = SecretBytes.random(count: length)
            try keyring.store(item, secret: secret)
            let found = try XCTUnwrap(try keyring.lookup(item), "length \(length)")
            XCTAssertEqual(found.count, length)
            XCTAssertTrue(found.isEqual(to: secret), "length \(length)")
        }
    }

    func testLookupOfAnAbsentItemIsNil() throws {
        try requirePrivateSession()
        XCTAssertNil(try keyring.lookup(newVaultItem()))
    }

    func testClearRemovesTheItemAndSaysWhetherItDid() throws {
        try requirePrivateSession()
        let item = newVaultItem()
        try keyring.store(item, secret: .random(count: 32))
        XCTAssertTrue(try keyring.clear(item))
        XCTAssertNil(try keyring.lookup(item))
        XCTAssertFalse(try keyring.clear(item))
    }

    func testStoringAgainReplacesTheSecret() throws {
        try requirePrivateSession()
        let item = newVaultItem()
        let first = SecretBytes.random(count: 32), second = SecretBytes.random(count: 32)
        try keyring.store(item, secret: first)
        try keyring.store(item, secret: second)
        let found = try XCTUnwrap(try keyring.lookup(item))
        XCTAssertTrue(found.isEqual(to: second))
        let listing = try secretTool(["search", "--all"] + flatten(item.attributes))
        XCTAssertEqual(listing.stdout.components(separatedBy: "label = ").count - 1, 1,
                       "one item, not two:\n\(listing.stdout)")
    }

    func testSeparateVaultsDoNotCollide() throws {
        try requirePrivateSession()
        let one = newVaultItem(), two = newVaultItem()
        let a = SecretBytes.random(count: 32), b = SecretBytes.random(count: 32)
        try keyring.store(one, secret: a)
        try keyring.store(two, secret: b)
        createdItems.append(.apiKey)
        let apiKey = SecretBytes(copying: Array("0123456789abcdef0123456789abcdef".utf8))
        try keyring.store(.apiKey, secret: apiKey)

        XCTAssertTrue(try XCTUnwrap(try keyring.lookup(one)).isEqual(to: a))
        XCTAssertTrue(try XCTUnwrap(try keyring.lookup(two)).isEqual(to: b))
        XCTAssertTrue(try XCTUnwrap(try keyring.lookup(.apiKey)).isEqual(to: apiKey))
        XCTAssertTrue(try keyring.clear(one))
        XCTAssertNil(try keyring.lookup(one))
        XCTAssertTrue(try XCTUnwrap(try keyring.lookup(two)).isEqual(to: b))
        XCTAssertTrue(try XCTUnwrap(try keyring.lookup(.apiKey)).isEqual(to: apiKey))
    }

    func testItemsAreVisibleToSecretToolWithLabelAndAttributes() throws {
        try requirePrivateSession()
        let item = newVaultItem()
        try keyring.store(item, secret: .random(count: 32))
        let listing = try secretTool(["search", "--all", "application", "pwnvault"])
        XCTAssertEqual(listing.status, 0, listing.stderr)
        // secret-tool prints the label on stdout and the attributes on stderr.
        let shown = listing.stdout + listing.stderr
        XCTAssertTrue(shown.contains("label = \(item.label)\n"), shown)
        for (key, value) in item.attributes {
            XCTAssertTrue(shown.contains("attribute.\(key) = \(value)\n"), "\(key):\n\(shown)")
        }
        XCTAssertTrue(shown.contains("schema = org.pwnvault.Secret\n"), shown)
    }

    func testAnItemLabelledWithItsPathIsFoundUpdatedInPlaceAndRelabelled() throws {
        // What earlier versions wrote: the vault's path in the label (the user name, and KWallet's folders).
        try requirePrivateSession()
        let item = newVaultItem()
        let old = SecretBytes(copying: Array(repeating: 7, count: 32))
        let stored = try secretTool(["store", "--label=pwnvault vault key (/home/someone/.local/share/pwnvault/vault)"]
                                    + flatten(item.attributes), input: Data(Array(repeating: UInt8(7), count: 32)).base64EncodedString())
        XCTAssertEqual(stored.status, 0, stored.stderr)
        XCTAssertTrue(try XCTUnwrap(try keyring.lookup(item)).isEqual(to: old), "an item of the old label is still found")
        let new = SecretBytes.random(count: 32)
        try keyring.store(item, secret: new)
        XCTAssertTrue(try XCTUnwrap(try keyring.lookup(item)).isEqual(to: new))
        let listing = try secretTool(["search", "--all"] + flatten(item.attributes))
        let shown = listing.stdout + listing.stderr
        XCTAssertEqual(shown.components(separatedBy: "label = ").count - 1, 1, "updated in place, not a second item: \(shown)")
        XCTAssertTrue(shown.contains("label = \(item.label)\n"), shown)
        XCTAssertFalse(shown.contains("/home/someone"), shown)
    }

    func testTheSecretIsStoredAsBase64Text() throws {
        try requirePrivateSession()
        let item = newVaultItem()
        let bytes = (0..<32).map { _ in UInt8.random(in: 0...255) }
        try keyring.store(item, secret: SecretBytes(copying: bytes))
        let printed = try secretTool(["lookup"] + flatten(item.attributes))
        XCTAssertEqual(printed.status, 0, printed.stderr)
        XCTAssertEqual(printed.stdout.trimmingCharacters(in: .newlines), Data(bytes).base64EncodedString())
    }

    func testAnItemThatIsNotBase64IsReportedNotReturned() throws {
        try requirePrivateSession()
        let item = newVaultItem()
        let stored = try secretTool(["store", "--label=someone else's"] + flatten(item.attributes),
                                    input: "not base64!")
        XCTAssertEqual(stored.status, 0, stored.stderr)
        XCTAssertThrowsError(try keyring.lookup(item)) { error in
            XCTAssertEqual(error as? KeyringError, .failed(reason: "the stored item is not a pwnvault secret"))
        }
    }

    func testSecretsOutsideTheAllowedSizeAreRefused() throws {
        try requirePrivateSession()
        let item = newVaultItem()
        for count in [0, SecretServiceKeyring.maximumSecretBytes + 1] {
            XCTAssertThrowsError(try keyring.store(item, secret: SecretBytes(count: count))) { error in
                guard case .failed = error as? KeyringError else { return XCTFail("\(error)") }
            }
        }
        XCTAssertNil(try keyring.lookup(item))
    }

    func testTheUnlockedTestCollectionReadsAsUnlocked() throws {
        try requirePrivateSession()
        XCTAssertFalse(try keyring.isLocked())
    }

    // MARK: - Without a keyring

    func testDisabledKeyringRefusesEverything() {
        let disabled = DisabledKeyring()
        let item = KeyringItem.vaultKey(vaultID: "00")
        XCTAssertThrowsError(try disabled.lookup(item)) { XCTAssertEqual($0 as? KeyringError, .disabled) }
        XCTAssertThrowsError(try disabled.store(item, secret: .random(count: 32))) { XCTAssertEqual($0 as? KeyringError, .disabled) }
        XCTAssertThrowsError(try disabled.clear(item)) { XCTAssertEqual($0 as? KeyringError, .disabled) }
    }

    func testFactoryChoosesTheKeyringAndTimeoutFromTheSettings() throws {
        func make(_ env: [String: String]) throws -> Keyring { KeyringFactory.make(settings: try Settings(environment: env)) }
        XCTAssertTrue(try make(["PWNVAULT_KEYRING": "none"]) is DisabledKeyring)
        let plain = try XCTUnwrap(try make([:]) as? SecretServiceKeyring)
        XCTAssertEqual(plain.timeoutMilliseconds, 2_000)
        let quick = try XCTUnwrap(try make(["PWNVAULT_KEYRING_TIMEOUT_MS": "300"]) as? SecretServiceKeyring)
        XCTAssertEqual(quick.timeoutMilliseconds, 300)
        for nonsense in ["0", "-5", "1.5", "2s", " 300", "600001", "99999999999", "٣٠٠"] {
            XCTAssertThrowsError(try make(["PWNVAULT_KEYRING_TIMEOUT_MS": nonsense]), nonsense.debugDescription)
        }
        XCTAssertThrowsError(try make(["PWNVAULT_KEYRING": "nnoe"]), "a typo is refused, not taken for auto")
    }

    func testLibsecretFailuresMapToKeyringErrors() {
        func map(_ domain: String, _ code: Int32, _ message: String, _ dbusName: String = "",
                 _ provider: KeyringProvider = .gnomeKeyring) -> KeyringError {
            SecretServiceKeyring.keyringError(domain: domain, code: code, message: message, dbusName: dbusName, provider: provider)
        }
        XCTAssertEqual(map("secret-error", 2, "Cannot create an item in a locked collection"), .locked(.gnomeKeyring))
        XCTAssertEqual(map("secret-error", 1, "Received invalid secret from the secret storage."),
                       .failed(reason: "received invalid secret from the secret storage"))
        XCTAssertEqual(map("g-io-error-quark", 19, "Operation was cancelled", "", .keePassXC), .timedOut(.keePassXC))
        XCTAssertEqual(map("g-dbus-error-quark", 4, "No reply"), .timedOut(.gnomeKeyring))
        XCTAssertEqual(map("g-io-error-quark", 0, "Cannot autolaunch D-Bus without X11 $DISPLAY"),
                       .unavailable(reason: "no D-Bus session"))
        XCTAssertEqual(map("g-io-error-quark", 1, "Could not connect: No such file or directory"),
                       .unavailable(reason: "cannot connect to the D-Bus session bus"))
        XCTAssertEqual(map("g-dbus-error-quark", 2, "GDBus.Error:org.freedesktop.DBus.Error.ServiceUnknown: The name org.freedesktop.secrets was not provided by any .service files",
                           "org.freedesktop.DBus.Error.ServiceUnknown", .unknown),
                       .unavailable(reason: "no Secret Service provider on the session bus"))
        XCTAssertEqual(map("g-dbus-error-quark", 19, "Object does not exist at path “/org/freedesktop/secrets/collection/login”"),
                       .noCollection(.gnomeKeyring))
        // KeePassXC with no database open: NoSuchObject with an empty body (GLib's words only).
        XCTAssertEqual(map("secret-error", 3, "GDBus.Error:org.freedesktop.Secret.Error.NoSuchObject: error return with empty body",
                           "org.freedesktop.Secret.Error.NoSuchObject", .keePassXC), .noCollection(.keePassXC))
        // The D-Bus name decides whatever GLib made of it (an unregistered name arrives as a GIO error).
        XCTAssertEqual(map("g-io-error-quark", 36, "GDBus.Error:org.freedesktop.Secret.Error.IsLocked: locked",
                           "org.freedesktop.Secret.Error.IsLocked", .kWallet), .locked(.kWallet))
        // kwalletd's error with its name stripped by libsecret: the provider spoke, the bus is fine.
        XCTAssertEqual(map("g-io-error-quark", 36, "Can't find session /org/freedesktop/secrets/session/9", "", .kWallet),
                       .failed(reason: "can't find session /org/freedesktop/secrets/session/9"))
        XCTAssertEqual(map("g-dbus-error-quark", 7, "GDBus.Error:org.example.Odd: Something\nodd happened."),
                       .unavailable(reason: "something odd happened"))
        XCTAssertEqual(map("other-quark", 3, ""), .unavailable(reason: "other-quark 3"))
        let long = SecretServiceKeyring.cleanedReason(String(repeating: "x", count: 200), otherwise: "")
        XCTAssertEqual(long.count, 80)
    }

    // MARK: - Other keyring sessions, in a child process

    func testALockedKeyringIsReportedAsLockedNotAsAMissingItem() throws {
        // The lock comes after the store: the item exists, yet libsecret alone would answer "none".
        try runProbe("lock-after-store", sessionOptions: [])
    }

    func testAKeyringLockedFromTheStartRefusesEveryCall() throws {
        try runProbe("locked", sessionOptions: ["--locked"])
    }

    func testABusWithoutAKeyringDaemonIsUnavailable() throws {
        try runProbe("no-daemon", sessionOptions: ["--no-daemon"])
    }

    func testAHungDaemonTimesOut() throws {
        try runProbe("hung", sessionOptions: [], extraEnvironment: ["PWNVAULT_KEYRING_TIMEOUT_MS": "300"])
    }

    func testNoSessionBusAtAllIsUnavailable() throws {
        // No keyring-session.sh here: an environment without any bus and without a display.
        let runtime = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: runtime) }
        var environment = ProcessInfo.processInfo.environment
        for name in ["DBUS_SESSION_BUS_ADDRESS", "DISPLAY", "WAYLAND_DISPLAY", "PWNVAULT_KEYRING_SESSION"] {
            environment.removeValue(forKey: name)
        }
        environment["XDG_RUNTIME_DIR"] = runtime.path
        try runProbe("no-bus", command: [], environment: environment)
    }

    /// Does nothing in a normal run. Re-run by the tests above in another keyring session, with
    /// PWNVAULT_KEYRING_PROBE naming what that session should look like.
    func testProbeInChildProcess() throws {
        let environment = ProcessInfo.processInfo.environment
        guard let probe = environment["PWNVAULT_KEYRING_PROBE"] else {
            throw XCTSkip("runs only as a probe in a child process")
        }
        let keyring = KeyringFactory.make(settings: try Settings(environment: environment))
        let item = KeyringItem.vaultKey(vaultID: "probe")
        func expect(_ expected: KeyringError, _ call: () throws -> Void) {
            XCTAssertThrowsError(try call(), probe) { XCTAssertEqual($0 as? KeyringError, expected, probe) }
        }
        switch probe {
        case "lock-after-store":
            try keyring.store(item, secret: .random(count: 32))
            XCTAssertNotNil(try keyring.lookup(item))
            let lock = try run(["gdbus", "call", "--session", "--dest", "org.freedesktop.secrets",
                                "--object-path", "/org/freedesktop/secrets",
                                "--method", "org.freedesktop.Secret.Service.Lock",
                                "[\"/org/freedesktop/secrets/collection/login\"]"])
            XCTAssertEqual(lock.status, 0, lock.stderr)
            XCTAssertTrue(try SecretServiceKeyring().isLocked())
            expect(.locked(.gnomeKeyring)) { _ = try keyring.lookup(item) }
            expect(.locked(.gnomeKeyring)) { try keyring.clear(item) }
            // A new process would find the item, locked: never "absent".
            expect(.locked(.gnomeKeyring)) { _ = try keyring.probe(item) }
        case "locked":
            XCTAssertTrue(try SecretServiceKeyring().isLocked())
            XCTAssertEqual(keyring.provider(), .gnomeKeyring)
            expect(.locked(.gnomeKeyring)) { _ = try keyring.lookup(item) }
            expect(.locked(.gnomeKeyring)) { try keyring.store(item, secret: .random(count: 32)) }
            expect(.locked(.gnomeKeyring)) { try keyring.clear(item) }
        case "no-daemon":
            XCTAssertEqual(keyring.provider(), .unknown)
            expect(.unavailable(reason: "no Secret Service provider on the session bus")) { _ = try keyring.lookup(item) }
            expect(.unavailable(reason: "no Secret Service provider on the session bus")) { try keyring.store(item, secret: .random(count: 32)) }
        case "no-bus":
            expect(.unavailable(reason: "no D-Bus session")) { _ = try keyring.lookup(item) }
        case "hung":
            XCTAssertEqual((keyring as? SecretServiceKeyring)?.timeoutMilliseconds, 300)
            let pid = try XCTUnwrap(environment["KEYRING_DAEMON_PID"].flatMap { pid_t($0) }, "KEYRING_DAEMON_PID")
            XCTAssertEqual(kill(pid, SIGSTOP), 0)
            defer { kill(pid, SIGCONT) }
            expect(.timedOut(.gnomeKeyring)) { _ = try keyring.lookup(item) }
            expect(.timedOut(.gnomeKeyring)) { try keyring.store(item, secret: .random(count: 32)) }
        default:
            XCTFail("unknown probe \(probe)")
        }
    }

    // MARK: - keyring-session.sh itself, with secret-tool and gdbus

    func testScriptGivesAPrivateUnlockedKeyringAndCleansUp() throws {
        let result = try run([Self.sessionScript.path, "--", "sh", "-c", """
            printf s3cret | secret-tool store --label=probe application pwnvault-script-test || exit 11
            secret-tool lookup application pwnvault-script-test || exit 12
            echo
            echo "session=$PWNVAULT_KEYRING_SESSION"
            echo "home=$HOME"
            echo "runtime=$(stat -c %a "$XDG_RUNTIME_DIR")"
            echo "data=$XDG_DATA_HOME"
            echo "display=${DISPLAY:-none}"
            kill -0 "$KEYRING_DAEMON_PID" && echo daemon=alive
            """])
        XCTAssertEqual(result.status, 0, result.stderr)
        let lines = result.stdout.components(separatedBy: "\n")
        XCTAssertEqual(lines.first, "s3cret")
        let session = try XCTUnwrap(lines.first { $0.hasPrefix("session=") }?.dropFirst("session=".count))
        XCTAssertTrue(lines.contains("home=\(session)/home"), result.stdout)
        XCTAssertTrue(lines.contains("data=\(session)/home/.local/share"), result.stdout)
        XCTAssertTrue(lines.contains("runtime=700"), result.stdout)
        XCTAssertTrue(lines.contains("display=none"), result.stdout)
        XCTAssertTrue(lines.contains("daemon=alive"), result.stdout)
        XCTAssertFalse(FileManager.default.fileExists(atPath: String(session)), "temporary session left behind")
        XCTAssertEqual(result.stderr, "", "only the command may write to stderr")
    }

    func testScriptLocksTheLoginCollectionOnRequest() throws {
        let result = try run([Self.sessionScript.path, "--locked", "--", "sh", "-c", """
            gdbus call --session --dest org.freedesktop.secrets \
                --object-path /org/freedesktop/secrets/collection/login \
                --method org.freedesktop.DBus.Properties.Get org.freedesktop.Secret.Collection Locked
            secret-tool lookup application pwnvault; echo "lookup=$?"
            """])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertTrue(result.stdout.contains("(<true>,)"), result.stdout)
        XCTAssertTrue(result.stdout.contains("lookup=1"), result.stdout)
    }

    func testScriptCanLeaveTheDaemonOut() throws {
        let result = try run([Self.sessionScript.path, "--no-daemon", "--", "sh", "-c", """
            echo "pid=${KEYRING_DAEMON_PID:-none}"
            gdbus call --session --dest org.freedesktop.DBus --object-path /org/freedesktop/DBus \
                --method org.freedesktop.DBus.NameHasOwner org.freedesktop.secrets
            secret-tool lookup application pwnvault; echo "lookup=$?"
            """])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertTrue(result.stdout.contains("pid=none"), result.stdout)
        XCTAssertTrue(result.stdout.contains("(false,)"), result.stdout)
        XCTAssertTrue(result.stdout.contains("lookup=1"), result.stdout)
        XCTAssertTrue(result.stderr.contains("not provided by any .service files"), result.stderr)
    }

    func testScriptExitsWithTheCommandsStatusAndRejectsBadUsage() throws {
        XCTAssertEqual(try run([Self.sessionScript.path, "--", "sh", "-c", "exit 7"]).status, 7)
        XCTAssertEqual(try run([Self.sessionScript.path, "--", "false"]).status, 1)
        for bad in [[], ["--"], ["--locked", "--no-daemon", "--", "true"], ["--bogus", "--", "true"]] {
            let result = try run([Self.sessionScript.path] + bad)
            XCTAssertEqual(result.status, 2, "\(bad)")
            XCTAssertTrue(result.stderr.contains("keyring-session.sh"), result.stderr)
        }
    }

    // MARK: - Helpers

    private static let sessionScript = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Support/keyring-session.sh")

    /// Why this process may not use the keyring it sees, or nil when it may.
    private static func privateSessionProblem() -> String? {
        let environment = ProcessInfo.processInfo.environment
        if environment["DBUS_SESSION_BUS_ADDRESS"] == nil {
            return "no D-Bus session bus (DBUS_SESSION_BUS_ADDRESS is unset)"
        }
        if environment["PWNVAULT_KEYRING_SESSION"] == nil {
            return "not inside keyring-session.sh; the tests will not write to this desktop's keyring"
        }
        return nil
    }

    private struct NoKeyringInCI: Error, CustomStringConvertible { let description: String }

    /// Skips the test outside a private keyring session; fails it instead when `CI` is set, so CI
    /// can never pass by skipping.
    private func requirePrivateSession() throws {
        guard let problem = Self.privateSessionProblem() else { return }
        let advice = "\(problem); run: Tests/Support/keyring-session.sh -- swift test --filter SecretServiceKeyringTests"
        if ProcessInfo.processInfo.environment["CI"] != nil { throw NoKeyringInCI(description: advice) }
        throw XCTSkip(advice)
    }

    private func newVaultItem() -> KeyringItem {
        let id = Sodium.hex(Sodium.randomData(16))
        let item = KeyringItem.vaultKey(vaultID: id)
        createdItems.append(item)
        return item
    }

    private func flatten(_ attributes: [(String, String)]) -> [String] {
        attributes.flatMap { [$0.0, $0.1] }
    }

    private func secretTool(_ arguments: [String], input: String? = nil) throws -> ProcessResult {
        try run(["secret-tool"] + arguments, input: input)
    }

    /// Re-runs this test binary's `testProbeInChildProcess` inside `keyring-session.sh` with
    /// `sessionOptions`, and requires that the probe ran and passed.
    private func runProbe(_ probe: String, sessionOptions: [String],
                          extraEnvironment: [String: String] = [:]) throws {
        var environment = ProcessInfo.processInfo.environment
        environment.merge(extraEnvironment) { $1 }
        try runProbe(probe, command: [Self.sessionScript.path] + sessionOptions + ["--"], environment: environment)
    }

    private func runProbe(_ probe: String, command: [String], environment: [String: String]) throws {
        var environment = environment
        environment["PWNVAULT_KEYRING_PROBE"] = probe
        let testBinary = try XCTUnwrap(Bundle.main.executablePath ?? CommandLine.arguments.first)
        let testName = "PwnVaultCoreTests.SecretServiceKeyringTests/testProbeInChildProcess"
        let result = try run(command + [testBinary, testName], environment: environment)
        let summary = "probe \(probe) exited \(result.status):\n\(result.stdout)\n\(result.stderr)"
        XCTAssertEqual(result.status, 0, summary)
        let output = result.stdout + result.stderr
        XCTAssertTrue(output.contains("Executed 1 test, with 0 failures"), summary)
        XCTAssertFalse(output.contains("skipped"), summary)
    }

    private struct ProcessResult { var status: Int32; var stdout: String; var stderr: String }

    /// Runs a command (looked up in PATH) to the end. Output goes through files, not pipes: a
    /// keyring daemon that outlives the command could otherwise hold a pipe open. A command that
    /// hangs is killed after a minute, a guard against a stuck test run and not a timing check.
    private func run(_ command: [String], input: String? = nil,
                     environment: [String: String]? = nil) throws -> ProcessResult {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let out = directory.appendingPathComponent("stdout"), err = directory.appendingPathComponent("stderr")
        let inputFile = directory.appendingPathComponent("stdin")
        for file in [out, err] { _ = FileManager.default.createFile(atPath: file.path, contents: nil) }
        _ = FileManager.default.createFile(atPath: inputFile.path, contents: Data((input ?? "").utf8))

        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = command
        if let environment { process.environment = environment }
        process.standardInput = try FileHandle(forReadingFrom: inputFile)
        process.standardOutput = try FileHandle(forWritingTo: out)
        process.standardError = try FileHandle(forWritingTo: err)
        try process.run()
        let pid = process.processIdentifier
        DispatchQueue.global().asyncAfter(deadline: .now() + 60) { if process.isRunning { kill(pid, SIGKILL) } }
        process.waitUntilExit()
        return ProcessResult(status: process.terminationStatus,
                             stdout: try String(contentsOf: out, encoding: .utf8),
                             stderr: try String(contentsOf: err, encoding: .utf8))
    }

    private func temporaryDirectory() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("pwnvault-test-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: false,
                                                attributes: [.posixPermissions: 0o700])
        return url
    }
}
