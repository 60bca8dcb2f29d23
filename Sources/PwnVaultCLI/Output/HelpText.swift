import Foundation
import PwnVaultCore

/// Every help screen, built from the command specs so help, the man page and completions cannot drift.
enum HelpText {
    static func usageLine(_ spec: CommandSpec) -> String {
        "pwnvault \(spec.name)" + (spec.usage.first.map { $0.isEmpty ? "" : " \($0)" } ?? "")
    }

    static func overview() -> String {
        let width = Commands.all.map { $0.spec.name.count }.max() ?? 8
        var lines = [
            "OVERVIEW: pwnvault keeps the accounts you watch in an encrypted vault, checks them against",
            "Have I Been Pwned, and never lets your screen give them away.",
            "",
            "USAGE: pwnvault <command> [options]",
            "",
            "COMMANDS:",
        ]
        for command in Commands.all {
            let spec = command.spec
            lines.append("  " + spec.name.padding(toLength: width + 2, withPad: " ", startingAt: 0) + spec.summary)
        }
        lines += ["", "GLOBAL OPTIONS:"] + optionLines(GlobalOptions.all)
        lines += ["", "  --version  show the version", "",
                  "See 'pwnvault help <command>' or 'pwnvault <command> --help' for details and examples."]
        return lines.joined(separator: "\n")
    }

    static func command(_ spec: CommandSpec) -> String {
        var lines = ["OVERVIEW: \(spec.summary)", ""]
        let usages = spec.usage.isEmpty ? [""] : spec.usage
        for (i, u) in usages.enumerated() {
            lines.append((i == 0 ? "USAGE: " : "       ") + "pwnvault \(spec.name)" + (u.isEmpty ? "" : " \(u)"))
        }
        if let discussion = spec.discussion { lines += ["", discussion] }
        if !spec.positionalHelp.isEmpty {
            let w = spec.positionalHelp.map { $0.0.count }.max()!
            lines += ["", "ARGUMENTS:"]
            lines += spec.positionalHelp.map { "  " + $0.0.padding(toLength: w + 2, withPad: " ", startingAt: 0) + $0.1 }
        }
        if !spec.options.isEmpty { lines += ["", "OPTIONS:"] + optionLines(spec.options) }
        lines += ["", "GLOBAL OPTIONS:"] + optionLines(globalOptions(for: spec))
        if !spec.examples.isEmpty {
            lines += ["", "EXAMPLES:"]
            for (example, what) in spec.examples { lines += ["  \(example)", "      \(what)"] }
        }
        return lines.joined(separator: "\n")
    }

    /// The global options listed for `spec` (in its help, the man page and completions): the vault and
    /// passphrase options only where the command opens the vault.
    static func globalOptions(for spec: CommandSpec) -> [OptionSpec] {
        spec.usesVault ? GlobalOptions.all : GlobalOptions.all.filter { !["vault", "passphrase-file", "passphrase-fd"].contains($0.name) }
    }

    /// Help topics that are not commands. `man` (the manual page in roff, for scripts/gen-man.sh) is not advertised.
    static let topics: [String: @Sendable () -> String] = ["environment": environment, "exit-status": exitStatuses, ManPage.topic: ManPage.render]

    static func environment() -> String {
        let w = Settings.documentation.map(\.name.count).max() ?? 0
        var lines = ["ENVIRONMENT: the variables pwnvault reads (empty counts as unset)", ""]
        for (name, value, meaning) in Settings.documentation {
            lines.append("  " + name.padding(toLength: w + 2, withPad: " ", startingAt: 0) + meaning)
            lines.append("  " + String(repeating: " ", count: w + 2) + "default: " + value)
        }
        return lines.joined(separator: "\n")
    }

    static func exitStatuses() -> String {
        (["EXIT STATUS:", ""] + ExitStatus.allCases.map { String(format: "  %3d  ", $0.rawValue) + $0.meaning })
            .joined(separator: "\n")
    }

    static func optionLines(_ options: [OptionSpec]) -> [String] {
        let forms = options.map { o in (o.short.map { "-\($0), " } ?? "") + o.usageForm }
        let w = forms.map(\.count).max() ?? 0
        return zip(forms, options).map { "  " + $0.padding(toLength: w + 2, withPad: " ", startingAt: 0) + $1.help }
    }
}
