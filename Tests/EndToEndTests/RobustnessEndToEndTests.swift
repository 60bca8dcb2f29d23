import Foundation
import XCTest

/// Crashes, concurrency and keyrings that misbehave: the vault always opens afterwards, with nothing lost.
final class RobustnessEndToEndTests: XCTestCase {
    private func ids(_ s: Sandbox, file: StaticString = #filePath, line: UInt = #line) throws -> [Int] {
        let r = s.run(["list", "--json"])
        XCTAssertEqual(r.status, 0, "the vault must open: \(r.stderr)", file: file, line: line)
        let rows = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [[String: Any]],
                                 file: file, line: line)
        return rows.compactMap { $0["id"] as? Int }
    }

    func testTwentyFourSimultaneousAddsAreAllKept() throws {
        let s = try Sandbox()
        s.initVault()
        // Start them all before waiting for any, so they really run at once.
        let processes = try (0..<24).map { i in try s.start(["add", "user\(i)@example.com"]) }
        for p in processes { p.waitUntilExit() }
        XCTAssertEqual(processes.map(\.terminationStatus), [Int32](repeating: 0, count: 24))
        XCTAssertEqual(try ids(s).sorted(), Array(1...24))
    }

    func testKillingASaveAtRandomMomentsAlwaysLeavesTheOldOrTheNewVault() throws {
        let s = try Sandbox()
        s.initVault()
        var expected = try ids(s).count
        var killedMidway = 0
        for i in 0..<40 {
            let p = try s.start(["add", "crash\(i)@example.com"])
            usleep(UInt32.random(in: 0...60_000))
            kill(p.processIdentifier, SIGKILL)
            p.waitUntilExit()
            if p.terminationReason == .uncaughtSignal { killedMidway += 1 }
            let now = try ids(s).count
            XCTAssertTrue(now == expected || now == expected + 1, "iteration \(i): \(expected) → \(now)")
            expected = now
        }
        // Figures for the record: how many runs were really interrupted.
        print("crash test: \(killedMidway) of 40 runs killed before they finished; \(expected) accounts survived")
        XCTAssertGreaterThan(killedMidway, 0, "the test must actually interrupt some saves")
    }

    /// Runs a shell script inside a fresh private keyring session (Tests/Support/keyring-session.sh).
    private func inKeyringSession(_ s: Sandbox, options: [String] = [], script: String) -> RunResult {
        var env = s.environment
        env["PWNVAULT"] = Paths.binary
        env["PASSFILE"] = s.passphraseFile
        env.removeValue(forKey: "DBUS_SESSION_BUS_ADDRESS")
        return Sandbox.exec("/bin/bash", [Paths.support("keyring-session.sh")] + options + ["--", "/bin/bash", "-c", script],
                            input: nil, environment: env)
    }

    func testALockedKeyringIsNeverMistakenForAMissingKey() throws {
        let s = try Sandbox(keyring: false)
        s.environment.removeValue(forKey: "PWNVAULT_KEYRING")
        let r = inKeyringSession(s, script: """
            set -u
            PWNVAULT_PASSPHRASE_FILE=$PASSFILE "$PWNVAULT" init --weak-passphrase-ok --kdf interactive || exit 90
            "$PWNVAULT" add vic@example.com || exit 91
            gdbus call --session --dest org.freedesktop.secrets --object-path /org/freedesktop/secrets \
              --method org.freedesktop.Secret.Service.Lock '["/org/freedesktop/secrets/collection/login"]' >/dev/null || exit 92
            echo "== locked, no passphrase"
            "$PWNVAULT" list 2>&1; echo "status=$?"
            echo "== locked, passphrase"
            PWNVAULT_PASSPHRASE_FILE=$PASSFILE "$PWNVAULT" list 2>&1; echo "status=$?"
            """)
        XCTAssertEqual(r.status, 0, r.all)
        let parts = r.all.components(separatedBy: "== locked, passphrase")
        XCTAssertEqual(parts.count, 2, r.all)
        XCTAssertTrue(parts[0].contains("status=3"), parts[0])
        XCTAssertTrue(parts[0].contains("the GNOME keyring is locked"), parts[0])
        XCTAssertTrue(parts[1].contains("the GNOME keyring is locked; using the passphrase"), parts[1])
        XCTAssertTrue(parts[1].contains("status=0"), parts[1])
        XCTAssertFalse(r.all.contains("no key for this vault"), "locked must not look like a missing key: \(r.all)")
        XCTAssertFalse(r.all.contains("stored the vault key"), "nothing is stored into a locked keyring: \(r.all)")
    }

    func testListAsksTheSecretServiceNoMoreThanSecretToolLookupDoes() throws {
        // The calls each process sends to the Secret Service (paths under /org/freedesktop/secrets),
        // as dbus-monitor sees them on the private bus; a marker call shows that the monitor has seen
        // everything before it is stopped.
        let s = try Sandbox(keyring: false)
        s.environment.removeValue(forKey: "PWNVAULT_KEYRING")
        let r = inKeyringSession(s, script: """
            set -u
            PWNVAULT_PASSPHRASE_FILE=$PASSFILE "$PWNVAULT" init --weak-passphrase-ok --kdf interactive >/dev/null || exit 90
            "$PWNVAULT" add ann@example.com >/dev/null 2>&1 || exit 91
            id=$(secret-tool search --all application pwnvault type vault-key 2>&1 | sed -n 's/^attribute.vault-id = //p')
            [ -n "$id" ] || exit 92
            calls() {  # calls NAME CMD...: the Secret Service calls CMD makes
                log=$PWNVAULT_KEYRING_SESSION/$1.log; shift
                dbus-monitor --session "type='method_call'" >"$log" 2>&1 & mon=$!
                for _ in $(seq 100); do grep -q NameLost "$log" && break; sleep 0.05; done
                "$@" >/dev/null || echo "failed: $*"
                gdbus call --session --dest org.freedesktop.DBus --object-path /org/freedesktop/DBus \
                  --method org.freedesktop.DBus.GetId >/dev/null
                for _ in $(seq 100); do grep -q 'member=GetId' "$log" && break; sleep 0.05; done
                kill $mon; wait $mon 2>/dev/null
                grep -c 'path=/org/freedesktop/secrets' "$log"
            }
            echo "pwnvault=$(calls list "$PWNVAULT" list)"
            echo "secret-tool=$(calls lookup secret-tool lookup application pwnvault type vault-key vault-id "$id")"
            """)
        XCTAssertEqual(r.status, 0, r.all)
        XCTAssertFalse(r.stdout.contains("failed:"), r.all)
        func count(_ name: String) -> Int? {
            r.stdout.split(separator: "\n").first { $0.hasPrefix(name + "=") }.flatMap { Int($0.dropFirst(name.count + 1)) }
        }
        let pwnvault = try XCTUnwrap(count("pwnvault"), r.all), secretTool = try XCTUnwrap(count("secret-tool"), r.all)
        XCTAssertGreaterThan(secretTool, 0, "the monitor saw nothing: \(r.all)")
        XCTAssertGreaterThan(pwnvault, 0, "the monitor saw nothing: \(r.all)")
        XCTAssertLessThanOrEqual(pwnvault, secretTool, "list asks the Secret Service more often than secret-tool lookup")
        print("Secret Service calls: pwnvault list \(pwnvault), secret-tool lookup \(secretTool)")
    }

    func testNoKeyringDaemonFallsBackToThePassphraseWithOneLineSayingWhy() throws {
        let s = try Sandbox(keyring: false)
        s.environment.removeValue(forKey: "PWNVAULT_KEYRING")
        let r = inKeyringSession(s, options: ["--no-daemon"], script: """
            export PWNVAULT_PASSPHRASE_FILE=$PASSFILE
            "$PWNVAULT" init --weak-passphrase-ok --kdf interactive; echo "init=$?"
            "$PWNVAULT" add wes@example.com; echo "add=$?"
            """)
        XCTAssertTrue(r.stdout.contains("init=0") && r.stdout.contains("add=0"), r.all)
        XCTAssertTrue(r.stderr.contains("no usable keyring"), r.stderr)
        XCTAssertTrue(r.stderr.contains("using the passphrase"), r.stderr)
    }

    func testAHungKeyringDaemonTimesOutAndFallsBack() throws {
        let s = try Sandbox(keyring: false)
        s.environment.removeValue(forKey: "PWNVAULT_KEYRING")
        let r = inKeyringSession(s, script: """
            export PWNVAULT_PASSPHRASE_FILE=$PASSFILE
            "$PWNVAULT" init --weak-passphrase-ok --kdf interactive || exit 90
            [ -n "${KEYRING_DAEMON_PID:-}" ] || exit 91
            kill -STOP "$KEYRING_DAEMON_PID"
            PWNVAULT_KEYRING_TIMEOUT_MS=1500 "$PWNVAULT" list; echo "status=$?"
            kill -CONT "$KEYRING_DAEMON_PID"
            """)
        XCTAssertTrue(r.stdout.contains("status=0"), r.all)
        XCTAssertTrue(r.stderr.contains("did not answer in time"), r.stderr)
    }

    func testTheVaultMovesToAMachineWithoutItsKeyAndTheKeyIsStoredThere() throws {
        let s = try Sandbox()
        s.initVault()
        XCTAssertEqual(s.run(["add", "xena@example.com"]).status, 0)
        // Another "machine": a fresh keyring session that has never seen this vault.
        let r = inKeyringSession(s, script: """
            PWNVAULT_PASSPHRASE_FILE=$PASSFILE "$PWNVAULT" list >/dev/null; echo "first=$?"
            "$PWNVAULT" list >/dev/null; echo "second=$?"
            """)
        XCTAssertTrue(r.stdout.contains("first=0") && r.stdout.contains("second=0"), r.all)
        XCTAssertTrue(r.stderr.contains("the keyring has no key for this vault; using the passphrase"), r.stderr)
        // Said only after a new connection found the key readable without a dialog.
        XCTAssertTrue(r.stderr.contains("stored the vault key in GNOME Keyring; next time no passphrase is needed"), r.stderr)
    }

    func testAKeyringItemWithAnotherVaultsKeyIsNotTrustedAndIsRepaired() throws {
        let s = try Sandbox()
        s.initVault()
        XCTAssertEqual(s.run(["add", "zoe@example.com"]).status, 0)
        let status = s.run(["status", "--json"], passphraseFromFile: false)
        let vaultID = try XCTUnwrap((try JSONSerialization.jsonObject(with: Data(status.stdout.utf8)) as? [String: Any])?["vaultID"] as? String)
        // Overwrite the item with a key of another vault (32 random bytes, base64 as pwnvault stores it).
        let other = Data((0..<32).map { _ in UInt8.random(in: 0...255) }).base64EncodedString()
        let stored = Sandbox.exec("/usr/bin/env", ["secret-tool", "store", "--label", "pwnvault vault key (other)",
                                                   "application", "pwnvault", "type", "vault-key", "vault-id", vaultID],
                                  input: other, environment: s.environment)
        XCTAssertEqual(stored.status, 0, stored.all)
        XCTAssertEqual(s.run(["list"], passphraseFromFile: false).status, 3, "the wrong key must not open it, and no passphrase is at hand")
        let r = s.run(["list"])
        XCTAssertEqual(r.status, 0, r.all)
        XCTAssertTrue(r.stderr.contains("the keyring's key for this vault does not open it; using the passphrase"), r.stderr)
        XCTAssertTrue(r.stderr.contains("replaced the keyring's wrong key"), r.stderr)
        XCTAssertEqual(s.run(["list"], passphraseFromFile: false).status, 0, "repaired: the keyring opens it again")
        // and only one item is left for this vault (the wrong one, stored under another schema, is gone)
        let items = Sandbox.exec("/usr/bin/env", ["secret-tool", "search", "--all", "vault-id", vaultID], input: nil,
                                 environment: s.environment)
        XCTAssertEqual(items.all.components(separatedBy: "label = ").count - 1, 1, items.all)
    }
}
