import PwnVaultCore

/// `--rpm N`, `--max-wait SECONDS` and `--k-anonymity=MODE`, shared by the commands that pace account checks (`check`, `watch`).
struct PacingOptions {
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

    /// `wholeAddressOptions`: the command's options that send an address whole (`--pastes`,
    /// `--stealer-logs`), which `--k-anonymity=require` refuses.
    init(_ context: Context, command: String, wholeAddressOptions: [OptionSpec]) throws {
        let args = context.arguments
        rpm = try Self.requestsPerMinute(context, option: Self.rpm, command: command)
        if let text = args.value(Self.maxWait) {
            guard let n = Int(text), Settings.maxWaitRange.contains(n) else {
                throw UsageError.invalidValue(command: command, option: "--max-wait", reason: msg("a whole number of seconds from 1 to 86400"))
            }
            maxWait = n
        } else {
            maxWait = context.settings.maxWaitSeconds
        }
        if let text = args.value(Self.kAnonymity) {
            guard let mode = KAnonymityMode(rawValue: text) else {
                throw UsageError.invalidValue(command: command, option: "--k-anonymity", reason: msg("auto, require or off"))
            }
            kAnonymity = mode
        } else {
            kAnonymity = context.settings.kAnonymity
        }
        if kAnonymity == .require && wholeAddressOptions.contains(where: args.has) {
            throw UsageError.conflicting(command: command, reason: msg("pastes and stealer logs are searched by the whole address, which --k-anonymity=require never sends"))
        }
    }

    /// The ui's: its own `--rpm` (`rpmOption`, whose help says "for checks"), the longest wait and the
    /// lookup from the settings (it has no `--max-wait` or `--k-anonymity`).
    init(ui context: Context, rpmOption: OptionSpec) throws {
        rpm = try Self.requestsPerMinute(context, option: rpmOption, command: "ui")
        maxWait = context.settings.maxWaitSeconds
        kAnonymity = context.settings.kAnonymity
    }

    /// `--rpm N` (check, watch, ui; `option` carries each command's help text): read and checked here
    /// only. Nil when not given: the rate is then learned from HIBP.
    static func requestsPerMinute(_ context: Context, option: OptionSpec, command: String) throws -> Int? {
        guard let text = context.arguments.value(option) else { return nil }
        guard let n = Int(text), (1...1_000_000).contains(n) else {
            throw UsageError.invalidValue(command: command, option: "--\(option.name)", reason: msg("a whole number of requests per minute, 1 or more"))
        }
        return n
    }
}
