import PwnVaultCore

/// `--rpm N`, `--max-wait SECONDS` and `--k-anonymity=MODE`, shared by the commands that pace account checks (`check`, `watch`).
struct PacingOptions {
    static let specs = [
        OptionSpec("rpm", value: "N", help: "the API key's requests per minute (default: asked from HIBP)"),
        OptionSpec("max-wait", value: "SECONDS", help: "the longest wait HIBP may ask for before the run ends (default 60, or PWNVAULT_MAX_WAIT)"),
        OptionSpec("k-anonymity", value: "MODE", help: "auto: look e-mail addresses up by the first 6 hex characters of their SHA-1 while the key's plan allows it, else whole; require: never send an address whole (status 7 instead); off: always whole (default auto, or PWNVAULT_K_ANONYMITY)"),
    ]

    /// The key's rate when given; nil: learned from HIBP.
    let rpm: Int?
    /// The longest single wait HIBP may ask for.
    let maxWait: Int
    /// How e-mail addresses are looked up.
    let kAnonymity: KAnonymityMode

    init(_ context: Context, command: String) throws {
        let args = context.arguments
        if let text = args.value("rpm") {
            guard let n = Int(text), (1...1_000_000).contains(n) else {
                throw UsageError.invalidValue(command: command, option: "--rpm", reason: "a whole number of requests per minute, 1 or more")
            }
            rpm = n
        } else {
            rpm = nil
        }
        if let text = args.value("max-wait") {
            guard let n = Int(text), Settings.maxWaitRange.contains(n) else {
                throw UsageError.invalidValue(command: command, option: "--max-wait", reason: "a whole number of seconds from 1 to 86400")
            }
            maxWait = n
        } else {
            maxWait = context.settings.maxWaitSeconds
        }
        if let text = args.value("k-anonymity") {
            guard let mode = KAnonymityMode(rawValue: text) else {
                throw UsageError.invalidValue(command: command, option: "--k-anonymity", reason: "auto, require or off")
            }
            kAnonymity = mode
        } else {
            kAnonymity = context.settings.kAnonymity
        }
        if kAnonymity == .require && (args.has("pastes") || args.has("stealer-logs")) {
            throw UsageError.conflicting(command: command, reason: "pastes and stealer logs are searched by the whole address, which --k-anonymity=require never sends")
        }
    }
}
