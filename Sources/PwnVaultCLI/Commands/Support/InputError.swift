import PwnVaultCore

/// Input pwnvault cannot use (an invalid account, an unknown id). Exit status 2, like other usage errors.
/// Messages name the argument's position or line, never the account itself: stderr may be a log.
struct InputError: UserFacingError {
    let message: String
    let hint: String?
    var exitStatus: ExitStatus { .usage }

    init(_ message: String, hint: String? = nil) { self.message = message; self.hint = hint }
}

/// Where a piece of input came from, for error messages.
enum InputPosition {
    case argument(Int)
    case stdinLine(Int)
    /// The Nth account typed at `add -`'s prompt.
    case typed(Int)

    /// As a message names it, in the reader's language ("argument 2").
    var phrase: String {
        switch self {
        case let .argument(n): return msg("argument {1}", n)
        case let .stdinLine(n): return msg("line {1} of stdin", n)
        case let .typed(n): return msg("account {1}", n)
        }
    }

    /// As `--json` gives it (`add`'s duplicates, `check`'s `input`): English whatever the language.
    var text: String { Messages.english { phrase } }
}
