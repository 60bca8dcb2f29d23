import FoundationEssentials
import PwnVaultCore

/// `pwnvault reveal`: the accounts unmasked, after the passphrase, on a private screen.
enum RevealCommand: Command {
    static let timeout = OptionSpec("timeout", value: "SECONDS", help: msg("close the private screen after SECONDS (default 30; 10 where focus is not reported)"))
    static let unredacted = OptionSpec("unredacted", help: msg("write the unmasked accounts to stdout even when it is not a terminal"))

    static let spec = CommandSpec(
        name: "reveal",
        summary: msg("show accounts unmasked, after the passphrase, on a private screen"),
        usage: ["[ACCOUNT|#ID...] [--timeout SECONDS]", "[ACCOUNT|#ID...] --unredacted > FILE"],
        discussion: msg("""
        Always asks for the passphrase, even when the keyring holds the key: typing it is the deliberate
        act that unmasks. The accounts, their labels and results appear on the terminal's alternate screen,
        so nothing enters the scrollback: every breach (sensitive ones named and marked), every paste
        (source/id) and every website whose info-stealer logs held the account (named only here; other
        commands count them). The lines wrap to the window; Up, Down, j and k scroll a line, PgUp PgDn Space a
        page, Home End to either end; / types a search (Enter finds, n next, N previous; while typing, q
        is a letter and Esc still closes). Keys do not restart the timeout: give --timeout for a long
        read. Focus is followed from the passphrase
        prompt on: the screen is blank while the window does not have focus (also when focus moved away
        after Enter) and comes back on focus or a key; it closes after the timeout, on q, Esc or Ctrl-C,
        and clears itself before a Ctrl-Z stops the process. Where focus changes cannot reach pwnvault
        (tmux with focus-events off, GNU screen, a terminal that does not report them) one line says so,
        with the fix (for tmux once per tmux server, remembered in the cache folder), and the timeout
        is 10 s. Refused in share mode, with TERM=dumb, and under GNU screen unless its
        alternate screen is on (altscreen on; asked of the terminal itself). Into a pipe or a file it is
        refused unless --unredacted is given (a file is then made 0600): one tab-separated line per
        account, or with --json the fields id, account, kind, label, status, breaches, pastes and
        stealerLogSites. The passphrase is typed, or
        given with --passphrase-file or --passphrase-fd; PWNVAULT_PASSPHRASE_FILE is not used here.
        """),
        options: [timeout,
                  unredacted],
        positionals: 0...Int.max,
        positionalHelp: [("ACCOUNT|#ID", msg("the accounts to reveal (default: all)"))],
        examples: [("pwnvault reveal", msg("see every account in full for 30 seconds")),
                   ("pwnvault reveal '#3' --timeout 10", msg("see account #3 for 10 seconds")),
                   ("pwnvault reveal --unredacted > accounts.txt", msg("export them on purpose (file made 0600)"))])

    struct Row: Encodable {
        let id: Int
        let account: String
        let kind: AccountKind
        let label: String?
        let status: CheckStatus
        let breaches: [String]
        let pastes: [String]
        let stealerLogSites: [String]
        /// Breaches the account was found in that HIBP no longer lists (not in `breaches`).
        let unlistedBreaches: [String]
    }

    static func run(_ context: Context) throws -> ExitStatus {
        let options = try Options(context)
        let c = context.console
        let unredacted = options.unredacted
        if let reason = context.shareReason {
            throw RevealRefusal.shareMode(reason: reason.description, source: reason.source)
        }
        // TERM=dumb on a real terminal: neither a pipe nor a file, and no private screen either (its
        // scrollback would keep whatever was written). Said as it is, never taken for a pipe.
        if TerminalCapabilities.stdoutIsDumbTerminal(environment: context.environment) { throw RevealRefusal.dumbTerminal }
        let onTerminal = c.terminal.stdoutIsTerminal
        if onTerminal && context.json { throw RevealRefusal.jsonOnTerminal }
        if !onTerminal && !unredacted { throw RevealRefusal.notATerminal }
        let chosenTimeout = options.timeout
        guard onTerminal else { return try export(context, options: options) }
        // GNU screen with `altscreen off` would keep every revealed line in its scrollback.
        if let verdict = AlternateScreenProbe.underGNUScreen(environment: context.environment), verdict != .works {
            throw RevealRefusal.noAlternateScreen(confirmed: verdict == .ignored)
        }

        // Focus is followed from before the passphrase is typed (see PrivateScreen.listen): a window
        // that loses focus while the key is derived never shows the accounts.
        let obstacle = FocusObstacle.detect(environment: context.environment)
        // Said once per tmux server (remembered in the cache): the same warning on every reveal is noise.
        if let obstacle, (try? HIBPServices(context).cacheDirectory()).map({ FocusWarningMemory(directory: $0).shouldWarn(obstacle) }) ?? true {
            c.note(focusWarning(obstacle.reason, fix: obstacle.fix, timeout: chosenTimeout))
        }
        guard let screen = PrivateScreen.onControllingTerminal() else { throw RevealRefusal.noTerminalInput }
        defer { screen.close() }
        try screen.listen()
        let session: VaultSession
        do {
            session = try context.openVault(requirePassphrase: true) { try screen.readPassphrase(prompt: $0) }
        } catch let ScreenError.interrupted(signal) {
            return .interrupted(by: signal)
        }
        guard let grant = session.revealGrant else { throw RevealRefusal.noTerminalInput }
        let chosen = try accounts(options.accounts, context: context, session: session)
        let catalog = chosen.contains { $0.result.breachCount > 0 || !$0.unlistedFindings.isEmpty }
            ? HIBPServices(context).catalogIfAvailable(covering: chosen.map(\.result)) : nil

        let reporting = screen.settle()
        let hides = obstacle == nil && reporting == .reported
        if obstacle == nil, let unreported = FocusWarning.unreported(reporting) {
            c.note(focusWarning(unreported.reason, fix: unreported.fix, timeout: chosenTimeout))
        }
        let timeout = chosenTimeout ?? (hides ? PrivateScreen.defaultTimeout : PrivateScreen.unfocusableTimeout)
        let seconds = Int(timeout)
        let what = hides
            ? msg(one: "pwnvault reveal: {1} account; closes in {2} s or on q or Esc; hidden without focus",
                  many: "pwnvault reveal: {1} accounts; closes in {2} s or on q or Esc; hidden without focus",
                  count: chosen.count, chosen.count, seconds)
            : msg(one: "pwnvault reveal: {1} account; closes in {2} s or on q or Esc",
                  many: "pwnvault reveal: {1} accounts; closes in {2} s or on q or Esc", count: chosen.count, chosen.count, seconds)
        var text: [TextPager.Line] = []
        for a in chosen {
            if !text.isEmpty { text.append(TextPager.Line("")) }
            text += RevealedLines.lines(for: a, status: StateText.of(a), catalog: catalog, grant: grant)
        }
        var pager = TextPager(header: [what, ""], lines: text)
        let end = try screen.run(timeout: timeout, pager: &pager)
        switch end {
        case .timeout: c.note(msg("hidden again (timeout)"))
        case .userQuit: break
        case let .interrupted(signal): return .interrupted(by: signal)
        }
        return .success
    }

    /// The one line said where the private screen cannot hide on focus loss: why, what it does instead,
    /// and the fix.
    static func focusWarning(_ reason: String, fix: String, timeout: TimeInterval?) -> String {
        FocusWarning.line(reason: reason, fix: fix, closesAfter: Int(timeout ?? PrivateScreen.unfocusableTimeout))
    }

    /// The accounts asked for (all by default).
    static func accounts(_ asked: [String], context: Context, session: VaultSession) throws -> [Account] {
        asked.isEmpty
            ? session.payload.accounts
            : try AccountResolver.vaultAccounts(asked, in: session.payload, phones: context.phoneNumbering, disclosure: context.console.disclosure)
    }

    /// `--unredacted` into a pipe or a file (made 0600 first): tab-separated lines or JSON.
    static func export(_ context: Context, options: Options) throws -> ExitStatus {
        let c = context.console
        let session = try context.openVault(requirePassphrase: true)
        guard let grant = session.revealGrant else { throw RevealRefusal.noTerminalInput }
        let chosen = try accounts(options.accounts, context: context, session: session)
        let catalog = chosen.contains { $0.result.breachCount > 0 || !$0.unlistedFindings.isEmpty }
            ? HIBPServices(context).catalogIfAvailable(covering: chosen.map(\.result)) : nil
        try StandardOutputFile.restrictIfRegularFile()
        if context.json {
            try c.json(chosen.map { Row(id: $0.id, account: Disclosure.revealed($0, grant: grant), kind: $0.kind,
                                        label: Disclosure.revealedLabel($0, grant: grant), status: $0.result.status,
                                        breaches: Disclosure.revealedBreaches($0.result, catalog: catalog, grant: grant).map(\.name),
                                        pastes: Disclosure.revealedPastes($0, grant: grant),
                                        stealerLogSites: Disclosure.revealedStealerLogSites($0, grant: grant),
                                        unlistedBreaches: Disclosure.revealedUnlistedBreaches($0, catalog: catalog, grant: grant).map(\.breach.name)) })
        } else {
            for a in chosen {
                // A file for scripts: its words stay English whatever the language, like --json.
                c.out(Messages.english { RevealedLines.fields(for: a, status: StateText.of(a), catalog: catalog, grant: grant) }.joined(separator: "\t"))
            }
        }
        return .success
    }
}

/// Why reveal will not show anything.
enum RevealRefusal: UserFacingError {
    case shareMode(reason: String, source: ShareModeReason.Source)
    case notATerminal
    case dumbTerminal
    case jsonOnTerminal
    case noTerminalInput
    case noAlternateScreen(confirmed: Bool)

    var message: String {
        switch self {
        case let .shareMode(reason, _): return msg("refusing to reveal accounts in share mode ({1})", reason)
        case .notATerminal: return msg("refusing to reveal accounts into a pipe or a file")
        case .dumbTerminal: return msg("refusing to reveal accounts: TERM=dumb says this terminal cannot show a private screen")
        case .jsonOnTerminal: return msg("refusing to print unmasked accounts as json on the terminal (it would stay in the scrollback)")
        case .noTerminalInput: return msg("reveal needs a terminal to read keys from")
        case let .noAlternateScreen(confirmed): return msg("refusing to reveal accounts: {1}", AlternateScreenProbe.problem(confirmed: confirmed))
        }
    }

    var hint: String? {
        switch self {
        // Only a way out that works: --no-share turns detection off, never the user's own choice.
        case .shareMode(_, .detected): return msg("stop sharing or recording the screen first; --no-share turns detection off for one run")
        case .shareMode(_, .option): return msg("run it without --share once the screen is private")
        case .shareMode(_, .variable): return msg("{1} is your own choice and --no-share does not undo it: once the screen is private, run it without the variable: env -u {1} pwnvault reveal", Settings.shareVariable)
        case .notATerminal: return msg("run it in a terminal, or add --unredacted to write them anyway (the passphrase is still asked; a file is made 0600)")
        case .dumbTerminal: return msg("run it with your terminal's type, e.g. TERM=xterm-256color pwnvault reveal; to export them, redirect: pwnvault reveal --unredacted > FILE")
        case .jsonOnTerminal: return msg("redirect it: pwnvault reveal --json --unredacted > accounts.json")
        case .noTerminalInput: return msg("run it from an interactive terminal")
        case .noAlternateScreen: return AlternateScreenProbe.fix
        }
    }

    var exitStatus: ExitStatus { .usage }
}

extension RevealCommand {
    static let optionsType: any CommandOptions.Type = Options.self

    /// `reveal`'s options, read and checked once (before any refusal that depends on the terminal).
    struct Options: CommandOptions, Equatable {
        /// The accounts or `#ID`s asked for; none: every account.
        let accounts: [String]
        /// Seconds before the private screen closes, when given.
        let timeout: TimeInterval?
        let unredacted: Bool

        init(_ arguments: ParsedArguments, settings: Settings) throws {
            accounts = arguments.positionals
            unredacted = arguments.has(RevealCommand.unredacted)
            if let text = arguments.value(RevealCommand.timeout) {
                guard let t = Int(text), (1...3600).contains(t) else {
                    throw UsageError.invalidValue(command: "reveal", option: "--timeout", reason: msg("a whole number of seconds from 1 to 3600"))
                }
                timeout = TimeInterval(t)
            } else {
                timeout = nil
            }
        }
    }
}
