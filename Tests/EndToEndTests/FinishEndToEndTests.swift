import Foundation
import XCTest

/// `pwnvault doctor` against the fake HIBP server and a real keyring, `make install` into a temporary
/// prefix, and the installed man page and completions.
final class FinishEndToEndTests: XCTestCase {
    static let goodKey = FakeHIBP.key

    /// The environment that points pwnvault at the fake server.
    private func serverEnvironment(_ server: FakeHIBP) -> [String: String] {
        ["PWNVAULT_API_URL": server.apiURL, "PWNVAULT_PASSWORDS_URL": server.base]
    }

    /// doctor's lines by check name: (outcome, detail, fix).
    private func lines(_ output: String) -> [String: (outcome: String, detail: String, fix: String?)] {
        var result: [String: (String, String, String?)] = [:]
        var last: String?
        for line in output.split(separator: "\n").map(String.init) {
            let words = line.split(separator: " ", maxSplits: 1).map(String.init)
            if ["ok", "warning", "problem"].contains(words.first ?? ""), words.count == 2 {
                let rest = words[1].trimmingCharacters(in: .whitespaces)
                let name = ["Pwned Passwords", "key derivation", "API key", "share mode", "core dumps"].first { rest.hasPrefix($0 + " ") }
                    ?? String(rest.split(separator: " ")[0])
                result[name] = (words[0], rest.dropFirst(name.count).trimmingCharacters(in: .whitespaces), nil)
                last = name
            } else if let l = last, line.trimmingCharacters(in: .whitespaces).hasPrefix("fix: ") {
                result[l]!.2 = String(line.trimmingCharacters(in: .whitespaces).dropFirst(5))
            }
        }
        return result.mapValues { (outcome: $0.0, detail: $0.1, fix: $0.2) }
    }

    func testDoctorOnAHealthySetupIsAllOkAndOpensTheVaultWithoutAPrompt() throws {
        let s = try Sandbox()
        let server = try FakeHIBP()
        s.initVault()
        XCTAssertEqual(s.run(["config", "api-key"], input: Self.goodKey + "\n", env: serverEnvironment(server)).status, 0)
        defer { s.run(["config", "api-key", "--remove"]) }   // the keyring session is shared by the suite
        // No passphrase source at all: doctor must not need one.
        let r = s.run(["doctor"], env: serverEnvironment(server), passphraseFromFile: false)
        XCTAssertEqual(r.status, 0, r.all)
        let checks = lines(r.stdout)
        for name in ["keyring", "vault", "unlock", "key derivation", "permissions", "API key", "api", "Pwned Passwords", "share mode", "core dumps"] {
            XCTAssertEqual(checks[name]?.outcome, "ok", "\(name): \(r.stdout)")
        }
        XCTAssertTrue(checks["unlock"]!.detail.contains("opens with the keyring's key"), r.stdout)
        XCTAssertTrue(checks["key derivation"]!.detail.contains("(interactive)"), r.stdout)
        XCTAssertTrue(checks["permissions"]!.detail.contains("folder 0700, vault 0600"), r.stdout)
        XCTAssertTrue(checks["API key"]!.detail.contains("accepted by HIBP"), r.stdout)
        XCTAssertTrue(r.stdout.hasSuffix("everything is in order\n"), r.stdout)
        XCTAssertFalse(r.all.contains(Self.goodKey), "the API key is never printed")
        XCTAssertFalse(r.all.lowercased().contains("passphrase for"), "no prompt")
        let paths = server.log().compactMap { $0["path"] as? String }
        XCTAssertTrue(paths.contains("/api/v3/latestbreach"), "\(paths)")
        XCTAssertTrue(paths.contains("/range/00000"), "\(paths)")
        XCTAssertTrue(paths.contains("/api/v3/subscription/status"), "\(paths)")

        let json = s.run(["doctor", "--json"], env: serverEnvironment(server), passphraseFromFile: false)
        XCTAssertEqual(json.status, 0, json.all)
        let report = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        XCTAssertEqual(report["problems"] as? Int, 0)
        XCTAssertEqual((report["checks"] as? [[String: Any]])?.count, 11)
        let lookup = (report["checks"] as? [[String: Any]])?.first { $0["name"] as? String == "lookup" }
        XCTAssertEqual(lookup?["outcome"] as? String, "ok")
        XCTAssertTrue((lookup?["detail"] as? String ?? "").hasPrefix("whole address"), "the sandbox sets off: \(json.stdout)")
        let auto = s.run(["doctor"], env: serverEnvironment(server).merging(["PWNVAULT_K_ANONYMITY": "auto"]) { $1 },
                         passphraseFromFile: false)
        XCTAssertTrue(auto.stdout.contains("lookup") && auto.stdout.contains("k-anonymity: only the first 6 hex"), auto.stdout)
    }

    func testDoctorReportsAMissingVaultWithAFix() throws {
        let s = try Sandbox(keyring: false)
        let server = try FakeHIBP()
        let r = s.run(["doctor"], env: serverEnvironment(server))
        XCTAssertEqual(r.status, 4, r.all)
        let vault = try XCTUnwrap(lines(r.stdout)["vault"], r.stdout)
        XCTAssertEqual(vault.outcome, "problem")
        XCTAssertTrue(vault.detail.hasPrefix("no vault at "), vault.detail)
        XCTAssertTrue(vault.fix?.contains("pwnvault init") == true, r.stdout)
        XCTAssertEqual(lines(r.stdout)["keyring"]?.outcome, "warning", "PWNVAULT_KEYRING=none is a choice, not a fault")
    }

    func testDoctorReportsUnsafePermissionsAndSaysHowToFixThem() throws {
        let s = try Sandbox(keyring: false)
        let server = try FakeHIBP()
        s.initVault()
        XCTAssertEqual(s.run(["add", "pat@example.com"]).status, 0)
        XCTAssertEqual(s.run(["add", "sam@example.com"]).status, 0)   // makes a backup
        chmod(s.vault + ".bak", 0o644)
        let r = s.run(["doctor"], env: serverEnvironment(server))
        XCTAssertEqual(r.status, 4, r.all)
        let permissions = try XCTUnwrap(lines(r.stdout)["permissions"], r.stdout)
        XCTAssertEqual(permissions.outcome, "problem", r.stdout)
        XCTAssertTrue(permissions.detail.contains("backup"), permissions.detail)
        XCTAssertTrue(permissions.fix?.hasPrefix("chmod 600 ") == true, r.stdout)

        // The fix works.
        let fix = try XCTUnwrap(permissions.fix)
        let path = String(fix.dropFirst("chmod 600 ".count))
        XCTAssertEqual(Sandbox.exec("/bin/sh", ["-c", "chmod 600 " + path], input: nil, environment: s.environment).status, 0)
        let again = s.run(["doctor"], env: serverEnvironment(server))
        XCTAssertEqual(lines(again.stdout)["permissions"]?.outcome, "ok", again.stdout)
        XCTAssertEqual(again.status, 0, again.all)
    }

    func testDoctorReportsAMalformedAndARefusedAPIKeyWithoutPrintingThem() throws {
        let s = try Sandbox(keyring: false)
        let server = try FakeHIBP()
        s.initVault()
        let malformed = "not-a-key-but-a-secret-all-the-same"
        let r = s.run(["doctor"], env: serverEnvironment(server).merging(["HIBP_API_KEY": malformed]) { $1 })
        XCTAssertEqual(r.status, 7, r.all)
        XCTAssertEqual(lines(r.stdout)["API key"]?.outcome, "problem", r.stdout)
        XCTAssertTrue(lines(r.stdout)["API key"]?.fix?.contains("HIBP_API_KEY") == true, r.stdout)
        XCTAssertFalse(r.all.contains(malformed))

        let refused = "33333333333333333333333333333333"
        let r2 = s.run(["doctor", "--json"], env: serverEnvironment(server).merging(["HIBP_API_KEY": refused]) { $1 })
        XCTAssertEqual(r2.status, 7, r2.all)
        XCTAssertTrue(r2.stdout.contains("HIBP refused HIBP_API_KEY"), r2.stdout)
        XCTAssertFalse(r2.all.contains(refused))
    }

    func testDoctorReportsAnUnreachableAPI() throws {
        let s = try Sandbox(keyring: false)
        s.initVault()
        let port = try closedPort()
        let r = s.run(["doctor"], env: ["PWNVAULT_API_URL": "http://127.0.0.1:\(port)/api/v3",
                                        "PWNVAULT_PASSWORDS_URL": "http://127.0.0.1:\(port)",
                                        "HIBP_API_KEY": Self.goodKey])
        XCTAssertEqual(r.status, 6, r.all)
        let checks = lines(r.stdout)
        XCTAssertEqual(checks["api"]?.outcome, "problem", r.stdout)
        XCTAssertTrue(checks["api"]!.detail.contains("cannot reach http://127.0.0.1:\(port)/api/v3/"), r.stdout)
        XCTAssertTrue(checks["api"]?.fix?.contains("PWNVAULT_API_URL") == true, r.stdout)
        XCTAssertEqual(checks["Pwned Passwords"]?.outcome, "problem", r.stdout)
        XCTAssertEqual(checks["API key"]?.outcome, "warning", "a well-formed key that cannot be verified: \(r.stdout)")
        XCTAssertEqual(checks["vault"]?.outcome, "ok", r.stdout)
    }

    func testDoctorReportsALockedKeyringAndNeverAsksForThePassphrase() throws {
        let s = try Sandbox(keyring: false)
        s.environment.removeValue(forKey: "PWNVAULT_KEYRING")
        s.environment.removeValue(forKey: "DBUS_SESSION_BUS_ADDRESS")
        let server = try FakeHIBP()
        var env = s.environment.merging(serverEnvironment(server)) { $1 }
        env["PWNVAULT"] = Paths.binary
        env["PASSFILE"] = s.passphraseFile
        let r = Sandbox.exec("/bin/bash", [Paths.support("keyring-session.sh"), "--", "/bin/bash", "-c", """
            set -u
            PWNVAULT_PASSPHRASE_FILE=$PASSFILE "$PWNVAULT" init --weak-passphrase-ok --kdf interactive >/dev/null 2>&1 || exit 90
            gdbus call --session --dest org.freedesktop.secrets --object-path /org/freedesktop/secrets \
              --method org.freedesktop.Secret.Service.Lock '["/org/freedesktop/secrets/collection/login"]' >/dev/null || exit 92
            "$PWNVAULT" doctor </dev/null; echo "status=$?"
            """], input: nil, environment: env)
        XCTAssertEqual(r.status, 0, r.all)
        XCTAssertTrue(r.stdout.contains("status=5"), r.all)
        let checks = lines(r.stdout)
        XCTAssertEqual(checks["keyring"]?.outcome, "problem", r.stdout)
        XCTAssertTrue(checks["keyring"]!.detail.contains("locked"), r.stdout)
        XCTAssertTrue(checks["keyring"]?.fix?.contains("unlock") == true, r.stdout)
        XCTAssertEqual(checks["unlock"]?.outcome, "warning", r.stdout)
        XCTAssertFalse(r.all.lowercased().contains("passphrase for"), "doctor never prompts: \(r.all)")
    }

    // MARK: make install

    func testMakeInstallPutsEverythingUnderPrefixAndDestdirAndUninstallRemovesIt() throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/make") else { throw XCTSkip("make is not installed") }
        let stage = FileManager.default.temporaryDirectory.appendingPathComponent("pwnvault-install-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: stage) }
        let prefix = "/opt/pwnvault-test"
        let env = ["PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin", "HOME": NSTemporaryDirectory()]
        // The binary under test: no build inside a test (swift test holds the build folder's lock).
        let make = ["-C", Paths.root.path, "--no-print-directory", "PREFIX=" + prefix, "DESTDIR=" + stage.path,
                    "PWNVAULT_BIN=" + Paths.binary]
        let r = Sandbox.exec("/usr/bin/make", make + ["install"], input: nil, environment: env)
        XCTAssertEqual(r.status, 0, r.all)
        let root = stage.path + prefix
        let expected = ["bin/pwnvault": 0o755, "share/man/man1/pwnvault.1": 0o644,
                        "share/bash-completion/completions/pwnvault": 0o644, "share/zsh/site-functions/_pwnvault": 0o644,
                        "share/fish/vendor_completions.d/pwnvault.fish": 0o644,
                        "share/man/zh_CN/man1/pwnvault.1": 0o644, "share/locale/zh_CN/LC_MESSAGES/pwnvault.mo": 0o644]
        for (path, mode) in expected {
            let attributes = try FileManager.default.attributesOfItem(atPath: root + "/" + path)
            XCTAssertEqual((attributes[.posixPermissions] as? NSNumber)?.intValue, mode, path)
        }
        let installed = root + "/bin/pwnvault"
        XCTAssertEqual(Sandbox.exec(installed, ["--version"], input: nil, environment: env).stdout, "pwnvault 0.1.0\n")
        // The installed binary finds its catalogs under its own prefix (no TEXTDOMAINDIR).
        let chinese = Sandbox.exec(installed, ["lst"], input: nil, environment: env.merging(["LC_ALL": "C.UTF-8", "LANGUAGE": "zh_CN"]) { $1 })
        XCTAssertTrue(chinese.stderr.contains("未知命令"), chinese.all)
        let completion = try String(contentsOfFile: root + "/share/bash-completion/completions/pwnvault", encoding: .utf8)
        XCTAssertEqual(completion, Sandbox.exec(installed, ["completions", "bash"], input: nil, environment: env).stdout)
        let bash = Sandbox.exec("/bin/bash", ["--norc", "-c", "source \"$1\"; COMP_WORDS=(pwnvault doc); COMP_CWORD=1; _pwnvault; echo \"${COMPREPLY[@]}\"",
                                              "_", root + "/share/bash-completion/completions/pwnvault"], input: nil, environment: env)
        XCTAssertEqual(bash.stdout, "doctor\n", bash.all)
        if FileManager.default.isExecutableFile(atPath: "/usr/bin/man") {
            let man = Sandbox.exec("/usr/bin/man", ["--warnings", "-l", root + "/share/man/man1/pwnvault.1"], input: nil,
                                   environment: env.merging(["MANPAGER": "cat", "MANWIDTH": "80"]) { $1 })
            XCTAssertEqual(man.status, 0, man.all)
            XCTAssertEqual(man.stderr, "", "man warns about the page")
            XCTAssertTrue(man.stdout.contains("pwnvault doctor"), man.stdout)
        }

        let u = Sandbox.exec("/usr/bin/make", make + ["uninstall"], input: nil, environment: env)
        XCTAssertEqual(u.status, 0, u.all)
        for path in expected.keys {
            XCTAssertFalse(FileManager.default.fileExists(atPath: root + "/" + path), "\(path) left behind")
        }
    }

    // MARK: helpers

    /// A loopback port nothing listens on: bound, then closed.
    private func closedPort() throws -> Int {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw XCTSkip("no socket") }
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { p in
            p.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) == 0 && getsockname(fd, $0, &length) == 0 }
        }
        guard bound else { throw XCTSkip("cannot bind a loopback port") }
        return Int(UInt16(bigEndian: address.sin_port))
    }
}
