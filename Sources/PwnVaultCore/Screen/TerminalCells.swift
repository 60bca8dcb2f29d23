/// How many terminal cells text takes, and how to fit it into a number of cells: the one place that
/// counts them (tables, help, wrapped descriptions). Counted per grapheme cluster, as terminals draw:
/// East Asian wide and fullwidth characters and emoji take two cells, combining marks and other
/// zero-width characters none, everything else one. The table follows glibc's `wcwidth` for these
/// ranges (Unicode 15 East Asian Width), without depending on the process locale, which is often "C"
/// where `wcwidth` answers -1 for every non-ASCII character.
public enum TerminalCells {
    /// The cells one character (grapheme cluster) takes.
    public static func width(_ c: Character) -> Int {
        let scalars = c.unicodeScalars
        guard let first = scalars.first else { return 0 }
        if first.value < 0x7F { return first.value < 0x20 ? 0 : 1 }
        if first.properties.isEmojiPresentation { return 2 }
        if scalars.contains("\u{FE0F}"), first.properties.isEmoji { return 2 }   // text-default emoji made colourful
        if isWide(first.value) { return 2 }
        switch first.properties.generalCategory {
        case .nonspacingMark, .enclosingMark, .format, .control, .lineSeparator, .paragraphSeparator: return 0
        default: return 1
        }
    }

    /// The cells a string takes on one line (the generic form says how). This overload is chosen
    /// for `String`: callers in other modules reach the generic one unspecialised, at a few hundred
    /// instructions a call even for a short ASCII id (a table of 10,000 rows measures 50,000 cells).
    public static func width(_ s: String) -> Int {
        if let cells = s.utf8.withContiguousStorageIfAvailable(Self.printableASCIICount), let cells { return cells }
        return width(Substring(s))
    }

    /// The cells a string takes on one line. pwnvault's own color sequences (`ESC [ … m`) take none;
    /// escape sequences from data never get this far (`Sanitizer`).
    public static func width<S: StringProtocol>(_ s: S) -> Int {
        // Printable ASCII, the common case (ids, dates, counts): one cell per byte. Read from the
        // contiguous UTF-8 in one call: this function is not specialised for callers in other
        // modules, and `allSatisfy` through the generic view cost a witness call per byte (a third
        // of `list`'s time on 10,000 accounts).
        if let cells = s.utf8.withContiguousStorageIfAvailable(Self.printableASCIICount), let cells { return cells }
        if s.utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) { return s.utf8.count }
        var total = 0, inEscape = false
        for c in s {
            if inEscape { if c.isLetter { inEscape = false }; continue }
            if c == "\u{1B}" { inEscape = true; continue }
            total += width(c)
        }
        return total
    }

    /// The length of `bytes` when all are printable ASCII, else nil.
    private static func printableASCIICount(_ bytes: UnsafeBufferPointer<UInt8>) -> Int? {
        var outside: UInt8 = 0
        for b in bytes { outside |= (b &- 0x20) & 0x80 | (b &+ 1) & 0x80 }   // below 0x20 wraps; 0x7F and above set bit 7
        return outside == 0 ? bytes.count : nil
    }

    /// `s` cut to at most `cells` cells, ending in `…` when anything was cut.
    public static func truncate(_ s: String, to cells: Int) -> String {
        guard width(s) > cells else { return s }
        guard cells > 0 else { return "" }
        var out = "", used = 0
        for c in s {
            let w = width(c)
            if used + w > cells - 1 { break }
            out.append(c); used += w
        }
        return out + "…"
    }

    /// `s` followed by spaces up to `cells` cells.
    public static func pad(_ s: String, to cells: Int) -> String {
        s + String(repeating: " ", count: max(0, cells - width(s)))
    }

    /// Word-wraps one paragraph into lines of at most `cells` cells (`rest` cells after the first),
    /// breaking at spaces and, in CJK text, between ideographs (`pieces`): a word longer than a line (a
    /// link) gets a line of its own, uncut, so it can still be copied. A command to copy is one word
    /// (`commandUnits`): a quoted `'pwnvault ack 3'` or an unquoted `pwnvault ack '#3'` moves to the next
    /// line whole rather than break. `cells <= 0`: one line, unwrapped. U+00A0 never breaks and becomes
    /// a plain space.
    public static func wrap(_ text: String, to cells: Int, then rest: Int? = nil) -> [String] {
        guard cells > 0 else { return [text.replacingLiterally("\u{00A0}", with: " ")] }
        var lines: [String] = [], current = "", used = 0, limit = cells
        for unit in commandUnits(text) {
            let w = width(unit.text)
            if current.isEmpty {
                current = unit.text; used = w
            } else if used + (unit.spaced ? 1 : 0) + w <= limit {
                current += (unit.spaced ? " " : "") + unit.text; used += (unit.spaced ? 1 : 0) + w
            } else {
                lines.append(current)
                limit = max(1, rest ?? cells)
                current = unit.text; used = w
            }
        }
        lines.append(current)
        return lines.map { $0.replacingLiterally("\u{00A0}", with: " ") }
    }

    /// The pieces a line may break between (`pieces` of each space-separated word; `spaced`: a space
    /// comes before it), with every command to copy joined into one piece by U+00A0: a span in ASCII
    /// quotes (`'set -g focus-events on'`), and `pwnvault` followed by what a command line holds (a
    /// command word, options, `'#3'`, names with `.`, `@` or `/`, `NAME`, `> FILE`) up to the first
    /// word of prose.
    public static func commandUnits(_ text: String) -> [(text: String, spaced: Bool)] {
        var units: [(text: String, spaced: Bool)] = []
        for word in text.split(separator: " ", omittingEmptySubsequences: true) {
            for (k, piece) in pieces(word).enumerated() { units.append((String(piece), k == 0)) }
        }
        var out: [(text: String, spaced: Bool)] = []
        var i = 0
        func joined(_ range: ClosedRange<Int>) -> (text: String, spaced: Bool) {
            var text = units[range.lowerBound].text
            for k in range.dropFirst() { text += (units[k].spaced ? "\u{00A0}" : "") + units[k].text }
            return (text, units[range.lowerBound].spaced)
        }
        while i < units.count {
            // A quoted span: from a piece with an odd number of quote marks to the next such piece.
            if quoteMarks(units[i].text) % 2 == 1, opensASCII(units[i].text),
               let close = units.indices.dropFirst(i + 1).prefix(16).first(where: { quoteMarks(units[$0].text) % 2 == 1 }) {
                out.append(joined(i...close)); i = close + 1; continue
            }
            if endsInPwnvault(units[i].text) {
                var start = i
                // An assignment before it belongs to the command: `TERM=xterm-256color pwnvault ui`.
                if units[i].text == "pwnvault", units[i].spaced, let last = out.last, last.text.contains("="),
                   last.text.allSatisfy({ $0.isASCII && !$0.isWhitespace }), i > 0 {
                    out.removeLast(); start = i - 1
                }
                let end = commandEnd(after: i, in: units)
                out.append(joined(start...end)); i = end + 1; continue
            }
            out.append(units[i]); i += 1
        }
        return out
    }

    /// The words a command line of pwnvault is made of, besides options, quotes and names.
    public static let commandWords: Set<String> = [
        "ack", "add", "api-key", "bash", "breach", "breaches", "check", "completions", "config", "disable", "doctor",
        "domain", "enable", "fish", "help", "import", "init", "list", "notify", "passwd", "password", "remove",
        "reveal", "schedule", "show", "status", "ui", "watch", "zsh", "environment", "keyrings",
    ]

    private static func endsInPwnvault(_ s: String) -> Bool {
        guard s.hasSuffix("pwnvault") else { return false }
        let before = s.dropLast(8).last
        return before == nil || !(before!.isASCII && (before!.isLetter || before!.isNumber))
    }

    /// The last unit of a command that starts at or before `i` (a pwnvault word or a closing quote).
    private static func commandEnd(after i: Int, in units: [(text: String, spaced: Bool)]) -> Int {
        var end = i
        var k = i + 1
        var openQuote = false
        while k < units.count, units[k].spaced || openQuote {
            let word = units[k].text
            let marks = quoteMarks(word)
            if openQuote { end = k; if marks % 2 == 1 { openQuote = false }; k += 1; continue }
            var bare = Substring(word)
            while let last = bare.last, ",;.:)），。；：".contains(last) { bare = bare.dropLast() }
            // An option's value (`--label Me`) belongs to it, whatever it looks like.
            let value = k > i + 1 && units[k - 1].text.hasPrefix("-") && !units[k - 1].text.contains("=")
                && bare.first != "(" && bare.allSatisfy { $0.isASCII }
            guard value || isCommandToken(bare, first: k == i + 1) else { break }
            end = k
            if marks % 2 == 1 { openQuote = true }
            if bare.count < word.count { break }   // `…contacts.vcf)`: the command ends with the clause
            k += 1
        }
        return openQuote ? i : end
    }

    private static func isCommandToken(_ w: Substring, first: Bool) -> Bool {
        guard let c = w.first, w.allSatisfy({ $0.isASCII }) else { return false }
        if "-'#><|\"".contains(c) { return true }
        if commandWords.contains(String(w)) { return true }
        if first { return false }
        if w.contains(where: { "./@=#~".contains($0) }) { return true }
        if w.count >= 2, w.allSatisfy({ $0.isUppercase || $0 == "_" }) { return true }
        return w.allSatisfy { $0.isNumber }
    }

    /// Whether what a piece's first quote mark opens starts in ASCII (`'pwnvault`, `'#3`, not `'已泄露'`):
    /// a command, not a quoted word of CJK text, which may still break between its characters.
    private static func opensASCII(_ s: String) -> Bool {
        guard let q = s.firstIndex(of: "'") else { return false }
        let next = s.index(after: q)
        return next < s.endIndex && s[next].isASCII
    }

    /// ASCII quote marks in a piece: `'`, not an apostrophe between two letters (`keyring's`).
    private static func quoteMarks(_ s: String) -> Int {
        let chars = Array(s)
        var n = 0
        for (k, c) in chars.enumerated() where c == "'" {
            let letterBefore = k > 0 && chars[k - 1].isASCII && chars[k - 1].isLetter
            let letterAfter = k + 1 < chars.count && chars[k + 1].isASCII && chars[k + 1].isLetter
            if !(letterBefore && letterAfter) { n += 1 }
        }
        return n
    }

    /// A word cut where a line may break inside it. CJK text has no spaces, so a line may break between
    /// two characters when either is East Asian wide (ideographs, kana, fullwidth forms; not Hangul), but
    /// never before a closing mark or after an opening one (，。）” stay with what they close, （“ with
    /// what they open). Any other word is one piece.
    public static func pieces(_ word: Substring) -> [Substring] {
        guard !word.utf8.allSatisfy({ $0 < 0x80 }) else { return [word] }
        var pieces: [Substring] = []
        var start = word.startIndex, previous: Character?
        for i in word.indices {
            let c = word[i]
            if let p = previous, mayBreak(between: p, and: c) {
                pieces.append(word[start..<i]); start = i
            }
            previous = c
        }
        pieces.append(word[start...])
        return pieces
    }

    /// Whether a line may break between `a` and `b` (adjacent, no space between): see `pieces`.
    public static func mayBreak(between a: Character, and b: Character) -> Bool {
        guard breaksAround(a) || breaksAround(b) else { return false }
        // An ASCII quote after a full-width mark that ends a phrase (、'待确认') opens what follows.
        if b == "'" || b == "\"" { return "，。、：；？！".contains(a) }
        return !closingMarks.contains(b) && !openingMarks.contains(a)
    }

    /// Wide characters of scripts written without spaces; not Hangul, which Korean spaces like English.
    private static func breaksAround(_ c: Character) -> Bool {
        guard width(c) == 2, let v = c.unicodeScalars.first?.value else { return false }
        switch v {
        case 0x1100...0x11FF, 0x3130...0x318F, 0xA960...0xA97F, 0xAC00...0xD7FF: return false
        default: return true
        }
    }

    /// Marks that never begin a line (they close or end what is before them), and marks that never end
    /// one. ASCII quotes are both: whether `'` opens or closes cannot be told, and a line never starts
    /// or ends with one cut from the word it quotes.
    static let closingMarks: Set<Character> = Set("，。、：；？！）」』】》〉”’…‥・～％,.;:!?)]}%'\"")
    static let openingMarks: Set<Character> = Set("（「『【《〈“‘([{'\"")

    /// `first` then the wrapped `text`, continuation lines indented to where `text` starts (a hanging
    /// indent): `exposed:  Email addresses, Names,` / `          Passwords`. When `first` leaves less
    /// than a third of the width, the text starts on the next line, indented by `fallbackIndent`.
    public static func hanging(_ first: String, _ text: String, width cells: Int?, fallbackIndent: Int = 6) -> [String] {
        guard let cells else { return [first + text] }
        let indent = width(first)
        if cells - indent >= max(12, cells / 3) {
            let wrapped = wrap(text, to: cells - indent)
            // A first word too wide to follow `first` (a long path, a command) starts on the next row.
            if width(wrapped[0]) > cells - indent, !first.trailingSpacesTrimmed.isEmpty {
                return [first.trailingSpacesTrimmed] + wrapped.map { indented($0, by: indent, within: cells) }
            }
            return [first + wrapped[0]] + wrapped.dropFirst().map { indented($0, by: indent, within: cells) }
        }
        return [first.trailingSpacesTrimmed] + wrap(text, to: cells - fallbackIndent).map { indented($0, by: fallbackIndent, within: cells) }
    }

    /// A continuation line indented by `indent`, or by less when it holds a command too long for the
    /// indented width: the command then still fits the window on one row.
    public static func indented(_ line: String, by indent: Int, within cells: Int) -> String {
        String(repeating: " ", count: max(0, min(indent, cells - width(line)))) + line
    }

    /// Wide and fullwidth ranges (East Asian Width W and F) that `isEmojiPresentation` does not cover.
    static func isWide(_ v: UInt32) -> Bool {
        switch v {
        case 0x1100...0x115F, 0x2329...0x232A, 0x2E80...0x303E, 0x3041...0x33FF, 0x3400...0x4DBF, 0x4E00...0x9FFF,
             0xA000...0xA4CF, 0xA960...0xA97F, 0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE10...0xFE19, 0xFE30...0xFE6F,
             0xFF00...0xFF60, 0xFFE0...0xFFE6, 0x16FE0...0x16FE4, 0x17000...0x18CFF, 0x1B000...0x1B2FF,
             0x1F200...0x1F2FF, 0x20000...0x2FFFD, 0x30000...0x3FFFD:
            return true
        default:
            return false
        }
    }
}

extension String {
    /// The string without the spaces at its end (table rows, the first line of a hanging indent).
    public var trailingSpacesTrimmed: String {
        var s = self
        while s.last == " " { s.removeLast() }
        return s
    }
}
