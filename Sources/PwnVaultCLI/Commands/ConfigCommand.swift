import PwnVaultCore

/// `pwnvault config api-key`: keep the HIBP API key in the desktop keyring.
enum ConfigCommand: Command {
    static let noVerify = OptionSpec("no-verify", help: msg("store the key without trying it against HIBP (offline)"))
    static let remove = OptionSpec("remove", help: msg("remove the stored key"))

    static let spec = CommandSpec(
        name: "config",
        summary: msg("store (or remove) the HIBP API key in the desktop keyring"),
        usage: ["api-key [--no-verify | --remove]"],
        discussion: msg("""
        The key is read from the terminal without echo, or from the first line of stdin when stdin is not
        a terminal; never from the command line. Before it is stored it is tried once against Have I Been
        Pwned (subscription/status), which also tells its plan and rate limit; a key HIBP refuses is not
        stored, and on a terminal you may type it again (three tries). --no-verify stores it without
        asking HIBP (offline). It is kept in the desktop keyring and never printed. Scripts can set
        HIBP_API_KEY instead, which wins over the stored key.
        """),
        options: [noVerify,
                  remove],
        positionals: 1...1,
        positionalHelp: [("api-key", msg("the setting to change (the only one so far)"))],
        examples: [("pwnvault config api-key", msg("paste the key at the prompt; it is tried, then stored")),
                   ("pass show hibp | pwnvault config api-key", msg("take it from a password manager"))],
        usesVault: false,
        completes: (.words(["api-key"]), .nothing))

    struct Report: Encodable {
        let apiKey: String
        /// The key's plan and requests per minute, when it was tried.
        var plan: String?
        var rpm: Int?
    }

    static func run(_ context: Context) throws -> ExitStatus {
        let options = try Options(context)
        if options.remove {
            let removed = try context.keyring.clear(.apiKey)
            if context.json { try context.console.json(Report(apiKey: removed ? "removed" : "absent")); return .success }
            context.console.out(removed ? msg("removed the HIBP API key from the keyring") : msg("no HIBP API key was stored"))
            return .success
        }
        // A real terminal gets a no-echo prompt even with TERM=dumb (Emacs, IDEs): TERM only changes display.
        let typed = context.standardInputIsATTY
        let verify = !options.noVerify
        let retry = PromptRetry.forPerson(interactive: typed, say: { context.console.note($0) })
        let (key, status) = try retry.run(retryIf: { ($0 as? APIKeyRefusal)?.asksAgain == true }) { _ -> (SecretBytes, SubscriptionStatus?) in
            let key = typed ? try PassphrasePrompt.read(prompt: msg("HIBP API key (not shown): ")) : try PassphrasePrompt.readLine(fd: context.standardInput)
            guard APIKey.isWellFormed(key) else { throw APIKeyRefusal.malformed }
            guard verify else { return (key, nil) }
            // The key typed is tried through the run's one door, as any keyed request: its schedule (at
            // the key's remembered rate) and retry policy, long waits said.
            let session = HIBPServices(context).checkSession(key: key, vault: nil, options: .init(maxWait: context.settings.maxWaitSeconds))
            let console = context.console
            do {
                return (key, try blocking { try await session.one({ try await $0.subscriptionStatus() }) {
                    SessionRendering.note($0, say: { console.note($0) })
                } })
            } catch let error as HIBPError {
                if case let .unauthorized(detail) = error { throw APIKeyRefusal.refused(detail: detail) }
                throw APIKeyRefusal.untried(error)
            }
        }
        try context.keyring.store(.apiKey, secret: key)
        let plan = status.map { Sanitizer.singleLine($0.subscriptionName) }
        if context.json { try context.console.json(Report(apiKey: "stored", plan: plan, rpm: status?.rpm)); return .success }
        if let status {
            let name = plan ?? msg("unnamed")
            context.console.out(status.rpm.map { msg("stored the HIBP API key in the keyring: plan {1}, {2} requests a minute", name, $0) }
                ?? msg("stored the HIBP API key in the keyring: plan {1}, its rate limit not stated (10 requests a minute assumed)", name))
        } else {
            context.console.out(msg("stored the HIBP API key in the keyring without trying it (--no-verify)"))
        }
        if context.settings.hasAPIKeyInEnvironment {
            context.console.note(msg("{1} is set and wins over the stored key while it is", Settings.apiKeyVariable))
        }
        return .success
    }
}

/// Why `config api-key` stored nothing.
enum APIKeyRefusal: UserFacingError, Equatable {
    static func == (a: APIKeyRefusal, b: APIKeyRefusal) -> Bool { a.message == b.message }

    case malformed
    /// 401, with HIBP's sentence.
    case refused(detail: String)
    /// HIBP could not be asked (offline, unavailable): the key is not stored unchecked by surprise.
    case untried(HIBPError)

    /// A person typing may try another key: one of the wrong form, or one HIBP refused.
    var asksAgain: Bool {
        switch self {
        case .malformed, .refused: return true
        case .untried: return false
        }
    }

    var message: String {
        switch self {
        case .malformed: return msg("that is not an HIBP API key (32 hexadecimal characters); nothing was stored")
        case let .refused(detail):
            return detail.isEmpty ? msg("Have I Been Pwned refused that key (401); nothing was stored")
                : msg("Have I Been Pwned refused that key (401: {1}); nothing was stored", detail)
        case let .untried(error): return msg("could not try the key: {1}; nothing was stored", error.message)
        }
    }

    var hint: String? {
        switch self {
        case .malformed, .refused: return msg("copy it from https://haveibeenpwned.com/API/Key")
        case .untried: return msg("store it without trying it: pwnvault config api-key --no-verify")
        }
    }

    var exitStatus: ExitStatus {
        switch self {
        case .malformed: return .usage
        case .refused: return .apiAuthorization
        // The same status check and domain give for the same answer (a Cloudflare block: 6).
        case let .untried(error): return error.exitStatus
        }
    }
}

extension ConfigCommand {
    static let optionsType: any CommandOptions.Type = Options.self

    /// `config`'s options, read and checked once. The one setting is the API key (`config api-key`).
    struct Options: CommandOptions, Equatable {
        let noVerify: Bool
        let remove: Bool

        init(_ arguments: ParsedArguments, settings: Settings) throws {
            guard arguments.positionals.first == "api-key" else {
                throw UsageError.invalidValue(command: "config", option: "SETTING", reason: msg("the only setting is 'api-key'"))
            }
            noVerify = arguments.has(ConfigCommand.noVerify)
            remove = arguments.has(ConfigCommand.remove)
        }
    }
}
