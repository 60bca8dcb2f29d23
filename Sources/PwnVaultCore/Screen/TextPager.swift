/// Text longer or wider than a screen, wrapped to its width and scrolled by keys, with a find: the
/// state of a pager and nothing else (no terminal, no clock), so every step can be tested.
/// `take(_:columns:rows:)` moves it, `view(columns:rows:)` says what the screen shows.
///
/// Wrapping counts terminal cells (`TerminalCells`) and breaks at spaces; a word wider than the line
/// is broken between characters, never inside one, so nothing is ever cut off. Continuation lines are
/// indented `hang` cells more than the line they continue.
///
/// Keys: ↓ j Enter one line down, ↑ k one up; PgDn Space f a page down, PgUp b a page up; Home g the
/// start, End G the end; `/` starts typing a search (Backspace edits, Enter searches, Backspace on an
/// empty search gives up), n the next match, N the previous one. Matches are found in whole lines,
/// ignoring case, and the line found is scrolled to the top. While a search is typed every printable
/// key is part of it (`isTyping`): the caller decides what such keys do otherwise (`q` closing).
public struct TextPager: Sendable, Equatable {
    /// One line of the text: wrapped as one paragraph, `indent` cells from the left.
    public struct Line: Sendable, Equatable {
        public var text: String
        public var indent: Int

        public init(_ text: String, indent: Int = 0) {
            self.text = text; self.indent = indent
        }
    }

    /// How much further continuation lines are indented than the line they continue.
    public static let hang = 2

    /// Lines always shown at the top (wrapped, never scrolled).
    public var header: [String]
    /// The text.
    public let lines: [Line]
    /// The first row of the wrapped text shown (kept within the text by `view`).
    public private(set) var top = 0
    /// The search being typed, while one is.
    public private(set) var typing: String?
    /// The last search made.
    public private(set) var query: String?
    /// The line of `lines` the last search found.
    public private(set) var found: Int?
    /// One line about the last search ("not found"), until the next key.
    var notice: String?

    public init(header: [String] = [], lines: [Line]) {
        self.header = header; self.lines = lines
    }

    /// Whether a search is being typed: printable keys go into it.
    public var isTyping: Bool { typing != nil }

    // MARK: view

    /// The rows of the screen, `rows` of them at most, none wider than `columns` cells: the header,
    /// the part of the text from `top`, empty rows, and a status line at the bottom.
    public func view(columns: Int, rows: Int) -> [String] {
        let width = max(1, columns)
        let head = header.flatMap { TextPager.wrap($0, to: width) }
        let body = wrapped(columns: width)
        let height = bodyHeight(headerRows: head.count, rows: rows)
        let first = clampedTop(top, total: body.count, height: height)
        var out = Array(head.prefix(max(0, rows - 1)))
        let shown = body[min(first, body.count)..<min(first + height, body.count)]
        out += shown.map(\.text)
        out += Array(repeating: "", count: max(0, height - shown.count))
        out.append(status(first: first, shown: shown.count, total: body.count, width: width))
        return Array(out.prefix(max(1, rows)))
    }

    /// The status line: the search being typed, what the last search said, or where the view is and the keys.
    func status(first: Int, shown: Int, total: Int, width: Int) -> String {
        if let typing { return TextPager.lastCells(msg("find: {1}_", typing), width) }
        if let notice { return TerminalCells.truncate(notice, to: width) }
        let place = total == 0 ? msg("empty") : msg("lines {1}-{2} of {3}", first + 1, first + shown, total)
        let keys = first + shown < total || first > 0 ? msg("  ↑↓ PgUp PgDn Home End  / find  q close") : msg("  / find  q close")
        return TerminalCells.truncate(place + keys, to: width)
    }

    /// The end of `s` within `cells` cells (a long search shows what is being typed).
    static func lastCells(_ s: String, _ cells: Int) -> String {
        var out = "", used = 0
        for c in s.reversed() {
            let w = TerminalCells.width(c)
            if used + w > cells { break }
            out.insert(c, at: out.startIndex); used += w
        }
        return out
    }

    /// The rows left for the text between the header and the status line (at least one).
    func bodyHeight(headerRows: Int, rows: Int) -> Int { max(1, rows - headerRows - 1) }

    func clampedTop(_ top: Int, total: Int, height: Int) -> Int { max(0, min(top, total - height)) }

    /// Every row of the text at `columns`, with the line of `lines` it belongs to.
    public func wrapped(columns: Int) -> [(text: String, line: Int)] {
        var rows: [(text: String, line: Int)] = []
        for (i, line) in lines.enumerated() {
            // An indent that leaves less than half the width is given up, so the text keeps room.
            let indent = line.indent + TextPager.hang <= columns / 2 ? line.indent : 0
            let hang = indent + TextPager.hang <= columns / 2 ? TextPager.hang : 0
            let first = TextPager.wrap(line.text, to: columns - indent, then: columns - indent - hang)
            for (n, piece) in first.enumerated() {
                let pad = String(repeating: " ", count: n == 0 ? indent : indent + hang)
                rows.append((pad + piece, i))
            }
        }
        return rows
    }

    /// `text` in rows of at most `cells` cells (`rest` cells after the first), broken at spaces and
    /// between ideographs (`TerminalCells.pieces`); a piece wider than a row is broken between
    /// characters. Always at least one row (maybe empty).
    public static func wrap(_ text: String, to cells: Int, then rest: Int? = nil) -> [String] {
        var rows: [String] = [], current = "", used = 0
        var limit = max(1, cells)
        func finish() { rows.append(current); current = ""; used = 0; limit = max(1, rest ?? cells) }
        for word in text.split(separator: " ", omittingEmptySubsequences: true) {
            var space = 1                       // before a word's first piece; its other pieces join without
            for piece in TerminalCells.pieces(word) {
                let w = TerminalCells.width(piece)
                if used > 0 && used + space + w <= limit {
                    current += (space == 1 ? " " : "") + piece; used += space + w
                    space = 0
                    continue
                }
                space = 0
                if used > 0 { finish() }
                if w <= limit {
                    current = String(piece); used = w
                    continue
                }
                for c in piece {   // wider than a row: break between characters
                    let cw = TerminalCells.width(c)
                    if used > 0 && used + cw > limit { finish() }
                    current.append(c); used += cw
                }
            }
        }
        if !current.isEmpty || rows.isEmpty { rows.append(current) }
        return rows
    }

    // MARK: keys

    /// Takes one key on a screen of `columns` × `rows`. Returns whether the view may have changed
    /// (false for keys it does not use).
    @discardableResult
    public mutating func take(_ key: UIKey, columns: Int, rows: Int) -> Bool {
        let width = max(1, columns)
        let headRows = header.reduce(0) { $0 + TextPager.wrap($1, to: width).count }
        let body = wrapped(columns: width)
        let height = bodyHeight(headerRows: headRows, rows: rows)
        top = clampedTop(top, total: body.count, height: height)
        let hadNotice = notice != nil
        notice = nil
        if typing != nil { return type(key, body: body, height: height) || hadNotice }
        let before = top
        switch key {
        case .down, .char("j"), .enter: top += 1
        case .up, .char("k"): top -= 1
        case .pageDown, .char(" "), .char("f"): top += height
        case .pageUp, .char("b"): top -= height
        case .home, .char("g"): top = 0
        case .end, .char("G"): top = body.count
        case .char("/"): typing = ""; return true
        case .char("n"): search(forward: true, body: body, height: height)
        case .char("N"): search(forward: false, body: body, height: height)
        default: return hadNotice
        }
        top = clampedTop(top, total: body.count, height: height)
        return top != before || hadNotice || notice != nil
    }

    /// A key while a search is typed.
    private mutating func type(_ key: UIKey, body: [(text: String, line: Int)], height: Int) -> Bool {
        guard var text = typing else { return false }
        switch key {
        case let .char(c): text.append(c)
        case .backspace:
            if text.isEmpty { typing = nil; return true }
            text.removeLast()
        case .enter:
            typing = nil
            guard !text.isEmpty else { return true }
            query = text
            found = nil
            search(forward: true, body: body, height: height)
            top = clampedTop(top, total: body.count, height: height)
            return true
        default: return false
        }
        typing = text
        return true
    }

    /// Moves to the next (or previous) line holding `query`, after (before) the last one found or
    /// from the top of the view, going round at the end; says "not found" when none does.
    private mutating func search(forward: Bool, body: [(text: String, line: Int)], height: Int) {
        guard let query, !lines.isEmpty else { return }
        let needle = query.lowercased()
        let start = found ?? (forward ? (body.indices.contains(top) ? body[top].line - 1 : -1) : (body.indices.contains(top) ? body[top].line : lines.count))
        let n = lines.count
        for step in 1...n {
            let i = ((start + (forward ? step : -step)) % n + n) % n
            if lines[i].text.lowercased().contains(needle) {
                found = i
                top = body.firstIndex { $0.line == i } ?? top
                let index = lines[...i].filter { $0.text.lowercased().contains(needle) }.count
                notice = msg("\"{1}\": match {2} of {3}  n next  N previous", query, index, matches(needle))
                return
            }
        }
        notice = msg("\"{1}\" not found", query)
    }

    private func matches(_ needle: String) -> Int { lines.filter { $0.text.lowercased().contains(needle) }.count }
}

// The pager holds revealed text (accounts, sensitive breach names, paste ids, stealer-log sites): it is
// shown on the private screen only, never described, dumped or mirrored.
extension TextPager: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    public var description: String { "TextPager(\(lines.count) lines, redacted)" }
    public var debugDescription: String { description }
    public var customMirror: Mirror { Mirror(self, children: ["lines": lines.count]) }
}

extension TextPager.Line: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    public var description: String { "TextPager.Line(redacted)" }
    public var debugDescription: String { description }
    public var customMirror: Mirror { Mirror(self, children: []) }
}
