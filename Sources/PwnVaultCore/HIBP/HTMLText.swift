/// Turns a breach's HTML `Description` into plain text for a terminal.
///
/// Tags are removed; `<a href>` keeps its text followed by a numbered reference `[1]` whose target
/// is returned in `links` (the same target keeps its number); `<br>` breaks the line and `<p>`,
/// headings and lists start new blocks; `<script>`/`<style>` content and comments are dropped;
/// entities are decoded (named ones and `&#NNN;`/`&#xHH;`); control characters and terminal escape
/// sequences are stripped, also when an entity produced them; the text is word-wrapped to `width`
/// terminal cells without splitting words (a longer word is cut; `width <= 0`: no wrapping).
/// Malformed markup is never shown raw: a quote that never closes ends at the tag's first `>`, and a
/// tag that never closes at all is dropped with the rest of the text, as browsers do.
public enum HTMLText {
    public static func render(_ html: String, width: Int) -> (text: String, links: [String]) {
        // Escape sequences are cut from the source first; controls an entity produces are dropped
        // as they are decoded; the last pass is a safety net.
        var renderer = Renderer(Array(Sanitizer.multiLine(html).unicodeScalars))
        renderer.run()
        let flowed = Sanitizer.multiLine(renderer.finishedText())
        return (wrap(flowed, width: width), renderer.links)
    }

    // MARK: wrapping

    /// Wraps each line at ASCII spaces only, counting terminal cells (`TerminalCells.wrap`); U+00A0
    /// (from `&nbsp;`, and the one tying `[n]` to its link text) never breaks and becomes a plain space.
    static func wrap(_ text: String, width: Int) -> String {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
            .flatMap { TerminalCells.wrap(String($0), to: width) }
        // A no-break space that ends a line (`word&nbsp;` before a break) would become a trailing space,
        // and a line of nothing else a blank line of its own.
        return lines.compactMap { line in
            var plain = line.replacingLiterally("\u{00A0}", with: " ")
            while plain.last == " " { plain.removeLast() }
            return plain.isEmpty && !line.isEmpty ? nil : plain
        }.joined(separator: "\n")
    }

    // MARK: control characters

    // MARK: the renderer

    private struct Renderer {
        let s: [Unicode.Scalar]
        var i = 0
        var out = String.UnicodeScalarView()
        var pendingSpace = false
        var links: [String] = []
        var openHref: String?
        /// Where to go on after a tag whose content is skipped (`<script>`, `<style>`).
        var resumeAt = 0

        init(_ s: [Unicode.Scalar]) { self.s = s }

        mutating func run() {
            while i < s.count {
                let c = s[i]
                if c == "<", let end = tagEnd(from: i) {
                    handleTag(from: i + 1, to: end)
                    i = max(end + 1, resumeAt)
                } else if c == "&" {
                    let (text, next) = entity(at: i)
                    i = next
                    for scalar in text.unicodeScalars { emit(scalar) }
                } else {
                    emit(c)
                    i += 1
                }
            }
        }

        /// The collected text: trailing spaces off every line, at most one blank line in a row,
        /// none at the start or end.
        func finishedText() -> String {
            var lines: [String] = []
            var blank = 0
            for line in String(out).split(separator: "\n", omittingEmptySubsequences: false) {
                let trimmed = line.trimmingTrailingScalars(where: \.isRegexWhitespace)
                if trimmed.isEmpty {
                    blank += 1
                    if blank > 1 || lines.isEmpty { continue }
                } else { blank = 0 }
                lines.append(trimmed)
            }
            while lines.last?.isEmpty == true { lines.removeLast() }
            return lines.joined(separator: "\n")
        }

        // Text and whitespace

        mutating func emit(_ c: Unicode.Scalar) {
            // U+2028/U+2029 (from `&#x2028;`) count as spaces: the last pass would make them line breaks
            // after the blank lines were already tidied.
            if c == " " || c == "\t" || c == "\n" || c == "\r" || c == "\u{0C}" || c == "\u{2028}" || c == "\u{2029}" {
                pendingSpace = true
                return
            }
            if Sanitizer.isStripped(c) { return }
            if pendingSpace, !atLineStart { out.append(" ") }
            pendingSpace = false
            out.append(c)
        }

        var atLineStart: Bool { out.isEmpty || out.last == "\n" }

        mutating func lineBreak() {
            pendingSpace = false
            out.append("\n")
        }

        mutating func blockBreak(blankLine: Bool) {
            pendingSpace = false
            if out.isEmpty { return }
            if !atLineStart { out.append("\n") }
            if blankLine { out.append("\n") }
        }

        // Tags

        /// The index of the `>` closing a tag opened at `start`, or nil when `<` is just text
        /// (`a < b`) or never closed.
        func tagEnd(from start: Int) -> Int? {
            guard start + 1 < s.count else { return nil }
            let next = s[start + 1]
            if next == "!" , start + 3 < s.count, s[start + 2] == "-", s[start + 3] == "-" {
                var j = start + 4
                while j + 2 < s.count {
                    if s[j] == "-", s[j + 1] == "-", s[j + 2] == ">" { return j + 2 }
                    j += 1
                }
                return s.count - 1   // an unterminated comment hides the rest, as in browsers
            }
            guard next.properties.isAlphabetic || next == "/" || next == "!" || next == "?" else { return nil }
            var quote: Unicode.Scalar?
            var j = start + 1
            var firstClose: Int?
            while j < s.count {
                let c = s[j]
                if c == ">", firstClose == nil { firstClose = j }
                if let q = quote {
                    if c == q { quote = nil }
                    // A quote running into the next tag was never closed (`<a href="x>text</a>`).
                    else if c == "<", let first = firstClose { return first }
                } else if c == "\"" || c == "'" { quote = c }
                else if c == ">" { return j }
                j += 1
            }
            return firstClose ?? s.count - 1
        }

        mutating func handleTag(from start: Int, to end: Int) {
            var j = start
            guard j < end else { return }
            if s[j] == "!" || s[j] == "?" { return }            // comments, doctype, processing instructions
            let closing = s[j] == "/"
            if closing { j += 1 }
            var name = ""
            while j < end, s[j].properties.isAlphabetic || ("0"..."9").contains(s[j]) {
                name.unicodeScalars.append(s[j]); j += 1
            }
            name = name.lowercased()
            switch name {
            case "br":
                lineBreak()
            case "p", "h1", "h2", "h3", "h4", "h5", "h6", "blockquote", "pre", "table":
                blockBreak(blankLine: true)
            case "div", "ul", "ol", "tr", "dl", "dt", "dd", "hr":
                blockBreak(blankLine: false)
            case "li":
                blockBreak(blankLine: false)
                if !closing { out.append(contentsOf: "- ".unicodeScalars) }
            case "td", "th":
                pendingSpace = true
            case "a":
                if closing {
                    if let href = openHref { reference(href) }
                    openHref = nil
                } else {
                    let href = attributes(from: j, to: end)["href"].map { Sanitizer.singleLine($0) }?
                        .trimmingWhitespaceAndNewlines()
                    openHref = (href?.isEmpty ?? true) ? nil : href
                }
            case "script", "style":
                if !closing { skipRawText(named: name, after: end) }
            default:
                break
            }
        }

        /// `[n]` tied to the link text by a no-break space; a target seen before keeps its number.
        mutating func reference(_ href: String) {
            let number: Int
            if let k = links.firstIndex(of: href) { number = k + 1 } else { links.append(href); number = links.count }
            if !atLineStart { out.append("\u{00A0}") }
            out.append(contentsOf: "[\(number)]".unicodeScalars)
        }

        /// Moves past everything up to `</name>` (script and style content is not text).
        mutating func skipRawText(named name: String, after end: Int) {
            let closer = Array("</\(name)".unicodeScalars)
            var j = end + 1
            while j + closer.count <= s.count {
                if (0..<closer.count).allSatisfy({ String(s[j + $0]).lowercased() == String(closer[$0]) }) {
                    if let close = tagEnd(from: j) { resumeAt = close + 1; return }
                }
                j += 1
            }
            resumeAt = s.count
        }

        /// Attribute names (lower-cased) and values (entities decoded) of a tag.
        func attributes(from start: Int, to end: Int) -> [String: String] {
            var result: [String: String] = [:]
            var j = start
            func skipSpace() { while j < end, s[j].properties.isWhitespace || s[j] == "/" { j += 1 } }
            while j < end {
                skipSpace()
                var name = ""
                while j < end, !s[j].properties.isWhitespace, s[j] != "=", s[j] != ">", s[j] != "/" {
                    name.unicodeScalars.append(s[j]); j += 1
                }
                while j < end, s[j].properties.isWhitespace { j += 1 }
                var value = ""
                if j < end, s[j] == "=" {
                    j += 1
                    while j < end, s[j].properties.isWhitespace { j += 1 }
                    if j < end, s[j] == "\"" || s[j] == "'" {
                        let q = s[j]; j += 1
                        while j < end, s[j] != q { value.unicodeScalars.append(s[j]); j += 1 }
                        j += 1
                    } else {
                        while j < end, !s[j].properties.isWhitespace { value.unicodeScalars.append(s[j]); j += 1 }
                    }
                }
                if !name.isEmpty, result[name.lowercased()] == nil { result[name.lowercased()] = HTMLText.decodeEntities(value) }
                if name.isEmpty, value.isEmpty { j += 1 }
            }
            return result
        }

        func entity(at index: Int) -> (String, Int) {
            HTMLText.entity(in: s, at: index)
        }
    }

    // MARK: entities

    /// Decodes every character reference in `text`.
    static func decodeEntities(_ text: String) -> String {
        let s = Array(text.unicodeScalars)
        var out = ""
        var i = 0
        while i < s.count {
            if s[i] == "&" {
                let (t, next) = entity(in: s, at: i)
                out += t; i = next
            } else { out.unicodeScalars.append(s[i]); i += 1 }
        }
        return out
    }

    /// The text of the reference starting at `s[index]` (an `&`) and the index after it; an
    /// unknown or unterminated reference is kept literally. Invalid code points become U+FFFD.
    static func entity(in s: [Unicode.Scalar], at index: Int) -> (String, Int) {
        var j = index + 1
        var name = ""
        while j < s.count, j - index <= 33, s[j] != ";", s[j].isASCII,
              s[j].properties.isAlphabetic || ("0"..."9").contains(s[j]) || s[j] == "#" {
            name.unicodeScalars.append(s[j]); j += 1
        }
        guard j < s.count, s[j] == ";", !name.isEmpty else { return ("&", index + 1) }
        if name.hasPrefix("#") {
            let digits = name.dropFirst()
            let value: UInt32?
            if digits.first == "x" || digits.first == "X" {
                value = digits.count > 1 && digits.count <= 9 ? UInt32(digits.dropFirst(), radix: 16) : nil
            } else {
                value = digits.count <= 8 ? UInt32(digits) : nil
            }
            guard let value else { return ("&", index + 1) }
            let scalar = value == 0 ? nil : Unicode.Scalar(value)
            return (String(scalar ?? "\u{FFFD}"), j + 1)
        }
        guard let text = HTMLEntities.named[name] else { return ("&", index + 1) }
        return (text, j + 1)
    }
}
