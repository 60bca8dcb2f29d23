/// How an e-mail address is looked up in HIBP's breaches (`--k-anonymity`, `PWNVAULT_K_ANONYMITY`).
///
/// HIBP's k-anonymity search (`breachedaccount/range/{6 hex}`) takes only the first 6 hex characters
/// of the SHA-1 of the address, and only keys whose subscription includes it may use it (per
/// troyhunt.com's announcement of 2026: the Pro and High RPM plans; HIBP's own API page was not
/// readable here to confirm the plans or the refusal's status). Phone numbers and usernames are
/// always sent whole: the range search covers e-mail addresses only.
public enum KAnonymityMode: String, Sendable, CaseIterable {
    /// The range search while the key's subscription allows it; the whole address once HIBP refuses
    /// the range search (401/403), for the rest of the run and, remembered, for a day.
    case auto
    /// The range search only: a refusal ends the run (status 7) before any address is sent whole.
    case require
    /// The whole address (`breachedaccount/{account}`), as before.
    case off

    /// What `check --json` and `doctor` say was used.
    public static let rangeLabel = "k-anonymity"
    public static let wholeLabel = "whole address"
}
