import Foundation
import TestSupport
import XCTest

/// Issue 32: full-width punctuation in every Chinese sentence of po/zh_CN.po. No ASCII `, ; : ! ? ( )`
/// beside an ideograph (directly, or across one space), except where it belongs to code: inside ASCII
/// single quotes (a command to type), or touching a letter, a brace or more punctuation on its other
/// side (`pwnvault: 警告`, `::1`, `{1}: 地址`); numbers without Chinese beside them (`3, 4`) are not
/// looked at. Also none of what the walk found left in English or with ASCII brackets.
final class ChinesePunctuationTests: XCTestCase {
    /// The translations of po/zh_CN.po (msgstr and msgstr[N]), each joined from its quoted lines.
    static func translations() throws -> [(msgid: String, text: String)] {
        let po = try String(contentsOf: PackageRoot.url.appendingPathComponent("po/zh_CN.po"), encoding: .utf8)
        var out: [(String, String)] = []
        var msgid = "", current: String?, inId = false
        func unquote(_ line: Substring) -> String {
            guard let first = line.firstIndex(of: "\""), let last = line.lastIndex(of: "\""), first < last else { return "" }
            return String(line[line.index(after: first)..<last]).replacingOccurrences(of: "\\\"", with: "\"").replacingOccurrences(of: "\\n", with: "\n")
        }
        func flush() { if let c = current, !c.isEmpty { out.append((msgid, c)) }; current = nil }
        for line in po.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("#~") { continue }
            if line.hasPrefix("msgid ") { flush(); msgid = unquote(line); inId = true }
            else if line.hasPrefix("msgid_plural ") { inId = false }
            else if line.hasPrefix("msgstr") { flush(); current = unquote(line); inId = false }
            else if line.hasPrefix("\"") { if inId { msgid += unquote(line) } else if current != nil { current! += unquote(line) } }
            else { flush(); inId = false }
        }
        flush()
        return out
    }

    static func isIdeograph(_ c: Character) -> Bool {
        c.unicodeScalars.contains { (0x3400...0x4DBF).contains($0.value) || (0x4E00...0x9FFF).contains($0.value) }
    }

    /// What may touch ASCII punctuation in code: a letter, a brace, more ASCII punctuation (`pwnvault:`,
    /// `{1}:`, `::1`). A digit does not: `0700, 保险库` is a sentence.
    static func isCodeNeighbour(_ c: Character) -> Bool { c.isASCII && (c.isLetter || "{}:;,!?()_-./'\"".contains(c)) }

    /// The places in `text` where ASCII `, ; : ! ? ( )` sits beside an ideograph outside code: directly,
    /// or across one space when its other side is no code.
    static func westernPunctuation(_ text: String) -> [String] {
        // Commands to type, in ASCII single quotes, are code: blanked out.
        var plain = "", quoted = false
        for c in text {
            if c == "'" { quoted.toggle(); plain.append("'"); continue }
            plain.append(quoted ? "x" : c)
        }
        let chars = Array(plain)
        var found: [String] = []
        for (i, c) in chars.enumerated() where ",;:!?()".contains(c) {
            let left: Character = i > 0 ? chars[i - 1] : " ", right: Character = i + 1 < chars.count ? chars[i + 1] : " "
            let farLeft: Character? = left == " " && i > 1 ? chars[i - 2] : nil
            let farRight: Character? = right == " " && i + 2 < chars.count ? chars[i + 2] : nil
            let direct = isIdeograph(left) || isIdeograph(right)
            let spaced = (farLeft.map(isIdeograph) == true && !isCodeNeighbour(right))
                || (farRight.map(isIdeograph) == true && !isCodeNeighbour(left))
            guard direct || spaced else { continue }
            found.append(String(chars[max(0, i - 8)..<min(chars.count, i + 9)]))
        }
        return found
    }

    func testNoWesternPunctuationBesideChineseInTheCatalog() throws {
        let all = try Self.translations()
        XCTAssertGreaterThan(all.count, 1000, "the catalog was read")
        var problems: [String] = []
        for (msgid, text) in all {
            for place in Self.westernPunctuation(text) { problems.append("\(place.debugDescription) in the translation of \(msgid.prefix(50).debugDescription)") }
            for word in ["（moderate）", "k-anonymity：", "[未", "(我)", "每 1d", "每 1 d"] where text.contains(word) {
                problems.append("\(word) left in the translation of \(msgid.prefix(50).debugDescription)")
            }
        }
        XCTAssertEqual(problems, [], problems.joined(separator: "\n"))
    }

    /// The check itself finds what the walk found, and lets code through.
    func testTheCheckFindsWesternPunctuationAndLetsCodeThrough() {
        XCTAssertFalse(Self.westernPunctuation("已泄露(3, 3 项新发现)").isEmpty)
        XCTAssertFalse(Self.westernPunctuation("文件夹 0700, 保险库").isEmpty)
        XCTAssertFalse(Self.westernPunctuation("确认; 然后").isEmpty)
        XCTAssertFalse(Self.westernPunctuation("已完成! 下一步").isEmpty)
        XCTAssertEqual(Self.westernPunctuation("pwnvault: 警告：{1}"), [])
        XCTAssertEqual(Self.westernPunctuation("请运行 'pwnvault list --status new,failed'：完成"), [])
        XCTAssertEqual(Self.westernPunctuation("连到 ::1 和 {1}: 地址"), [])
    }
}
