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

    var text: String {
        switch self {
        case let .argument(n): return "argument \(n)"
        case let .stdinLine(n): return "line \(n) of stdin"
        case let .typed(n): return "account \(n)"
        }
    }
}
