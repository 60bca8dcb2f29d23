import FoundationEssentials
import PwnVaultCore

/// `pwnvault doctor`: checks everything pwnvault depends on, one line each, and says what to fix.
/// It never asks for the passphrase and never prints a secret or an account.
enum DoctorCommand: Command {
    static let spec = CommandSpec(
        name: "doctor",
        summary: msg("check the keyring, the vault, permissions, the API key and HIBP, and say what to fix"),
        usage: [""],
        discussion: msg("""
        Prints one line per check (ok, warning or problem) and a 'fix:' line where something can be done.
        It never asks for the passphrase: the vault is opened only if the keyring holds its key. The API
        key is checked for its form and, when HIBP answers, with one request to HIBP; it is never shown.
        Network checks wait at most 10 seconds each (less with PWNVAULT_HTTP_TIMEOUT).
        Exit status: 0 when nothing is a problem (warnings allowed); otherwise that of the first problem:
        4 vault or permissions, 5 keyring, 6 HIBP or Pwned Passwords unreachable, 7 API key.
        """),
        examples: [("pwnvault doctor", msg("is everything in order, and if not, what do I do?")),
                   ("pwnvault doctor --json", msg("the same checks for a script or a bug report"))])

    static let optionsType: any CommandOptions.Type = NoOptions.self

    static func run(_ context: Context) throws -> ExitStatus {
        // The JSON's details and fixes stay English whatever the language (scripts and bug reports read them).
        let checks = context.json ? Messages.english { DoctorRun(context).checks() } : DoctorRun(context).checks()
        let problems = checks.filter { $0.outcome == .problem }
        let warnings = checks.filter { $0.outcome == .warning }
        let status = problems.first?.failureStatus ?? .success
        if context.json {
            struct Report: Encodable { let checks: [DoctorCheck]; let problems: Int; let warnings: Int }
            try context.console.json(Report(checks: checks, problems: problems.count, warnings: warnings.count))
            return status
        }
        let c = context.console
        // Widths in terminal cells: translated names and outcomes may be wider than they have letters.
        let nameWidth = checks.map { TerminalCells.width($0.shownName) }.max() ?? 0
        let words: [DoctorCheck.Outcome: String] = [.ok: msg("ok"), .warning: msg("warning"), .problem: msg("problem")]
        let wordWidth = words.values.map(TerminalCells.width).max() ?? 0
        for check in checks {
            let word = TerminalCells.pad(words[check.outcome]!, to: wordWidth)
            let styled: String
            switch check.outcome {
            case .ok: styled = c.styled(word, .green)
            case .warning: styled = c.styled(word, .yellow)
            case .problem: styled = c.styled(word, .red)
            }
            c.hanging(styled + "  " + TerminalCells.pad(check.shownName, to: nameWidth + 2), check.detail).forEach { c.out($0) }
            if let fix = check.fix {
                c.hanging(String(repeating: " ", count: wordWidth + 2 + nameWidth + 2) + msg("fix: "), fix).forEach { c.out($0) }
            }
        }
        c.out()
        c.out(problems.isEmpty && warnings.isEmpty ? msg("everything is in order")
              : msg("{1}, {2}", msg(one: "{1} problem", many: "{1} problems", count: problems.count, problems.count),
                    msg(one: "{1} warning", many: "{1} warnings", count: warnings.count, warnings.count)))
        return status
    }
}
