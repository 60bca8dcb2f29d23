/// An account just added that mixes scripts in one of its parts, or looks like other accounts
/// (UTS #39: the same skeleton). Holds ids and script names only, never account text, so it can be
/// reported anywhere.
public struct Lookalike: Equatable, Sendable {
    /// An account it looks like, with the scripts that account is written in.
    public struct Match: Equatable, Sendable {
        public let id: Int
        public let scripts: [String]
        public init(id: Int, scripts: [String]) { self.id = id; self.scripts = scripts }
    }

    public let id: Int
    /// The scripts the account is written in (`Latin`, `Cyrillic`), in order of first use.
    public let scripts: [String]
    /// The scripts mixed within one part (the local part, one domain label, a username) beyond what
    /// UTS #39's Moderately Restrictive level allows; empty when no part mixes them.
    public let mixedScripts: [String]
    /// Accounts already in the vault, or added before it in the same run, that it looks like.
    public let resembles: [Match]

    public init(id: Int, scripts: [String], mixedScripts: [String], resembles: [Match]) {
        self.id = id; self.scripts = scripts; self.mixedScripts = mixedScripts; self.resembles = resembles
    }
}
