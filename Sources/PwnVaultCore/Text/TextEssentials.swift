@_spi(_Unicode) import Swift

// The few string operations pwnvault used from Foundation's NSString bridge, written against the
// standard library so that the product loads FoundationEssentials only (no ICU at start; issue 10).
// Each keeps Foundation's semantics where pwnvault relied on them: trimming and replacing work on
// Unicode scalars (as NSString did on UTF-16), not on grapheme clusters.

extension Unicode.Scalar {
    /// Foundation's `CharacterSet.whitespaces`: general category Zs, CHARACTER TABULATION (U+0009) and,
    /// as Foundation has always had it, ZERO WIDTH SPACE (U+200B).
    public var isFoundationWhitespace: Bool {
        value == 0x09 || value == 0x200B || properties.generalCategory == .spaceSeparator
    }

    /// Foundation's `CharacterSet.whitespacesAndNewlines`: general categories Z* (Zs, Zl, Zp),
    /// U+0009–U+000D, U+0085 and ZERO WIDTH SPACE (U+200B).
    public var isFoundationWhitespaceOrNewline: Bool {
        switch value {
        case 0x09...0x0D, 0x85, 0x200B: return true
        default:
            switch properties.generalCategory {
            case .spaceSeparator, .lineSeparator, .paragraphSeparator: return true
            default: return false
            }
        }
    }

    /// Foundation's `CharacterSet.alphanumerics`: general categories L*, M* and N*.
    public var isFoundationAlphanumeric: Bool {
        switch properties.generalCategory {
        case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter,
             .nonspacingMark, .spacingMark, .enclosingMark,
             .decimalNumber, .letterNumber, .otherNumber:
            return true
        default:
            return false
        }
    }

    /// What ICU's regular-expression `\s` matches: the Unicode White_Space property.
    var isRegexWhitespace: Bool { properties.isWhitespace }
}

extension StringProtocol {
    /// `trimmingCharacters(in: .whitespaces)`.
    public func trimmingWhitespace() -> String { trimmingScalars(where: \.isFoundationWhitespace) }

    /// `trimmingCharacters(in: .whitespacesAndNewlines)`.
    public func trimmingWhitespaceAndNewlines() -> String { trimmingScalars(where: \.isFoundationWhitespaceOrNewline) }

    /// Drops the scalars matching `predicate` at both ends (a lone combining mark left behind stays, as
    /// with Foundation).
    public func trimmingScalars(where predicate: (Unicode.Scalar) -> Bool) -> String {
        let scalars = unicodeScalars
        guard let first = scalars.firstIndex(where: { !predicate($0) }) else { return "" }
        let last = scalars.lastIndex(where: { !predicate($0) })!
        return String(String.UnicodeScalarView(scalars[first...last]))
    }

    /// Drops the scalars matching `predicate` at the end only.
    public func trimmingTrailingScalars(where predicate: (Unicode.Scalar) -> Bool) -> String {
        let scalars = unicodeScalars
        guard let last = scalars.lastIndex(where: { !predicate($0) }) else { return "" }
        return String(String.UnicodeScalarView(scalars[...last]))
    }

    /// `replacingOccurrences(of: target, with: replacement, options: .literal)`: every occurrence of
    /// `target`'s scalars, left to right and not overlapping, even where a match begins or ends inside a
    /// grapheme cluster (a quote followed by a combining mark is still a quote to a shell).
    public func replacingLiterally(_ target: String, with replacement: String) -> String {
        let needle = Array(target.unicodeScalars)
        let hay = Array(unicodeScalars)
        guard !needle.isEmpty, hay.count >= needle.count else { return String(self) }
        var out = String.UnicodeScalarView()
        var i = 0
        var changed = false
        while i < hay.count {
            if i + needle.count <= hay.count, hay[i] == needle[0], hay[i..<(i + needle.count)].elementsEqual(needle) {
                out.append(contentsOf: replacement.unicodeScalars)
                i += needle.count
                changed = true
            } else {
                out.append(hay[i])
                i += 1
            }
        }
        return changed ? String(out) : String(self)
    }

    /// NFC, Foundation's `precomposedStringWithCanonicalMapping`.
    public var canonicallyComposed: String {
        String(decoding: String(self)._nfcCodeUnits, as: UTF8.self)
    }

    /// A key for comparisons that ignore case (full case folding approximated by upper- then lower-casing,
    /// so that "ß" and "SS" meet) and, when `ignoringDiacritics`, the combining marks of the canonical
    /// decomposition: what `compare(_:options: [.caseInsensitive, .diacriticInsensitive])` compared.
    public func comparisonKey(ignoringDiacritics: Bool = false) -> String {
        var text = String(self)
        if ignoringDiacritics {
            var kept = String.UnicodeScalarView()
            for scalar in text._nfd where scalar.properties.generalCategory != .nonspacingMark { kept.append(scalar) }
            text = String(kept)
        }
        return text.uppercased().lowercased().canonicallyComposed
    }

    /// `caseInsensitiveCompare(other) == .orderedSame`.
    public func equalsIgnoringCase<T: StringProtocol>(_ other: T) -> Bool {
        comparisonKey() == other.comparisonKey()
    }

    /// The range of the first occurrence of `other` ignoring case (and diacritics when asked), as
    /// `range(of:options: .caseInsensitive)` found it; matches are whole characters of `self`.
    public func rangeIgnoringCase<T: StringProtocol>(of other: T, ignoringDiacritics: Bool = false) -> Range<Index>? {
        // ASCII on both sides (most labels and accounts): case is ASCII case, and a byte is a character.
        if !ignoringDiacritics, let ascii = asciiRangeIgnoringCase(of: other) { return ascii }
        let needle = other.comparisonKey(ignoringDiacritics: ignoringDiacritics)
        guard !needle.isEmpty else { return nil }
        // A match is whole characters, and case mapping and composition stay inside a character, so a
        // match's key is inside the whole text's key: where it is not, there is none (one key, not one per
        // piece: the piece by piece search below was most of an import's time, issue 30).
        guard String(self).comparisonKey(ignoringDiacritics: ignoringDiacritics).utf8ContainsBytes(of: needle) else { return nil }
        var start = startIndex
        while start < endIndex {
            var end = start
            var piece = ""
            while end < endIndex {
                piece.append(self[end])
                end = index(after: end)
                let key = piece.comparisonKey(ignoringDiacritics: ignoringDiacritics)
                if key == needle { return start..<end }
                if key.count > needle.count + 2 { break }
            }
            start = index(after: start)
        }
        return nil
    }

    /// The case-insensitive search when `self` and `other` are both ASCII (`.some(nil)`: not there); nil
    /// when either is not.
    func asciiRangeIgnoringCase<T: StringProtocol>(of other: T) -> Range<Index>?? {
        let hay = Array(utf8), needle = Array(other.utf8)
        guard hay.allSatisfy({ $0 < 0x80 }), needle.allSatisfy({ $0 < 0x80 }) else { return nil }
        guard !needle.isEmpty, needle.count <= hay.count else { return .some(nil) }
        func lower(_ b: UInt8) -> UInt8 { b >= 0x41 && b <= 0x5A ? b + 0x20 : b }
        let n = needle.map(lower)
        for i in 0...(hay.count - n.count) {
            var j = 0
            while j < n.count, lower(hay[i + j]) == n[j] { j += 1 }
            if j == n.count {
                let start = utf8.index(startIndex, offsetBy: i), end = utf8.index(start, offsetBy: n.count)
                return .some(start..<end)
            }
        }
        return .some(nil)
    }

    /// Whether `needle`'s UTF-8 bytes occur in `self`'s (no canonical equivalence, unlike `contains`).
    public func utf8ContainsBytes<T: StringProtocol>(of needle: T) -> Bool {
        let h = Array(utf8), n = Array(needle.utf8)
        guard !n.isEmpty else { return true }
        guard n.count <= h.count else { return false }
        let first = n[0]
        for i in 0...(h.count - n.count) where h[i] == first {
            var j = 1
            while j < n.count, h[i + j] == n[j] { j += 1 }
            if j == n.count { return true }
        }
        return false
    }

    /// `padding(toLength: length, withPad: " ", startingAt: 0)`: spaces added, or cut, to `length`
    /// UTF-16 code units.
    public func padded(toLength length: Int) -> String {
        let units = utf16.count
        if units >= length { return String(decoding: Array(utf16.prefix(length)), as: UTF16.self) }
        return String(self) + String(repeating: " ", count: length - units)
    }

    /// `self.lastPathComponent`: the part after the last "/", trailing slashes ignored;
    /// "/" for the root, "" for "".
    public var lastPathComponent: String {
        let trimmed = self.split(separator: "/", omittingEmptySubsequences: true)
        guard let last = trimmed.last else { return hasPrefix("/") ? "/" : "" }
        return String(last)
    }
}

extension BinaryInteger {
    /// `String(format: "%0*d", width, self)` for `zeroPadded` true, `"%*d"` otherwise; `radix` 16 gives
    /// lower-case hex (`%02x`).
    public func padded(width: Int, zeroPadded: Bool = true, radix: Int = 10) -> String {
        let digits = String(self.magnitude, radix: radix)
        let sign = self < 0 ? "-" : ""
        let pad = max(0, width - digits.count - sign.count)
        return zeroPadded ? sign + String(repeating: "0", count: pad) + digits
                          : String(repeating: " ", count: pad) + sign + digits
    }
}
