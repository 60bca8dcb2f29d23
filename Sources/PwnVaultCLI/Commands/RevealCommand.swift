import Foundation
import PwnVaultCore

/// `pwnvault reveal`: the accounts unmasked, after the passphrase, on a private screen.
enum RevealCommand: Command {
    static let spec = CommandSpec(
        name: "reveal",
        summary: "show accounts unmasked, after the passphrase, on a private screen",
        usage: ["[ACCOUNT|#ID...] [--timeout SECONDS]", "[ACCOUNT|#ID...] --unredacted > FILE"],
        discussion: """
        Always asks for the passphrase, even when the keyring holds the key: typing it is the deliberate
        act that unmasks. The accounts, their labels and results (sensitive breaches named) appear on the
        terminal's alternate screen, so nothing enters the scrollback. The screen blanks when the terminal
        loses focus and comes back on focus or a key; it closes after the timeout, on q, Esc or Ctrl-C,
        and clears itself before a Ctrl-Z stops the process. Refused in share mode. Into a pipe or a
        file it is refused unless --unredacted is given (a file is then made 0600).
        """,
        options: [OptionSpec("timeout", value: "SECONDS", help: "close the private screen after SECONDS (default 30)"),
                  OptionSpec("unredacted", help: "write the unmasked accounts to stdout even when it is not a terminal")],
        positionals: 0...Int.max,
        positionalHelp: [("ACCOUNT|#ID", "the accounts to reveal (default: all)")],
        examples: [("pwnvault reveal", "see every account in full for 30 seconds"),
                   ("pwnvault reveal '#3' --timeout 10", "see account #3 for 10 seconds"),
                   ("pwnvault reveal --unredacted > accounts.txt", "export them on purpose (file made 0600)")])

    struct Row: Encodable {
        let id: Int
        let account: String
        let kind: AccountKind
        let label: String?
        let status: CheckStatus
        let breaches: [String]
    }

    static func run(_ context: Context) throws -> ExitStatus {
        let c = context.console
        let unredacted = context.arguments.has("unredacted")
        if let reason = context.shareReason {
            throw RevealRefusal.shareMode(reason: reason)
        }
        let onTerminal = c.terminal.stdoutIsTerminal
        if onTerminal && context.json { throw RevealRefusal.jsonOnTerminal }
        if !onTerminal && !unredacted { throw RevealRefusal.notATerminal }
        var timeout = PrivateScreen.defaultTimeout
        if let text = context.arguments.value("timeout") {
            guard let t = Int(text), (1...3600).contains(t) else {
                throw UsageError.invalidValue(command: "reveal", option: "--timeout", reason: "a whole number of seconds from 1 to 3600")
            }
            timeout = TimeInterval(t)
        }

        let session = try context.openVault(requirePassphrase: true)
        let chosen = context.arguments.positionals.isEmpty
            ? session.payload.accounts
            : try AccountResolver.vaultAccounts(context.arguments.positionals, in: session.payload)
        guard let grant = session.revealGrant else { throw RevealRefusal.noTerminalInput }
        let catalog = chosen.contains { $0.result.breachCount > 0 } ? HIBPServices(context).catalogIfAvailable() : nil

        if !onTerminal {
            try StandardOutputFile.restrictIfRegularFile()
            if context.json {
                try c.json(chosen.map { Row(id: $0.id, account: Disclosure.revealed($0, grant: grant), kind: $0.kind,
                                            label: Disclosure.revealedLabel($0, grant: grant), status: $0.result.status,
                                            breaches: Disclosure.revealedBreaches($0.result, catalog: catalog, grant: grant).map(\.name)) })
            } else {
                for a in chosen { c.out(lines(for: a, catalog: catalog, grant: grant).joined(separator: "\t")) }
            }
            return .success
        }

        guard let screen = PrivateScreen.onControllingTerminal() else { throw RevealRefusal.noTerminalInput }
        let end = try screen.run(timeout: timeout) { _, _ in
            var out = ["pwnvault reveal: \(chosen.count) account\(chosen.count == 1 ? "" : "s"); closes in \(Int(timeout)) s, on q or Esc, or when this window loses focus", ""]
            for a in chosen { out.append(lines(for: a, catalog: catalog, grant: grant).joined(separator: "  ")) }
            return out
        }
        switch end {
        case .timeout: c.note("hidden again (timeout)")
        case .userQuit: break
        case .interrupted: return .interrupted
        }
        return .success
    }

    /// One account, unmasked: id, account, label, status and breach names (sensitive ones marked).
    static func lines(for a: Account, catalog: BreachCatalog?, grant: RevealGrant) -> [String] {
        var parts = ["#\(a.id)", Disclosure.revealed(a, grant: grant)]
        if let l = Disclosure.revealedLabel(a, grant: grant) { parts.append("(\(l))") }
        parts.append(ListCommand.statusText(a.result))
        let breaches = Disclosure.revealedBreaches(a.result, catalog: catalog, grant: grant)
        if !breaches.isEmpty {
            parts.append(breaches.map { b in
                Sanitizer.singleLine(b.hasDetails ? b.title : b.name) + (b.isSensitive ? " (sensitive)" : "")
            }.joined(separator: ", "))
        }
        return parts
    }
}

/// Why reveal will not show anything.
enum RevealRefusal: UserFacingError {
    case shareMode(reason: String)
    case notATerminal
    case jsonOnTerminal
    case noTerminalInput

    var message: String {
        switch self {
        case let .shareMode(reason): return "refusing to reveal accounts in share mode (\(reason))"
        case .notATerminal: return "refusing to reveal accounts into a pipe or a file"
        case .jsonOnTerminal: return "refusing to print unmasked accounts as json on the terminal (it would stay in the scrollback)"
        case .noTerminalInput: return "reveal needs a terminal to read keys from"
        }
    }

    var hint: String? {
        switch self {
        case .shareMode: return "stop sharing or recording the screen first; --no-share turns detection off for one run"
        case .notATerminal: return "run it in a terminal, or add --unredacted to write them anyway (the passphrase is still asked; a file is made 0600)"
        case .jsonOnTerminal: return "redirect it: pwnvault reveal --json --unredacted > accounts.json"
        case .noTerminalInput: return "run it from an interactive terminal"
        }
    }

    var exitStatus: ExitStatus { .usage }
}
