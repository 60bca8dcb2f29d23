import PwnVaultCore
import XCTest

final class TerminalCellsTests: XCTestCase {
    func testCellsOfCJKEmojiAndCombiningMarks() {
        XCTAssertEqual(TerminalCells.width("abc"), 3)
        XCTAssertEqual(TerminalCells.width("张三（工作）"), 12, "CJK and fullwidth brackets take two cells")
        XCTAssertEqual(TerminalCells.width("집꾸미기"), 8, "Hangul syllables are wide")
        XCTAssertEqual(TerminalCells.width("🙂 emoji"), 8)
        XCTAssertEqual(TerminalCells.width("e\u{301}"), 1, "a combining accent takes no cell")
        XCTAssertEqual(TerminalCells.width("Café Lumière"), 12)
        XCTAssertEqual(TerminalCells.width("\u{2764}\u{FE0F}"), 2, "VS16 makes a text emoji wide")
    }

    func testTruncateAndPadCountCells() {
        XCTAssertEqual(TerminalCells.truncate("张三（工作）", to: 7), "张三（…")
        XCTAssertEqual(TerminalCells.width(TerminalCells.truncate("张三（工作）", to: 7)), 7)
        XCTAssertEqual(TerminalCells.truncate("short", to: 10), "short")
        XCTAssertEqual(TerminalCells.pad("集", to: 4), "集  ")
    }

    func testWrapBreaksAtSpacesWithinTheWidthAndHangs() {
        let lines = TerminalCells.wrap("Email addresses, IP addresses, Names, Passwords, Phone numbers", to: 20)
        XCTAssertTrue(lines.allSatisfy { TerminalCells.width($0) <= 20 }, "\(lines)")
        XCTAssertEqual(lines.joined(separator: " "), "Email addresses, IP addresses, Names, Passwords, Phone numbers")
        let hung = TerminalCells.hanging("exposed:  ", "Email addresses, IP addresses, Names, Passwords", width: 30)
        XCTAssertEqual(hung, ["exposed:  Email addresses, IP", "          addresses, Names,", "          Passwords"])
        XCTAssertEqual(TerminalCells.hanging("x: ", "a b c", width: nil), ["x: a b c"], "no width: one line")
        XCTAssertEqual(TerminalCells.wrap("집꾸미기 집꾸미기 집", to: 17), ["집꾸미기 집꾸미기", "집"], "8 + 1 + 8 cells fill 17")
        XCTAssertEqual(TerminalCells.wrap("see https://example.com/long now", to: 10), ["see", "https://example.com/long", "now"],
                       "a word longer than the line is not cut")
    }

    /// Issue 32: a command to copy never breaks across rows. Quoted (`'pwnvault config api-key'`,
    /// `'set -g focus-events on'`) or not (`pwnvault ack '#9'`, `pwnvault import contacts.vcf`), it moves
    /// to the next line whole; the prose around it still breaks at spaces.
    func testCommandsToCopyMoveWholeToTheNextLine() {
        let cases: [(String, String)] = [
            ("checks need an HIBP key: run 'pwnvault config api-key' and paste it", "'pwnvault config api-key'"),
            ("add 'set -g focus-events on' to ~/.tmux.conf", "'set -g focus-events on'"),
            ("4 findings not acknowledged (4 breaches); when dealt with: pwnvault ack '#9'", "pwnvault ack '#9'"),
            ("next: pwnvault add you@example.com --label Me   (or: pwnvault import contacts.vcf)", "pwnvault import contacts.vcf)"),
            ("next: pwnvault add you@example.com --label Me   (or: pwnvault import contacts.vcf)", "pwnvault add you@example.com --label Me"),
            ("store it without trying it: pwnvault config api-key --no-verify", "pwnvault config api-key --no-verify"),
            ("run it with your terminal's type, e.g. TERM=xterm-256color pwnvault ui", "TERM=xterm-256color pwnvault ui"),
            ("see them with 'pwnvault list --status unacknowledged'", "'pwnvault list --status unacknowledged'"),
        ]
        for (text, command) in cases {
            for width in 20...80 {
                let lines = TerminalCells.wrap(text, to: width)
                XCTAssertTrue(lines.contains { $0.contains(command) }, "\(width): \(command) split in \(lines)")
                XCTAssertEqual(lines.joined(separator: " ").split(separator: " "), text.split(separator: " "), "nothing lost: \(lines)")
                for line in lines where !line.contains("pwnvault") && !line.contains("'set") {
                    XCTAssertLessThanOrEqual(TerminalCells.width(line), width, "\(lines)")
                }
            }
        }
        // Prose that only mentions pwnvault, and an apostrophe, join nothing.
        XCTAssertEqual(TerminalCells.wrap("pwnvault keeps the keyring's key in it", to: 14), ["pwnvault keeps", "the keyring's", "key in it"])
        // A hanging indent gives way for a command wider than what is left beside it.
        let hung = TerminalCells.hanging("pwnvault: hint: ", "redirect it: pwnvault reveal --json --unredacted > accounts.json", width: 60)
        XCTAssertEqual(hung, ["pwnvault: hint: redirect it:",
                              "         pwnvault reveal --json --unredacted > accounts.json"], "51 cells: indented by 9")
    }

    func testChineseBreaksBetweenIdeographsButNotBeforeClosingOrAfterOpeningMarks() {
        let text = "您的账户出现在三次数据泄露中，其中一次是新的（尚未确认）。请运行 'pwnvault show #1' 查看。"
        for width in [10, 13, 20, 31, 60] {
            let lines = TerminalCells.wrap(text, to: width)
            // The command to copy is never broken: wider than the line, it takes a line of its own.
            XCTAssertTrue(lines.allSatisfy { TerminalCells.width($0) <= width || $0 == "'pwnvault show #1'" }, "\(width): \(lines)")
            XCTAssertEqual(lines.joined().filter { $0 != " " }, text.filter { $0 != " " }, "nothing lost")
            XCTAssertFalse(lines.contains { $0.hasPrefix(" ") || $0.hasSuffix(" ") }, "\(lines)")
            for line in lines.dropFirst() {
                XCTAssertFalse("，。）”".contains(line.first!), "a closing mark began a line at \(width): \(lines)")
            }
            for line in lines.dropLast() {
                XCTAssertFalse("（“".contains(line.last!), "an opening mark ended a line at \(width): \(lines)")
            }
        }
        XCTAssertEqual(TerminalCells.wrap("数据泄露，账户", to: 6), ["数据泄", "露，账", "户"], "， stays with what it ends")
        XCTAssertEqual(TerminalCells.wrap("运行 'pwnvault check' 查看", to: 8), ["运行", "'pwnvault check'", "查看"],
                       "a command to copy is one word, even wider than the line")
        XCTAssertEqual(TerminalCells.wrap("运行 pwnvault ack '#3' 查看 the rest", to: 8), ["运行", "pwnvault ack '#3'", "查看 the", "rest"])
        XCTAssertEqual(TerminalCells.wrap("状态：'已泄露'、'待确认'", to: 16), ["状态：'已泄露'、", "'待确认'"],
                       "an ASCII quote stays with the word it quotes")
        XCTAssertEqual(TerminalCells.wrap("集'已泄露'", to: 7), ["集'已泄", "露'"], "never a line of a quote alone")
        XCTAssertEqual(TerminalCells.wrap("집꾸미기 집꾸미기", to: 10), ["집꾸미기", "집꾸미기"], "Korean breaks at its spaces")
        XCTAssertEqual(TerminalCells.wrap("第一行很长的句子", to: 6, then: 10), ["第一行", "很长的句子"], "then: the rest's width")
    }
}
