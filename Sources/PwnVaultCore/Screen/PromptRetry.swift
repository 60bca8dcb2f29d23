/// Asking a person again, as sudo does: on a terminal a passphrase or key that is refused is asked
/// for again, up to three times in all, each refusal said in one line. Answers read from a file or a
/// descriptor are never retried (the same line would only be read again).
public struct PromptRetry: Sendable {
    /// How many answers a person gets, like sudo's `passwd_tries`.
    public static let maxAttempts = 3

    public let attempts: Int
    /// Where the one-line reason goes (the console's stderr, next to the prompt).
    public let say: @Sendable (String) -> Void

    public init(attempts: Int, say: @escaping @Sendable (String) -> Void) {
        self.attempts = max(1, attempts); self.say = say
    }

    /// One answer only: not a terminal, or a prompt that must not repeat.
    public static let once = PromptRetry(attempts: 1, say: { _ in })

    /// Three answers on a terminal, one elsewhere.
    public static func forPerson(interactive: Bool, say: @escaping @Sendable (String) -> Void) -> PromptRetry {
        interactive ? PromptRetry(attempts: maxAttempts, say: say) : .once
    }

    /// Runs `body` until it returns, or throws an error `retryIf` does not accept, or the attempts are
    /// used up (then the last error is thrown, as it would have been without retries).
    public func run<T>(retryIf: (Error) -> Bool, _ body: (_ attempt: Int) throws -> T) throws -> T {
        var attempt = 1
        while true {
            do { return try body(attempt) } catch where attempt < attempts && retryIf(error) {
                let left = attempts - attempt
                let message = (error as? UserFacingError)?.message ?? msg("that did not work")
                say(msg(one: "{1}; try again ({2} more attempt)", many: "{1}; try again ({2} more attempts)", count: left, message, left))
                attempt += 1
            }
        }
    }
}
