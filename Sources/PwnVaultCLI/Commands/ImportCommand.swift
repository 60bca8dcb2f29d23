import FoundationEssentials
import PwnVaultCore

/// `pwnvault import`: the e-mail addresses (with `--phones`, also the phone numbers) of the contacts in
/// a vCard file, each labelled with its contact's name. Reading and checking are in PwnVaultCore
/// (`VCardParser`, `ContactImportPlan`, `ContactPickSelection`); this file reads the file, asks on the
/// terminal with `--pick`, adds under the vault's lock, and reports.
enum ImportCommand: Command {
    static let pick = OptionSpec("pick", help: msg("choose on the terminal which contacts and addresses to add"))
    static let phones = OptionSpec("phones", help: msg("also add the contacts' phone numbers (TEL), in E.164"))

    static let spec = CommandSpec(
        name: "import",
        summary: msg("add the e-mail addresses of contacts from a vCard file (.vcf)"),
        usage: ["CONTACTS.vcf [--pick] [--phones [--region CC]]", "- [--pick] [--phones [--region CC]]"],
        discussion: msg("""
        Reads contacts as GNOME Contacts, Evolution, Thunderbird, Google Contacts, Apple Contacts, Outlook
        and phones export them (vCard 2.1, 3.0 and 4.0). Each e-mail address is added with its contact's
        name (FN, else N, else ORG) as the label, which is what share mode shows. An address already in
        the vault, or repeated in the file, is reported and not added twice; a contact without an address
        is skipped and counted. An address that is not valid is skipped and reported by its line number
        while the others are added, and so is a line that cannot be read (a property without ':', a value
        that does not decode, an unknown CHARSET, a vCard nested in AGENT); a contact cut off before its
        END:VCARD is skipped whole. Any CHARSET glibc's iconv reads is understood (Windows and ISO code
        pages, KOI8, Shift_JIS, GB18030, Big5, ...); vCard 2.1 text with none that is not UTF-8 is read in
        the locale's code page, else Windows-1252, and a note says so. A tel: URI gives its number (an
        extension is dropped, with a note). A file in which no vCard begins (or larger than 16 MiB) is
        refused and nothing is added. The summary names lines, never addresses.
        With --pick the contacts and their masked addresses are listed on the terminal and you answer
        with numbers and ranges (1 3-5), one address of a contact (2b), 'all', or Enter for none.
        """),
        options: [pick,
                  phones,
                  RegionOption.spec],
        positionals: 1...1,
        positionalHelp: [("CONTACTS.vcf", msg("a vCard file exported from an address book")),
                         ("-", msg("read the vCard file from stdin"))],
        examples: [("pwnvault import contacts.vcf", msg("watch every e-mail address in an exported address book")),
                   ("pwnvault import mum.vcf --pick", msg("choose which of a contact's addresses to watch")),
                   ("pwnvault import - --phones < family.vcf", msg("e-mail addresses and phone numbers, from stdin"))],
        completes: (.files, .nothing))

    /// At most this many lines of each kind of note (invalid, repeated, already in the vault); --json lists all.
    static let maxNotesPerKind = 10

    struct Added: Encodable { let id: Int; let kind: AccountKind; let label: String?; let line: Int }
    struct Duplicate: Encodable { let id: Int; let line: Int }
    /// A contact whose name was not used as the label because it carries an account.
    struct LabelPassedOver: Encodable { let line: Int; let skipped: String; let reason: String; let used: String? }
    struct Report: Encodable {
        var added: [Added] = []
        var labelsPassedOver: [LabelPassedOver] = []
        var duplicates: [Duplicate] = []
        let repeated: [ContactImportPlan.Repeated]
        let invalid: [ContactImportPlan.Invalid]
        /// Lines and properties that could not be read (line numbers and reasons only).
        let skippedLines: [VCardSkip]
        /// Contacts cut off before their END:VCARD, by the line of their BEGIN:VCARD.
        let skippedContacts: [VCardSkip]
        let codePage: VCardReading.CodePage?
        let extensionsDropped: [Int]
        /// Every contact in the file, read or skipped.
        let contacts: Int
        let contactsWithoutAddress: Int
        let phonesIgnored: Int
        var notPicked = 0
    }

    /// One address to add, with the label of its contact.
    private typealias Candidate = (address: ContactImportPlan.Address, label: AccountLabel?)

    static func run(_ context: Context) throws -> ExitStatus {
        let c = context.console
        let options = try Options(context)
        let source = options.source
        let name = source == "-" ? "stdin" : Sanitizer.singleLine(source)
        // Refused before anything is read or asked: without a person at a terminal there is nobody to pick.
        let picker = options.pick ? try terminalPicker(c) : nil

        let reading: VCardReading
        do {
            reading = try VCardParser.read(try VCardFile.read(source, name: name, standardInput: context.standardInput), locale: context.settings.ctypeLocale)
        } catch let e as VCardError {
            throw InputError(msg("{1}: {2}; nothing was added", name, e.message), hint: e.hint)
        }
        let phones = options.region.numbering
        // ICU's skeletons read look-alike letters in names too; without ICU the folded forms are still read.
        let checker = try? ICUSpoofChecker.load()
        // Each name is read once for the run: for the plan, the vault's screen and the gate's line.
        let readings = LabelReadings()
        let makePlan = {
            try ContactImportPlan(contacts: reading.contacts, includePhones: options.phones, phones: phones,
                                  maxLabelLength: AccountLabel.maxLength, checker: checker, readings: readings)
        }
        var plan = try makePlan()
        // --json's reasons are English whatever the language (scripts read them): with --json they come
        // from a second plan made in English; the notes on stderr come from `plan`, in the reader's language.
        var englishPlan = try context.json ? Messages.english(makePlan) : nil
        // An extension dropped from a tel: URI (the vCard reader) or from a number written with one (the parser).
        let extensionLines = Set(plan.extensionsDropped + plan.addresses.filter(\.account.droppedExtension).map(\.line)).sorted()
        var report = Report(repeated: plan.repeated, invalid: (englishPlan ?? plan).invalid, skippedLines: reading.skippedLines,
                            skippedContacts: reading.skippedContacts, codePage: reading.codePage,
                            extensionsDropped: extensionLines, contacts: plan.contactCount + reading.skippedContacts.count,
                            contactsWithoutAddress: plan.contactsWithoutAddress, phonesIgnored: plan.phonesIgnored)
        let contactSkips = reading.skippedContacts.map { ($0.line, msg("line {1}: {2}; the contact is skipped", $0.line, $0.problem.reason)) }
        let lineSkips = reading.skippedLines.map {
            ($0.line, $0.lastLine > $0.line ? msg("lines {1}: {2}; skipped", $0.lines, $0.problem.reason)
                                            : msg("line {1}: {2}; skipped", $0.line, $0.problem.reason))
        }
        noteEach((contactSkips + lineSkips).sorted { $0.0 < $1.0 }.map(\.1), c, warning: true)
        if let codePage = reading.codePage { c.note(codePage.text) }
        noteEach(plan.invalid.map { msg("line {1}: {2}; skipped", $0.line, $0.reason) }, c, warning: true)
        noteEach(extensionLines.map { AccountAdder.droppedExtensionNote(at: msg("line {1}", $0)) }, c)
        noteEach(plan.repeated.map { msg("line {1} repeats the address on line {2}; not added twice", $0.line, $0.firstLine) }, c)
        report.labelsPassedOver = (englishPlan ?? plan).contacts.compactMap { contact in
            contact.labelNote.map { LabelPassedOver(line: contact.line, skipped: $0.skipped, reason: $0.reason, used: $0.used) }
        }
        noteEach(plan.contacts.compactMap { contact in contact.labelNote.map { msg("line {1}: {2}", contact.line, $0.text) } }, c)

        var candidates: [Candidate] = plan.contacts.flatMap { contact in contact.addresses.map { ($0, contact.label) } }
        if !candidates.isEmpty {
            let session = try context.openVault()
            // A name that spells one of the vault's accounts (or part of one) labels nothing.
            let dropped = plan.screenLabels(against: session.payload.accounts, checker: checker, readings: readings)
            let droppedInEnglish = Messages.english {
                englishPlan?.screenLabels(against: session.payload.accounts, checker: checker, readings: readings)
            }
            if !dropped.isEmpty {
                report.labelsPassedOver += (droppedInEnglish ?? dropped).map {
                    LabelPassedOver(line: $0.line, skipped: $0.note.skipped, reason: $0.note.reason, used: nil)
                }
                noteEach(dropped.map { msg("line {1}: {2}", $0.line, $0.note.text) }, c)
                candidates = plan.contacts.flatMap { contact in contact.addresses.map { ($0, contact.label) } }
            }
            if let picker {
                let inVault = Dictionary(session.payload.accounts.map { ($0.dedupKey, $0.id) }) { first, _ in first }
                let selection = picker.pick(plan, source: name, inVault: inVault, shareMode: c.policy.shareMode)
                var chosen: [Candidate] = []
                for (n, contact) in plan.contacts.enumerated() {
                    for (i, address) in contact.addresses.enumerated() where selection?.contains(contact: n, address: i) == true {
                        chosen.append((address, contact.label))
                    }
                }
                report.notPicked = candidates.count - chosen.count
                candidates = chosen
                if candidates.isEmpty { c.note(msg("nothing was picked; nothing was added")) }
            }
            if !candidates.isEmpty {
                try add(candidates, to: session, region: options.region, report: &report, context: context, readings: readings)
            }
        }

        if context.json {
            // The skipped lines' reasons are worded when the report is written: in English.
            try Messages.english { try c.json(report) }
        } else {
            c.note(summary(report, plan: plan, source: name, phones: options.phones))
        }
        // A file of which no contact could be read (every one cut off or unreadable) is bad input,
        // not an import of nothing: status 2 with the reason, as for a file that is no vCard.
        if plan.contactCount == 0, !reading.skippedContacts.isEmpty || !reading.skippedLines.isEmpty {
            throw InputError(msg("no contact in {1} could be read; nothing was added", name),
                             hint: msg("the lines above say what is wrong in it; export the contacts again and import the new file"))
        }
        return .success
    }

    /// The picker on the controlling terminal, when a person is at one (one of stdin, stdout and stderr
    /// is a terminal that is not `TERM=dumb`, and `/dev/tty` opens); otherwise --pick is refused.
    private static func terminalPicker(_ c: Console) throws -> ContactPicker {
        let t = c.terminal
        guard t.stdinIsTerminal || t.stdoutIsTerminal || t.stderrIsTerminal, let picker = ContactPicker.onTerminal() else {
            throw InputError(msg("--pick needs a terminal to show the contacts on and read the answer from"),
                             hint: msg("run it in a terminal, or leave out --pick to add every address in the file"))
        }
        return picker
    }

    /// Adds under the vault's lock, checking again against what is in the vault then, and prints each
    /// address added (as `add` does: masked on a terminal, `#id` and label elsewhere).
    private static func add(_ candidates: [Candidate], to session: VaultSession, region: RegionOption, report: inout Report,
                            context: Context, readings: LabelReadings) throws {
        let outcomes = try AccountAdder.add(candidates.map { ($0.address.account, $0.label) }, to: session, now: context.now(),
                                            phones: region.numbering, console: context.console)
        var added: [Added] = []
        var duplicates: [Duplicate] = []
        var addedAccounts: [(account: Account, label: String?)] = []
        for (outcome, candidate) in zip(outcomes, candidates) {
            switch outcome {
            case let .added(account):
                // The gate reads each label once, for the report and the printed line.
                let label = context.console.label(account, readings: readings)
                addedAccounts.append((account, label))
                added.append(Added(id: account.id, kind: account.kind, label: label, line: candidate.address.line))
            case let .alreadyIn(id):
                duplicates.append(Duplicate(id: id, line: candidate.address.line))
            }
        }
        report.added = added
        report.duplicates = duplicates
        let c = context.console
        noteEach(duplicates.map { msg("line {1} is already in the vault as #{2}; not added again", $0.line, $0.id) }, c)
        region.noteAssumedRegion(context, added: addedAccounts.map(\.account))
        guard !context.json else { return }
        c.out(lines: AccountAdder.addedLines(addedAccounts, console: c))
    }

    /// One line for stderr: what was added and what was left out, in numbers.
    private static func summary(_ report: Report, plan: ContactImportPlan, source: String, phones: Bool) -> String {
        // Each address has a line of its own, so the line finds its contact.
        let contactOf = Dictionary(plan.contacts.flatMap { c in c.addresses.map { ($0.line, c.line) } }) { first, _ in first }
        let contactLines = Set(report.added.compactMap { contactOf[$0.line] })
        let contacts = msg(one: "{1} contact of {2} in {3}", many: "{1} contacts of {2} in {3}", count: contactLines.count,
                           contactLines.count, report.contacts, source)
        // Phone numbers are counted as numbers, not addresses (`--phones`).
        let numbers = report.added.filter { $0.kind == .phone }.count, others = report.added.count - numbers
        var parts: [String]
        if numbers == 0 {
            parts = [msg(one: "{1} address added from {2}", many: "{1} addresses added from {2}", count: others, others, contacts)]
        } else if others == 0 {
            parts = [msg(one: "{1} phone number added from {2}", many: "{1} phone numbers added from {2}", count: numbers, numbers, contacts)]
        } else {
            parts = [msg("{1} and {2} added from {3}",
                         msg(one: "{1} address", many: "{1} addresses", count: others, others),
                         msg(one: "{1} phone number", many: "{1} phone numbers", count: numbers, numbers), contacts)]
        }
        if report.duplicates.count > 0 { parts.append(msg("{1} already in the vault", report.duplicates.count)) }
        if report.repeated.count > 0 { parts.append(msg("{1} repeated in the file", report.repeated.count)) }
        if report.invalid.count > 0 {
            let n = report.invalid.count
            parts.append(msg(one: "{1} invalid address skipped ({2})", many: "{1} invalid addresses skipped ({2})", count: n,
                             n, lineList(report.invalid.map { "\($0.line)" })))
        }
        if report.skippedLines.count > 0 {
            let lines = report.skippedLines.reduce(0) { $0 + $1.lastLine - $1.line + 1 }
            parts.append(msg(one: "{1} unreadable line skipped ({2})", many: "{1} unreadable lines skipped ({2})", count: lines,
                             lines, lineList(report.skippedLines.map(\.lines))))
        }
        if report.skippedContacts.count > 0 {
            let n = report.skippedContacts.count
            parts.append(msg(one: "{1} cut-off contact skipped ({2})", many: "{1} cut-off contacts skipped ({2})", count: n,
                             n, lineList(report.skippedContacts.map(\.lines))))
        }
        if report.notPicked > 0 { parts.append(msg("{1} not picked", report.notPicked)) }
        if report.contactsWithoutAddress > 0 {
            let n = report.contactsWithoutAddress
            parts.append(msg(one: "{1} contact without an address skipped", many: "{1} contacts without an address skipped", count: n, n))
        }
        if report.phonesIgnored > 0 && !phones {
            let n = report.phonesIgnored
            parts.append(msg(one: "{1} phone number left out (--phones adds them)", many: "{1} phone numbers left out (--phones adds them)",
                             count: n, n))
        }
        // The clauses of one sentence, one per kind of outcome.
        return parts.joined(separator: msg("; "))
    }

    /// "line 5" or "lines 5, 9-12, 20", the first `maxNotesPerKind` of them, then "…".
    private static func lineList(_ lines: [String]) -> String {
        let single = lines.count == 1 && !lines[0].contains("-")
        let shown = lines.prefix(maxNotesPerKind).joined(separator: ", ") + (lines.count > maxNotesPerKind ? ", …" : "")
        return single ? msg("line {1}", shown) : msg("lines {1}", shown)
    }

    /// Notes (or warnings) on stderr, at most `maxNotesPerKind` of them, then how many more there are.
    private static func noteEach(_ lines: [String], _ c: Console, warning: Bool = false) {
        for line in lines.prefix(maxNotesPerKind) { warning ? c.warning(line) : c.note(line) }
        if lines.count > maxNotesPerKind {
            c.note(msg("… and {1} more like this (--json lists them all)", lines.count - maxNotesPerKind))
        }
    }
}

extension ImportCommand {
    static let optionsType: any CommandOptions.Type = Options.self

    /// `import`'s options, read and checked once.
    struct Options: CommandOptions {
        /// The vCard file, or `-` for stdin.
        let source: String
        let pick: Bool
        let phones: Bool
        let region: RegionOption

        init(_ arguments: ParsedArguments, settings: Settings) throws {
            source = arguments.positionals.first ?? "-"
            pick = arguments.has(ImportCommand.pick)
            phones = arguments.has(ImportCommand.phones)
            region = try RegionOption(arguments, settings: settings, command: "import")
        }
    }
}
