import FoundationEssentials

/// The `import --pick` conversation: a numbered list of the contacts and their masked addresses, then
/// a question repeated until the answer is understood (see `ContactPickSelection` for what it may say).
///
/// It talks through two closures, so tests can hold the conversation without a terminal; `onTerminal`
/// gives one that uses the controlling terminal (`/dev/tty`), whatever stdin and stdout are, so that
/// the list never reaches a pipe and the file itself can come from stdin. Addresses are masked as
/// everywhere on a terminal; in share mode only their kind is shown, next to the contact's name.
public struct ContactPicker {
    public static var question: String { msg("Add which? Numbers or ranges (1 3-5), one address (2b), 'all', or Enter for none: ") }

    private let write: (String) -> Void
    private let readLine: () -> String?
    /// The terminal's width in cells, when known: list lines longer than it end in `…`.
    private let columns: () -> Int?

    /// `readLine` returns one line without its ending, or nil when the input ended.
    public init(write: @escaping (String) -> Void, readLine: @escaping () -> String?, columns: @escaping () -> Int? = { nil }) {
        self.write = write
        self.readLine = readLine
        self.columns = columns
    }

    /// A picker on the controlling terminal; nil when there is none.
    public static func onTerminal() -> ContactPicker? {
        guard let tty = TerminalQuestion.openTerminal() else { return nil }
        return ContactPicker(write: { try? tty.writeAll(Array($0.utf8)) }, readLine: { readLine(from: tty) },
                             columns: { TerminalIO.windowSize(tty.raw)?.columns })
    }

    /// Shows the list and asks. Returns the selection, or nil when the input ended (Ctrl-D) before an
    /// answer was understood. `inVault` maps dedup keys to the ids of accounts already in the vault.
    public func pick(_ plan: ContactImportPlan, source: String, inVault: [AccountKey: Int], shareMode: Bool) -> ContactPickSelection? {
        let width = columns()
        let lines = Self.list(plan, source: source, inVault: inVault, shareMode: shareMode)
        write(lines.map { line in width.map { TerminalCells.truncate(line, to: $0) } ?? line }.joined(separator: "\n") + "\n")
        let counts = plan.contacts.map(\.addresses.count)
        while true {
            write(Self.question)
            guard let answer = readLine() else { write("\n"); return nil }
            do {
                return try ContactPickSelection.parse(answer, addressCounts: counts)
            } catch {
                write("  \((error as? UserFacingError)?.message ?? msg("that answer was not understood"))\n")
            }
        }
    }

    /// The numbered list, one line per contact and one per address under it; letters only where a
    /// contact has several addresses.
    public static func list(_ plan: ContactImportPlan, source: String, inVault: [AccountKey: Int], shareMode: Bool) -> [String] {
        let n = plan.contacts.count
        let file = Sanitizer.singleLine(source)
        var lines = [shareMode
            ? msg(one: "{1} contact with addresses in {2} (share mode: names only):",
                  many: "{1} contacts with addresses in {2} (share mode: names only):", count: n, n, file)
            : msg(one: "{1} contact with addresses in {2}:", many: "{1} contacts with addresses in {2}:", count: n, n, file)]
        let width = String(n).count
        let disclosure = Disclosure(policy: DisplayPolicy(terminal: true, shareMode: shareMode))
        for (index, contact) in plan.contacts.enumerated() {
            let number = String(index + 1)
            lines.append("  " + String(repeating: " ", count: width - number.count) + number + "  " + (contact.label?.text ?? msg("(no name)")))
            for (i, address) in contact.addresses.enumerated() {
                let letter = contact.addresses.count > 1 ? (ContactPickSelection.letter(i) ?? " ") : " "
                let account = address.account
                var line = String(repeating: " ", count: width + 6) + letter + "  "
                    + disclosure.pickerAccount(account)
                if let id = inVault[account.dedupKey] { line += msg("  (already in the vault as #{1})", id) }
                lines.append(line)
            }
        }
        return lines
    }

    private static func readLine(from tty: FileDescriptor) -> String? { TerminalQuestion.readLine(from: tty) }
}
