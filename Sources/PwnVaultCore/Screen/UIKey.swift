/// One key (or focus report, or mouse event) of the full-screen interface, as `UIKeyDecoder` reads it.
public enum UIKey: Equatable, Sendable {
    /// A printable character (a letter, a digit, a whole UTF-8 character).
    case char(Character)
    case up, down, left, right, pageUp, pageDown, home, end
    case enter, escape, backspace, tab
    /// Ctrl and a letter (the byte 0x01-0x1A), other than Tab, Enter, Backspace and Ctrl-C.
    case control(UInt8)
    /// Ctrl-C as a byte (only seen when the terminal does not turn it into SIGINT).
    case interrupt
    case focusIn, focusOut
    /// A mouse button press at a cell (both counted from 0), as SGR mouse reporting (1006) sends it.
    case click(column: Int, row: Int)
    case wheelUp, wheelDown
    /// The terminal's answer to a mode question (DECRPM: `ESC [ ? mode ; setting $ y`).
    case modeReport(mode: Int, setting: Int)
    /// The terminal's device attributes (`ESC [ ? … c`): every answer asked for before it has come.
    case deviceAttributes
    /// Any other sequence: function keys, answers to queries, mouse releases and moves.
    case other
}

/// Bytes from a terminal in key-at-a-time mode → `UIKey`s: UTF-8 characters put together, CSI and SS3
/// sequences decoded (arrows, Home/End, PgUp/PgDn, focus reports, SGR mouse). A lone ESC is the Esc key
/// only when nothing followed it for `KeyReader.escapeDelay`: the caller waits, then calls `flush()`.
public struct UIKeyDecoder: Sendable {
    private var pending: [UInt8] = []
    private var utf8: [UInt8] = []

    public init() {}

    public var isWaitingAfterEscape: Bool { !pending.isEmpty }

    public mutating func feed<Bytes: Sequence>(_ bytes: Bytes) -> [UIKey] where Bytes.Element == UInt8 {
        var keys: [UIKey] = []
        for b in bytes { take(b, into: &keys) }
        return keys
    }

    public mutating func flush() -> [UIKey] {
        defer { pending = [] }
        switch pending.count {
        case 0: return []
        case 1: return [.escape]
        default: return [.other]
        }
    }

    private mutating func take(_ b: UInt8, into keys: inout [UIKey]) {
        if !pending.isEmpty { return takeInSequence(b, into: &keys) }
        if !utf8.isEmpty || b >= 0x80 { return takeUTF8(b, into: &keys) }
        switch b {
        case 0x1B: pending = [b]
        case 0x0D, 0x0A: keys.append(.enter)
        case 0x09: keys.append(.tab)
        case 0x7F, 0x08: keys.append(.backspace)
        case 0x03: keys.append(.interrupt)
        case 0x00..<0x20: keys.append(.control(b))
        default: keys.append(.char(Character(Unicode.Scalar(b))))
        }
    }

    private mutating func takeUTF8(_ b: UInt8, into keys: inout [UIKey]) {
        utf8.append(b)
        let lead = utf8[0]
        let need = lead >= 0xF0 ? 4 : lead >= 0xE0 ? 3 : lead >= 0xC0 ? 2 : 1
        if b < 0x80 || b >= 0xC0, utf8.count > 1 {   // broken: start again with this byte
            utf8 = []
            keys.append(.other)
            return take(b, into: &keys)
        }
        guard utf8.count >= need else { return }
        let text = String(decoding: utf8, as: UTF8.self)
        utf8 = []
        if let c = text.first, c != "\u{FFFD}" { keys.append(.char(c)) } else { keys.append(.other) }
    }

    private mutating func takeInSequence(_ b: UInt8, into keys: inout [UIKey]) {
        if pending.count == 1 {
            switch b {
            case 0x1B: keys.append(.escape)   // ESC ESC: the first was the Esc key
            case UInt8(ascii: "["), UInt8(ascii: "O"): pending.append(b)
            default: pending = []; keys.append(.other)   // Alt+key
            }
            return
        }
        if pending[1] == UInt8(ascii: "O") {   // SS3: one more byte
            pending = []
            switch b {
            case UInt8(ascii: "A"): keys.append(.up)
            case UInt8(ascii: "B"): keys.append(.down)
            case UInt8(ascii: "C"): keys.append(.right)
            case UInt8(ascii: "D"): keys.append(.left)
            case UInt8(ascii: "H"): keys.append(.home)
            case UInt8(ascii: "F"): keys.append(.end)
            case 0x20...0x7E: keys.append(.other)
            default: keys.append(.other); take(b, into: &keys)
            }
            return
        }
        switch b {
        case 0x20...0x3F:
            pending.append(b)
            if pending.count >= KeyReader.maximumSequenceLength { pending = []; keys.append(.other) }
        case 0x40...0x7E:
            let body = String(decoding: pending.dropFirst(2), as: UTF8.self)
            pending = []
            keys.append(UIKeyDecoder.csi(body, final: Character(Unicode.Scalar(b))))
        default:
            pending = []
            keys.append(.other)
            take(b, into: &keys)
        }
    }

    /// A whole CSI sequence: `ESC [ body final`.
    static func csi(_ body: String, final: Character) -> UIKey {
        switch (body, final) {
        case ("", "A"): return .up
        case ("", "B"): return .down
        case ("", "C"): return .right
        case ("", "D"): return .left
        case ("", "H"), ("1", "~"), ("7", "~"): return .home
        case ("", "F"), ("4", "~"), ("8", "~"): return .end
        case ("5", "~"): return .pageUp
        case ("6", "~"): return .pageDown
        case ("", "I"): return .focusIn
        case ("", "O"): return .focusOut
        default: break
        }
        if body.hasPrefix("?") {
            if final == "c" { return .deviceAttributes }
            if final == "y", body.hasSuffix("$") {
                let n = body.dropFirst().dropLast().split(separator: ";").compactMap { Int($0) }
                if n.count == 2 { return .modeReport(mode: n[0], setting: n[1]) }
            }
        }
        // SGR mouse: `< button ; column ; row M` (press) or `m` (release), counted from 1.
        if body.hasPrefix("<"), final == "M" {
            let n = body.dropFirst().split(separator: ";").compactMap { Int($0) }
            guard n.count == 3 else { return .other }
            switch n[0] {
            case 64: return .wheelUp
            case 65: return .wheelDown
            case 0: return .click(column: n[1] - 1, row: n[2] - 1)
            default: return .other
            }
        }
        return .other
    }
}
