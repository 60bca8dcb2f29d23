extension VaultPayload {
    /// The vault account a mistyped one most likely meant (for "did you mean …?"), or nil when none is
    /// close. Compared by the normalised form; the answer is an `Account`, shown only through `Disclosure`.
    /// Never more than `maxEdits` away: a suggestion for a far guess would let whoever types probe the
    /// vault for accounts it does not know.
    public func closestAccount(to parsed: ParsedAccount, maxEdits: Int = Self.suggestionEdits) -> Account? {
        let limit = min(maxEdits, EditDistance.limit(for: parsed.normalized))
        return accounts.map { ($0, EditDistance.between($0.normalized, parsed.normalized)) }
            .filter { $0.1 <= limit }
            .min { $0.1 < $1.1 }?.0
    }

    /// How far a typed account may be from a vault account for "did you mean": two edits (a typo, a
    /// swapped pair), not a third of the length.
    public static let suggestionEdits = 2
}
