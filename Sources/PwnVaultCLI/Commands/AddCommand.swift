import FoundationEssentials
import PwnVaultCore

/// `pwnvault add`: accounts to watch, from arguments or one per line on stdin. All or nothing:
/// one invalid account and none is added.
enum AddCommand: Command {
    static let label = OptionSpec("label", value: "TEXT", help: msg("a name shown instead of the account (e.g. \"Mum's e-mail\"); never an address or number"))

    static let spec = CommandSpec(
        name: "add",
        summary: msg("add e-mail addresses, usernames or phone numbers to watch"),
        usage: ["ACCOUNT... [--label TEXT] [--region CC]", "- [--label TEXT] [--region CC]"],
        discussion: msg("""
        Each account is trimmed and recognised as an e-mail address (its domain lower-cased), a phone
        number or a username. A phone number is stored in E.164 (+447700900123): written without its
        country code (07700 900123) it is read as a number of --region's country, else of the locale's
        (LC_TELEPHONE, LANG: en_GB.UTF-8 is GB), and refused when there is none; a tel: URI's extension
        is left out. A number of digits only, too short for a phone number (123), is refused rather than
        taken for a username. An account already in the vault (in any form) is reported,
        not added twice. If any account is invalid, nothing is added (a username of dots only is invalid:
        HIBP cannot look it up). An account that mixes scripts in one part, or looks like one already in
        the vault (a Cyrillic letter a for a Latin one), is added with a warning that names both ids. With '-', accounts are read one
        per line from stdin (blank lines and lines starting with '#' are skipped) so they never appear
        in the shell's history or the process list; when stdin is a terminal each account is asked for
        and typed without echo, said back masked, until an empty line or Ctrl-D. The label is what share mode, pipes and --json
        show instead of the account, so a label holding an e-mail address, a phone number or an
        account of the vault is refused.
        """),
        options: [label,
                  RegionOption.spec],
        positionals: 1...Int.max,
        positionalHelp: [("ACCOUNT", msg("an e-mail address, username or phone number")),
                         ("-", msg("read accounts from stdin, one per line"))],
        examples: [("pwnvault add alice@example.com --label \"Alice (work)\"", msg("watch one address, shown as its label")),
                   ("pwnvault add - < family.txt", msg("add every account listed in a file")),
                   // The numbers and labels are examples a translation may make its own (a Chinese number, a Chinese label).
                   (msg("pwnvault add \"+44 7700 900123\" --label Dad"), msg("a phone number with spaces, as one quoted argument")),
                   (msg("pwnvault add 07700900123 --region GB"), msg("a number as dialled in the UK (stored as +447700900123)"))])

    struct Added: Encodable { let id: Int; let kind: AccountKind; let label: String? }
    struct Duplicate: Encodable { let id: Int; let input: String }
    struct Report: Encodable { let added: [Added]; let duplicates: [Duplicate] }

    static func run(_ context: Context) throws -> ExitStatus {
        let options = try Options(context)
        let rawLabel = options.label
        let phones = options.region.numbering
        let inputs = try readInputs(context, accounts: options.accounts, phones: phones)
        var parsed: [(ParsedAccount, InputPosition)] = []
        for (raw, position) in inputs {
            // PhoneLibraryError goes up as it is: about this machine, not this account.
            do { parsed.append((try AccountParser.parse(raw, phones: phones), position)) } catch let e as AccountParseError {
                throw InputError(msg("{1}: {2}; nothing was added", position.phrase, e.message), hint: e.hint)
            }
        }
        guard !parsed.isEmpty else { throw InputError(msg("no accounts given; nothing was added"), hint: msg("one account per line on stdin, or as arguments")) }

        // The label is screened again against the accounts being added and those in the vault.
        let session = try context.openVault()
        // ICU's skeletons read look-alike letters too; without ICU the folded forms are still read.
        let checker = rawLabel == nil ? nil : try? ICUSpoofChecker.load()
        let label = try validatedLabel(rawLabel, accounts: session.payload.accounts, adding: parsed.map(\.0), checker: checker)
        if let caution = label?.caution(accounts: session.payload.accounts, adding: parsed.map(\.0)) {
            context.console.warning(caution.text)
        }
        let outcomes = try AccountAdder.add(parsed.map { ($0.0, label) }, to: session, now: context.now(), phones: phones,
                                            console: context.console)
        var added: [Account] = []
        var duplicates: [(id: Int, position: InputPosition)] = []
        for (outcome, (_, position)) in zip(outcomes, parsed) {
            switch outcome {
            case let .added(account): added.append(account)
            case let .alreadyIn(id): duplicates.append((id, position))
            }
        }
        let c = context.console
        for (p, position) in parsed where p.droppedExtension { c.note(AccountAdder.droppedExtensionNote(at: position.phrase)) }
        options.region.noteAssumedRegion(context, added: added)
        for d in duplicates { c.note(msg("{1} is already in the vault as #{2}; not added again", d.position.phrase, d.id)) }
        if context.json {
            // `input` ("argument 2") is English whatever the language: scripts read it.
            let duplicates = duplicates.map { Duplicate(id: $0.id, input: $0.position.text) }
            try c.json(Report(added: added.map { Added(id: $0.id, kind: $0.kind, label: c.label($0)) }, duplicates: duplicates))
        } else {
            c.out(lines: AccountAdder.addedLines(added, console: c))
            if added.isEmpty { c.note(msg("nothing new to add")) }
        }
        return .success
    }

    /// Said of a phone number given with an extension (tel:+1-555-555-5555;ext=5555).

    /// The --label screened by `AccountLabel`: plain text, not too long, carrying no account.
    static func validatedLabel(_ raw: String?, accounts: [Account] = [], adding: [ParsedAccount] = [],
                               checker: ICUSpoofChecker? = nil) throws -> AccountLabel? {
        guard let raw else { return nil }
        do {
            return try AccountLabel.screened(raw, accounts: accounts, adding: adding, checker: checker)
        } catch {
            let hint: String
            switch error {
            case .carriesAccount: hint = msg("the label is shown where the account must not be (share mode, pipes, --json): use a name, e.g. --label \"Mum's e-mail\"")
            case .controlCharacters: hint = msg("use plain text, e.g. --label \"Mum's e-mail\"")
            case .tooLong: hint = msg("use a short name, e.g. --label \"Mum's e-mail\"")
            }
            throw InputError(msg("the label cannot be used: {1}; nothing was added", error.reason), hint: hint)
        }
    }

    /// The accounts given as arguments, or read from stdin (`-`, checked by `Options` to stand alone).
    static func readInputs(_ context: Context, accounts args: [String], phones: PhoneNumbering) throws -> [(String, InputPosition)] {
        if args == ["-"] {
            // On a terminal stdin would echo every account into the screen and its scrollback.
            if context.standardInputIsATTY { return try typedInputs(context, phones: phones) }
            let data = (try? InputFile.readStandardInput(fd: context.standardInput)).flatMap { $0 } ?? []
            guard let text = String(data: Data(data), encoding: .utf8) else { throw InputError(msg("stdin is not UTF-8 text; nothing was added")) }
            var out: [(String, InputPosition)] = []
            for (i, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
                let t = line.trimmingWhitespaceAndNewlines()
                if t.isEmpty || t.hasPrefix("#") { continue }
                out.append((t, .stdinLine(i + 1)))
            }
            return out
        }
        return args.enumerated().map { ($1, .argument($0 + 1)) }
    }

    /// `add -` with stdin on a terminal: each account asked for and read with echo off (as the ui's
    /// `n` and the passphrase prompt do), said back masked (its kind in share mode, its number where
    /// accounts are not shown), until an empty line or Ctrl-D. One that is not an account is said
    /// so, without repeating it, and asked for again.
    static func typedInputs(_ context: Context, phones: PhoneNumbering) throws -> [(String, InputPosition)] {
        let c = context.console
        c.note(msg("type one account per line (not shown as you type); an empty line or Ctrl-D ends the list"))
        var out: [(String, InputPosition)] = []
        while true {
            let n = out.count + 1
            let line: SecretBytes
            do { line = try PassphrasePrompt.read(prompt: msg("account {1}: ", n)) } catch TerminalError.inputClosed { break }
            let text = line.withUnsafeBytes { String(decoding: $0, as: UTF8.self) }.trimmingWhitespaceAndNewlines()
            if text.isEmpty { break }
            do {
                let parsed = try AccountParser.parse(text, phones: phones)
                let shown = c.terminal.stderrIsTerminal ? c.disclosure.pickerAccount(parsed) : msg("account {1}", n)
                c.note(msg("account {1}: {2}", n, shown))
                out.append((text, .typed(n)))
            } catch let e as AccountParseError {
                c.note(msg("that is not an account: {1}; type it again", e.message))
            }
        }
        return out
    }
}

extension AddCommand {
    static let optionsType: any CommandOptions.Type = Options.self

    /// `add`'s options, read and checked once.
    struct Options: CommandOptions {
        /// The accounts given, or `["-"]`: read them from stdin.
        let accounts: [String]
        /// The --label as typed; screened here on its own, and again against the accounts once they are known.
        let label: String?
        let region: RegionOption

        init(_ arguments: ParsedArguments, settings: Settings) throws {
            accounts = arguments.positionals
            label = arguments.value(AddCommand.label)
            _ = try AddCommand.validatedLabel(label)
            region = try RegionOption(arguments, settings: settings, command: "add")
            if accounts.contains("-") && accounts != ["-"] {
                throw UsageError.conflicting(command: "add", reason: msg("'-' (read from stdin) cannot be mixed with accounts as arguments"))
            }
        }
    }
}
