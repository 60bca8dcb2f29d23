extension VaultPayload {
    /// The vault account a mistyped one most likely meant (for "did you mean …?"), or nil when none is
    /// close. Compared by the normalised form; the answer is an `Account`, shown only through `Disclosure`.
    public func closestAccount(to parsed: ParsedAccount) -> Account? {
        let limit = EditDistance.limit(for: parsed.normalized)
        return accounts.map { ($0, EditDistance.between($0.normalized, parsed.normalized)) }
            .filter { $0.1 <= limit }
            .min { $0.1 < $1.1 }?.0
    }
}
