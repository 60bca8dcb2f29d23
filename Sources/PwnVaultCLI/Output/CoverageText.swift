import PwnVaultCore

/// What "no breach found" covers, by kind of account (issue 29). HIBP loads the e-mail addresses of
/// every breach, so a clean answer for an address covers them all; phone numbers and usernames are
/// searchable only in the breaches HIBP loaded with them (phone numbers: a few, the 2021 Facebook data
/// above all; usernames: a few older ones), and its API now documents the search by e-mail address.
/// One calm line, said where a clean answer is shown (`show`, `check`) and once by `doctor`.
enum CoverageText {
    /// The line for an account of `kind`; nil for an e-mail address (a clean answer covers every breach).
    static func line(for kind: AccountKind) -> String? {
        switch kind {
        case .email: return nil
        case .phone:
            return msg("for a phone number, \"no breach found\" covers only the few breaches HIBP loaded with phone numbers, not every breach")
        case .username:
            return msg("for a username, \"no breach found\" covers only the few breaches HIBP loaded with usernames, not every breach")
        }
    }

    /// The line for a vault (or a run) holding accounts of `kinds`: one line for both kinds together.
    static func line(for kinds: Set<AccountKind>) -> String? {
        switch (kinds.contains(.phone), kinds.contains(.username)) {
        case (true, true):
            return msg("for phone numbers and usernames, \"no breach found\" covers only the few breaches HIBP loaded with them, not every breach (e-mail addresses: every breach)")
        case (true, false): return line(for: .phone)
        case (false, true): return line(for: .username)
        case (false, false): return nil
        }
    }
}
