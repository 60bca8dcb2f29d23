import PwnVaultCore

/// `--weak-passphrase-ok` of `init` and `passwd`, and the check it turns off (`NewPassphraseCheck`:
/// zxcvbn, then Pwned Passwords by k-anonymity at $PWNVAULT_PASSWORDS_URL).
enum NewPassphraseOption {
    static let name = "weak-passphrase-ok"

    static let spec = OptionSpec(name, help: msg("use the new passphrase even if it is weak or seen in breaches (skips both checks; nothing is sent)"))

    /// Whether --weak-passphrase-ok was given (read once, into the command's options).
    static func given(_ arguments: ParsedArguments) -> Bool { arguments.has(spec) }

    /// The check for `context`; nil with --weak-passphrase-ok (`weakOK`).
    static func check(_ context: Context, weakOK: Bool) -> NewPassphraseCheck? {
        if weakOK { return nil }
        // The run's transport: the client's requests carry their own body cap.
        let client = PwnedPasswordsClient(baseURL: context.settings.passwordsBaseURL, version: CLI.version, transport: context.transport)
        return NewPassphraseCheck(lookup: { hash in
            do { return try blocking { try await client.timesSeen(hash) } } catch { throw PwnedPasswordsError.wrapping(error) }
        })
    }

    /// The shortest new passphrase accepted.
    static let minimumLength = 8

    /// A new passphrase: typed twice on a terminal (up to three tries when it is too short, weak, seen
    /// in breaches, empty or not repeated the same, each refusal said on `console`), read once from a
    /// file or descriptor. `check` (nil: --weak-passphrase-ok) runs before it is asked again; what it
    /// could not check is said on `console`, one line each.
    static func read(from source: PassphraseSource, prompt: String, console: Console,
                     check: NewPassphraseCheck?, standardInput: Int32 = StandardStream.inputDescriptor) throws -> SecretBytes {
        let retry = PromptRetry.forPerson(interactive: source.isInteractive, say: { console.note($0) })
        return try retry.run(retryIf: { $0 is PassphraseError }) { _ in
            let first = try source.read(prompt: prompt, standardInput: standardInput)
            guard first.count >= minimumLength else { throw PassphraseError.tooShort(minimum: minimumLength) }
            for note in try check?.check(first) ?? [] { console.note(note) }
            if source.isInteractive {
                let second = try source.read(prompt: msg("Repeat it: "), standardInput: standardInput)
                guard first.isEqual(to: second) else { throw PassphraseError.mismatch }
            }
            return first
        }
    }
}
