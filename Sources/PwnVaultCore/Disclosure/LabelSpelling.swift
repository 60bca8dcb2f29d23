@_spi(_Unicode) import Swift
import FoundationEssentials

/// What a label says once how it is written is set aside (issue 30): its letters and digits only, in
/// order, lower-cased, every disguise read as the letter or digit it stands for. `LabelScreen` looks
/// for the vault's accounts in it, and in it read backwards, so that no separator (en dash, middle
/// dot, `|`, a space inside a name), no style of digit (superscript, circled, keycap, any script's) and
/// no style of letter (accented, small capital, circled, parenthesised) hides one.
///
/// The reading, one character at a time, after Unicode's canonical decomposition (the standard
/// library's NFD; the compatibility forms that can spell a letter or a digit are read from Unicode's
/// numeric values and names below, which the standard library carries, so `list` reads an old label
/// exactly as `add` read a new one, without loading ICU):
/// - combining marks are dropped (accents, a line under each digit, the keycap's enclosing square);
/// - a character with a whole numeric value reads as that number's digits (`⁷`, `₇`, `⑦`, `➐`, `٧`,
///   `७`, `⑫` → `12`); one without (`½`) is dropped, as every character that is neither letter nor digit;
/// - a letter whose Unicode name makes it a Latin letter in another style (`LATIN LETTER SMALL CAPITAL R`,
///   `CIRCLED LATIN SMALL LETTER Z`, `PARENTHESIZED LATIN SMALL LETTER Z`, `MATHEMATICAL BOLD SMALL A`,
///   `MODIFIER LETTER CAPITAL A`, `LATIN SMALL LETTER O WITH STROKE`, `SCRIPT SMALL L`, `LATIN SMALL
///   LIGATURE FI`) reads as that letter or those letters; the names are Unicode's own data, so no table
///   of look-alikes is kept here. ICU's UTS #39 skeleton, when loaded (`add`, `import`, `ui`), then
///   reads the rest (Cyrillic `а` for `a`) in `LabelScreen`.
struct LabelSpelling: Equatable {
    /// The label's letters and digits, lower-cased, disguises read.
    let letters: [Unicode.Scalar]

    init(_ text: String) {
        letters = Self.read(text)
    }

    init(letters: [Unicode.Scalar]) { self.letters = letters }

    /// `letters` backwards.
    var reversed: [Unicode.Scalar] { letters.reversed() }

    /// `letters` as a string (for ICU's skeleton).
    var string: String { String(String.UnicodeScalarView(letters)) }

    /// The runs of digits of `letters`, with `o` read as `0` and `l` or `i` as `1` where they stand
    /// between digits (`77OO 9OO 123`), each as its ASCII digits' values.
    static func digitRuns(_ letters: [Unicode.Scalar]) -> [[UInt8]] {
        var runs: [[UInt8]] = [], current: [UInt8] = []
        var i = 0
        func digit(_ s: Unicode.Scalar) -> UInt8? { s.value >= 0x30 && s.value <= 0x39 ? UInt8(s.value - 0x30) : nil }
        func lookalike(_ s: Unicode.Scalar) -> UInt8? {
            switch s { case "o": return 0; case "l", "i": return 1; default: return nil }
        }
        while i < letters.count {
            if let d = digit(letters[i]) { current.append(d); i += 1; continue }
            // Letters that look like digits count only between two digits.
            if !current.isEmpty, lookalike(letters[i]) != nil {
                var j = i
                while j < letters.count, lookalike(letters[j]) != nil { j += 1 }
                if j < letters.count, digit(letters[j]) != nil {
                    current += letters[i..<j].map { lookalike($0)! }
                    i = j
                    continue
                }
            }
            if !current.isEmpty { runs.append(current); current = [] }
            i += 1
        }
        if !current.isEmpty { runs.append(current) }
        return runs
    }

    // MARK: reading

    /// The reading described above.
    static func read(_ text: String) -> [Unicode.Scalar] {
        var out: [Unicode.Scalar] = []
        out.reserveCapacity(text.utf8.count)
        // Most labels are ASCII: no decomposition, no table.
        if text.utf8.allSatisfy({ $0 < 0x80 }) {
            for b in text.utf8 {
                switch b {
                case 0x30...0x39, 0x61...0x7A: out.append(Unicode.Scalar(b))
                case 0x41...0x5A: out.append(Unicode.Scalar(b + 0x20))
                default: continue
                }
            }
            return out
        }
        for s in text._nfd { append(s, to: &out) }
        return out
    }

    private static func append(_ s: Unicode.Scalar, to out: inout [Unicode.Scalar]) {
        let v = s.value
        if v < 0x80 {
            switch v {
            case 0x30...0x39, 0x61...0x7A: out.append(s)
            case 0x41...0x5A: out.append(Unicode.Scalar(UInt8(v + 0x20)))
            default: break
            }
            return
        }
        switch Self.reading(of: s) {
        case .none: return
        case let .one(r): out.append(r)
        case let .many(rs): out += rs
        }
    }

    /// What one non-ASCII character reads as.
    enum Reading: Sendable { case none, one(Unicode.Scalar), many([Unicode.Scalar]) }

    /// Readings already worked out: a name is looked up once per character, not once per label.
    private static let cache = ReadingCache()

    static func reading(of s: Unicode.Scalar) -> Reading {
        if let known = cache.value(for: s) { return known }
        let r = work(s)
        cache.store(r, for: s)
        return r
    }

    private static func work(_ s: Unicode.Scalar) -> Reading {
        let p = s.properties
        switch p.generalCategory {
        case .nonspacingMark, .spacingMark, .enclosingMark, .format, .control, .surrogate, .privateUse, .unassigned:
            return .none
        default: break
        }
        if p.numericType != nil, let value = p.numericValue {
            // `½`, `⅓`: no digit in it; `⑫`, `Ⅻ`, `二`: the number's digits.
            guard value >= 0, value < 1e15, value == value.rounded(.towardZero) else { return .none }
            let digits = String(Int(value)).unicodeScalars.map { $0 }
            return digits.count == 1 ? .one(digits[0]) : .many(digits)
        }
        if let latin = latinLetter(named: p.name) { return .one(latin) }
        if let ligature = latinLigature(named: p.name) { return .many(ligature) }
        guard p.isAlphabetic else { return .none }
        let lower = Array(p.lowercaseMapping.unicodeScalars)
        // A lower-case mapping may decompose (`İ` → `i̇`): its marks go too.
        let kept = lower.filter { m in
            switch m.properties.generalCategory {
            case .nonspacingMark, .spacingMark, .enclosingMark: return false
            default: return true
            }
        }
        if kept.count == 1 { return .one(kept[0]) }
        return kept.isEmpty ? .none : .many(kept)
    }

    /// `a` for a Latin letter in another style, from its Unicode name: `LATIN LETTER SMALL CAPITAL A`,
    /// `CIRCLED LATIN SMALL LETTER A`, `NEGATIVE SQUARED LATIN CAPITAL LETTER A`, `MATHEMATICAL BOLD
    /// SMALL A`, `MODIFIER LETTER SMALL A`, `REGIONAL INDICATOR SYMBOL LETTER A`, `LATIN SMALL LETTER O
    /// WITH STROKE`, `LATIN SMALL LETTER DOTLESS I`. Nil for every other name.
    static func latinLetter(named name: String?) -> Unicode.Scalar? {
        guard let name else { return nil }
        let words = name.split(separator: " ")
        guard words.contains(where: { Self.latinStyles.contains($0) }) else { return nil }
        for (i, word) in words.enumerated() where i > 0 {
            guard word.utf8.count == 1, let b = word.utf8.first, b >= 0x41, b <= 0x5A else { continue }
            switch words[i - 1] {
            case "LETTER", "SMALL", "CAPITAL", "DOTLESS": break
            default: continue
            }
            // The letter ends the name or is followed by what is added to it (`WITH STROKE`).
            guard i == words.count - 1 || words[i + 1] == "WITH" else { continue }
            return Unicode.Scalar(b + 0x20)
        }
        return nil
    }
}

extension LabelSpelling {
    /// Words of a Unicode name that make a letter named after a Latin one a style of it.
    static let latinStyles: Set<Substring> = ["LATIN", "MATHEMATICAL", "MODIFIER", "REGIONAL", "SCRIPT", "BLACK-LETTER", "DOUBLE-STRUCK"]

    /// `fi` for `LATIN SMALL LIGATURE FI`, `ij` for `LATIN SMALL LIGATURE IJ`.
    static func latinLigature(named name: String?) -> [Unicode.Scalar]? {
        guard let name, name.hasPrefix("LATIN "), let last = name.split(separator: " ").last,
              name.split(separator: " ").dropLast().last == "LIGATURE",
              last.utf8.count <= 3, last.utf8.allSatisfy({ $0 >= 0x41 && $0 <= 0x5A }) else { return nil }
        return last.utf8.map { Unicode.Scalar($0 + 0x20) }
    }
}

/// A small cache of character readings shared by every label of a run (an import reads thousands).
private final class ReadingCache: Sendable {
    // The readings are kept as plain arrays, not as `Reading`s: an enum with an array payload keeps its
    // pointer with tag bits set, which LeakSanitizer cannot follow, so a cache that lives as long as the
    // process was reported as leaked by the fuzz targets' replay (scripts/fuzz.sh --replay, in CI).
    private let table = Locked<[UInt32: [Unicode.Scalar]]>([:])

    func value(for s: Unicode.Scalar) -> LabelSpelling.Reading? {
        table.withLock { $0[s.value] }.map { $0.isEmpty ? .none : $0.count == 1 ? .one($0[0]) : .many($0) }
    }

    func store(_ r: LabelSpelling.Reading, for s: Unicode.Scalar) {
        let scalars: [Unicode.Scalar]
        switch r {
        case .none: scalars = []
        case let .one(x): scalars = [x]
        case let .many(xs): scalars = xs
        }
        table.withLock { if $0.count < 65_536 { $0[s.value] = scalars } }
    }
}

/// The vault's accounts (and those being added) as a label could spell them, looked up by what a
/// `LabelSpelling` holds; made once for a whole import, so that screening a label costs the same in
/// a vault of ten accounts as in one of ten thousand.
///
/// A label spells an account when what it says, or what it says read backwards, holds:
/// - six or more digits in a row of a phone number (any six of its digits, country code included);
/// - a username of five letters or digits or more (`zorglub-victim` for `zorglubvictim`);
/// - the part of an address before `@` (five letters or digits or more) and, elsewhere in it, the first
///   label of its domain (`alice.smith victim-domain` for `alice.smith@victim-domain.example`).
/// With ICU's spoof checker, the skeletons of both sides are compared too.
///
/// Like `CarriedAccounts`, the needles are hashed for a vault (`.indexed`) and tried one by one for a
/// contact's own few addresses (`.direct`), with the same answer (`LabelScreenLookupTests`).
struct SpelledAccounts {
    enum Owner: Equatable { case vault(id: Int), adding }
    typealias Lookup = CarriedAccounts.Lookup

    let lookup: Lookup
    /// Six digits in a row (as one number, the digits' count being fixed) → whose number holds them,
    /// and that number's digits.
    private var phoneWindows: [Int: (owner: Owner, digits: [UInt8])] = [:]
    /// Usernames and local parts, by their first `prefix` characters.
    private var plain: [Int: [Needle]] = [:]
    private var skeletons: [Int: [Needle]] = [:]
    /// `.direct`: the phone numbers, usernames and local parts, and their skeletons, in order.
    private var phones: [(owner: Owner, digits: [UInt8])] = []
    private var plainNeedles: [Needle] = []
    private var skeletonNeedles: [Needle] = []
    private let checker: ICUSpoofChecker?
    /// The same accounts for `LabelScreen`'s rules on the label's folded forms.
    let carried: CarriedAccounts

    static let prefix = 5
    static let phoneRun = 6

    private struct Needle {
        let owner: Owner
        let text: [Unicode.Scalar]
        /// For a local part: its domain's first label, which must be spelled elsewhere too.
        let alongside: [Unicode.Scalar]?
    }

    var isEmpty: Bool { phoneWindows.isEmpty && plain.isEmpty && phones.isEmpty && plainNeedles.isEmpty }

    init(accounts: [Account], adding: [ParsedAccount], checker: ICUSpoofChecker?, lookup: Lookup? = nil) {
        self.checker = checker
        carried = CarriedAccounts(accounts: accounts, adding: adding, checker: checker, lookup: lookup)
        self.lookup = carried.lookup
        for a in accounts { add(a.normalized, kind: a.kind, owner: .vault(id: a.id)) }
        for p in adding { add(p.normalized, kind: p.kind, owner: .adding) }
    }

    private mutating func add(_ normalized: String, kind: AccountKind, owner: Owner) {
        switch kind {
        case .phone:
            let digits = normalized.utf8.filter { $0 >= 0x30 && $0 <= 0x39 }.map { $0 - 0x30 }
            guard digits.count >= Self.phoneRun else { return }
            if lookup == .direct { phones.append((owner, digits)); return }
            for i in 0...(digits.count - Self.phoneRun) {
                let key = Self.number(digits[i..<(i + Self.phoneRun)])
                if phoneWindows[key] == nil { phoneWindows[key] = (owner, digits) }
            }
        case .username:
            insert(LabelSpelling.read(normalized), alongside: nil, owner: owner)
        case .email:
            guard let at = normalized.lastIndex(ofASCII: "@") else { return }
            let local = LabelSpelling.read(String(normalized[..<at]))
            let firstLabel = LabelSpelling.read(String(normalized[normalized.index(after: at)...].prefix { $0 != "." }))
            guard !firstLabel.isEmpty else { return }
            insert(local, alongside: firstLabel, owner: owner)
        }
    }

    private mutating func insert(_ text: [Unicode.Scalar], alongside: [Unicode.Scalar]?, owner: Owner) {
        guard text.count >= Self.prefix else { return }
        let needle = Needle(owner: owner, text: text, alongside: alongside)
        if lookup == .direct { plainNeedles.append(needle) } else { plain[Self.key(text[0..<Self.prefix]), default: []].append(needle) }
        guard let checker else { return }
        let sk = skeleton(text, checker)
        guard sk.count >= Self.prefix else { return }
        let skeletonNeedle = Needle(owner: owner, text: sk, alongside: alongside.map { skeleton($0, checker) })
        if lookup == .direct { skeletonNeedles.append(skeletonNeedle) } else { skeletons[Self.key(sk[0..<Self.prefix]), default: []].append(skeletonNeedle) }
    }

    private func skeleton(_ text: [Unicode.Scalar], _ checker: ICUSpoofChecker) -> [Unicode.Scalar] {
        let s = String(String.UnicodeScalarView(text))
        guard let sk = checker.skeleton(s) else { return text }
        return LabelSpelling.read(sk)
    }

    /// The first account `spelling` spells, and whether it spells only part of it.
    func spelled(in spelling: LabelSpelling) -> (owner: Owner, part: Bool)? {
        let forms = [spelling.letters, spelling.reversed]
        for form in forms {
            if let found = phone(in: form) { return found }
        }
        for form in forms {
            if let found = lookup == .direct ? find(in: form, plainNeedles) : find(in: form, plain) { return found }
        }
        guard let checker, !skeletons.isEmpty || !skeletonNeedles.isEmpty else { return nil }
        for form in forms {
            let sk = skeleton(form, checker)
            if let found = lookup == .direct ? find(in: sk, skeletonNeedles) : find(in: sk, skeletons) { return found }
        }
        return nil
    }

    private func phone(in form: [Unicode.Scalar]) -> (owner: Owner, part: Bool)? {
        guard !phoneWindows.isEmpty || !phones.isEmpty else { return nil }
        for run in LabelSpelling.digitRuns(form) where run.count >= Self.phoneRun {
            for i in 0...(run.count - Self.phoneRun) {
                let window = run[i..<(i + Self.phoneRun)]
                if lookup == .direct {
                    // The first number in order holding these six digits, as the index keeps it.
                    guard let hit = phones.first(where: { Self.contains($0.digits, Array(window)) }) else { continue }
                    return (hit.owner, !Self.contains(run, hit.digits))
                }
                guard let hit = phoneWindows[Self.number(window)] else { continue }
                return (hit.owner, !Self.contains(run, hit.digits))
            }
        }
        return nil
    }

    /// `find(in:_:)` with the needles tried one by one, in order, at each place of `form`: the needles
    /// the index would give for that place are those among them that match there, in the same order.
    private func find(in form: [Unicode.Scalar], _ needles: [Needle]) -> (owner: Owner, part: Bool)? {
        guard form.count >= Self.prefix, !needles.isEmpty else { return nil }
        for i in 0...(form.count - Self.prefix) {
            for n in needles where i + n.text.count <= form.count && form[i] == n.text[0] && form[i..<(i + n.text.count)].elementsEqual(n.text) {
                guard let label = n.alongside else { return (n.owner, false) }
                if Self.contains(form[0..<i], label) || Self.contains(form[(i + n.text.count)...], label) { return (n.owner, true) }
            }
        }
        return nil
    }

    private func find(in form: [Unicode.Scalar], _ index: [Int: [Needle]]) -> (owner: Owner, part: Bool)? {
        guard form.count >= Self.prefix, !index.isEmpty else { return nil }
        for i in 0...(form.count - Self.prefix) {
            guard let needles = index[Self.key(form[i..<(i + Self.prefix)])] else { continue }
            for n in needles where i + n.text.count <= form.count && form[i..<(i + n.text.count)].elementsEqual(n.text) {
                guard let label = n.alongside else { return (n.owner, false) }
                // The domain's first label, before or after the local part, not inside it.
                if Self.contains(form[0..<i], label) || Self.contains(form[(i + n.text.count)...], label) { return (n.owner, true) }
            }
        }
        return nil
    }

    private static func key(_ s: ArraySlice<Unicode.Scalar>) -> Int {
        var k = 0
        for c in s { k = k &* 1_114_111 &+ Int(c.value) }
        return k
    }

    private static func number(_ digits: ArraySlice<UInt8>) -> Int {
        digits.reduce(0) { $0 * 10 + Int($1) }
    }

    static func contains<T: Equatable>(_ hay: some Collection<T>, _ needle: [T]) -> Bool {
        guard !needle.isEmpty else { return false }
        let h = Array(hay)
        guard h.count >= needle.count else { return false }
        for i in 0...(h.count - needle.count) where h[i] == needle[0] && h[i..<(i + needle.count)].elementsEqual(needle) { return true }
        return false
    }
}

extension String {
    /// `lastIndex(of:)` of an ASCII character, on the bytes when the text is ASCII (each byte is then a
    /// character but CR LF, which holds no other), else by `Character`. Every account's `@` is looked
    /// for twice a label at an import (issue 30).
    func lastIndex(ofASCII c: Character) -> Index? {
        if let b = c.asciiValue, c.utf8.count == 1, utf8.allSatisfy({ $0 < 0x80 }) { return utf8.lastIndex(of: b) }
        return lastIndex(of: c)
    }
}
