import Foundation
import XCTest

/// Issue 30, items 1-3: pwnvault loads code and catalogs from beside itself only where nobody but root
/// and the user can change them (TrustedPath), the file checked being the file loaded; translations are
/// sanitised; a catalog whose Plural-Forms divides by zero is refused; a fatal signal puts the terminal back.
/// Run as root (as the suite is): "another user" is uid 65534 (nobody), or a folder anybody may write.
final class TrustOnDiskEndToEndTests: XCTestCase {
    private let fm = FileManager.default
    private static let nobody: uid_t = 65534

    /// A copy of the binary at `root/X/bin/pwnvault` (the layout of an unpacked release), and the real
    /// shim's path for tests that put it somewhere.
    private func install(under root: URL, shimBeside: Bool = false) throws -> String {
        let bin = root.appendingPathComponent("X/bin")
        try fm.createDirectory(at: bin, withIntermediateDirectories: true)
        chmod(root.appendingPathComponent("X").path, 0o755)
        chmod(bin.path, 0o755)
        let binary = bin.appendingPathComponent("pwnvault").path
        try fm.copyItem(atPath: Paths.binary, toPath: binary)
        if shimBeside { try fm.copyItem(atPath: Self.realShim, toPath: bin.appendingPathComponent("libPwnVaultPhone.so").path) }
        return binary
    }

    private static var realShim: String { Paths.products.appendingPathComponent("libPwnVaultPhone.so").path }

    private func requireRoot() throws {
        guard geteuid() == 0 else { throw XCTSkip("needs root, to give files to another user (uid 65534)") }
    }

    private func run(_ binary: String, _ s: Sandbox, _ args: [String], env: [String: String] = [:]) -> RunResult {
        var environment = s.environment.merging(env) { $1 }
        environment["PWNVAULT_PASSPHRASE_FILE"] = s.passphraseFile
        return Sandbox.exec(binary, args, input: nil, environment: environment)
    }

    /// A shared library whose constructor creates `marker`: what an attacker would want loaded.
    private func buildMarkerLibrary(at path: String, marker: String) throws {
        let source = path + ".c"
        try """
        #include <fcntl.h>
        #include <unistd.h>
        __attribute__((constructor)) static void planted(void) {
            int fd = open("\(marker)", O_WRONLY | O_CREAT | O_APPEND, 0644);
            if (fd >= 0) { write(fd, "x", 1); close(fd); }
        }
        """.write(toFile: source, atomically: true, encoding: .utf8)
        let cc = Sandbox.exec("/usr/bin/env", ["cc", "-shared", "-fPIC", "-o", path, source], input: nil,
                              environment: ["PATH": "/usr/bin:/bin"])
        guard cc.status == 0 else { throw XCTSkip("no C compiler to build the planted library: \(cc.all)") }
    }

    // MARK: the phone shim

    func testASymlinkSwappedBetweenTheShimAndAPlantedLibraryInAFolderAnyoneMayWriteIsNeverLoaded() throws {
        let s = try Sandbox(keyring: false)
        s.initVault()
        // W is writable by everybody (as an unpacked release's parent folder may be); pwnvault is in W/X/bin,
        // so W/X/lib/pwnvault/libPwnVaultPhone.so is where it looks first.
        let w = s.dir.appendingPathComponent("W")
        try fm.createDirectory(at: w, withIntermediateDirectories: true)
        chmod(w.path, 0o777)
        let binary = try install(under: w)
        let lib = w.appendingPathComponent("X/lib/pwnvault")
        try fm.createDirectory(at: lib, withIntermediateDirectories: true)
        let planted = s.dir.appendingPathComponent("planted.so").path
        let marker = s.dir.appendingPathComponent("marker").path
        try buildMarkerLibrary(at: planted, marker: marker)
        let link = lib.appendingPathComponent("libPwnVaultPhone.so").path
        // The attacker: swaps the link between the real shim and the planted library as fast as it can.
        let swapper = Process()
        swapper.executableURL = URL(fileURLWithPath: Paths.python)
        swapper.arguments = ["-c", """
            import os, sys
            link, a, b = sys.argv[1:4]
            tmp = link + ".tmp"
            i = 0
            while True:
                try: os.unlink(tmp)
                except FileNotFoundError: pass
                os.symlink(a if i % 2 else b, tmp)
                os.replace(tmp, link)
                i += 1
            """, link, Self.realShim, planted]
        try swapper.run()
        defer { swapper.terminate(); swapper.waitUntilExit() }
        var refusals = 0
        for n in 0..<200 {
            let r = run(binary, s, ["add", String(format: "+44 7700 9001%02d", n % 100)], env: ["LANG": "C"])
            XCTAssertEqual(r.status, 2, r.all)
            if r.stderr.contains("was not loaded, because") { refusals += 1 }
        }
        XCTAssertFalse(fm.fileExists(atPath: marker), "the planted library's constructor ran inside pwnvault")
        XCTAssertEqual(refusals, 200)
        // Without the race: the planted library itself, as a plain file in that folder, is refused too.
        swapper.terminate(); swapper.waitUntilExit()
        try? fm.removeItem(atPath: link)
        try fm.copyItem(atPath: planted, toPath: link)
        let r = run(binary, s, ["add", "+44 7700 900123"], env: ["LANG": "C"])
        XCTAssertEqual(r.status, 2, r.all)
        XCTAssertTrue(r.stderr.contains("because \(w.path) may be written by others than its owner (mode 0777)"), r.stderr)
        XCTAssertFalse(fm.fileExists(atPath: marker))
    }

    func testALinkToARootOwnedLibraryIsRefusedNamingTheLink() throws {
        let s = try Sandbox(keyring: false)
        s.initVault()
        let binary = try install(under: s.dir)
        let lib = s.dir.appendingPathComponent("X/lib/pwnvault")
        try fm.createDirectory(at: lib, withIntermediateDirectories: true)
        chmod(s.dir.appendingPathComponent("X/lib").path, 0o755)
        chmod(lib.path, 0o755)
        let link = lib.appendingPathComponent("libPwnVaultPhone.so").path
        // The real shim itself, root's, in folders only root may write: through a link, still refused.
        try fm.createSymbolicLink(atPath: link, withDestinationPath: Self.realShim)
        let r = run(binary, s, ["add", "+44 7700 900123"], env: ["LANG": "C"])
        XCTAssertEqual(r.status, 2, r.all)
        XCTAssertEqual(r.stderr, """
            pwnvault: error: phone numbers cannot be read: pwnvault's libPwnVaultPhone.so was not loaded, because \(link) is a symbolic link
            pwnvault: hint: pwnvault loads code only from files and folders that only root or you can change: install it with 'make install' under a PREFIX that root owns, or correct that owner or mode

            """)
        // The same file copied there is loaded: the refusal was the link's.
        try fm.removeItem(atPath: link)
        try fm.copyItem(atPath: Self.realShim, toPath: link)
        chmod(link, 0o644)
        let loaded = run(binary, s, ["add", "+44 7700 900123"], env: ["LANG": "C"])
        XCTAssertEqual(loaded.status, 0, loaded.all)
    }

    func testAGroupWritableFolderAndAFolderOfAnotherUserAreRefusedAndDoctorSaysSo() throws {
        try requireRoot()
        let s = try Sandbox(keyring: false)
        s.initVault()
        let binary = try install(under: s.dir, shimBeside: true)
        let bin = s.dir.appendingPathComponent("X/bin").path
        XCTAssertEqual(run(binary, s, ["add", "+44 7700 900123"]).status, 0, "the copied layout works as it is")
        chmod(bin, 0o775)
        let r = run(binary, s, ["add", "+44 7700 900124"], env: ["LANG": "C"])
        XCTAssertEqual(r.status, 2, r.all)
        XCTAssertTrue(r.stderr.contains("because \(bin) may be written by others than its owner (mode 0775)"), r.stderr)
        let doctor = run(binary, s, ["doctor"], env: ["LANG": "C"])
        XCTAssertTrue(doctor.stdout.contains("phone numbers"), doctor.stdout)
        XCTAssertTrue(doctor.stdout.contains("(mode 0775)"), doctor.stdout)
        chmod(bin, 0o755)
        let x = s.dir.appendingPathComponent("X").path
        XCTAssertEqual(chown(x, Self.nobody, Self.nobody), 0)
        let foreign = run(binary, s, ["add", "+44 7700 900125"], env: ["LANG": "C"])
        XCTAssertEqual(foreign.status, 2, foreign.all)
        XCTAssertTrue(foreign.stderr.contains("because \(x) belongs to uid 65534, neither root nor you"), foreign.stderr)
        let json = run(binary, s, ["doctor", "--json"], env: ["LANG": "C"])
        XCTAssertTrue(json.stdout.contains("\"phone numbers\""), json.stdout)
        XCTAssertTrue(json.stdout.contains("belongs to uid 65534"), json.stdout)
        // A sound installation's report has no such line.
        XCTAssertFalse(s.run(["doctor"], env: ["LANG": "C"]).stdout.contains("phone numbers"))
    }

    // MARK: message catalogs

    /// Escape sequences a catalog could carry: OSC title, erase display, C1 CSI, RLO, DCS.
    private static let hostile = "\u{1B}]0;PWNED-TITLE\u{07}\u{1B}[2J\u{9B}31m\u{202E}\u{1B}P1$qm\u{1B}\\"

    /// Compiles a catalog whose translations of a stdout message (status's "messages:"), of stderr's
    /// "pwnvault: error: " and of doctor's plural carry `hostile` and the word PWNED.
    private func hostileCatalog(in folder: String, plural: String = "nplurals=2; plural=n != 1;") throws {
        let dir = folder + "/zh_CN/LC_MESSAGES"
        try fm.createDirectory(atPath: dir, withIntermediateDirectories: true)
        func po(_ text: String) -> String {
            text.unicodeScalars.map { c in
                switch c {
                case "\"": return "\\\""
                case "\\": return "\\\\"
                case _ where c.value < 0x20: return String(format: "\\%03o", c.value)
                default: return String(c)
                }
            }.joined()
        }
        let h = po(Self.hostile)
        let source = """
            msgid ""
            msgstr ""
            "Content-Type: text/plain; charset=UTF-8\\n"
            "Language: zh_CN\\n"
            "Plural-Forms: \(plural)\\n"

            msgid "messages:"
            msgstr "\(h)PWNED-OUT:"

            msgid "pwnvault: error: "
            msgstr "\(h)PWNED-ERR: "

            msgid "{1} problem"
            msgid_plural "{1} problems"
            msgstr[0] "\(h)PWNED {1}"
            msgstr[1] "\(h)PWNED {1}"

            """
        try source.write(toFile: dir + "/pwnvault.po", atomically: true, encoding: .utf8)
        let made = Sandbox.exec("/usr/bin/env", ["msgfmt", "-o", dir + "/pwnvault.mo", dir + "/pwnvault.po"], input: nil,
                                environment: ["PATH": "/usr/bin:/bin"])
        guard made.status == 0 else { throw XCTSkip("msgfmt is needed: \(made.all)") }
    }

    private func assertClean(_ text: String, _ what: String, file: StaticString = #filePath, line: UInt = #line) {
        for bad in ["\u{1B}]", "\u{1B}[2J", "\u{9B}", "\u{202E}", "\u{1B}P", "\u{07}"] {
            XCTAssertFalse(text.contains(bad), "\(what) holds \(bad.unicodeScalars.map { String($0.value, radix: 16) })",
                           file: file, line: line)
        }
    }

    func testAHostileCatalogBesideACopiedBinaryInAFolderOfAnotherUserIsNotLoaded() throws {
        try requireRoot()
        let zh = try ChineseLocale.require()
        let s = try Sandbox(keyring: false)
        s.initVault()
        let binary = try install(under: s.dir)
        let locale = s.dir.appendingPathComponent("X/share/locale").path
        try hostileCatalog(in: locale)
        let env = ["LANG": "zh_CN.UTF-8", "LOCPATH": zh.locpath]
        // Root's, in root's folders: loaded (so the test can tell), and sanitised.
        for folder in ["X/share", "X/share/locale", "X/share/locale/zh_CN", "X/share/locale/zh_CN/LC_MESSAGES"] {
            chmod(s.dir.appendingPathComponent(folder).path, 0o755)
        }
        let trusted = run(binary, s, ["status"], env: env)
        XCTAssertTrue(trusted.stdout.contains("PWNED-OUT:"), trusted.all)
        assertClean(trusted.stdout, "stdout")
        // The same catalog in a folder of uid 65534: not loaded, English.
        XCTAssertEqual(chown(s.dir.appendingPathComponent("X/share").path, Self.nobody, Self.nobody), 0)
        let r = run(binary, s, ["status"], env: env)
        XCTAssertFalse(r.all.contains("PWNED"), r.all)
        XCTAssertTrue(r.stdout.contains("messages:"), r.stdout)
        let doctor = run(binary, s, ["doctor"], env: env)
        XCTAssertTrue(doctor.stdout.contains("belongs to uid 65534"), doctor.stdout)
    }

    func testAHostileCatalogGivenThroughTEXTDOMAINDIRIsUsedButItsEscapesNeverReachTheOutput() throws {
        let zh = try ChineseLocale.require()
        let s = try Sandbox(keyring: false)
        s.initVault()
        let folder = s.dir.appendingPathComponent("catalogs").path
        try hostileCatalog(in: folder)
        let env = ["LANG": "zh_CN.UTF-8", "LOCPATH": zh.locpath, "TEXTDOMAINDIR": folder]
        let status = s.run(["status"], env: env)
        XCTAssertTrue(status.stdout.contains("PWNED-OUT:"), status.all)
        assertClean(status.stdout, "stdout")
        let error = s.run(["nosuchcommand"], env: env)
        XCTAssertTrue(error.stderr.contains("PWNED-ERR:"), error.all)
        assertClean(error.stderr, "stderr")
        let doctor = s.run(["doctor"], env: env)
        XCTAssertTrue(doctor.stdout.contains("PWNED"), doctor.all)
        assertClean(doctor.all, "doctor")
        // On a terminal: the transcript is everything the terminal received.
        for args in [["status"], ["nosuchcommand"], ["doctor"]] {
            let t = s.runOnTerminal(args, env: env)
            XCTAssertTrue(t.stdout.contains("PWNED"), t.all)
            assertClean(t.stdout, "the terminal (\(args[0]))")
        }
    }

    func testACatalogWhosePluralFormsDividesByZeroIsRefusedWithOneWarningAndNoCrash() throws {
        let zh = try ChineseLocale.require()
        let s = try Sandbox(keyring: false)
        s.initVault()
        for plural in ["nplurals=2; plural=n/0;", "nplurals=2; plural=n%0;", "nplurals=2; plural=(n % (n-n)) != 0;"] {
            let folder = s.dir.appendingPathComponent("catalogs-\(plural.hashValue)").path
            try hostileCatalog(in: folder, plural: plural)
            let env = ["LANG": "zh_CN.UTF-8", "LOCPATH": zh.locpath, "TEXTDOMAINDIR": folder]
            let r = s.run(["doctor"], env: env)
            XCTAssertNotEqual(r.status, 136, "SIGFPE: \(r.all)")
            XCTAssertFalse(r.all.contains("PWNED"), r.all)
            XCTAssertTrue(r.stdout.contains(" problem"), r.stdout)   // English, its plural counted
            let warnings = r.stderr.components(separatedBy: "is not used: its Plural-Forms divides").count - 1
            XCTAssertEqual(warnings, 1, r.stderr)
            XCTAssertTrue(r.stderr.hasPrefix("pwnvault: warning: the message catalog \(folder)/zh_CN/LC_MESSAGES/pwnvault.mo"), r.stderr)
        }
        // A safe expression with constant divisors is used (the refusal is the division's).
        let folder = s.dir.appendingPathComponent("catalogs-safe").path
        try hostileCatalog(in: folder, plural: "nplurals=2; plural=(n%10==1 && n%100!=11) ? 0 : 1;")
        let safe = s.run(["doctor"], env: ["LANG": "zh_CN.UTF-8", "LOCPATH": zh.locpath, "TEXTDOMAINDIR": folder])
        XCTAssertTrue(safe.stdout.contains("PWNED"), safe.all)
        XCTAssertFalse(safe.stderr.contains("Plural-Forms"), safe.stderr)
    }

    func testTheFirstFolderHoldingACatalogForTheLanguageWinsNotTheFirstThatExists() throws {
        let zh = try ChineseLocale.require()
        let s = try Sandbox(keyring: false)
        s.initVault()
        // TEXTDOMAINDIR exists but holds no zh_CN catalog: the build folder's catalog is used.
        let empty = s.dir.appendingPathComponent("empty-locale").path
        try fm.createDirectory(atPath: empty + "/fr/LC_MESSAGES", withIntermediateDirectories: true)
        let r = s.run(["status"], env: ["LANG": "zh_CN.UTF-8", "LOCPATH": zh.locpath, "TEXTDOMAINDIR": empty])
        XCTAssertFalse(r.stdout.contains("messages:"), "English: \(r.stdout)")
        XCTAssertFalse(r.stdout.contains(empty), r.stdout)
    }

    // MARK: fatal signals

    func testASegmentationFaultAtRevealsPassphrasePromptLeavesTheTerminalAsItWas() throws {
        let s = try Sandbox(keyring: false)
        s.initVault()
        s.run(["add", "alice@example.com"])
        for signo in [SIGSEGV, SIGFPE, SIGABRT] {
            var env = s.environment
            env.removeValue(forKey: "PWNVAULT_PASSPHRASE_FILE")
            env["LANG"] = "C"
            let r = Sandbox.exec(Paths.python, [Paths.support("signal-at-prompt.py"), "--expect", "assphrase", "--signal", String(signo),
                                                "--", Paths.binary, "reveal"], input: nil, environment: env)
            XCTAssertEqual(r.status, 0, r.all)
            let report = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any], r.all)
            XCTAssertEqual(report["signalSent"] as? Bool, true, r.stdout)
            XCTAssertEqual(report["status"] as? Int, 128 + Int(signo), r.stdout)
            XCTAssertNotNil(report["before"], r.stdout)
            XCTAssertEqual(String(describing: report["before"]), String(describing: report["after"]),
                           "signal \(signo) left the terminal changed: \(r.stdout)")
            let transcript = report["transcript"] as? String ?? ""
            if transcript.contains("\u{1B}[?1004h") {
                XCTAssertTrue(transcript.contains("\u{1B}[?1004l"), "focus reporting left on: \(transcript.debugDescription)")
            }
        }
    }
}
