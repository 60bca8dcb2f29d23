import Foundation
import XCTest

/// The vault commands run as a person or a script would run them: the real binary, a real keyring
/// (the README's test command runs the suite inside a private gnome-keyring session), real files.
final class VaultEndToEndTests: XCTestCase {
    let accounts = ["alice@example.com", "bob_the_builder", "+44 7700 900123"]
    /// Fragments of the accounts above that must never reach a pipe, a file or JSON.
    let fragments = ["alice", "example", "bob_the", "builder", "7700", "900123", "0123"]

    /// Temporary paths are taken out first: their random names can contain "0123" by chance.
    func assertNoFragments(_ text: String, file: StaticString = #filePath, line: UInt = #line) {
        let withoutPaths = text.replacingOccurrences(of: #"/\S*pwnvault-e2e-[0-9A-F-]+\S*"#, with: "PATH", options: .regularExpression)
        for f in fragments { XCTAssertFalse(withoutPaths.contains(f), "'\(f)' leaked into: \(text)", file: file, line: line) }
    }

    func testInitAddListWithTheKeyringNeedsNoPassphraseAfterInit() throws {
        let s = try Sandbox(inProcess: true)
        s.initVault()
        // No passphrase file, no terminal: only the keyring can open it.
        let add = s.run(["add"] + accounts + ["--label", "Family"], passphraseFromFile: false)
        XCTAssertEqual(add.status, 0, add.stderr)
        let list = s.run(["list"], passphraseFromFile: false)
        XCTAssertEqual(list.status, 0, list.stderr)
        XCTAssertTrue(list.stdout.contains("#1") && list.stdout.contains("#2") && list.stdout.contains("#3"), list.stdout)
        XCTAssertTrue(list.stdout.contains("never checked"), list.stdout)
        XCTAssertTrue(list.stdout.contains("Family"), list.stdout)
        assertNoFragments(list.all)
        assertNoFragments(add.all)
        let status = s.run(["status", "--json"], passphraseFromFile: false)
        XCTAssertEqual(status.status, 0, status.stderr)
        let json = try JSONSerialization.jsonObject(with: Data(status.stdout.utf8)) as? [String: Any]
        XCTAssertEqual(json?["unlockedWith"] as? String, "keyring")
        XCTAssertEqual(json?["accounts"] as? Int, 3)
    }

    func testListOnATerminalIsMaskedAndPipedIsRedacted() throws {
        let s = try Sandbox(inProcess: true)
        s.initVault()
        XCTAssertEqual(s.run(["add"] + accounts).status, 0)
        let tty = s.runOnTerminal(["list"])
        XCTAssertEqual(tty.status, 0, tty.stdout)
        XCTAssertTrue(tty.stdout.contains("a•••e@e•••.com"), tty.stdout)
        XCTAssertTrue(tty.stdout.contains("•••23"), tty.stdout)
        XCTAssertTrue(tty.stdout.contains("b•••r"), tty.stdout)
        assertNoFragments(tty.stdout)

        let piped = s.run(["list"])
        assertNoFragments(piped.all)
        XCTAssertFalse(piped.stdout.contains("•"), "masked letters are still letters: \(piped.stdout)")

        let json = s.run(["list", "--json"])
        XCTAssertEqual(json.status, 0, json.stderr)
        assertNoFragments(json.all)
        let rows = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [[String: Any]])
        XCTAssertEqual(rows.compactMap { $0["id"] as? Int }, [1, 2, 3])
        XCTAssertEqual(rows.compactMap { $0["kind"] as? String }, ["email", "username", "phone"])
        XCTAssertEqual(rows.compactMap { $0["status"] as? String }, ["never-checked", "never-checked", "never-checked"])
    }

    func testColorsOnlyOnATerminalAndNeverWithNoColorOrDumbTerminal() throws {
        let s = try Sandbox(inProcess: true)
        s.initVault()
        XCTAssertEqual(s.run(["add", "carol@example.org"]).status, 0)
        XCTAssertTrue(s.runOnTerminal(["list"]).stdout.contains("\u{1B}["), "a terminal gets colors")
        XCTAssertFalse(s.runOnTerminal(["list"], env: ["NO_COLOR": "1"]).stdout.contains("\u{1B}["))
        let dumb = s.runOnTerminal(["list"], env: ["TERM": "dumb"]).stdout
        XCTAssertFalse(dumb.contains("\u{1B}["))
        XCTAssertFalse(dumb.contains("carol") || dumb.contains("c•••l"), "TERM=dumb counts as no terminal: \(dumb)")
        XCTAssertFalse(s.run(["list"]).stdout.contains("\u{1B}["))
    }

    func testKeyringItemIsVisibleToSecretTool() throws {
        let s = try Sandbox(inProcess: true)
        s.initVault()
        let status = s.run(["status", "--json"], passphraseFromFile: false)
        let json = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(status.stdout.utf8)) as? [String: Any])
        let vaultID = try XCTUnwrap(json["vaultID"] as? String)
        let found = Sandbox.exec("/usr/bin/env", ["secret-tool", "search", "--all", "vault-id", vaultID], input: nil,
                                 environment: s.environment)
        XCTAssertEqual(found.status, 0, found.stderr)
        // The label names pwnvault and the vault id, never the vault's path (it holds the user name,
        // and KWallet files a label with '/' in folders).
        XCTAssertTrue(found.all.contains("label = pwnvault vault key \(vaultID.prefix(16))\n"), found.all)
        let label = found.all.split(separator: "\n").first { $0.hasPrefix("label = ") } ?? ""
        XCTAssertFalse(label.contains("/"), found.all)
        XCTAssertFalse(found.all.contains(s.home.path), found.all)
        XCTAssertTrue(found.all.contains("attribute.application = pwnvault"), found.all)
    }

    func testPassphraseOnlyModeSaysWhyAndExplainsHowToPassThePassphrase() throws {
        let s = try Sandbox(inProcess: true, keyring: false)
        s.initVault()
        let add = s.run(["add", "dave@example.net"])
        XCTAssertEqual(add.status, 0, add.stderr)
        XCTAssertEqual(add.stderr, "", "the keyring was turned off on purpose: no note each time")
        XCTAssertTrue(s.run(["status"]).stdout.contains("PWNVAULT_KEYRING=none"))
        let stuck = s.run(["list"], passphraseFromFile: false)
        XCTAssertEqual(stuck.status, 3, stuck.all)
        XCTAssertTrue(stuck.stderr.contains("--passphrase-file"), stuck.stderr)
        XCTAssertTrue(stuck.stderr.contains("--passphrase-fd"), stuck.stderr)
        XCTAssertEqual(stuck.stderr.split(separator: "\n").filter { $0.hasPrefix("pwnvault: error:") }.count, 1)
    }

    func testWrongPassphraseIsRefusedAndLeavesTheVaultAsItWas() throws {
        let s = try Sandbox(inProcess: true, keyring: false)
        s.initVault()
        XCTAssertEqual(s.run(["add", "erin@example.com"]).status, 0)
        let before = try Data(contentsOf: URL(fileURLWithPath: s.vault))
        let wrong = s.writeFile("wrong", "not the passphrase\n")
        let r = s.run(["add", "frank@example.com"], env: ["PWNVAULT_PASSPHRASE_FILE": wrong])
        XCTAssertEqual(r.status, 3, r.all)
        XCTAssertTrue(r.stderr.contains("wrong passphrase"), r.stderr)
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: s.vault)), before)
    }

    func testInvalidAccountsAreRejectedWithoutEchoingThemAndNothingIsAdded() throws {
        let s = try Sandbox(inProcess: true)
        s.initVault()
        let r = s.run(["add", "grace@example.com", "not an account!", "heidi@example.com"])
        XCTAssertEqual(r.status, 2, r.all)
        XCTAssertTrue(r.stderr.contains("argument 2"), r.stderr)
        XCTAssertFalse(r.stderr.contains("not an account"), "the rejected text must not be echoed: \(r.stderr)")
        XCTAssertTrue(r.stderr.contains("pwnvault: hint:"), r.stderr)
        let list = s.run(["list", "--json"])
        let rows = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(list.stdout.utf8)) as? [Any])
        XCTAssertEqual(rows.count, 0)
    }

    func testAddFromStdinReportsDuplicatesAndNormalises() throws {
        let s = try Sandbox(inProcess: true)
        s.initVault()
        let input = "# family\nivan@EXAMPLE.com\n\n  judy@example.com  \nIVAN@example.com\n+1 (555) 010-9999\n"
        let r = s.run(["add", "-"], input: input)
        XCTAssertEqual(r.status, 0, r.all)
        XCTAssertTrue(r.stderr.contains("line 5 of stdin is already in the vault as #1"), r.stderr)
        let again = s.run(["add", "judy@Example.COM"])
        XCTAssertEqual(again.status, 0)
        XCTAssertTrue(again.stderr.contains("already in the vault as #2"), again.stderr)
        let rows = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(s.run(["list", "--json"]).stdout.utf8)) as? [[String: Any]])
        XCTAssertEqual(rows.count, 3)
        XCTAssertEqual(rows.compactMap { $0["kind"] as? String }, ["email", "email", "phone"])
    }

    func testRemoveByIdAndByAccountIsAllOrNothing() throws {
        let s = try Sandbox(inProcess: true)
        s.initVault()
        XCTAssertEqual(s.run(["add", "kim@example.com", "lee@example.com", "mia@example.com"]).status, 0)
        let bad = s.run(["remove", "#1", "#9", "--yes"])
        XCTAssertEqual(bad.status, 2, bad.all)
        XCTAssertTrue(bad.stderr.contains("no account #9"), bad.stderr)
        XCTAssertEqual(s.run(["remove", "#1", "MIA@example.com", "--yes"]).status, 0)
        let rows = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(s.run(["list", "--json"]).stdout.utf8)) as? [[String: Any]])
        XCTAssertEqual(rows.compactMap { $0["id"] as? Int }, [2])
        // ids are never reused
        XCTAssertEqual(s.run(["add", "ned@example.com"]).status, 0)
        let after = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(s.run(["list", "--json"]).stdout.utf8)) as? [[String: Any]])
        XCTAssertEqual(after.compactMap { $0["id"] as? Int }, [2, 4])
    }

    func testInitRefusesToOverwriteAndMissingVaultPointsToInit() throws {
        let s = try Sandbox(inProcess: true)
        let none = s.run(["list"])
        XCTAssertEqual(none.status, 4, none.all)
        XCTAssertTrue(none.stderr.contains("pwnvault init"), none.stderr)
        s.initVault()
        let before = try Data(contentsOf: URL(fileURLWithPath: s.vault))
        let again = s.run(["init", "--weak-passphrase-ok", "--kdf", "interactive"])
        XCTAssertEqual(again.status, 4, again.all)
        XCTAssertTrue(again.stderr.contains("already"), again.stderr)
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: s.vault)), before)
    }

    func testPasswdRewrapsTheKeyUnderTheNewPassphraseOnly() throws {
        let s = try Sandbox(inProcess: true, keyring: false)
        s.initVault()
        XCTAssertEqual(s.run(["add", "olga@example.com"]).status, 0)
        let newFile = s.writeFile("new", "a brand new passphrase\n")
        let r = s.run(["passwd", "--weak-passphrase-ok", "--passphrase-file", s.passphraseFile, "--new-passphrase-file", newFile, "--kdf", "interactive"])
        XCTAssertEqual(r.status, 0, r.all)
        XCTAssertEqual(s.run(["list"]).status, 3, "the old passphrase must no longer open it")
        let list = s.run(["list", "--json"], env: ["PWNVAULT_PASSPHRASE_FILE": newFile])
        XCTAssertEqual(list.status, 0, list.stderr)
        XCTAssertTrue(list.stdout.contains("\"id\" : 1"), list.stdout)
    }

    /// An unlocked keyring (or PWNVAULT_PASSPHRASE_FILE) must not be enough to replace the passphrase
    /// that reveal asks for: without the current passphrase nothing changes, not even the backup.
    func testPasswdWithoutTheCurrentPassphraseFailsAndChangesNothing() throws {
        let s = try Sandbox(inProcess: true)
        s.initVault()
        XCTAssertEqual(s.run(["add", "yusuf@example.com"]).status, 0)
        XCTAssertEqual(s.run(["add", "zoe@example.com"]).status, 0)   // makes vault.bak
        let vault = try Data(contentsOf: URL(fileURLWithPath: s.vault))
        let backup = try Data(contentsOf: URL(fileURLWithPath: s.vault + ".bak"))
        let newFile = s.writeFile("new", "a passphrase the attacker chose\n")
        let wrong = s.writeFile("wrong", "not the passphrase\n")

        // The keyring holds the key and PWNVAULT_PASSPHRASE_FILE is set: neither proves knowledge.
        let keyringOnly = s.run(["passwd", "--weak-passphrase-ok", "--new-passphrase-file", newFile])
        XCTAssertEqual(keyringOnly.status, 3, keyringOnly.all)
        XCTAssertTrue(keyringOnly.stderr.contains("pwnvault: error: passwd needs the passphrase"), keyringOnly.stderr)
        XCTAssertTrue(keyringOnly.stderr.contains("--passphrase-file PATH or --passphrase-fd N"), keyringOnly.stderr)
        XCTAssertFalse(keyringOnly.stderr.contains("PWNVAULT_PASSPHRASE_FILE"), "hints name only what passwd honours: \(keyringOnly.stderr)")
        // A wrong current passphrase, given explicitly.
        let wrongOne = s.run(["passwd", "--weak-passphrase-ok", "--passphrase-file", wrong, "--new-passphrase-file", newFile])
        XCTAssertEqual(wrongOne.status, 3, wrongOne.all)
        XCTAssertTrue(wrongOne.stderr.contains("wrong passphrase; the passphrase was not changed"), wrongOne.stderr)
        XCTAssertTrue(wrongOne.stderr.contains("keyring still opens the vault"), wrongOne.stderr)
        // A person at the terminal who does not know it.
        let typed = s.runOnTerminal(["passwd", "--weak-passphrase-ok", "--new-passphrase-file", newFile],
                                    steps: [("Passphrase for", "a guess that is wrong\n"), ("Passphrase for", "another guess\n"),
                                            ("Passphrase for", "a third guess\n")])
        XCTAssertEqual(typed.status, 3, typed.stdout)
        XCTAssertEqual(typed.stdout.components(separatedBy: "Passphrase for").count - 1, 3, "three tries, as sudo: \(typed.stdout)")

        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: s.vault)), vault, "the vault is byte for byte unchanged")
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: s.vault + ".bak")), backup, "so is vault.bak")
        XCTAssertEqual(s.run(["list"], env: ["PWNVAULT_KEYRING": "none", "PWNVAULT_PASSPHRASE_FILE": newFile]).status, 3,
                       "the attacker's passphrase opens nothing")

        // The owner, typing the current passphrase at the terminal, can change it.
        let owner = s.runOnTerminal(["passwd", "--weak-passphrase-ok", "--new-passphrase-file", newFile],
                                    steps: [("Passphrase for", Sandbox.passphrase + "\n")])
        XCTAssertEqual(owner.status, 0, owner.stdout)
        XCTAssertEqual(s.run(["list"], env: ["PWNVAULT_KEYRING": "none", "PWNVAULT_PASSPHRASE_FILE": newFile]).status, 0)
    }

    /// `rm vault` leaves vault.bak: every command says so and how to restore it, and init refuses to
    /// start a vault whose first save would replace that backup.
    func testAMissingVaultPointsToItsBackupAndInitNeverReplacesIt() throws {
        let s = try Sandbox(inProcess: true)
        s.initVault()
        XCTAssertEqual(s.run(["add", "a@x.com"]).status, 0)
        XCTAssertEqual(s.run(["add", "b@x.com"]).status, 0)
        try FileManager.default.removeItem(atPath: s.vault)
        let backupPath = s.vault + ".bak"
        let backup = try Data(contentsOf: URL(fileURLWithPath: backupPath))

        let list = s.run(["list"])
        XCTAssertEqual(list.status, 4, list.all)
        let shown = "~/.local/share/pwnvault/vault"   // HOME is the sandbox's home
        XCTAssertTrue(list.stderr.contains("pwnvault: error: no vault at \(shown), but its backup \(shown).bak is there"), list.stderr)
        XCTAssertFalse(list.stderr.contains("pwnvault init"), "following that hint would lose the backup: \(list.stderr)")
        let doctor = s.run(["doctor"])
        XCTAssertTrue(doctor.all.contains("vault.bak"), doctor.all)

        let again = s.run(["init", "--weak-passphrase-ok", "--kdf", "interactive"])
        XCTAssertEqual(again.status, 4, again.all)
        XCTAssertTrue(again.stderr.contains("refusing to create a vault"), again.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: s.vault), "nothing was created")
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: backupPath)), backup, "vault.bak is byte for byte unchanged")

        // Follow the hint exactly as printed: it restores the accounts.
        let hint = try XCTUnwrap(list.stderr.split(separator: "\n").first { $0.hasPrefix("pwnvault: hint: restore it with: ") })
        let command = String(hint.dropFirst("pwnvault: hint: restore it with: ".count).prefix { $0 != "(" })
        XCTAssertEqual(command.trimmingCharacters(in: .whitespaces), "mv \(shown).bak \(shown)")
        let restored = Sandbox.exec("/bin/sh", ["-c", command], input: nil, environment: s.environment)
        XCTAssertEqual(restored.status, 0, restored.all)
        let rows = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(s.run(["list", "--json"]).stdout.utf8)) as? [[String: Any]])
        XCTAssertEqual(rows.compactMap { $0["id"] as? Int }, [1], "the backup holds the vault as it was before its last change")
        XCTAssertEqual(s.run(["add", "b@x.com"]).status, 0, "and the vault works again")

        // Moved out of the way on purpose, init starts afresh.
        try FileManager.default.removeItem(atPath: s.vault)
        try FileManager.default.moveItem(atPath: backupPath, toPath: s.dir.appendingPathComponent("old-vault").path)
        XCTAssertEqual(s.run(["init", "--weak-passphrase-ok", "--kdf", "interactive"]).status, 0)
    }

    func testVaultFilesArePrivateWhateverTheUmaskAndUnsafeOnesAreRefused() throws {
        let s = try Sandbox(inProcess: true)
        let r = Sandbox.exec("/bin/sh", ["-c", "umask 000; exec \"$0\" init --weak-passphrase-ok --kdf interactive", Paths.binary], input: nil,
                             environment: s.environment.merging(["PWNVAULT_PASSPHRASE_FILE": s.passphraseFile]) { $1 })
        XCTAssertEqual(r.status, 0, r.all)
        XCTAssertEqual(s.run(["add", "pat@example.com"]).status, 0)
        let fm = FileManager.default
        let folder = (s.vault as NSString).deletingLastPathComponent
        XCTAssertEqual((try fm.attributesOfItem(atPath: folder)[.posixPermissions] as? Int), 0o700)
        for name in try fm.contentsOfDirectory(atPath: folder) {
            XCTAssertEqual((try fm.attributesOfItem(atPath: folder + "/" + name)[.posixPermissions] as? Int), 0o600, name)
        }
        chmod(s.vault, 0o666)
        let refused = s.run(["list"])
        XCTAssertEqual(refused.status, 4, refused.all)
        XCTAssertTrue(refused.stderr.contains("chmod"), refused.stderr)
    }

    func testDamagedTruncatedAndForeignFilesAreRefusedAndNeverOverwritten() throws {
        let s = try Sandbox(inProcess: true)
        s.initVault()
        XCTAssertEqual(s.run(["add", "quinn@example.com"]).status, 0)
        XCTAssertEqual(s.run(["add", "ruth@example.com"]).status, 0)  // makes a backup
        let good = try Data(contentsOf: URL(fileURLWithPath: s.vault))
        let url = URL(fileURLWithPath: s.vault)

        var flipped = good
        flipped[good.count - 5] ^= 0x01
        try flipped.write(to: url)
        let damaged = s.run(["add", "sam@example.com"])
        XCTAssertEqual(damaged.status, 4, damaged.all)
        XCTAssertTrue(damaged.stderr.contains("vault.bak"), "the backup is named: \(damaged.stderr)")
        XCTAssertEqual(try Data(contentsOf: url), flipped, "a damaged vault is never overwritten")

        try good.prefix(150).write(to: url)
        let truncated = s.run(["list"])
        XCTAssertEqual(truncated.status, 4, truncated.all)
        XCTAssertEqual(try Data(contentsOf: url), good.prefix(150))

        try Data("hello, I am a shopping list\n".utf8).write(to: url)
        let foreign = s.run(["list"])
        XCTAssertEqual(foreign.status, 4, foreign.all)
        XCTAssertTrue(foreign.stderr.contains("not a pwnvault"), foreign.stderr)

        // the backup holds the generation before the last save and still opens
        try fileCopy(s.vault + ".bak", to: s.vault)
        let restored = s.run(["list", "--json"])
        XCTAssertEqual(restored.status, 0, restored.stderr)
        XCTAssertTrue(restored.stdout.contains("\"id\" : 1"), restored.stdout)
    }

    private func fileCopy(_ from: String, to: String) throws {
        try Data(contentsOf: URL(fileURLWithPath: from)).write(to: URL(fileURLWithPath: to))
    }

    func testAWriteErrorDuringASaveLeavesTheOldVaultIntact() throws {
        let s = try Sandbox(inProcess: true)
        s.initVault()
        XCTAssertEqual(s.run(["add", "tara@example.com"]).status, 0)
        let before = try Data(contentsOf: URL(fileURLWithPath: s.vault))
        // A file-size limit below the vault's size turns the save into a write error (EFBIG), as a full disk would.
        var env = s.environment.merging(["PWNVAULT_PASSPHRASE_FILE": s.passphraseFile]) { $1 }
        // Under ThreadSanitizer only: before main, TSan's runtime (MapRodata) writes 512 KiB to
        // $TMPDIR/tsan.rodata.PID in one unchecked write, which this limit cuts to 2 KiB, and maps that file
        // over the shadow of every read-only segment: the first check of a constant past its first page is a
        // SIGBUS. With TMPDIR naming no directory TSan skips that step (a memory saving only), and the limit
        // meets pwnvault's save alone. pwnvault itself never reads TMPDIR (the temporary file is beside the vault).
        if Self.underThreadSanitizer { env["TMPDIR"] = s.dir.appendingPathComponent("no-such-directory").path }
        let r = Sandbox.exec("/bin/sh", ["-c", "ulimit -f 4; exec \"$0\" add uma@example.com", Paths.binary], input: nil,
                             environment: env)
        XCTAssertEqual(r.status, 4, r.all)
        XCTAssertTrue(r.stderr.lowercased().contains("write") || r.stderr.contains("large"), r.stderr)
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: s.vault)), before)
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: (s.vault as NSString).deletingLastPathComponent)
            .filter { $0.contains("tmp") }
        XCTAssertEqual(leftovers, [], "no temporary file is left behind")
    }

    /// Whether this test binary (and so the `pwnvault` built with it) carries ThreadSanitizer's runtime.
    private static let underThreadSanitizer = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "__tsan_init") != nil   // RTLD_DEFAULT

    func testMistypedWordsThatMayBeAccountsAreNotEchoed() throws {
        let s = try Sandbox(inProcess: true)
        for args in [["alice@example.com"], ["list", "-bob.smith"], ["list", "--carol@example.org"]] {
            let r = s.run(args)
            XCTAssertEqual(r.status, 2, r.all)
            XCTAssertFalse(r.stderr.contains("alice") || r.stderr.contains("bob.smith") || r.stderr.contains("carol"), r.stderr)
        }
        XCTAssertTrue(s.run(["lsit"]).stderr.contains("unknown command 'lsit'"), "near misses are still named")
    }

    func testAFailedWriteIsAnErrorNotASuccess() throws {
        let s = try Sandbox(inProcess: true)
        s.initVault()
        XCTAssertEqual(s.run(["add", "wendy@example.com"]).status, 0)
        let r = Sandbox.exec("/bin/sh", ["-c", "exec \"$0\" list --json > /dev/full", Paths.binary], input: nil,
                             environment: s.environment.merging(["PWNVAULT_PASSPHRASE_FILE": s.passphraseFile]) { $1 })
        XCTAssertEqual(r.status, 4, r.all)
        XCTAssertTrue(r.stderr.contains("could not write the output"), r.stderr)
    }

    func testPasswdKeepsTheCostAndLeavesNoBackupUnderTheOldPassphrase() throws {
        let s = try Sandbox(inProcess: true, keyring: false)
        s.initVault(kdf: "interactive")
        XCTAssertEqual(s.run(["add", "xavier@example.com"]).status, 0)
        let newFile = s.writeFile("new2", "another new passphrase\n")
        XCTAssertEqual(s.run(["passwd", "--weak-passphrase-ok", "--passphrase-file", s.passphraseFile, "--new-passphrase-file", newFile]).status, 0)
        let status = s.run(["status", "--json"], env: ["PWNVAULT_PASSPHRASE_FILE": newFile])
        XCTAssertTrue(status.stdout.contains("\"preset\" : \"interactive\""), "the cost is kept: \(status.stdout)")
        // the backup opens with the new passphrase only
        let backup = s.run(["list"], env: ["PWNVAULT_VAULT": s.vault + ".bak"])
        XCTAssertEqual(backup.status, 3, backup.all)
        XCTAssertEqual(s.run(["list"], env: ["PWNVAULT_VAULT": s.vault + ".bak", "PWNVAULT_PASSPHRASE_FILE": newFile]).status, 0)
    }

    func testPassphraseFilesAndDescriptorsAndTheirErrors() throws {
        let s = try Sandbox(inProcess: true, keyring: false)
        s.initVault()
        var env = s.environment
        env["PWNVAULT"] = Paths.binary
        env["PASSFILE"] = s.passphraseFile
        // A shell's process substitution is a link to a pipe (/dev/fd/63): it must work.
        let substituted = Sandbox.exec("/bin/bash", ["-c", #""$PWNVAULT" list --passphrase-file <(cat "$PASSFILE")"#],
                                       input: nil, environment: env)
        XCTAssertEqual(substituted.status, 0, substituted.all)
        let fd = Sandbox.exec("/bin/bash", ["-c", #""$PWNVAULT" list --passphrase-fd 3 3<"$PASSFILE""#], input: nil, environment: env)
        XCTAssertEqual(fd.status, 0, fd.all)
        let missing = s.run(["list", "--passphrase-file", s.dir.appendingPathComponent("nope").path])
        XCTAssertEqual(missing.status, 3, missing.all)
        XCTAssertTrue(missing.stderr.contains("cannot read the passphrase file") && missing.stderr.contains("no such file"), missing.stderr)
        let closed = s.run(["list", "--passphrase-fd", "9"], passphraseFromFile: false)
        XCTAssertEqual(closed.status, 3, closed.all)
        XCTAssertTrue(closed.stderr.contains("file descriptor 9: it is not open"), closed.stderr)
        XCTAssertTrue(closed.stderr.contains("pwnvault: hint:"), closed.stderr)
    }
}
