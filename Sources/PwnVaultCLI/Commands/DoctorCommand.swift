import FoundationEssentials
import PwnVaultCore

/// `pwnvault doctor`: checks everything pwnvault depends on, one line each, and says what to fix.
/// It never asks for the passphrase and never prints a secret or an account.
enum DoctorCommand: Command {
    static let spec = CommandSpec(
        name: "doctor",
        summary: "check the keyring, the vault, permissions, the API key and HIBP, and say what to fix",
        usage: [""],
        discussion: """
        Prints one line per check (ok, warning or problem) and a 'fix:' line where something can be done.
        It never asks for the passphrase: the vault is opened only if the keyring holds its key. The API
        key is checked for its form and, when HIBP answers, with one request to HIBP; it is never shown.
        Network checks wait at most 10 seconds each (less with PWNVAULT_HTTP_TIMEOUT).
        Exit status: 0 when nothing is a problem (warnings allowed); otherwise that of the first problem:
        4 vault or permissions, 5 keyring, 6 HIBP or Pwned Passwords unreachable, 7 API key.
        """,
        examples: [("pwnvault doctor", "is everything in order, and if not, what do I do?"),
                   ("pwnvault doctor --json", "the same checks for a script or a bug report")])

    /// The longest any network check may take.
    static let networkTimeoutSeconds = 10

    static func run(_ context: Context) throws -> ExitStatus {
        let checks = DoctorRun(context).checks()
        let problems = checks.filter { $0.outcome == .problem }
        let warnings = checks.filter { $0.outcome == .warning }
        let status = problems.first?.failureStatus ?? .success
        if context.json {
            struct Report: Encodable { let checks: [DoctorCheck]; let problems: Int; let warnings: Int }
            try context.console.json(Report(checks: checks, problems: problems.count, warnings: warnings.count))
            return status
        }
        let c = context.console
        let nameWidth = checks.map(\.name.count).max() ?? 0
        for check in checks {
            let word: String
            switch check.outcome {
            case .ok: word = c.styled("ok     ", .green)
            case .warning: word = c.styled("warning", .yellow)
            case .problem: word = c.styled("problem", .red)
            }
            c.hanging(word + "  " + check.name.padded(toLength: nameWidth + 2), check.detail).forEach { c.out($0) }
            if let fix = check.fix {
                c.hanging(String(repeating: " ", count: 9 + nameWidth + 2) + "fix: ", fix).forEach { c.out($0) }
            }
        }
        c.out()
        c.out(problems.isEmpty && warnings.isEmpty ? "everything is in order"
              : "\(count(problems.count, "problem")), \(count(warnings.count, "warning"))")
        return status
    }

    private static func count(_ n: Int, _ word: String) -> String { "\(n) \(word)" + (n == 1 ? "" : "s") }
}
