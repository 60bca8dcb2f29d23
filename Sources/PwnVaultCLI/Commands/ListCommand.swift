import FoundationEssentials
import PwnVaultCore

/// `pwnvault list`: the watched accounts with their latest status. Masked on a terminal, ids elsewhere.
enum ListCommand: Command {
    static let status = OptionSpec("status", value: "STATE", help: msg("only accounts that are breached, clean, new (a finding first seen by the latest check), unacknowledged (a finding to acknowledge, whichever check found it), failed (the latest check failed) or never (checked)"), repeatable: true)

    static let spec = CommandSpec(
        name: "list",
        summary: msg("list the watched accounts and their latest status"),
        usage: ["[--status STATE]... [--json]"],
        discussion: msg("""
        On a terminal, accounts are masked (a•••e@e•••.com). Piped or redirected, and with --json, no
        character of any account is printed: accounts appear as their id and label.

        STATUS says the same in list, show, reveal and the ui: never checked; clean; breached (N), N
        breaches; then ", K to acknowledge" (findings not yet dealt with by 'pwnvault ack', whichever
        check found them); check failed (no answer yet); and "last check failed" after a saved answer
        whose latest re-check failed. NEW is said only by the run that found something (check, watch,
        a notification). In JSON, "status" is never-checked, clean, breached or error, and an
        account's "unacknowledged" (to acknowledge) and "new" (first seen by the latest check) are
        counts in every command (select with .unacknowledged > 0).
        """),
        options: [status],
        examples: [("pwnvault list", msg("the table, masked")),
                   ("pwnvault list --status unacknowledged --status failed", msg("what needs a look")),
                   ("pwnvault list --json | jq '.[] | select(.status == \"breached\") | .id'", msg("ids of breached accounts"))])

    /// One account in `list --json`: never the account itself. Written by `json(_:)`; Encodable so that
    /// tests can hold that writer to JSONEncoder's bytes.
    struct Row: Encodable {
        let id: Int
        let kind: AccountKind
        let label: String?
        let status: CheckStatus
        let checkedAt: Date?
        /// The breaches the gate lets this output name (never a sensitive one).
        let breaches: [String]
        let breachCount: Int
        let sensitiveBreaches: Int
        let unnamedBreaches: Int
        let pasteCount: Int?
        let addedAt: Date
        /// The latest attempt, when it failed; `status`, `checkedAt` and `breaches` are the last good answer.
        let lastFailure: FailureRow?
        /// Findings (breaches, pastes, stealer-log websites) first seen by the latest answer and not acknowledged.
        let new: Int
        /// Findings nobody acknowledged yet, new or not.
        let unacknowledged: Int
        /// Findings HIBP no longer lists (kept: history, not a cache), and the named breaches among them
        /// (not in `breaches`, which is the latest answer's).
        let unlisted: Int
        let unlistedBreaches: [String]
    }

    /// The rows as `Console.json` would encode them with JSONEncoder, byte for byte (members in the
    /// encoder's sorted order, nil ones left out), at a fraction of its cost; the final new line included.
    static func json(_ rows: [Row]) -> String {
        PrettyJSON.document { json in
            json.openArray()
            for row in rows {
                json.element()
                json.openObject()
                json.key("addedAt"); json.date(row.addedAt)
                json.key("breachCount"); json.int(row.breachCount)
                json.key("breaches"); json.openArray()
                for name in row.breaches { json.element(); json.string(name) }
                json.closeArray()
                if let checkedAt = row.checkedAt { json.key("checkedAt"); json.date(checkedAt) }
                json.key("id"); json.int(row.id)
                json.key("kind"); json.string(row.kind.rawValue)
                if let label = row.label { json.key("label"); json.string(label) }
                if let failure = row.lastFailure {
                    json.key("lastFailure"); json.openObject()
                    json.key("at"); json.date(failure.at)
                    json.key("error"); json.string(failure.error)
                    json.closeObject()
                }
                json.key("new"); json.int(row.new)
                if let pasteCount = row.pasteCount { json.key("pasteCount"); json.int(pasteCount) }
                json.key("sensitiveBreaches"); json.int(row.sensitiveBreaches)
                json.key("status"); json.string(row.status.rawValue)
                json.key("unacknowledged"); json.int(row.unacknowledged)
                json.key("unlisted"); json.int(row.unlisted)
                json.key("unlistedBreaches"); json.openArray()
                for name in row.unlistedBreaches { json.element(); json.string(name) }
                json.closeArray()
                json.key("unnamedBreaches"); json.int(row.unnamedBreaches)
                json.closeObject()
            }
            json.closeArray()
        }
    }

    static func run(_ context: Context) throws -> ExitStatus {
        let filters = try Options(context).status
        let session = try context.openVault()
        let all = session.payload.accounts
        let accounts = filters.isEmpty ? all : all.filter { a in filters.contains { $0.matches(a) } }
        let c = context.console
        if context.json {
            let catalog = accounts.contains { $0.result.breachCount > 0 || !$0.unlistedFindings.isEmpty } ? HIBPServices(context).cachedCatalog() : nil
            c.json(document: Self.json(accounts.map { a in
                let disclosed = c.disclosure.breaches(a.result, catalog: catalog)
                let unlisted = a.unlistedFindings
                return Row(id: a.id, kind: a.kind, label: c.label(a), status: a.result.status, checkedAt: a.result.checkedAt,
                           breaches: disclosed.shown.map(\.name), breachCount: disclosed.total,
                           sensitiveBreaches: disclosed.sensitive, unnamedBreaches: disclosed.unnamed,
                           pasteCount: a.result.pasteCount, addedAt: a.addedAt, lastFailure: FailureRow(a.result.lastFailure),
                           new: a.newFindings.count, unacknowledged: a.unacknowledgedFindings.count,
                           unlisted: unlisted.count,
                           unlistedBreaches: unlisted.isEmpty ? [] : c.disclosure.unlistedNews(unlisted, catalog: catalog).shown.map(\.name))
            }))
            return .success
        }
        if accounts.isEmpty {
            c.note(session.payload.accounts.isEmpty ? msg("the vault is empty; add accounts with 'pwnvault add ACCOUNT'")
                   : msg("no account is {1}; see them all with 'pwnvault list'", filters.map(\.rawValue).joined(separator: msg(" or "))))
            return .success
        }
        let showAccount = c.showsAccounts
        // At a narrow width the date takes a shorter form first (today 14:33, then today or 12-03), then
        // the label gives way, then the status wraps onto the row below (never cut: the word and the
        // count are what the reader came for), and only then is the masked account cut. The id, which
        // every command takes, is never cut.
        let account = showAccount ? 1 : -1, label = showAccount ? 2 : 1, status = label + 1, checked = status + 1
        var table = Table(header: showAccount ? [msg("ID"), msg("ACCOUNT"), msg("LABEL"), msg("STATUS"), msg("CHECKED")]
                                       : [msg("ID"), msg("LABEL"), msg("STATUS"), msg("CHECKED")],
                          keep: [0, checked],
                          giveWay: [(label, 8), (status, 20), (label, 3), (status, 3)] + (showAccount ? [(account, 12)] : []),
                          wraps: [status])
        table.rows.reserveCapacity(accounts.count)
        let now = context.now(), fitted = c.width != nil
        var dates: [[String]] = []
        dates.reserveCapacity(accounts.count)
        // One array literal per row (one allocation, where appending to a reserved array made two);
        // the account is borrowed, not copied (a copy retains and releases every field).
        func row(_ a: Account) -> [String] {
            let id = Self.idText(a.id), label = c.label(a) ?? "-", status = StateText.of(a)
            // The shorter forms only for a terminal (a pipe gets every row whole, unfitted).
            let forms = a.result.checkedAt.map { fitted ? StateText.timeForms($0, now: now) : [StateText.time($0)] } ?? ["-"]
            if fitted { dates.append(Array(forms.dropFirst())) }
            return showAccount ? [id, c.disclosure.account(a), label, status, forms[0]] : [id, label, status, forms[0]]
        }
        for i in accounts.indices { table.rows.append(row(accounts[i])) }
        if fitted { table.forms = [checked: dates] }
        let groups = c.lineGroups(of: table)
        var lines = groups[0]
        lines.reserveCapacity(accounts.count + 1)
        for i in accounts.indices {
            switch accounts[i].result.status {
            case .breached: lines += groups[i + 1].map { c.styled($0, .red) }
            case .error: lines += groups[i + 1].map { c.styled($0, .yellow) }
            default: lines += groups[i + 1]
            }
        }
        c.out(lines: lines)
        return .success
    }

    /// `#42`, written straight from the digits (interpolation went through `description` and an append).
    static func idText(_ id: Int) -> String {
        let sign = id < 0 ? 1 : 0, count = 1 + sign + DecimalDigits.count(id.magnitude)
        return String(unsafeUninitializedCapacity: count) { text in
            text[0] = UInt8(ascii: "#")
            if id < 0 { text[1] = UInt8(ascii: "-") }
            DecimalDigits.write(id.magnitude, into: UnsafeMutableRawBufferPointer(UnsafeMutableBufferPointer(rebasing: text[(1 + sign)..<count])))
            return count
        }
    }

}

/// `list --status`: which accounts to show. An account matches when any given filter does.
enum StatusFilter: String, CaseIterable {
    case breached, clean, new, unacknowledged, failed, never

    /// A typed word, case-insensitive; `pwned` (the word HIBP and the ui's first versions used) is `breached`.
    init?(_ word: String) {
        let w = word.lowercased()
        self.init(rawValue: w == "pwned" ? "breached" : w)
    }

    func matches(_ a: Account) -> Bool {
        switch self {
        case .breached: return a.result.status == .breached
        case .clean: return a.result.status == .clean
        case .new: return !a.newFindings.isEmpty
        case .unacknowledged: return !a.unacknowledgedFindings.isEmpty
        case .failed: return a.result.status == .error || a.result.lastFailure != nil
        case .never: return a.result.status == .neverChecked
        }
    }
}

extension ListCommand {
    static let optionsType: any CommandOptions.Type = Options.self

    /// `list`'s options, read and checked once.
    struct Options: CommandOptions, Equatable {
        /// The --status filters given (an account matches when any does); none: every account.
        let status: [StatusFilter]

        init(_ arguments: ParsedArguments, settings: Settings) throws {
            status = try arguments.allValues(ListCommand.status).map { word in
                guard let filter = StatusFilter(word) else {
                    throw UsageError.invalidValue(command: "list", option: "--status",
                                                  reason: msg("expected {1}", StatusFilter.allCases.map(\.rawValue).joined(separator: ", ")))
                }
                return filter
            }
        }
    }
}
