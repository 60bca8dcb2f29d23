/// Which contacts and addresses a person chose from the numbered list that `import --pick` shows.
///
/// The answer is read as entries separated by spaces or commas, case-insensitively:
/// `3` (every address of contact 3), `3-5` (contacts 3 to 5), `2b` (the second address of contact 2;
/// letters `a` to `z`), `all`, `none`. An empty answer picks nothing. Numbers count from 1.
public struct ContactPickSelection: Equatable, Sendable {
    /// One address: indexes from 0 into the contacts and their addresses.
    public struct Choice: Hashable, Sendable {
        public let contact: Int
        public let address: Int

        public init(contact: Int, address: Int) { self.contact = contact; self.address = address }
    }

    public let choices: Set<Choice>

    public init(choices: Set<Choice>) { self.choices = choices }

    public func contains(contact: Int, address: Int) -> Bool { choices.contains(Choice(contact: contact, address: address)) }

    /// The letter that names address `index` (from 0) of a contact: "a", "b", … "z"; nil beyond.
    public static func letter(_ index: Int) -> String? {
        guard (0..<26).contains(index) else { return nil }
        return String(UnicodeScalar(UInt8(0x61 + index)))
    }

    /// Reads an answer for a list whose contact n (from 0) has `addressCounts[n]` addresses.
    /// Throws `ContactPickError`.
    public static func parse(_ answer: String, addressCounts: [Int]) throws -> ContactPickSelection {
        var chosen = Set<Choice>()
        func addContact(_ number: Int) throws {
            guard number >= 1, number <= addressCounts.count else {
                throw ContactPickError.noSuchContact(number: number, count: addressCounts.count)
            }
            for a in 0..<addressCounts[number - 1] { chosen.insert(Choice(contact: number - 1, address: a)) }
        }
        let entries = answer.lowercased().split(whereSeparator: { $0.isWhitespace || $0 == "," })
        for (position, entry) in entries.enumerated() {
            if entry == "all" || entry == "*" {
                for n in addressCounts.indices { try addContact(n + 1) }
                continue
            }
            if entry == "none" { continue }
            let digits = entry.prefix(while: { $0.isASCII && $0.isNumber })
            let rest = entry.dropFirst(digits.count)
            guard !digits.isEmpty, let number = Int(digits) else { throw ContactPickError.notUnderstood(entry: position + 1) }
            if rest.isEmpty {
                try addContact(number)
            } else if rest.first == "-" {
                let end = rest.dropFirst()
                guard !end.isEmpty, end.allSatisfy({ $0.isASCII && $0.isNumber }), let last = Int(end) else {
                    throw ContactPickError.notUnderstood(entry: position + 1)
                }
                guard number <= last else { throw ContactPickError.backwardRange(from: number, to: last) }
                for n in number...last { try addContact(n) }
            } else {
                guard rest.count == 1, let letter = rest.first, letter >= "a", letter <= "z",
                      let index = letter.asciiValue.map({ Int($0) - 0x61 }) else {
                    throw ContactPickError.notUnderstood(entry: position + 1)
                }
                guard number >= 1, number <= addressCounts.count else {
                    throw ContactPickError.noSuchContact(number: number, count: addressCounts.count)
                }
                guard index < addressCounts[number - 1] else {
                    throw ContactPickError.noSuchAddress(contact: number, letter: String(letter))
                }
                chosen.insert(Choice(contact: number - 1, address: index))
            }
        }
        return ContactPickSelection(choices: chosen)
    }
}
