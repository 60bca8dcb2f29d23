import TestSupport
import XCTest

/// The check the Chinese end-to-end tests rely on (ChineseEndToEndTests): English fails it, Chinese
/// passes it, and what stays ASCII in a Chinese sentence (commands, options, values, data) is allowed.
final class ChineseProseTests: XCTestCase {
    func testEnglishProseFails() {
        let help = """
        pwnvault reveal: show accounts unmasked, after the passphrase, on a private screen

        USAGE:
          pwnvault reveal [ACCOUNT|#ID...] [--timeout SECONDS]

        OPTIONS:
          --timeout SECONDS   close the private screen after SECONDS (default 30)
          --unredacted        write the unmasked accounts to stdout even when it is not a terminal

        EXAMPLES:
          pwnvault reveal '#3' --timeout 10   see account #3 for 10 seconds
        """
        let report = ChineseProse.report(help)
        XCTAssertFalse(report.isChinese, report.description)
        XCTAssertFalse(report.englishRuns.isEmpty, report.description)

        // Short English lines without a long run still fail: none of them holds Chinese.
        let table = """
        ID  ACCOUNT          LABEL   STATUS    CHECKED
        #1  p•••r@e•••.com   Quokka  breached  just now
        #2  c•••t@e•••.org           clean     just now
        """
        let rows = ChineseProse.report(table, data: ["Quokka"])
        XCTAssertFalse(rows.isChinese, rows.description)
        XCTAssertTrue(rows.englishRuns.isEmpty, "no run of 4 here: \(rows)")
        XCTAssertEqual(rows.proseLines, 3, rows.description)

        // The progress line, drawn in place (carriage returns, erase-line sequences).
        let progress = "\r\u{1B}[2K████░░░░ 1/4  breached 1  about 2s left\r\u{1B}[2K████████ 2/4  breached 1  about 1s left"
        XCTAssertFalse(ChineseProse.report(progress).isChinese)
        XCTAssertEqual(ChineseProse.lines(of: progress).count, 2)

        XCTAssertFalse(ChineseProse.report("pwnvault: error: unknown command 'lst'\npwnvault: hint: did you mean 'list'? (see 'pwnvault help')\n").isChinese)
        XCTAssertFalse(ChineseProse.report("").isChinese, "nothing at all is not Chinese")
    }

    func testChinesePassesWithCommandsOptionsValuesAndDataInside() {
        let help = """
        pwnvault reveal：输入口令后，在私密屏幕上显示未遮蔽的账户

        用法：
          pwnvault reveal [ACCOUNT|#ID...] [--timeout SECONDS]

        选项：
          --timeout SECONDS   SECONDS 秒后关闭私密屏幕（默认 30）
          --unredacted        即使 stdout 不是终端，也写出未遮蔽的账户

        示例：
          pwnvault reveal '#3' --timeout 10   查看账户 #3，持续 10 秒
          pwnvault reveal --unredacted > accounts.txt
          pwnvault check --all && echo nothing to deal with

        取值：never, clean, breached, failed, new（参见 'pwnvault help list'，或运行 pwnvault check --all --force）
        详见 https://haveibeenpwned.com/API/v3 与 Have I Been Pwned 的文档。
        保险库：/home/user/.local/share/pwnvault/vault
        """
        let report = ChineseProse.report(help)
        XCTAssertTrue(report.isChinese, report.description)
        XCTAssertTrue(report.englishRuns.isEmpty, report.description)

        let errors = "pwnvault: 错误：未知命令 'lst'\npwnvault: 提示：您是指 'list' 吗？（参见 'pwnvault help'）\n"
        XCTAssertTrue(ChineseProse.report(errors).isChinese)

        // Data is printed as it is: a breach title or a label of several English words is named by the caller.
        let table = """
        编号  账户              标签          状态    检查时间
        #1  p•••r@e•••.com   Quokka Home  已泄露  刚刚
        #2  c•••t@e•••.org                未泄露  刚刚
        River City Media Spam List
        """
        XCTAssertEqual(ChineseProse.report(table).withoutChinese, ["River City Media Spam List"], "the English title counts against it")
        let named = ChineseProse.report(table, data: ["River City Media Spam List", "Quokka Home"])
        XCTAssertTrue(named.isChinese && named.withoutChinese.isEmpty, named.description)
        XCTAssertEqual(named.proseLines, 3, named.description)
        // Where the data is most of what is printed, an unnamed title fails the check.
        XCTAssertFalse(ChineseProse.report("编号  标题\nRiver City Media Spam List\nCopper Kettle Recipes").isChinese)
    }

    func testAHalfTranslatedOutputFails() {
        // Chinese lines with an English sentence left in one of them.
        let mixed = """
        检查了 3 个账户，1 个已泄露
        提示：请运行 'pwnvault ack #1' 确认
        close the private screen after SECONDS
        """
        let report = ChineseProse.report(mixed)
        XCTAssertFalse(report.isChinese, report.description)
        XCTAssertEqual(report.englishRuns, ["close the private screen after SECONDS"])
        // A Chinese line that still holds an English clause.
        XCTAssertFalse(ChineseProse.report("保险库：已打开，but the keyring is locked now").isChinese)
        // A command followed by English prose is not hidden by the command.
        XCTAssertFalse(ChineseProse.report("运行 pwnvault check --all to check every account").isChinese)
        // Mostly English lines with one Chinese line.
        let mostly = "first line of text\nsecond line here\n第三行\nfourth line too"
        XCTAssertFalse(ChineseProse.report(mostly).isChinese, ChineseProse.report(mostly).description)
    }
}
