/// The full-screen interface's drawing: rows of typed spans (or lines with pwnvault's own SGR styles,
/// `ESC [ … m`, read into spans) become a
/// grid of terminal cells, and each frame sends only the cells that differ from the one before, with
/// cursor addressing (never a newline, so the screen never scrolls and nothing reaches the scrollback).
///
/// Cells are counted by `TerminalCells.width`: a wide character takes its cell and the next, a
/// zero-width one joins the character before it, and a wide character that would not fit at the end
/// of a row is left out. Anything else that looks like a control character is dropped. Colours are
/// the 8 basic ones (30-37, backgrounds 40-47); with `colors` off (NO_COLOR, TERM without colours) only bold, dim and
/// reverse video remain.
public struct CellRenderer: Sendable {
    public struct Style: Equatable, Sendable {
        public var foreground: UInt8 = 0   // 0: the terminal's own; 30-37 otherwise
        public var background: UInt8 = 0   // 0: the terminal's own; 40-47 otherwise
        public var bold = false
        public var dim = false
        public var reverse = false
        public init() {}

        /// The SGR sequence that sets this style from scratch.
        func sequence(colors: Bool) -> String {
            var parts = ["0"]
            if bold { parts.append("1") }
            if dim { parts.append("2") }
            if reverse { parts.append("7") }
            if colors, foreground != 0 { parts.append(String(foreground)) }
            if colors, background != 0 { parts.append(String(background)) }
            return "\u{1B}[" + parts.joined(separator: ";") + "m"
        }
    }

    /// Text in one style: a row of the screen is a list of these (typed styles, no escape sequences).
    public struct Span: Equatable, Sendable {
        public var text: String
        public var style: Style
        public init(_ text: String, _ style: Style = Style()) { self.text = text; self.style = style }
    }

    struct Cell: Equatable, Sendable {
        /// The character drawn here; empty for the right half of a wide character.
        var text: String = " "
        var style = Style()
        var isContinuation: Bool { text.isEmpty }
    }

    public let colors: Bool
    private var previous: [[Cell]] = []
    private var previousSize = (columns: 0, rows: 0)

    public init(colors: Bool) { self.colors = colors }

    /// Forget what the terminal shows: the next frame is drawn whole (after a blank, a stop, a resize).
    public mutating func invalidate() { previous = [] }

    /// The bytes that turn the last frame into `lines` on a `columns` × `rows` screen.
    public mutating func frame(_ lines: [String], columns: Int, rows: Int) -> [UInt8] {
        frame(rows: lines.map(CellRenderer.spans), columns: columns, rows: rows)
    }

    /// The bytes that turn the last frame into `spans` (one list a row) on a `columns` × `rows` screen.
    public mutating func frame(rows lines: [[Span]], columns: Int, rows: Int) -> [UInt8] {
        let grid = CellRenderer.grid(lines, columns: columns, rows: rows)
        var out = ""
        let whole = previous.count != rows || previousSize.columns != columns
        if whole { out += "\u{1B}[0m\u{1B}[H\u{1B}[2J" }
        var current: Style? = nil
        for r in 0..<rows {
            let row = grid[r]
            var first = 0, last = columns - 1
            if !whole {
                let old = previous[r]
                if old == row { continue }
                while first < columns, old[first] == row[first] { first += 1 }
                while last > first, old[last] == row[last] { last -= 1 }
            } else {
                // After clearing, only what is not a blank default cell needs sending.
                while last >= 0, row[last] == Cell() { last -= 1 }
                if last < 0 { continue }
            }
            while first > 0, row[first].isContinuation { first -= 1 }
            out += "\u{1B}[\(r + 1);\(first + 1)H"
            var c = first
            while c <= last {
                let cell = row[c]
                if cell.isContinuation { c += 1; continue }
                if current != cell.style { out += cell.style.sequence(colors: colors); current = cell.style }
                out += cell.text
                c += 1
            }
        }
        if current != nil && current != Style() { out += "\u{1B}[0m" }
        previous = grid
        previousSize = (columns, rows)
        return Array(out.utf8)
    }

    /// `lines` laid out in cells: styles applied, everything past the width or the height left out.
    static func grid(_ lines: [String], columns: Int, rows: Int, colors: Bool) -> [[Cell]] {
        grid(lines.map(CellRenderer.spans), columns: columns, rows: rows)
    }

    /// A line with pwnvault's own SGR styles (`ESC [ … m`, as `Console` writes them) as spans; any other
    /// escape sequence is dropped.
    public static func spans(_ line: String) -> [Span] {
        var out: [Span] = []
        var style = Style(), text = ""
        var chars = line.makeIterator()
        while let ch = chars.next() {
            if ch == "\u{1B}" {
                var body = ""
                guard chars.next() == "[" else { continue }
                while let p = chars.next() {
                    if p.isLetter {
                        if p == "m" {
                            if !text.isEmpty { out.append(Span(text, style)); text = "" }
                            style = CellRenderer.apply(body, to: style)
                        }
                        break
                    }
                    body.append(p)
                }
                continue
            }
            text.append(ch)
        }
        if !text.isEmpty { out.append(Span(text, style)) }
        return out
    }

    /// `lines` laid out in cells: everything past the width or the height left out.
    static func grid(_ lines: [[Span]], columns: Int, rows: Int) -> [[Cell]] {
        var grid = Array(repeating: Array(repeating: Cell(), count: columns), count: rows)
        for (r, line) in lines.prefix(rows).enumerated() {
            var col = 0
            spans: for span in line {
                let style = span.style
                for ch in span.text {
                    if let v = ch.unicodeScalars.first?.value, v < 0x20 || (0x7F..<0xA0).contains(v) { continue }
                    let w = TerminalCells.width(ch)
                    if w == 0 {
                        if col > 0 {
                            var k = col - 1
                            while k > 0, grid[r][k].isContinuation { k -= 1 }
                            grid[r][k].text.append(ch)
                        }
                        continue
                    }
                    if col + w > columns { break spans }
                    grid[r][col] = Cell(text: String(ch), style: style)
                    if w == 2 { grid[r][col + 1] = Cell(text: "", style: style) }
                    col += w
                }
            }
        }
        return grid
    }

    /// An SGR body (`1`, `31`, `0`, `1;31`) applied to `style`.
    static func apply(_ body: String, to style: Style) -> Style {
        var s = style
        let codes = body.isEmpty ? [0] : body.split(separator: ";", omittingEmptySubsequences: false).map { Int($0) ?? 0 }
        for code in codes {
            switch code {
            case 0: s = Style()
            case 1: s.bold = true
            case 2: s.dim = true
            case 7: s.reverse = true
            case 22: s.bold = false; s.dim = false
            case 27: s.reverse = false
            case 30...37: s.foreground = UInt8(code)
            case 39: s.foreground = 0
            case 40...47: s.background = UInt8(code)
            case 49: s.background = 0
            default: break
            }
        }
        return s
    }
}

// A span holds what the screen shows, a revealed account included: drawn on the private screen only,
// never described, dumped or mirrored.
extension CellRenderer.Span: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    public var description: String { "CellRenderer.Span(\(text.count) characters, redacted)" }
    public var debugDescription: String { description }
    public var customMirror: Mirror { Mirror(self, children: ["style": style]) }
}
