/// Removes everything from outside text that a terminal would act on instead of showing.
///
/// Everything pwnvault prints that came from outside the program (breach titles and descriptions,
/// labels, server messages, file names) goes through here first. Removed:
/// - whole escape sequences: CSI (`ESC [` … final byte), OSC (`ESC ]` … BEL or ST), DCS, SOS, PM and
///   APC strings (`ESC P`, `ESC X`, `ESC ^`, `ESC _` … ST), `ESC` + intermediates + final, two-byte `ESC x`;
/// - the same introduced by 8-bit C1 controls (U+009B CSI, U+009D OSC, U+0090, U+0098, U+009E, U+009F)
///   and every other C1 control (U+0080-U+009F);
/// - every C0 control and DEL (tabs and line breaks become spaces or newlines, see below);
/// - bidi embeddings, overrides and isolates (U+202A-U+202E, U+2066-U+2069) and marks (U+200E, U+200F,
///   U+061C), which can make text read differently from what it is.
///
/// A malformed sequence ends at the first character that cannot belong to it; that character is then
/// read afresh (so a new `ESC` starts a new sequence). An unterminated string (OSC, DCS, …) swallows the
/// rest of the text, as a terminal would; CAN and SUB cancel a sequence, as in ECMA-48.
public enum Sanitizer {
    /// Clean text on one line: tabs, newlines (`\r\n`, `\r`, `\n`, NEL, U+2028, U+2029) become one space each.
    public static func singleLine(_ s: String) -> String { clean(s, keepNewlines: false) }

    /// Clean text that keeps its lines: every line break becomes `\n`, tabs become one space.
    public static func multiLine(_ s: String) -> String { clean(s, keepNewlines: true) }

    /// A translated message (from a catalog, which is a file like any other): its lines and tabs kept as
    /// they are, everything else `multiLine` removes removed too.
    public static func translation(_ s: String) -> String { clean(s, keepNewlines: true, keepTabs: true) }

    /// A scalar that is never printed: C0 and C1 controls, DEL, and the bidirectional controls that
    /// can make text read in another order than it is stored.
    static func isStripped(_ c: Unicode.Scalar) -> Bool {
        switch c.value {
        case 0x00...0x1F, 0x7F...0x9F, 0x061C, 0x200E, 0x200F, 0x202A...0x202E, 0x2066...0x2069: return true
        default: return false
        }
    }

    private static func clean(_ s: String, keepNewlines: Bool, keepTabs: Bool = false) -> String {
        let input = Array(s.unicodeScalars)
        var out = String.UnicodeScalarView()
        out.reserveCapacity(input.count)
        var i = 0
        while i < input.count {
            let c = input[i]
            switch c.value {
            case 0x1B:
                i = endOfEscape(input, escapeAt: i)
            case 0x9B:
                i = endOfCSI(input, parametersAt: i + 1)
            case 0x9D:
                i = endOfString(input, contentAt: i + 1, bellEnds: true)
            case 0x90, 0x98, 0x9E, 0x9F:
                i = endOfString(input, contentAt: i + 1, bellEnds: false)
            case 0x0D:
                out.append(keepNewlines ? "\n" : " ")
                i += (i + 1 < input.count && input[i + 1] == "\n") ? 2 : 1
            case 0x0A, 0x85, 0x2028, 0x2029:
                out.append(keepNewlines ? "\n" : " ")
                i += 1
            case 0x09:
                out.append(keepTabs ? "\t" : " ")
                i += 1
            case _ where isStripped(c):
                i += 1
            default:
                out.append(c)
                i += 1
            }
        }
        return String(out)
    }

    /// The index after the escape sequence whose `ESC` is at `escapeAt`.
    private static func endOfEscape(_ input: [Unicode.Scalar], escapeAt i: Int) -> Int {
        let j = i + 1
        guard j < input.count else { return j }
        switch input[j].value {
        case 0x5B: // [
            return endOfCSI(input, parametersAt: j + 1)
        case 0x5D: // ]
            return endOfString(input, contentAt: j + 1, bellEnds: true)
        case 0x50, 0x58, 0x5E, 0x5F: // P X ^ _
            return endOfString(input, contentAt: j + 1, bellEnds: false)
        case 0x20...0x2F: // intermediates, then a final byte: ESC ( B, ESC # 8
            var k = j
            while k < input.count, (0x20...0x2F).contains(input[k].value) { k += 1 }
            return k < input.count && (0x30...0x7E).contains(input[k].value) ? k + 1 : k
        case 0x30...0x7E: // two-byte sequences: ESC 7, ESC c, ESC M
            return j + 1
        default: // a lone ESC: drop it and read the next character afresh
            return j
        }
    }

    /// The index after a control sequence whose parameters start at `parametersAt`.
    private static func endOfCSI(_ input: [Unicode.Scalar], parametersAt start: Int) -> Int {
        var k = start
        while k < input.count {
            switch input[k].value {
            case 0x20...0x3F: k += 1                 // parameter and intermediate bytes
            case 0x40...0x7E: return k + 1           // final byte
            case 0x18, 0x1A: return k + 1            // CAN, SUB cancel
            default: return k                        // malformed: end here, read this one afresh
            }
        }
        return k
    }

    /// The index after a control string (OSC, DCS, SOS, PM, APC) whose content starts at `contentAt`.
    private static func endOfString(_ input: [Unicode.Scalar], contentAt start: Int, bellEnds: Bool) -> Int {
        var k = start
        while k < input.count {
            switch input[k].value {
            case 0x07 where bellEnds: return k + 1
            case 0x9C: return k + 1                  // 8-bit ST
            case 0x18, 0x1A: return k + 1            // CAN, SUB cancel
            case 0x1B:
                if k + 1 < input.count, input[k + 1] == "\\" { return k + 2 }   // ST
                return k                             // a new sequence aborts this one
            default: k += 1
            }
        }
        return k
    }
}
