@testable import PwnVaultCLI
import PwnVaultCore
import TestSupport
import XCTest

/// Each command's typed options (issue 31): read once from the parsed arguments, every declared option
/// read and no other, values and conflicts refused there with one line, the usage hint and status 2.
final class CommandOptionsTests: XCTestCase {
    let settings = try! Settings(environment: [:])

    /// A valid command line for every command, with every option it declares where they can go together.
    static let fullLines: [String: [String]] = [
        "init": ["--kdf", "sensitive", "--weak-passphrase-ok"],
        "add": ["alice@example.com", "--label", "Mum", "--region", "GB"],
        "import": ["contacts.vcf", "--pick", "--phones", "--region", "DE"],
        "remove": ["#3", "bob@example.com", "--yes"],
        "list": ["--status", "breached", "--status", "pwned"],
        "check": ["--all", "--force", "--pastes", "--stealer-logs", "--notify=count", "--save", "--rpm", "100",
                  "--max-wait", "30", "--k-anonymity", "off", "--refresh"],
        "watch": ["--full-every", "3", "--notify", "--pastes", "--stealer-logs", "--rpm", "50", "--max-wait", "120",
                  "--k-anonymity", "auto"],
        "ack": ["--all", "--yes"],
        "domain": ["example.com", "--save"],
        "show": ["#3", "--refresh"],
        "reveal": ["#1", "#2", "--timeout", "60", "--unredacted"],
        "breaches": ["--search", "adobe", "--domain", "adobe.com", "--sort", "size", "--refresh"],
        "breach": ["Adobe", "--refresh"],
        "ui": ["--idle", "0", "--rpm", "20"],
        "notify": [],
        "password": ["--offline", "/srv/pwned-passwords.txt"],
        "config": ["api-key", "--no-verify", "--remove"],
        "passwd": ["--kdf", "interactive", "--new-passphrase-fd", "4", "--new-passphrase-file", "/x", "--weak-passphrase-ok"],
        "status": [],
        "doctor": [],
        "schedule": ["enable", "--every", "6h"],
        "completions": ["--list", "breaches", "#3"],
        "help": ["check"],
    ]

    func parse(_ command: String, _ line: [String]) throws -> ParsedArguments {
        try ArgumentReader.read(line, spec: XCTUnwrap(Commands.spec(named: command)))
    }

    func options<O: CommandOptions>(_ type: O.Type, _ command: String, _ line: [String]) throws -> O {
        try O(parse(command, line), settings: settings)
    }

    // MARK: every declared option read, no other

    func testEveryCommandsOptionsReadEachOptionItDeclaresAndNoOther() throws {
        XCTAssertEqual(Set(Self.fullLines.keys), Set(Commands.all.map { $0.spec.name }), "a full line for every command")
        let globals = Set(GlobalOptions.all.map(\.name))
        for command in Commands.all {
            let spec = command.spec
            for line in [Self.fullLines[spec.name] ?? [], ["--json"] + (Self.fullLines[spec.name] ?? [])] where !(spec.name == "ui" && line.first == "--json") {
                var parsed = try ArgumentReader.read(line, spec: spec)
                let log = Locked<[String]>([])
                parsed.lookups = log
                XCTAssertNoThrow(try command.optionsType.init(parsed, settings: settings), "\(spec.name) \(line)")
                let read = Set(log.value)
                let declared = Set(spec.options.map(\.name))
                XCTAssertEqual(read.subtracting(globals), declared,
                               "\(spec.name): its Options must read every option its spec declares (missing: \(declared.subtracting(read)))")
                XCTAssertTrue(read.isSubset(of: declared.union(globals)),
                              "\(spec.name) reads options it does not declare: \(read.subtracting(declared.union(globals)))")
            }
        }
    }

    func testAnOptionReadButNotDeclaredIsSeen() throws {
        // The log the test above relies on: a lookup of another command's option is noted, not missed.
        var parsed = try parse("list", [])
        let log = Locked<[String]>([])
        parsed.lookups = log
        _ = parsed.has(CheckCommand.all)
        XCTAssertEqual(log.value, ["all"])
    }

    // MARK: full command lines

    func testCheckReadsEveryOptionOfAFullLine() throws {
        let o = try options(CheckCommand.Options.self, "check", Self.fullLines["check"]!)
        XCTAssertEqual(o.accounts, [])
        XCTAssertTrue(o.all && o.force && o.pastes && o.stealerLogs && o.save && o.refresh)
        XCTAssertEqual(o.notify.mode, .count)
        XCTAssertEqual(o.pacing, PacingOptions(rpm: 100, maxWait: 30, kAnonymity: .off))
        XCTAssertTrue(o.needsVault)

        let accounts = try options(CheckCommand.Options.self, "check", ["alice@example.com", "#3", "--notify"])
        XCTAssertEqual(accounts.accounts, ["alice@example.com", "#3"])
        XCTAssertFalse(accounts.all || accounts.force || accounts.save || accounts.pastes)
        XCTAssertEqual(accounts.notify.mode, .full)
        XCTAssertTrue(accounts.needsVault, "a #ID is read from the vault")
        XCTAssertFalse(try options(CheckCommand.Options.self, "check", ["alice@example.com"]).needsVault)
        XCTAssertEqual(try options(CheckCommand.Options.self, "check", ["alice@example.com"]).notify.mode, .off)
    }

    func testPacingDefaultsComeFromTheSettings() throws {
        let env = try Settings(environment: ["PWNVAULT_MAX_WAIT": "90", "PWNVAULT_K_ANONYMITY": "require"])
        let o = try CheckCommand.Options(parse("check", ["--all"]), settings: env)
        XCTAssertEqual(o.pacing, PacingOptions(rpm: nil, maxWait: 90, kAnonymity: .require))
        let given = try CheckCommand.Options(parse("check", ["--all", "--max-wait", "5", "--k-anonymity=off"]), settings: env)
        XCTAssertEqual(given.pacing, PacingOptions(rpm: nil, maxWait: 5, kAnonymity: .off), "an option wins over its variable")
    }

    func testTheUIReusesChecksPacing() throws {
        // The same initializer reads the ui's --rpm: the same value gives the same pacing as check's, and
        // what the ui has no option for comes from the settings, as check's does when not given.
        let env = try Settings(environment: ["PWNVAULT_MAX_WAIT": "45", "PWNVAULT_K_ANONYMITY": "off"])
        let ui = try UICommand.Options(parse("ui", ["--rpm", "20"]), settings: env)
        let check = try CheckCommand.Options(parse("check", ["--all", "--rpm", "20"]), settings: env)
        XCTAssertEqual(ui.pacing, check.pacing)
        XCTAssertEqual(ui.pacing, PacingOptions(rpm: 20, maxWait: 45, kAnonymity: .off))
        XCTAssertEqual(UICommand.rpm.usageForm, PacingOptions.rpm.usageForm, "check's --rpm, with the ui's help")
        XCTAssertNotEqual(UICommand.rpm.help, PacingOptions.rpm.help)
        XCTAssertEqual(ui.idle, UICommand.defaultIdle)
        XCTAssertEqual(try options(UICommand.Options.self, "ui", ["--idle", "0"]).idle, 0)
        // And refuses what check refuses, in check's words.
        XCTAssertEqual(try usageError(UICommand.Options.self, "ui", ["--rpm", "0"])?.message,
                       try usageError(CheckCommand.Options.self, "check", ["--all", "--rpm", "0"])?.message)
    }

    func testWatchReadsEveryOptionOfAFullLine() throws {
        let o = try options(WatchCommand.Options.self, "watch", Self.fullLines["watch"]!)
        XCTAssertEqual(o.fullEvery, 3)
        XCTAssertEqual(o.notify.mode, .full)
        XCTAssertTrue(o.pastes && o.stealerLogs)
        XCTAssertEqual(o.pacing, PacingOptions(rpm: 50, maxWait: 120, kAnonymity: .auto))
        XCTAssertEqual(try options(WatchCommand.Options.self, "watch", []).fullEvery, WatchCommand.defaultFullEvery)
    }

    func testTheOtherCommandsReadEveryOptionOfAFullLine() throws {
        let ack = try options(AckCommand.Options.self, "ack", ["#3", "Adobe", "Hush Clinic"])
        XCTAssertFalse(ack.all || ack.yes)
        XCTAssertEqual(ack.account, "#3")
        XCTAssertEqual(ack.breaches, ["Adobe", "Hush Clinic"])
        let ackAll = try options(AckCommand.Options.self, "ack", ["--all", "-y"])
        XCTAssertTrue(ackAll.all && ackAll.yes)
        XCTAssertNil(ackAll.account)
        XCTAssertEqual(ackAll.breaches, [])

        let add = try options(AddCommand.Options.self, "add", Self.fullLines["add"]!)
        XCTAssertEqual(add.accounts, ["alice@example.com"])
        XCTAssertEqual(add.label, "Mum")
        XCTAssertTrue(add.region.given)
        XCTAssertEqual(add.region.numbering.region?.code, "GB")
        XCTAssertEqual(try options(AddCommand.Options.self, "add", ["-"]).accounts, ["-"])
        XCTAssertFalse(try options(AddCommand.Options.self, "add", ["a@example.com"]).region.given)

        let imp = try options(ImportCommand.Options.self, "import", Self.fullLines["import"]!)
        XCTAssertEqual(imp.source, "contacts.vcf")
        XCTAssertTrue(imp.pick && imp.phones && imp.region.given)
        XCTAssertEqual(imp.region.numbering.region?.code, "DE")

        let remove = try options(RemoveCommand.Options.self, "remove", Self.fullLines["remove"]!)
        XCTAssertEqual(remove.accounts, ["#3", "bob@example.com"])
        XCTAssertTrue(remove.yes)
        XCTAssertFalse(try options(RemoveCommand.Options.self, "remove", ["#3"]).yes)
        XCTAssertEqual(try options(ListCommand.Options.self, "list", Self.fullLines["list"]!).status, [.breached, .breached])
        XCTAssertEqual(try options(ListCommand.Options.self, "list", []).status, [])
        let domain = try options(DomainCommand.Options.self, "domain", ["example.com", "--save"])
        XCTAssertEqual(domain.domain, "example.com")
        XCTAssertTrue(domain.save)
        let domains = try options(DomainCommand.Options.self, "domain", [])
        XCTAssertNil(domains.domain)
        XCTAssertFalse(domains.save)
        let show = try options(ShowCommand.Options.self, "show", ["#3", "--refresh"])
        XCTAssertEqual(show.account, "#3")
        XCTAssertTrue(show.refresh)
        XCTAssertFalse(try options(ShowCommand.Options.self, "show", ["#3"]).refresh)
        let reveal = try options(RevealCommand.Options.self, "reveal", Self.fullLines["reveal"]!)
        XCTAssertEqual(reveal.accounts, ["#1", "#2"])
        XCTAssertEqual(reveal.timeout, 60)
        XCTAssertTrue(reveal.unredacted)
        let revealAll = try options(RevealCommand.Options.self, "reveal", [])
        XCTAssertEqual(revealAll.accounts, [])
        XCTAssertNil(revealAll.timeout)
        XCTAssertFalse(revealAll.unredacted)
        let breaches = try options(BreachesCommand.Options.self, "breaches", Self.fullLines["breaches"]!)
        XCTAssertEqual(breaches.query, BreachQuery(search: "adobe", domain: "adobe.com", sort: .size))
        XCTAssertTrue(breaches.refresh)
        XCTAssertEqual(try options(BreachesCommand.Options.self, "breaches", []).query, BreachQuery(search: nil, domain: nil, sort: .date))
        let breach = try options(BreachCommand.Options.self, "breach", ["Adobe", "--refresh"])
        XCTAssertEqual(breach.name, "Adobe")
        XCTAssertTrue(breach.refresh)
        XCTAssertEqual(try options(PasswordCommand.Options.self, "password", Self.fullLines["password"]!).offline, "/srv/pwned-passwords.txt")
        XCTAssertNil(try options(PasswordCommand.Options.self, "password", []).offline)
        let config = try options(ConfigCommand.Options.self, "config", Self.fullLines["config"]!)
        XCTAssertTrue(config.noVerify && config.remove)
        let plain = try options(ConfigCommand.Options.self, "config", ["api-key"])
        XCTAssertFalse(plain.noVerify || plain.remove)

        let passwd = try options(PasswdCommand.Options.self, "passwd", Self.fullLines["passwd"]!)
        XCTAssertEqual(passwd.newPassphrase, .fileDescriptor(4), "the descriptor wins over the file, as for the current passphrase")
        XCTAssertEqual(passwd.kdf, .interactive)
        XCTAssertTrue(passwd.weakPassphraseOK)
        let passwdFile = try options(PasswdCommand.Options.self, "passwd", ["--new-passphrase-file", "/x"])
        XCTAssertEqual(passwdFile.newPassphrase, .file("/x"))
        XCTAssertNil(passwdFile.kdf, "no --kdf: keep the vault's")
        XCTAssertFalse(passwdFile.weakPassphraseOK)
        XCTAssertEqual(try options(PasswdCommand.Options.self, "passwd", []).newPassphrase, .terminal,
                       "never PWNVAULT_PASSPHRASE_FILE: that holds the current one")
        let initOptions = try options(InitCommand.Options.self, "init", Self.fullLines["init"]!)
        XCTAssertEqual(initOptions.kdf, .sensitive)
        XCTAssertTrue(initOptions.weakPassphraseOK)
        let initDefaults = try options(InitCommand.Options.self, "init", [])
        XCTAssertEqual(initDefaults.kdf, .moderate)
        XCTAssertFalse(initDefaults.weakPassphraseOK)

        let schedule = try options(ScheduleCommand.Options.self, "schedule", Self.fullLines["schedule"]!)
        XCTAssertEqual(schedule.action, .enable)
        XCTAssertEqual(schedule.every, try ScheduleInterval(parsing: "6h"))
        let scheduleStatus = try options(ScheduleCommand.Options.self, "schedule", ["status"])
        XCTAssertEqual(scheduleStatus.action, .status)
        XCTAssertEqual(scheduleStatus.every, .daily)
        XCTAssertEqual(try options(CompletionsCommand.Options.self, "completions", Self.fullLines["completions"]!).mode, .list(.breaches, account: "#3"))
        XCTAssertEqual(try options(CompletionsCommand.Options.self, "completions", ["--list", "ids"]).mode, .list(.ids, account: nil))
        XCTAssertEqual(try options(CompletionsCommand.Options.self, "completions", ["zsh"]).mode, .script(.zsh))
        XCTAssertEqual(try options(HelpCommand.Options.self, "help", ["check"]).topic, "check")
        XCTAssertNil(try options(HelpCommand.Options.self, "help", []).topic)
    }

    // MARK: refusals

    /// What `O` refuses `line` with, as a user-facing error (nil when it accepts it).
    func usageError<O: CommandOptions>(_ type: O.Type, _ command: String, _ line: [String]) throws -> UserFacingError? {
        let parsed = try parse(command, line)
        do {
            _ = try O(parsed, settings: settings)
            return nil
        } catch let error as UserFacingError {
            return error
        }
    }

    /// Each refusal: (command, line, message, the start of its hint). All are status 2, one line each.
    static let refusals: [(String, [String], String, String)] = {
        let usage = { (c: String) in "usage: pwnvault \(c)" }
        return [
            ("check", ["--all", "alice@example.com"], "--all checks the whole vault: give either --all or accounts, not both", usage("check")),
            ("check", [], "missing argument", usage("check")),
            ("check", ["alice@example.com", "--force"], "--force goes with --all", usage("check")),
            ("check", ["--all", "--rpm", "0"], "invalid value for '--rpm': a whole number of requests per minute, 1 or more", usage("check")),
            ("check", ["--all", "--max-wait", "86401"], "invalid value for '--max-wait': a whole number of seconds from 1 to 86400", usage("check")),
            ("check", ["--all", "--k-anonymity", "maybe"], "invalid value for '--k-anonymity': auto, require or off", usage("check")),
            ("check", ["--all", "--pastes", "--k-anonymity=require"],
             "pastes and stealer logs are searched by the whole address, which --k-anonymity=require never sends", usage("check")),
            ("check", ["--all", "--notify=all"],
             "invalid value for '--notify': give --notify alone, or --notify=count for only how many accounts have news", usage("check")),
            ("watch", ["--full-every", "0"], "invalid value for '--full-every': a whole number of days from 1 to 365", usage("watch")),
            ("watch", ["--stealer-logs", "--k-anonymity", "require"],
             "pastes and stealer logs are searched by the whole address, which --k-anonymity=require never sends", usage("watch")),
            ("watch", ["--rpm", "many"], "invalid value for '--rpm': a whole number of requests per minute, 1 or more", usage("watch")),
            ("watch", ["--notify=loud"],
             "invalid value for '--notify': give --notify alone, or --notify=count for only how many accounts have news", usage("watch")),
            ("ui", ["--idle", "86401"], "invalid value for '--idle': a whole number of seconds from 0 (never) to 86400", usage("ui")),
            ("ui", ["--rpm", "0"], "invalid value for '--rpm': a whole number of requests per minute, 1 or more", usage("ui")),
            ("ui", ["--json"], "the ui has no --json output", "use 'pwnvault list --json'"),
            ("ack", ["--all", "#1"], "--all acknowledges the whole vault: give either --all or one account", usage("ack")),
            ("ack", [], "missing argument", usage("ack")),
            ("add", ["-", "alice@example.com"], "'-' (read from stdin) cannot be mixed with accounts as arguments", usage("add")),
            ("add", ["alice@example.com", "--region", "G"],
             "invalid value for '--region': a region is two letters, its country's ISO 3166 code (GB, US, DE)", usage("add")),
            ("add", ["alice@example.com", "--region", "UK"],
             "invalid value for '--region': libphonenumber has no numbering plan for that region; give a country's ISO 3166 code (GB, not UK)", usage("add")),
            ("import", ["contacts.vcf", "--region", "UK"],
             "invalid value for '--region': libphonenumber has no numbering plan for that region; give a country's ISO 3166 code (GB, not UK)", usage("import")),
            ("list", ["--status", "bogus"],
             "invalid value for '--status': expected breached, clean, new, unacknowledged, failed, never", usage("list")),
            ("breaches", ["--sort", "age"], "invalid value for '--sort': expected date, size or name", usage("breaches")),
            ("config", ["proxy"], "invalid value for 'SETTING': the only setting is 'api-key'", usage("config")),
            ("passwd", ["--new-passphrase-fd", "x"], "invalid value for '--new-passphrase-fd': not a file descriptor number", usage("passwd")),
            ("passwd", ["--kdf", "fast"], "invalid value for '--kdf': expected interactive, moderate or sensitive", usage("passwd")),
            ("init", ["--kdf", "fast"], "invalid value for '--kdf': expected interactive, moderate or sensitive", usage("init")),
            ("schedule", ["start"], "invalid value for 'ACTION': it is enable, disable or status", usage("schedule")),
            ("schedule", ["status", "--every", "6h"], "--every goes with 'schedule enable' only", usage("schedule")),
            ("completions", ["--list", "ids", "#3"], "--list ids takes no account", usage("completions")),
            ("completions", ["--list", "accounts"], "invalid value for '--list': expected ids or breaches", usage("completions")),
            ("completions", [], "missing argument", usage("completions")),
            ("completions", ["tcsh"], "unknown shell 'tcsh': completions exist for bash, zsh and fish", usage("completions")),
            ("domain", ["--save"], "--save needs a DOMAIN", usage("domain")),
            ("domain", ["alice@example.com"], "the argument is not a domain name", "give a domain such as example.com"),
            ("reveal", ["--timeout", "0"], "invalid value for '--timeout': a whole number of seconds from 1 to 3600", usage("reveal")),
        ]
    }()

    func testEveryConflictAndBadValueIsOneLineWithTheUsageHintAndStatus2() throws {
        for (command, line, message, hint) in Self.refusals {
            let type = try XCTUnwrap(Commands.named(command)).optionsType
            let parsed = try parse(command, line)
            XCTAssertThrowsError(try type.init(parsed, settings: settings), "\(command) \(line)") { error in
                guard let error = error as? UserFacingError else { return XCTFail("\(command) \(line): \(error)") }
                XCTAssertEqual(error.message, message, "\(command) \(line)")
                XCTAssertFalse(error.message.contains("\n"), "one line")
                XCTAssertEqual(error.hint.map { $0.hasPrefix(hint) }, true, "\(command) \(line): \(error.hint ?? "no hint")")
                XCTAssertEqual(error.exitStatus, .usage, "\(command) \(line)")
            }
        }
    }

    /// A property: whatever the reader accepts, each command's options read it or refuse it as a usage
    /// error (status 2, one line, a hint); no other error, no crash. Seeded: a failure names its line.
    func testWhatTheReaderAcceptsIsReadOrRefusedAsAUsageError() throws {
        var rng = SplitMix64(seed: 31)
        let words = ["", "0", "1", "30", "-1", "86401", "x", "6h", "5h", "count", "auto", "require", "off", "GB", "UK", "G",
                     "breached", "pwned", "size", "ids", "breaches", "interactive", "fast", "api-key", "enable", "status",
                     "zsh", "tcsh", "example.com", "alice@example.com", "#3", "-", "Adobe"]
        var read = 0, refused = 0
        for _ in 0..<4000 {
            let command = Commands.all.randomElement(using: &rng)!
            let spec = command.spec
            var line: [String] = []
            for _ in 0..<Int.random(in: 0...5, using: &rng) {
                let word = words.randomElement(using: &rng)!
                guard Bool.random(using: &rng), let option = spec.options.randomElement(using: &rng) else { line.append(word); continue }
                if option.takesValue {
                    line += ["--" + option.name, word]
                } else {
                    line.append("--" + option.name + (option.optionalValue != nil && Bool.random(using: &rng) ? "=" + word : ""))
                }
            }
            guard let parsed = try? ArgumentReader.read(line, spec: spec) else { continue }
            do {
                _ = try command.optionsType.init(parsed, settings: settings)
                read += 1
            } catch let error as UserFacingError {
                refused += 1
                XCTAssertEqual(error.exitStatus, .usage, "\(spec.name) \(line): \(error.message)")
                XCTAssertFalse(error.message.contains("\n"), "\(spec.name) \(line)")
                XCTAssertFalse(error.hint?.isEmpty ?? true, "\(spec.name) \(line): a hint")
            } catch {
                XCTFail("\(spec.name) \(line): \(error)")
            }
        }
        XCTAssertGreaterThan(read, 500)
        XCTAssertGreaterThan(refused, 500)
    }

    func testAnInvalidPeriodIsTheSchedulesOwnError() throws {
        let error = try usageError(ScheduleCommand.Options.self, "schedule", ["enable", "--every", "5h"])
        XCTAssertEqual(error as? ScheduleError, .invalidPeriod("5h", reason: "a timer can keep only periods that divide a day or a week evenly"))
    }
}
