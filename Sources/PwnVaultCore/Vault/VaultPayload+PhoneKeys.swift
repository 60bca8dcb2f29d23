extension VaultPayload {
    /// Each account's `dedupKey`, phone numbers read into E.164 first: versions before libphonenumber
    /// stored them as typed (`07700900123` beside `+447700900123`), and a number added now must find the
    /// account it already has. A stored number that cannot be read (no region, no libphonenumber) keeps
    /// its stored key. libphonenumber is loaded only when the vault holds a phone number.
    public func accountKeys(phones: PhoneNumbering) -> [(id: Int, key: AccountKey)] {
        accounts.map { account in
            guard account.kind == .phone, case let .success(reading)? = try? phones.read(account.normalized) else {
                return (account.id, account.dedupKey)
            }
            return (account.id, AccountKey(reading.e164))
        }
    }

    /// Groups of ids (two or more, lowest first) of phone accounts that are one number written two
    /// ways, as older versions let in. Reported, never merged: which one to keep (its label, its
    /// acknowledged breaches) is the user's choice.
    public func samePhoneNumbers(phones: PhoneNumbering) -> [[Int]] {
        guard accounts.contains(where: { $0.kind == .phone }) else { return [] }
        let kinds = Dictionary(accounts.map { ($0.id, $0.kind) }) { first, _ in first }
        var groups: [AccountKey: [Int]] = [:]
        var order: [AccountKey] = []
        for (id, key) in accountKeys(phones: phones) where kinds[id] == .phone {
            if groups[key] == nil { order.append(key) }
            groups[key, default: []].append(id)
        }
        return order.compactMap { groups[$0].flatMap { $0.count > 1 ? $0.sorted() : nil } }
    }
}
