import PwnVaultCore

/// A command line pwnvault cannot read. Exit status 2, with the usage line as the hint.
enum UsageError: UserFacingError, Equatable {
    /// `named`: the word may be repeated although it is no near miss (stderr is a terminal outside
    /// share mode: no log keeps it, no viewer sees it).
    case unknownCommand(String, suggestion: String?, named: Bool = false)
    /// Only global options, no command word.
    case missingCommand
    case unknownOption(command: String, option: String, suggestion: String?)
    case missingValue(command: String, option: OptionSpec)
    case unexpectedValue(command: String, option: String)
    case repeatedOption(command: String, option: String)
    case missingArgument(command: String)
    case tooManyArguments(command: String, max: Int)
    case invalidValue(command: String, option: String, reason: String)
    case conflicting(command: String, reason: String)
    /// Argument `position` (1 = the first word after `pwnvault`) is not UTF-8. Its bytes are never shown.
    case notUTF8(position: Int)

    static func == (a: UsageError, b: UsageError) -> Bool { a.message == b.message }

    var message: String {
        switch self {
        // A mistyped word is echoed only when it is a near miss of a real name: anything else may be an
        // account typed in the wrong place, and stderr may be a log.
        case let .unknownCommand(name, suggestion, named):
            return (suggestion != nil || named) && Self.isPlainWord(name) ? msg("unknown command '{1}'", name) : msg("the first argument is not a command")
        case .missingCommand: return msg("missing command")
        case let .unknownOption(_, option, suggestion):
            // A single-dash word is named when it is short (`-x`); a longer one may be an account.
            let name = String(option.prefix { $0 != "=" })
            let word = name.drop { $0 == "-" }
            return (suggestion != nil || option.hasPrefix("--") || word.count <= 2) && Self.isPlainWord(word)
                ? msg("unknown option '{1}'", name) : msg("unknown option")
        case let .missingValue(_, option): return msg("option '--{1}' needs a value ({2})", option.name, option.value ?? "VALUE")
        case let .unexpectedValue(_, option): return msg("option '{1}' takes no value", option)
        case let .repeatedOption(_, option): return msg("option '{1}' given more than once", option)
        case .missingArgument: return msg("missing argument")
        case let .tooManyArguments(_, max):
            return max == 0 ? msg("this command takes no arguments") : msg("too many arguments (at most {1})", max)
        case let .invalidValue(_, option, reason): return msg("invalid value for '{1}': {2}", option, reason)
        case let .conflicting(_, reason): return reason
        case let .notUTF8(position): return msg("argument {1} is not valid UTF-8 text; nothing was run", position)
        }
    }

    /// Letters, digits and dashes only, at most 32: a command or option name, not an account.
    static func isPlainWord<S: StringProtocol>(_ word: S) -> Bool {
        !word.isEmpty && word.count <= 32 && word.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-") }
    }

    var hint: String? {
        switch self {
        case .notUTF8:
            return msg("arguments are counted from the word after 'pwnvault'; give them as UTF-8 (set a UTF-8 locale, or convert the text with iconv -t UTF-8)")
        case let .unknownCommand(_, suggestion?, _): return msg("did you mean '{1}'? (see 'pwnvault help')", suggestion)
        case .unknownCommand, .missingCommand: return msg("see 'pwnvault help' for the list of commands")
        case let .unknownOption("pwnvault", _, suggestion):
            return suggestion.map { msg("did you mean '{1}'? (see 'pwnvault help' for the global options)", $0) }
                ?? msg("see 'pwnvault help' for the global options")
        case .missingValue("pwnvault", _):
            return msg("usage: {1}  (more: '{2}')", "pwnvault [global options] <command> ...", "pwnvault help")
        case let .unknownOption(command, _, suggestion?): return msg("did you mean '{1}'? (see 'pwnvault help {2}')", suggestion, command)
        case let .missingArgument(command):
            // Every form of the command's usage (`ack ACCOUNT|#ID [BREACH...]` or `ack --all`).
            let spec = Commands.spec(named: command)
            let forms = spec.map { s in s.usage.map { "pwnvault \(s.name)" + ($0.isEmpty ? "" : " \($0)") } } ?? ["pwnvault \(command)"]
            let usage = forms.joined(separator: msg("  or  "))
            // `pwnvault show #3` reaches us as `pwnvault show`: the shell took `#3` for a comment.
            return spec?.usage.first?.contains("#ID") == true
                ? msg("usage: {1}; an unquoted # starts a shell comment: write '#3' or just 3", usage)
                : msg("usage: {1}  (more: '{2}')", usage, "pwnvault help \(command)")
        case let .unknownOption(command, _, nil), let .missingValue(command, _), let .unexpectedValue(command, _),
             let .repeatedOption(command, _), let .tooManyArguments(command, _),
             let .invalidValue(command, _, _), let .conflicting(command, _):
            return msg("usage: {1}  (more: '{2}')", Commands.spec(named: command).map(HelpText.usageLine) ?? "pwnvault \(command)",
                       "pwnvault help \(command)")
        }
    }

    var exitStatus: ExitStatus { .usage }
}
