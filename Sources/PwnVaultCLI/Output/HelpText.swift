import FoundationEssentials
import PwnVaultCore

/// Every help screen, built from the command specs so help, the man page and completions cannot drift.
/// Each screen is laid out for a width in terminal cells: paragraphs reflowed, option and command
/// descriptions under a hanging indent, usage lines and examples broken only between words that a
/// shell would split too. nil: no wrapping at all (stdout is no terminal; the generated docs).
enum HelpText {
    static func usageLine(_ spec: CommandSpec) -> String {
        "pwnvault \(spec.name)" + (spec.usage.first.map { $0.isEmpty ? "" : " \($0)" } ?? "")
    }

    static func overview(width: Int? = nil) -> String {
        let w = Commands.all.map { $0.spec.name.count }.max() ?? 8
        var lines = hanging(msg("OVERVIEW: "), msg("pwnvault keeps the accounts you watch in an encrypted vault, checks them against Have I Been Pwned, and never lets your screen give them away."),
                            width: width, indent: 0)
        lines += [""] + words(msg("USAGE: "), msg("pwnvault [global options] <command> [options]"), width: width)
        lines += ["", msg("COMMANDS:")]
        for command in Commands.all {
            let spec = command.spec
            lines += hanging("  " + spec.name.padded(toLength: w + 2), spec.summary, width: width)
        }
        lines += ["", msg("GLOBAL OPTIONS (before or after the command):")] + optionLines(GlobalOptions.all, width: width)
        lines += [""] + optionLines([OptionSpec("version", help: msg("show the version"))], width: width) + [""]
        lines += paragraph(msg("See 'pwnvault help <command>' or 'pwnvault <command> --help' for details and examples."), width: width)
        return lines.joined(separator: "\n")
    }

    static func command(_ spec: CommandSpec, width: Int? = nil) -> String {
        var lines = hanging(msg("OVERVIEW: "), spec.summary, width: width, indent: 0) + [""]
        let usages = spec.usage.isEmpty ? [""] : spec.usage
        let usage = msg("USAGE: "), under = String(repeating: " ", count: TerminalCells.width(usage))
        for (i, u) in usages.enumerated() {
            lines += words(i == 0 ? usage : under, "pwnvault \(spec.name)" + (u.isEmpty ? "" : " \(u)"), width: width)
        }
        if !spec.positionalHelp.isEmpty {
            let w = spec.positionalHelp.map { $0.0.count }.max()!
            lines += ["", msg("ARGUMENTS:")]
            for (name, help) in spec.positionalHelp {
                lines += hanging("  " + name.padded(toLength: w + 2), help, width: width)
            }
        }
        if !spec.options.isEmpty { lines += ["", msg("OPTIONS:")] + optionLines(spec.options, width: width) }
        lines += ["", msg("GLOBAL OPTIONS:")] + optionLines(globalOptions(for: spec), width: width)
        // What to type first, then what it means: the discussion after the options (as gh and git lay
        // out their help), the examples, and the exit statuses last.
        let (description, statuses) = discussionParts(spec)
        if !description.isEmpty {
            lines += ["", msg("DESCRIPTION:")]
            for (i, p) in description.enumerated() { lines += (i == 0 ? [] : [""]) + paragraph(p, width: width, indent: 2) }
        }
        if !spec.examples.isEmpty {
            lines += ["", msg("EXAMPLES:")]
            for (example, what) in spec.examples {
                lines += words("  ", example, width: width, continuation: " \\")
                lines += paragraph(what, width: width, indent: 6)
            }
        }
        lines += ["", msg("EXIT STATUS:")] + paragraph(statuses ?? msg("0 done, 2 the command line cannot be read; the others as 'pwnvault help exit-status' lists them"),
                                                        width: width, indent: 2)
        return lines.joined(separator: "\n")
    }

    /// A command's discussion as paragraphs, with its "Exit status: …" sentences taken out (they end the
    /// help under their own heading).
    static func discussionParts(_ spec: CommandSpec) -> (paragraphs: [String], exitStatus: String?) {
        var statuses: String?
        let parts = paragraphs(spec.discussion ?? "").compactMap { p -> String? in
            guard let range = p.firstRange(of: msg("Exit status: ")) ?? p.firstRange(of: "Exit status: ") else { return p }
            statuses = String(p[range.upperBound...]).trimmingWhitespace()
            let before = String(p[..<range.lowerBound]).trimmingWhitespace()
            return before.isEmpty ? nil : before
        }
        return (parts, statuses)
    }

    /// The global options listed for `spec` (in its help, the man page and completions): the vault and
    /// passphrase options only where the command opens the vault.
    static func globalOptions(for spec: CommandSpec) -> [OptionSpec] {
        spec.usesVault ? GlobalOptions.all : GlobalOptions.all.filter { !["vault", "passphrase-file", "passphrase-fd"].contains($0.name) }
    }

    /// Help topics that are not commands. `man` (the manual page in roff, for scripts/gen-man.sh) is not advertised.
    static let topics: [String: @Sendable (Int?) -> String] = ["environment": environment, "exit-status": exitStatuses,
                                                     ManPage.topic: { _ in ManPage.render() }]

    static func environment(width: Int? = nil) -> String {
        let w = Settings.documentation.map(\.name.count).max() ?? 0
        var lines = hanging(msg("ENVIRONMENT: "), msg("the variables pwnvault reads (empty counts as unset)"), width: width, indent: 0) + [""]
        for (name, value, meaning) in Settings.documentation {
            lines += hanging("  " + name.padded(toLength: w + 2), meaning, width: width)
            // Under the meaning when it fits there; a long value (a URL) otherwise gets a shallower indent.
            let under = "  " + String(repeating: " ", count: w + 2) + msg("default: ")
            let fits = width.map { TerminalCells.width(under + value) <= $0 } ?? true
            lines += hanging(fits ? under : "      " + msg("default: "), value, width: width)
        }
        lines += [""] + hanging(msg("KEYRINGS: "), msg("the Secret Service providers pwnvault is tested with, and how each must be set up"), width: width, indent: 0) + [""]
        let names = KeyringProvider.tested.map(\.name)
        let nw = names.map(\.count).max() ?? 0
        for (provider, name) in zip(KeyringProvider.tested, names) {
            lines += hanging("  " + name.padded(toLength: nw + 2), provider.setUp ?? "", width: width)
        }
        return lines.joined(separator: "\n")
    }

    static func exitStatuses(width: Int? = nil) -> String {
        ([msg("EXIT STATUS:"), ""] + ExitStatus.allCases.flatMap { hanging("  " + $0.rawValue.padded(width: 3, zeroPadded: false) + "  ", $0.meaning, width: width) })
            .joined(separator: "\n")
    }

    static func optionLines(_ options: [OptionSpec], width: Int? = nil) -> [String] {
        let forms = options.map { o in (o.short.map { "-\($0), " } ?? "") + o.usageForm }
        let w = forms.map(\.count).max() ?? 0
        return zip(forms, options).flatMap { hanging("  " + $0.padded(toLength: w + 2), $1.help, width: width) }
    }

    // MARK: layout

    /// The paragraphs of a multi-line text: blank lines separate them, a line break inside is a space,
    /// or nothing between two CJK characters (Chinese has no spaces between words).
    static func paragraphs(_ text: String) -> [String] {
        text.components(separatedBy: "\n\n").map { p in
            p.split(separator: "\n").map { $0.trimmingWhitespace() }.reduce(into: "") { joined, line in
                guard let last = joined.last, let first = line.first else { joined += line; return }
                let cjk = TerminalCells.width(last) == 2 && TerminalCells.width(first) == 2
                joined += (cjk ? "" : " ") + line
            }
        }.filter { !$0.isEmpty }
    }

    static func paragraph(_ text: String, width: Int?, indent: Int = 0) -> [String] {
        let pad = String(repeating: " ", count: indent)
        return TerminalCells.wrap(text, to: width.map { $0 - indent } ?? 0).map { pad + $0 }
    }

    /// `lead` then `text` wrapped under it; with `indent`, continuation lines start there instead.
    static func hanging(_ lead: String, _ text: String, width: Int?, indent: Int? = nil) -> [String] {
        guard let indent, let width else { return TerminalCells.hanging(lead, text, width: width) }
        let lines = TerminalCells.wrap(text, to: width - TerminalCells.width(lead), then: width - indent)
        return [lead + lines[0]] + lines.dropFirst().map { String(repeating: " ", count: indent) + $0 }
    }

    /// A command line or usage line broken only between shell words (never inside quotes or
    /// brackets), continuation lines indented by four more; `continuation` ends each broken line.
    static func words(_ lead: String, _ text: String, width: Int?, continuation: String = "") -> [String] {
        guard let width, TerminalCells.width(lead) + TerminalCells.width(text) > width else { return [lead + text] }
        var lines: [String] = [], current = lead, fresh = true
        let pad = String(repeating: " ", count: TerminalCells.width(lead) + 4)
        for word in shellWords(text) {
            if fresh || TerminalCells.width(current) + 1 + TerminalCells.width(word) + continuation.count <= width {
                current += (fresh ? "" : " ") + word
            } else {
                lines.append(current + continuation)
                current = pad + word
            }
            fresh = false
        }
        return lines + [current]
    }

    /// Splits at spaces outside quotes and brackets.
    static func shellWords(_ text: String) -> [String] {
        var words: [String] = [], current = "", quote: Character?, depth = 0
        for c in text {
            if let q = quote { if c == q { quote = nil } }
            else if c == "'" || c == "\"" { quote = c }
            else if c == "[" { depth += 1 }
            else if c == "]" { depth = max(0, depth - 1) }
            else if c == " ", depth == 0 { if !current.isEmpty { words.append(current) }; current = ""; continue }
            current.append(c)
        }
        if !current.isEmpty { words.append(current) }
        return words
    }
}
