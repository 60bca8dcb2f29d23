import Foundation
import XCTest

/// What a new user stumbles on in the first hour (issue 23): acknowledging by what `show` prints,
/// hints that can be pasted, a missing argument or id answered with what there is, and `init` saying
/// what to do next.
final class FirstHourEndToEndTests: XCTestCase {
    var server: FakeHIBP!
    var s: Sandbox!

    override func setUpWithError() throws {
        server = try FakeHIBP(fixtures: """
        {"accounts": {"kim@example.com": {"breaches": ["Adobe", "Brightmere", "HushClinic"], "ownerVerified": true},
                      "lee@example.com": {"breaches": ["CopperKettle"], "ownerVerified": true}}}
        """)
        s = try Sandbox(inProcess: true)
        s.use(server)
    }

    override func tearDown() { server = nil; s = nil }

    private func vaultWithTwoCheckedAccounts() {
        s.initVault()
        XCTAssertEqual(s.run(["add", "kim@example.com"]).status, 0)
        XCTAssertEqual(s.run(["add", "lee@example.com"]).status, 0)
        XCTAssertEqual(s.run(["check", "--all"]).status, 1)
    }

    /// A typo of a public breach is corrected from the catalog before the vault is opened: no passphrase
    /// is asked (none can be: no file, no terminal), and the same answer comes whatever the account holds.
    func testAckCorrectsATypoOfAPublicBreachWithoutAskingThePassphrase() {
        vaultWithTwoCheckedAccounts()
        for id in ["#1", "#2"] {
            let r = s.run(["ack", id, "adobee"], passphraseFromFile: false)
            XCTAssertEqual(r.status, 2, r.all)
            XCTAssertEqual(r.stderr, """
                pwnvault: error: argument 2 is not the name or title of a breach in HIBP's catalog; nothing was acknowledged
                pwnvault: hint: did you mean Adobe? 'pwnvault breaches' lists every breach

                """, id)
            XCTAssertFalse(r.all.contains("adobee"), "the typed name is not repeated")
        }
        // Sensitive names are never offered as the correction.
        let near = s.run(["ack", "#1", "HushClinik"], passphraseFromFile: false)
        XCTAssertFalse(near.all.contains("HushClinic"), near.all)
    }

    /// A public breach the account was not in: the hint lists the account's own public breaches, as
    /// `show` does, with the id quoted so that the hint can be pasted into a shell.
    func testAckOfABreachTheAccountIsNotInListsItsOwnBreaches() {
        vaultWithTwoCheckedAccounts()
        let r = s.run(["ack", "#1", "CopperKettle"])
        XCTAssertEqual(r.status, 2, r.all)
        XCTAssertTrue(r.stderr.contains("hint: its breaches: Adobe, Brightmere; pwnvault show '#1' lists them")
                      || r.stderr.contains("hint: its breaches: Brightmere, Adobe; pwnvault show '#1' lists them"), r.stderr)
        XCTAssertFalse(r.all.contains("HushClinic"), "never a sensitive name")
        // By title, as show prints it, works.
        let title = s.run(["ack", "#2", "copperkettle"])
        XCTAssertEqual(title.status, 0, title.all)
    }

    /// A command missing its argument shows every form of its usage; a missing id says which exist.
    func testMissingArgumentsAndIdsAreAnsweredWithWhatThereIs() {
        vaultWithTwoCheckedAccounts()
        let ack = s.run(["ack"])
        XCTAssertEqual(ack.status, 2)
        XCTAssertTrue(ack.stderr.contains("usage: pwnvault ack ACCOUNT|#ID [BREACH...]  or  pwnvault ack --all"), ack.stderr)
        let imp = s.run(["import"])
        XCTAssertTrue(imp.stderr.contains("usage: pwnvault import CONTACTS.vcf [--pick] [--phones [--region CC]]  or  pwnvault import - "), imp.stderr)
        XCTAssertEqual(s.run(["add", "ann@example.com"]).status, 0)
        XCTAssertEqual(s.run(["remove", "#2", "--yes"]).status, 0)
        let missing = s.run(["show", "#9"])
        XCTAssertEqual(missing.status, 2, missing.all)
        XCTAssertTrue(missing.stderr.contains("did you mean '#3'? the vault has #1, #3 "), missing.stderr)
    }

    /// One vocabulary of states: `pwned` (what the ui and HIBP say) is accepted for `breached`, and
    /// `--status unacknowledged` lists what waits to be dealt with, new or not.
    func testStatusFiltersSpeakOneVocabulary() {
        vaultWithTwoCheckedAccounts()
        XCTAssertEqual(s.run(["list", "--status", "pwned"]).stdout, s.run(["list", "--status", "breached"]).stdout)
        XCTAssertEqual(s.run(["ack", "#2"]).status, 0)
        let waiting = s.run(["list", "--status", "unacknowledged"])
        XCTAssertEqual(waiting.status, 0, waiting.all)
        XCTAssertTrue(waiting.stdout.contains("#1 ") && !waiting.stdout.contains("#2 "), waiting.stdout)
        XCTAssertTrue(waiting.stdout.contains("breached (3, 3 to acknowledge)"), waiting.stdout)
    }

    /// `show` pages through PAGER, like `breaches`, when its result is longer than a screenful on a
    /// terminal; a short one, piped or redirected output never does.
    func testShowPagesALongResultOnATerminal() throws {
        let many = ["Adobe", "Brightmere", "CopperKettle", "DuneRunner", "EllwoodLibrary", "Quillstream"]
        server = try FakeHIBP(fixtures: """
        {"accounts": {"many@example.com": {"breaches": [\(many.map { "\"\($0)\"" }.joined(separator: ", "))], "ownerVerified": true},
                      "few@example.com": {"breaches": ["Adobe"], "ownerVerified": true}}}
        """)
        s.environment["PWNVAULT_API_URL"] = server.apiURL
        s.initVault()
        XCTAssertEqual(s.run(["add", "many@example.com"]).status, 0)
        XCTAssertEqual(s.run(["add", "few@example.com"]).status, 0)
        XCTAssertEqual(s.run(["check", "--all"]).status, 1)
        let paged = s.dir.appendingPathComponent("paged.txt").path
        let pager = ["PAGER": "cat > '\(paged)'"]
        let long = s.runOnTerminal(["show", "#1"], env: pager)
        XCTAssertEqual(long.status, 0, long.all)
        let text = try String(contentsOfFile: paged, encoding: .utf8)
        for name in ["Adobe", "Quillstream", "Ellwood Public Library"] { XCTAssertTrue(text.contains(name), "the pager got the whole result: \(text)") }
        XCTAssertFalse(long.stdout.contains("Quillstream"), "through the pager only")
        try FileManager.default.removeItem(atPath: paged)
        let short = s.runOnTerminal(["show", "#2"], env: pager)
        XCTAssertTrue(short.stdout.contains("Adobe"), short.all)
        XCTAssertFalse(FileManager.default.fileExists(atPath: paged), "a short result is printed, not paged")
        let piped = s.run(["show", "#1"], env: pager)
        XCTAssertTrue(piped.stdout.contains("Quillstream"), "piped: never paged: \(piped.all)")
        XCTAssertFalse(FileManager.default.fileExists(atPath: paged))
    }

    /// On a terminal an error and its hint wrap at word boundaries to the window, under where their
    /// text starts; piped, each stays one line (for grep and logs).
    func testHintsWrapAtWordBoundariesOnATerminalOnly() {
        vaultWithTwoCheckedAccounts()
        let driver = [Paths.support("ptyrun.py"), "--cols", "60", "--", Paths.binary, "ack"]
        let r = Sandbox.exec(Paths.python, driver, input: nil,
                             environment: s.environment.merging(["PWNVAULT_PASSPHRASE_FILE": s.passphraseFile]) { $1 })
        let lines = r.stdout.replacingOccurrences(of: "\r", with: "").split(separator: "\n").map(String.init)
            .filter { !$0.isEmpty }
        XCTAssertGreaterThan(lines.count, 2, r.stdout)
        XCTAssertEqual(lines.first, "pwnvault: error: missing argument")
        XCTAssertTrue(lines[1].hasPrefix("pwnvault: hint: usage: pwnvault ack"), r.stdout)
        for line in lines.dropFirst(2) { XCTAssertTrue(line.hasPrefix(String(repeating: " ", count: 16)), "under the hint's text: \(line)") }
        for line in lines { XCTAssertLessThanOrEqual(line.count, 60, line) }
        let joined = lines.dropFirst().map { $0.trimmingCharacters(in: .whitespaces) }.joined(separator: " ")
        XCTAssertTrue(joined.contains("pwnvault ack ACCOUNT|#ID [BREACH...] or pwnvault ack --all"), "no word cut: \(joined)")
        let piped = s.run(["ack"])
        XCTAssertEqual(piped.stderr.split(separator: "\n").count, 2, piped.stderr)
    }

    /// `check` prints one line per account on a terminal, however many breaches: as many names as fit,
    /// then how many more and where to see them; piped, the line holds every name.
    func testCheckKeepsOneLinePerAccount() throws {
        let many = ["Adobe", "Brightmere", "CopperKettle", "DuneRunner", "EllwoodLibrary", "Quillstream"]
        server = try FakeHIBP(fixtures: """
        {"accounts": {"many@example.com": {"breaches": [\(many.map { "\"\($0)\"" }.joined(separator: ", "))], "ownerVerified": true}}}
        """)
        s.environment["PWNVAULT_API_URL"] = server.apiURL
        s.initVault()
        XCTAssertEqual(s.run(["add", "many@example.com", "--label", "Kim"]).status, 0)
        let driver = [Paths.support("ptyrun.py"), "--cols", "60", "--", Paths.binary, "check", "#1", "--no-share", "--no-color"]
        let r = Sandbox.exec(Paths.python, driver, input: nil,
                             environment: s.environment.merging(["PWNVAULT_PASSPHRASE_FILE": s.passphraseFile]) { $1 })
        let lines = r.stdout.replacingOccurrences(of: "\r", with: "").split(separator: "\n").map(String.init)
        let account = lines.filter { $0.hasPrefix("#1 ") }
        XCTAssertEqual(account.count, 1, "one line: \(r.stdout)")
        XCTAssertTrue(account.first?.contains("pwned in 6 breaches") == true, "no name fits 60 columns beside the heading: \(r.stdout)")
        let wide = Sandbox.exec(Paths.python, [Paths.support("ptyrun.py"), "--cols", "110", "--", Paths.binary, "check", "#1", "--no-share", "--no-color"],
                                input: nil, environment: s.environment.merging(["PWNVAULT_PASSPHRASE_FILE": s.passphraseFile]) { $1 })
        let wideLines = wide.stdout.replacingOccurrences(of: "\r", with: "").split(separator: "\n").map(String.init)
        XCTAssertEqual(wideLines.filter { $0.hasPrefix("#1 ") }.count, 1, wide.stdout)
        XCTAssertTrue(wideLines.contains { $0.hasPrefix("#1 ") && $0.contains(", … ") && $0.contains(" more") }, "as many names as fit: \(wide.stdout)")
        for line in wideLines { XCTAssertLessThanOrEqual(line.count, 110, line) }
        for line in lines { XCTAssertLessThanOrEqual(line.count, 60, line) }
        let piped = s.run(["check", "#1"])
        let pipedLine = piped.stdout.split(separator: "\n").first { $0.hasPrefix("#1 ") } ?? ""
        for title in ["Adobe", "Brightmere", "Copper Kettle Recipes", "DuneRunner", "Ellwood Public Library", "Quillstream"] {
            XCTAssertTrue(pipedLine.contains(title), "piped, every name on the line: \(piped.stdout)")
        }
    }

    /// Every command's help: usage and options first, the discussion after, the exit statuses last.
    func testHelpPutsUsageAndOptionsFirstAndExitStatusesLast() {
        for command in ["check", "ack", "list", "watch"] {
            let help = s.run(["help", command]).stdout
            let order = ["USAGE:", "OPTIONS:", "GLOBAL OPTIONS:", "DESCRIPTION:", "EXAMPLES:", "EXIT STATUS:"]
                .map { help.range(of: $0)?.lowerBound }
            XCTAssertFalse(order.contains(nil), "\(command): \(help)")
            XCTAssertEqual(order.compactMap { $0 }, order.compactMap { $0 }.sorted(), command)
            XCTAssertFalse(help.components(separatedBy: "EXIT STATUS:").first!.contains("Exit status:"), "said once, last: \(command)")
        }
        XCTAssertTrue(s.run(["help", "check"]).stdout.hasSuffix("EXIT STATUS:\n  0 no checked account has a finding to acknowledge (with --all: no account in the vault has), 1 at least one has, 6 none could be checked, HIBP cannot be reached (or its network blocked the request) or asked for too long a wait, 7 the key was refused or is missing (or --k-anonymity=require met a plan without the search), 8 some could not be checked (this wins over 1).\n"))
    }

    /// Hints name what the command really uses: Pwned Passwords by its own name and address setting
    /// (not HIBP's, and no "saved results"); watch's advice for a keyring without this vault's key.
    func testHintsNameWhatTheCommandUses() {
        let password = s.run(["password"], input: "hunter2\n")
        XCTAssertEqual(password.status, 6, password.all)
        XCTAssertTrue(password.stderr.contains("error: Pwned Passwords cannot be reached"), password.stderr)
        XCTAssertTrue(password.stderr.contains("PWNVAULT_PASSWORDS_URL"), password.stderr)
        XCTAssertFalse(password.stderr.contains("PWNVAULT_API_URL") || password.stderr.contains("saved results"), password.stderr)

        let created = s.run(["init", "--kdf", "interactive", "--weak-passphrase-ok"], env: ["PWNVAULT_KEYRING": "none"])
        XCTAssertEqual(created.status, 0, created.all)
        let watch = s.run(["watch"], passphraseFromFile: false)
        XCTAssertEqual(watch.status, 5, watch.all)
        XCTAssertTrue(watch.stderr.contains("the keyring has no key for this vault"), watch.stderr)
        XCTAssertTrue(watch.stderr.contains("hint: run 'pwnvault list' once on a terminal, with the keyring unlocked, to put this vault's key there"), watch.stderr)
    }

    /// An unknown command is named on a terminal outside share mode (with did-you-mean when near);
    /// piped or in share mode a word that is no near miss is not repeated (it may be an account).
    func testUnknownCommandsAreNamedOnATerminalOnly() {
        let onTerminal = s.runOnTerminal(["frobnicate"], env: ["PWNVAULT_SHARE": ""])
        XCTAssertTrue(onTerminal.stdout.contains("pwnvault: error: unknown command 'frobnicate'"), onTerminal.stdout)
        XCTAssertTrue(onTerminal.stdout.contains("see 'pwnvault help' for the list of commands"), onTerminal.stdout)
        let shared = s.runOnTerminal(["frobnicate"], env: ["PWNVAULT_SHARE": "1"])
        XCTAssertTrue(shared.stdout.contains("the first argument is not a command") && !shared.stdout.contains("frobnicate'"), shared.stdout)
        let piped = s.run(["frobnicate"])
        XCTAssertEqual(piped.stderr, "pwnvault: error: the first argument is not a command\npwnvault: hint: see 'pwnvault help' for the list of commands\n")
        XCTAssertTrue(s.run(["lst"]).stderr.contains("unknown command 'lst'"), "a near miss is named everywhere")
    }

    /// `help` with a word that is no command says so of the help topic, with the topics there are.
    func testHelpWithAnUnknownWordNamesTheTopics() {
        let near = s.run(["help", "exit-stats"])
        XCTAssertEqual(near.status, 2, near.all)
        XCTAssertEqual(near.stderr, """
            pwnvault: error: no command or help topic 'exit-stats'
            pwnvault: hint: did you mean 'exit-status'? 'pwnvault help' lists the commands; the topics are environment, exit-status

            """)
        let far = s.run(["help", "kim.lee"])
        XCTAssertTrue(far.stderr.hasPrefix("pwnvault: error: no command or help topic by that name\n"), far.stderr)
        XCTAssertFalse(far.stderr.contains("kim.lee"), "never repeated: it may be an account")
    }

    /// `init` ends with the next two commands to run, on stderr (stdout stays the result).
    func testInitEndsWithTheNextTwoCommands() {
        let r = s.run(["init", "--kdf", "interactive", "--weak-passphrase-ok"])
        XCTAssertEqual(r.status, 0, r.all)
        XCTAssertTrue(r.stderr.contains("next: pwnvault add you@example.com --label Me   (or: pwnvault import contacts.vcf)"), r.stderr)
        XCTAssertTrue(r.stderr.contains("then: pwnvault check --all"), r.stderr)
        XCTAssertFalse(r.stdout.contains("next:"), "stdout is the result")
    }
}
