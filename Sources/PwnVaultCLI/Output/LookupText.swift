import FoundationEssentials
import PwnVaultCore

/// Which search `check` and `watch` use for e-mail addresses, as `doctor` and `status` say it: from
/// the k-anonymity setting, what the key's plan said (`subscription/status`, remembered for a day) and
/// any fallback remembered (a refusal, or a server without the range search).
enum LookupText {
    /// The search's label for `--json` ("k-anonymity", "whole address", or "none" where
    /// `require` would stop), never translated, beside the sentence in the reader's language.
    static func label(_ context: Context, key: SecretBytes?) -> String {
        let cache = (try? HIBPServices(context).cacheDirectory()).map(KAnonymityCache.init(directory:))
        let now = context.now()
        let plan = key.flatMap { cache?.planIncludes(for: $0, now: now) }
        let fallback = key.flatMap { cache?.fallback(for: $0, now: now) }
        switch context.settings.kAnonymity {
        case .off: return KAnonymityMode.wholeLabel
        case .require: return plan == false || fallback == .noRangeSearch ? "none" : KAnonymityMode.rangeLabel
        case .auto: return plan == false || fallback != nil ? KAnonymityMode.wholeLabel : KAnonymityMode.rangeLabel
        }
    }

    /// The key `check` and `watch` would use: the environment's, else the keyring's where it can be
    /// read without a dialog.
    static func key(_ context: Context) -> SecretBytes? {
        if let env = context.settings.environmentAPIKey?.secret() { return env }
        guard case .readable? = try? context.keyring.probe(.apiKey) else { return nil }
        return (try? context.keyring.lookup(.apiKey)) ?? nil
    }

    /// `key`: the API key check and watch would use (the environment's before the keyring's), if any.
    static func describe(_ context: Context, key: SecretBytes?) -> String {
        let range = msg("{1}: only the first 6 hex characters of each e-mail address's SHA-1 are sent", KAnonymityMode.rangeLabel)
        let cache = (try? HIBPServices(context).cacheDirectory()).map(KAnonymityCache.init(directory:))
        let now = context.now()
        let plan = key.flatMap { cache?.planIncludes(for: $0, now: now) }
        let fallback = key.flatMap { cache?.fallback(for: $0, now: now) }
        switch context.settings.kAnonymity {
        case .off:
            return msg("{1}: e-mail addresses are sent whole ({2}=off)", KAnonymityMode.wholeLabel, Settings.kAnonymityVariable)
        case .require:
            if plan == false {
                return msg("none: the key's plan does not include the k-anonymity search and {1}=require sends no address whole (check stops, status 7)", Settings.kAnonymityVariable)
            }
            if fallback == .noRangeSearch {
                return msg("none: the server at the api address has no k-anonymity search and {1}=require sends no address whole (check stops, status 7)", Settings.kAnonymityVariable)
            }
            return msg("{1} ({2}=require: a key whose plan lacks it ends the check, status 7)", range, Settings.kAnonymityVariable)
        case .auto:
            if plan == false {
                return msg("{1}: the key's plan does not include the k-anonymity search (a plan with it: HIBP's Pro or High RPM)", KAnonymityMode.wholeLabel)
            }
            switch fallback {
            case .noRangeSearch?:
                return msg("{1}: the server at the api address answered the k-anonymity search with something else than a search result within the last day (it has none), so e-mail addresses are sent whole", KAnonymityMode.wholeLabel)
            case .refused?:
                return msg("{1}: HIBP refused this key the k-anonymity search within the last day, so e-mail addresses are sent whole (a plan with it: HIBP's Pro or High RPM)", KAnonymityMode.wholeLabel)
            case nil:
                if plan == true { return msg("{1}: the key's plan includes it", range) }
                return msg("{1}, while the key's plan allows it (else whole, after one refused request)", range)
            }
        }
    }
}
