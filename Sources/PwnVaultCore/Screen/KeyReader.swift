/// Turns the bytes a terminal sends in key-at-a-time mode into `KeyEvent`s.
///
/// The one ambiguity is ESC: alone it is the Esc key, but it also starts every escape sequence (focus
/// reports, arrows). A lone ESC is reported only when nothing followed it for `escapeDelay`: the
/// caller waits that long for more input and then calls `flush()`. Terminals write a whole sequence at
/// once, so its bytes arrive together; a person cannot type Esc and `[` that fast.
///
/// Recognised: CSI (`ESC [` parameters, intermediates, final byte), SS3 (`ESC O` and one byte), and
/// Alt+key (`ESC` and any other byte). Among CSI sequences, focus reports, mode reports (DECRPM),
/// device-attribute answers and the keys that move through text (arrows, Home/End, PgUp/PgDn) have
/// events of their own. A sequence that breaks off is reported as `.sequence` and the
/// byte that broke it is read afresh. Sequences longer than `maximumSequenceLength` are cut off.
public struct KeyReader: Sendable {
    /// How long to wait after an ESC before taking it for the Esc key: 100 ms (vim's `ttimeoutlen`).
    public static let escapeDelay: Double = 0.1
    /// Longer sequences are reported as `.sequence` early, so input cannot grow the buffer.
    public static let maximumSequenceLength = 64

    /// The bytes of an escape sequence that has begun but not ended.
    private var pending: [UInt8] = []

    public init() {}

    /// Whether an escape sequence (or a lone ESC) is waiting for more bytes or for `flush()`.
    public var isWaitingAfterEscape: Bool { !pending.isEmpty }

    /// The events completed by `bytes`.
    public mutating func feed<Bytes: Sequence>(_ bytes: Bytes) -> [KeyEvent] where Bytes.Element == UInt8 {
        var events: [KeyEvent] = []
        for byte in bytes { take(byte, into: &events) }
        return events
    }

    /// Call when `escapeDelay` passed without input: a waiting ESC is the Esc key; a sequence that
    /// stopped half-way is reported as `.sequence`.
    public mutating func flush() -> [KeyEvent] {
        defer { pending = [] }
        switch pending.count {
        case 0: return []
        case 1: return [.escape]
        default: return [.sequence]
        }
    }

    /// `? mode ; setting $` (the body of a DECRPM answer) as a `.modeReport`; nil for anything else.
    static func modeReport(_ body: ArraySlice<UInt8>) -> KeyEvent? {
        guard body.first == UInt8(ascii: "?"), body.last == UInt8(ascii: "$") else { return nil }
        let numbers = String(decoding: body.dropFirst().dropLast(), as: UTF8.self).split(separator: ";", omittingEmptySubsequences: false)
        guard numbers.count == 2, numbers.allSatisfy({ $0.count <= 6 }),
              let mode = Int(numbers[0]), let setting = Int(numbers[1]) else { return nil }
        return .modeReport(mode: mode, setting: setting)
    }

    /// The keys reported as `.key`: arrows, Home, End, PgUp and PgDn.
    static func movesThroughText(_ key: UIKey) -> Bool {
        switch key {
        case .up, .down, .left, .right, .pageUp, .pageDown, .home, .end: return true
        default: return false
        }
    }

    private mutating func take(_ byte: UInt8, into events: inout [KeyEvent]) {
        if pending.isEmpty {
            switch byte {
            case 0x1B: pending = [byte]
            case 0x03: events.append(.interrupt)
            default: events.append(.byte(byte))
            }
            return
        }
        if pending.count == 1 {   // just ESC
            switch byte {
            case 0x1B:
                events.append(.escape)   // ESC ESC: the first was the Esc key; the second starts anew
            case UInt8(ascii: "["), UInt8(ascii: "O"):
                pending.append(byte)
            default:
                pending = []
                events.append(.sequence)   // Alt+key
            }
            return
        }
        if pending[1] == UInt8(ascii: "O") {   // SS3: exactly one more byte
            pending = []
            guard (0x20...0x7E).contains(byte) else {
                events.append(.sequence)
                take(byte, into: &events)   // broken off: read it afresh
                return
            }
            let key = UIKeyDecoder.csi("", final: Character(Unicode.Scalar(byte)))
            events.append(KeyReader.movesThroughText(key) ? .key(key) : .sequence)
            return
        }
        // CSI: parameter bytes 0x30-0x3F, intermediate bytes 0x20-0x2F, then one final byte 0x40-0x7E.
        switch byte {
        case 0x20...0x3F:
            pending.append(byte)
            if pending.count >= KeyReader.maximumSequenceLength {
                pending = []
                events.append(.sequence)
            }
        case 0x40...0x7E:
            let body = pending.dropFirst(2)   // parameters and intermediates, after ESC [
            pending = []
            if body.isEmpty && byte == UInt8(ascii: "I") { events.append(.focusIn) }
            else if body.isEmpty && byte == UInt8(ascii: "O") { events.append(.focusOut) }
            else if byte == UInt8(ascii: "y"), let report = KeyReader.modeReport(body) { events.append(report) }
            else if byte == UInt8(ascii: "c") && body.first == UInt8(ascii: "?") { events.append(.deviceAttributes) }
            else {
                let key = UIKeyDecoder.csi(String(decoding: body, as: UTF8.self), final: Character(Unicode.Scalar(byte)))
                events.append(KeyReader.movesThroughText(key) ? .key(key) : .sequence)
            }
        default:
            pending = []
            events.append(.sequence)
            take(byte, into: &events)
        }
    }
}
