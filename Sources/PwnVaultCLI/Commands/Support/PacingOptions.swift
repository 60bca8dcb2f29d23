import PwnVaultCore

/// `--rpm N`, `--max-wait SECONDS` and `--k-anonymity=MODE`: how account checks are paced. Part of
/// `check`'s options, and of `watch`'s and the ui's, read by this one initializer for all three.
struct PacingOptions: Sendable, Equatable {
    static let rpm = OptionSpec("rpm", value: "N", help: msg("the API key's requests per minute (default: asked from HIBP)"))
    static let maxWait = OptionSpec("max-wait", value: "SECONDS", help: msg("the longest wait HIBP may ask for before the run ends (default 60, or PWNVAULT_MAX_WAIT)"))
    static let kAnonymity = OptionSpec("k-anonymity", value: "MODE", help: msg("auto: look e-mail addresses up by the first 6 hex characters of their SHA-1 while the key's plan allows it, else whole; require: never send an address whole (status 7 instead); off: always whole (default auto, or PWNVAULT_K_ANONYMITY)"))
    static let specs = [rpm, maxWait, kAnonymity]

    /// The key's rate when given; nil: learned from HIBP.
    let rpm: Int?
    /// The longest single wait HIBP may ask for.
    let maxWait: Int
    /// How e-mail addresses are looked up.
    let kAnonymity: KAnonymityMode

    /// Pacing given in full.
    init(rpm: Int?, maxWait: Int, kAnonymity: KAnonymityMode) {
        self.rpm = rpm; self.maxWait = maxWait; self.kAnonymity = kAnonymity
    }

    /// Reads the pacing options `declared` by `command` (by default all three, as `check` and `watch`
    /// declare them; the ui declares only its own `--rpm`, whose help says "for checks"). One not
    /// declared takes its value from `settings`, as one not given does.
    init(_ arguments: ParsedArguments, settings: Settings, command: String, declared: [OptionSpec] = PacingOptions.specs) throws {
        func given(_ option: OptionSpec) -> (spec: OptionSpec, text: String?)? {
            declared.first { $0.name == option.name }.map { ($0, arguments.value($0)) }
        }
        let rpmText = given(Self.rpm), maxWaitText = given(Self.maxWait), kAnonymityText = given(Self.kAnonymity)
        if let text = rpmText?.text {
            guard let n = Int(text), (1...1_000_000).contains(n) else {
                throw UsageError.invalidValue(command: command, option: "--\(Self.rpm.name)", reason: msg("a whole number of requests per minute, 1 or more"))
            }
            rpm = n
        } else {
            rpm = nil
        }
        if let text = maxWaitText?.text {
            guard let n = Int(text), Settings.maxWaitRange.contains(n) else {
                throw UsageError.invalidValue(command: command, option: "--max-wait", reason: msg("a whole number of seconds from 1 to 86400"))
            }
            maxWait = n
        } else {
            maxWait = settings.maxWaitSeconds
        }
        if let text = kAnonymityText?.text {
            guard let mode = KAnonymityMode(rawValue: text) else {
                throw UsageError.invalidValue(command: command, option: "--k-anonymity", reason: msg("auto, require or off"))
            }
            kAnonymity = mode
        } else {
            kAnonymity = settings.kAnonymity
        }
    }

    /// `--k-anonymity=require` with an option that sends an address whole (`--pastes`, `--stealer-logs`):
    /// refused by `check` and `watch`.
    func refuseWholeAddressOptions(_ wanted: Bool, command: String) throws {
        if kAnonymity == .require && wanted {
            throw UsageError.conflicting(command: command, reason: msg("pastes and stealer logs are searched by the whole address, which --k-anonymity=require never sends"))
        }
    }
}
