import PwnVaultCore

/// One option a command accepts: `--name`, `--name VALUE` or `--name=VALUE`.
struct OptionSpec: Sendable {
    let name: String
    let short: Character?
    /// The placeholder shown in help when the option takes a value (`PATH`, `N`), nil for a flag.
    let value: String?
    let help: String
    let repeatable: Bool
    /// For a flag that may also be given a value after `=` (`--notify` or `--notify=count`): the
    /// value's placeholder. The value never comes from the next argument.
    let optionalValue: String?

    init(_ name: String, short: Character? = nil, value: String? = nil, help: String, repeatable: Bool = false,
         optionalValue: String? = nil) {
        self.name = name; self.short = short; self.value = value; self.help = help; self.repeatable = repeatable
        self.optionalValue = optionalValue
    }

    /// The same option said another way in a command's help (the ui's `--rpm` is check's, "for checks"):
    /// one name, read by one initializer.
    func withHelp(_ help: String) -> OptionSpec {
        OptionSpec(name, short: short, value: value, help: help, repeatable: repeatable, optionalValue: optionalValue)
    }

    var takesValue: Bool { value != nil }
    var usageForm: String {
        if let optionalValue { return "--\(name)[=\(optionalValue)]" }
        return "--\(name)" + (value.map { " \($0)" } ?? "")
    }
}

/// Everything the argument reader and the help screens know about one command.
struct CommandSpec: Sendable {
    let name: String
    let summary: String
    /// Usage lines after `pwnvault NAME`, e.g. `ACCOUNT... [--label TEXT]`.
    let usage: [String]
    let discussion: String?
    let options: [OptionSpec]
    /// How many positional arguments are allowed.
    let positionals: ClosedRange<Int>
    let positionalHelp: [(String, String)]
    let examples: [(String, String)]
    /// Global options that make no sense for this command are still accepted but listed only where relevant.
    let usesVault: Bool
    /// Run with nobody watching even on a terminal (watch, shell completion on Tab): the keyring
    /// never shows a dialog for it.
    let unattended: Bool
    /// What shell completion offers for the first positional argument and for the ones after it; by
    /// default account ids where the arguments are `#ID`s, else nothing.
    let completes: (first: CompletionSource, rest: CompletionSource)

    init(name: String, summary: String, usage: [String], discussion: String? = nil, options: [OptionSpec] = [],
         positionals: ClosedRange<Int> = 0...0, positionalHelp: [(String, String)] = [],
         examples: [(String, String)], usesVault: Bool = true, unattended: Bool = false,
         completes: (first: CompletionSource, rest: CompletionSource)? = nil) {
        self.name = name; self.summary = summary; self.usage = usage; self.discussion = discussion
        self.options = options; self.positionals = positionals; self.positionalHelp = positionalHelp
        self.examples = examples; self.usesVault = usesVault; self.unattended = unattended
        let ids = positionalHelp.contains { $0.0.contains("#ID") }
        self.completes = completes ?? (ids ? (.ids, .ids) : (.nothing, .nothing))
    }
}

/// What a positional argument completes from at Tab time. Ids (`#ID`, labels as descriptions) come
/// from the vault, breach names from the cached catalog, an account's own breaches (for `ack`) from
/// both, through `pwnvault completions --list`, which never asks for anything.
enum CompletionSource: Equatable, Sendable {
    case nothing
    case words([String])
    /// The command names and the help topics (`help`'s argument).
    case commandsAndTopics
    case ids
    case breaches
    /// The breaches of the account named by the command's first argument (never sensitive ones).
    case findings
    case files

    /// The word given to `completions --list`, for the sources asked of pwnvault.
    var listed: String? {
        switch self {
        case .ids: return "ids"
        case .breaches, .findings: return "breaches"
        default: return nil
        }
    }
}

/// Options every command accepts.
enum GlobalOptions {
    static let vault = OptionSpec("vault", value: "PATH", help: msg("use the vault at PATH (default: $PWNVAULT_VAULT, then $XDG_DATA_HOME/pwnvault/vault)"))
    static let passphraseFile = OptionSpec("passphrase-file", value: "PATH", help: msg("read the passphrase from the first line of PATH (or $PWNVAULT_PASSPHRASE_FILE)"))
    static let passphraseFD = OptionSpec("passphrase-fd", value: "N", help: msg("read the passphrase from the first line of file descriptor N"))
    static let json = OptionSpec("json", help: msg("print machine-readable JSON on stdout (accounts always redacted)"))
    static let noColor = OptionSpec("no-color", help: msg("no colors (also: NO_COLOR=1)"))
    static let share = OptionSpec("share", help: msg("screen-share mode: accounts by label or #id only (also: PWNVAULT_SHARE=1)"))
    static let noShare = OptionSpec("no-share", help: msg("do not detect a shared or recorded terminal for this run"))
    static let help = OptionSpec("help", short: "h", help: msg("show help for this command"))

    static let all: [OptionSpec] = [vault, passphraseFile, passphraseFD, json, noColor, share, noShare, help]
}
