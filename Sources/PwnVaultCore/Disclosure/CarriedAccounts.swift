import FoundationEssentials

/// The vault's accounts (and those being added) as `LabelScreen`'s per-account rules look for them in
/// a label's folded forms, made once and looked up, so that screening a label costs the same against
/// ten thousand accounts as against one. (The rules used to be tried account by account for every
/// label, folding each account again: importing 10,000 named contacts into a vault of 10,000 accounts
/// did not finish in 500 s, issue 30.)
///
/// A form carries an account when it holds, byte for byte (both sides folded alike by `FoldedLabel`):
/// - a phone number: six of its digits in a row, in a run of the form's digits; the whole number when
///   the first run that holds six of them holds all its digits;
/// - a username of three characters or more (or, with ICU's spoof checker, its skeleton in a form's);
/// - an address: whole (three characters or more), or a part of it: the part before `@` with the `@`,
///   the domain (with a dot, four characters or more), the address without its domain's last label.
/// An account is carried whole when its whole needle is held, in part when only a part is. The first
/// account carried, in the vault's order and then the added ones', is the one reported.
///
/// Two ways to look, one answer (`LabelScreenLookupTests` compares them): the needles `.indexed` (hashed,
/// for a vault: made once, asked thousands of times), or tried one by one, `.direct` (a contact's one or
/// two addresses, made for one label: hashing them cost more than the search, issue 30), where a needle's
/// ICU skeleton is asked for only when one of the label's forms has a skeleton of its own.
struct CarriedAccounts {
    typealias Owner = SpelledAccounts.Owner

    /// How the needles are looked for; `.direct` up to `directLimit` accounts unless told.
    enum Lookup { case direct, indexed }
    static let directLimit = 8

    let lookup: Lookup
    /// Every account, in order (a needle's `order` is its index here).
    private var owners: [Owner] = []
    private var plain = NeedleIndex()
    private var skeletons = NeedleIndex()
    /// Needles whose skeleton is empty: held by any skeleton, as an empty needle is by any text.
    private var emptySkeletons: [(order: Int, whole: Bool)] = []
    /// `.direct`: every needle, in order; its skeleton is made when a form has one.
    private var needles: [(text: String, order: Int, whole: Bool)] = []
    /// `.direct`: the phone numbers' orders, in order.
    private var phoneOrders: [Int] = []
    /// Six digits in a row (as one number: a window always has six digits) → the phone numbers holding them.
    private var phoneWindows: [Int: [Int]] = [:]
    /// A phone number's digits (ASCII), by order.
    private var phoneDigits: [Int: [UInt8]] = [:]
    private let checker: ICUSpoofChecker?

    static let phoneRun = 6

    var isEmpty: Bool { owners.isEmpty }

    init(accounts: [Account], adding: [ParsedAccount], checker: ICUSpoofChecker?, lookup: Lookup? = nil) {
        self.checker = checker
        self.lookup = lookup ?? (accounts.count + adding.count <= Self.directLimit ? .direct : .indexed)
        owners.reserveCapacity(accounts.count + adding.count)
        for a in accounts { add(a.normalized, kind: a.kind, owner: .vault(id: a.id)) }
        for p in adding { add(p.normalized, kind: p.kind, owner: .adding) }
    }

    private mutating func add(_ normalized: String, kind: AccountKind, owner: Owner) {
        let order = owners.count
        owners.append(owner)
        let account = FoldedLabel.fold(normalized)
        switch kind {
        case .phone:
            let digits = account.utf8.filter { $0 >= 0x30 && $0 <= 0x39 }
            guard digits.count >= Self.phoneRun else { return }
            phoneDigits[order] = digits
            if lookup == .direct { phoneOrders.append(order); return }
            var seen = Set<Int>()
            for i in 0...(digits.count - Self.phoneRun) {
                let key = Self.number(digits[i..<(i + Self.phoneRun)])
                if seen.insert(key).inserted { phoneWindows[key, default: []].append(order) }
            }
        case .username:
            if account.count >= 3 { needle(account, order: order, whole: true) }
        case .email:
            if account.count >= 3 { needle(account, order: order, whole: true) }
            guard let at = account.lastIndex(ofASCII: "@") else { return }
            let local = String(account[..<at]), domain = String(account[account.index(after: at)...])
            if !local.isEmpty { needle(local + "@", order: order, whole: false) }
            if domain.utf8.contains(0x2E) && domain.count >= 4 { needle(domain, order: order, whole: false) }
            if let dot = domain.lastIndex(ofASCII: "."), dot > domain.startIndex {
                needle(local + "@" + domain[..<dot], order: order, whole: false)
            }
        }
    }

    private mutating func needle(_ text: String, order: Int, whole: Bool) {
        guard !text.isEmpty else { return }
        if lookup == .direct { needles.append((text, order, whole)); return }
        plain.insert(Array(text.utf8), order: order, whole: whole)
        guard let checker, let sk = checker.skeleton(text)?.lowercased() else { return }
        if sk.isEmpty { emptySkeletons.append((order, whole)) } else { skeletons.insert(Array(sk.utf8), order: order, whole: whole) }
    }

    /// The first account the label carries, and whether only a part of it. `forms`: the label's folded
    /// forms; `skeletons`: their ICU skeletons that differ from them; `digitRuns`: the forms' runs of digits.
    func carried(forms: [String], skeletons formSkeletons: [String], digitRuns: [String]) -> (owner: Owner, part: Bool)? {
        guard !owners.isEmpty else { return nil }
        // order → whether it is held whole.
        var hits: [Int: Bool] = [:]
        func note(_ order: Int, _ whole: Bool) { hits[order] = whole || (hits[order] ?? false) }
        if lookup == .direct {
            directSearch(forms: forms, skeletons: formSkeletons, note)
        } else {
            indexedSearch(forms: forms, skeletons: formSkeletons, note)
        }
        if !phoneWindows.isEmpty || !phoneOrders.isEmpty {
            for run in digitRuns where run.utf8.count >= Self.phoneRun {
                let r = Array(run.utf8)
                for i in 0...(r.count - Self.phoneRun) {
                    let window = r[i..<(i + Self.phoneRun)]
                    // A number is judged by the first run holding six of its digits.
                    if lookup == .direct {
                        for o in phoneOrders where hits[o] == nil && SpelledAccounts.contains(phoneDigits[o] ?? [], Array(window)) {
                            hits[o] = SpelledAccounts.contains(r, phoneDigits[o] ?? [])
                        }
                    } else if let orders = phoneWindows[Self.number(window)] {
                        for o in orders where hits[o] == nil { hits[o] = SpelledAccounts.contains(r, phoneDigits[o] ?? []) }
                    }
                }
            }
        }
        guard let first = hits.keys.min(), let whole = hits[first] else { return nil }
        return (owners[first], !whole)
    }

    private func indexedSearch(forms: [String], skeletons formSkeletons: [String], _ note: (Int, Bool) -> Void) {
        for form in forms { plain.search(Array(form.utf8), note) }
        if !formSkeletons.isEmpty {
            for sk in formSkeletons { skeletons.search(Array(sk.utf8), note) }
            for e in emptySkeletons { note(e.order, e.whole) }
        }
    }

    /// The same needles tried one by one; a needle's skeleton is asked for only when a form has a
    /// skeleton that differs from it (without one, `indexedSearch` looks at no skeleton either).
    private func directSearch(forms: [String], skeletons formSkeletons: [String], _ note: (Int, Bool) -> Void) {
        let hays = forms.map { Array($0.utf8) }
        for n in needles {
            let needle = Array(n.text.utf8)
            if hays.contains(where: { Self.holds($0, needle) }) { note(n.order, n.whole) }
        }
        guard !formSkeletons.isEmpty, let checker else { return }
        let skeletonHays = formSkeletons.map { Array($0.utf8) }
        for n in needles {
            guard let sk = checker.skeleton(n.text)?.lowercased() else { continue }
            let needle = Array(sk.utf8)
            if needle.isEmpty || skeletonHays.contains(where: { Self.holds($0, needle) }) { note(n.order, n.whole) }
        }
    }

    /// Whether `hay` holds `needle` (not empty) byte for byte.
    private static func holds(_ hay: [UInt8], _ needle: [UInt8]) -> Bool {
        guard let first = needle.first, needle.count <= hay.count else { return false }
        var i = 0
        let last = hay.count - needle.count
        while i <= last {
            if hay[i] == first {
                var j = 1
                while j < needle.count && hay[i + j] == needle[j] { j += 1 }
                if j == needle.count { return true }
            }
            i += 1
        }
        return false
    }

    private static func number(_ digits: ArraySlice<UInt8>) -> Int {
        digits.reduce(0) { $0 * 10 + Int($1 - 0x30) }
    }
}

/// Byte strings looked up inside a text: every substring of the text whose length some needle has is
/// hashed (FNV-1a, one byte at a time from each start) and looked up; a hit is checked byte for byte.
private struct NeedleIndex {
    private struct Entry {
        let start: Int32, count: Int32, order: Int32
        let whole: Bool
        /// The next entry with the same hash, or -1.
        let next: Int32
    }

    private var bytes: [UInt8] = []
    private var entries: [Entry] = []
    /// Hash → its last entry.
    private var heads: [UInt64: Int32] = [:]
    /// `hasLength[n]`: some needle is `n` bytes long.
    private var hasLength: [Bool] = [false]

    mutating func insert(_ needle: [UInt8], order: Int, whole: Bool) {
        let h = needle.reduce(Self.basis) { Self.step($0, $1) }
        let index = Int32(entries.count)
        entries.append(Entry(start: Int32(bytes.count), count: Int32(needle.count), order: Int32(order), whole: whole, next: heads[h] ?? -1))
        heads[h] = index
        bytes += needle
        if needle.count >= hasLength.count { hasLength += repeatElement(false, count: needle.count - hasLength.count + 1) }
        hasLength[needle.count] = true
    }

    /// Calls `found(order, whole)` for every needle inside `hay`.
    func search(_ hay: [UInt8], _ found: (Int, Bool) -> Void) {
        guard !entries.isEmpty else { return }
        let longest = hasLength.count - 1
        for i in hay.indices {
            var h = Self.basis
            var j = i
            while j < hay.count && j - i < longest {
                h = Self.step(h, hay[j])
                j += 1
                guard hasLength[j - i], var e = heads[h] else { continue }
                while e >= 0 {
                    let entry = entries[Int(e)]
                    if Int(entry.count) == j - i && hay[i..<j].elementsEqual(bytes[Int(entry.start)..<Int(entry.start + entry.count)]) {
                        found(Int(entry.order), entry.whole)
                    }
                    e = entry.next
                }
            }
        }
    }

    private static let basis: UInt64 = 0xcbf2_9ce4_8422_2325
    private static func step(_ h: UInt64, _ b: UInt8) -> UInt64 { (h ^ UInt64(b)) &* 0x100_0000_01b3 }
}
