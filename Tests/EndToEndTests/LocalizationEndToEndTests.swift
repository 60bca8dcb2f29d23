import Foundation
import XCTest

/// Messages through glibc's gettext (issue 24): the catalog template holds every message of the
/// sources, the Simplified Chinese catalog translates all of them, and a run under LANG=zh_CN.UTF-8
/// speaks Chinese while the machine interfaces (JSON keys, exit statuses) stay the same.
final class LocalizationEndToEndTests: XCTestCase {
    /// The shared zh_CN.UTF-8 locale and catalogs (Support/ChineseLocale.swift).
    static var prepared: (locpath: String, catalogs: String)? {
        (try? ChineseLocale.prepared.get()).map { ($0.locpath, $0.catalogs) }
    }

    func testThePotHoldsEveryMessageOfTheSources() {
        let r = Sandbox.exec(Paths.python, [Paths.root.appendingPathComponent("scripts/extract-pot.py").path, "--check",
                                              Paths.root.path], input: nil, environment: ["PATH": "/usr/bin:/bin"])
        XCTAssertEqual(r.status, 0, "po/pwnvault.pot is stale: \(r.stderr)")
    }

    /// A sentence written as a plain literal never reaches the template: the sources hold no English
    /// prose outside msg(...) and phrase(...) but what po/kept-english.txt lists with its reason.
    func testNoUserFacingTextIsLeftOutOfTheCatalog() {
        let r = Sandbox.exec(Paths.python, [Paths.root.appendingPathComponent("scripts/extract-pot.py").path, "--unmarked",
                                              Paths.root.path], input: nil, environment: ["PATH": "/usr/bin:/bin"])
        XCTAssertEqual(r.status, 0, r.stderr)
    }

    func testTheChineseCatalogTranslatesEveryMessageWithNothingFuzzy() {
        let po = Paths.root.appendingPathComponent("po/zh_CN.po").path
        let stats = Sandbox.exec("/usr/bin/env", ["msgfmt", "--check", "--statistics", "-o", "/dev/null", po], input: nil,
                                 environment: ["PATH": "/usr/bin:/bin", "LC_ALL": "C"])
        XCTAssertEqual(stats.status, 0, stats.stderr)
        XCTAssertTrue(stats.stderr.hasSuffix("translated messages.\n") || stats.stderr.hasSuffix("translated message.\n"), stats.stderr)
        XCTAssertFalse(stats.stderr.contains("fuzzy") || stats.stderr.contains("untranslated"), stats.stderr)
        let same = Sandbox.exec("/usr/bin/env", ["msgcmp", po, Paths.root.appendingPathComponent("po/pwnvault.pot").path], input: nil,
                                environment: ["PATH": "/usr/bin:/bin", "LC_ALL": "C"])
        XCTAssertEqual(same.status, 0, "zh_CN.po lacks messages of the template: \(same.stderr)")
    }

    func testAChineseLocaleGetsChineseMessagesAndTheSameStatuses() throws {
        let prepared = try XCTUnwrap(Self.prepared, "localedef (Debian's locales) and msgfmt (gettext) are needed: scripts/setup.sh installs them")
        let s = try Sandbox()
        let chinese = ["LANG": "zh_CN.UTF-8", "LOCPATH": prepared.locpath, "TEXTDOMAINDIR": prepared.catalogs]
        let typo = s.run(["lst"], env: chinese)
        XCTAssertEqual(typo.status, 2)
        XCTAssertEqual(typo.stderr, "pwnvault: 错误：未知命令 'lst'\npwnvault: 提示：您是指 'list' 吗？（参见 'pwnvault help'）\n")
        let english = s.run(["lst"], env: ["LANG": "C", "TEXTDOMAINDIR": prepared.catalogs])
        XCTAssertEqual(english.stderr, "pwnvault: error: unknown command 'lst'\npwnvault: hint: did you mean 'list'? (see 'pwnvault help')\n")
        let unknown = s.run(["lst"], env: ["LANG": "xx_YY.UTF-8", "LOCPATH": prepared.locpath, "TEXTDOMAINDIR": prepared.catalogs])
        XCTAssertEqual(unknown.stderr, english.stderr, "an unknown language is English")
        let language = s.run(["lst"], env: ["LANG": "C.UTF-8", "LANGUAGE": "zh_CN", "TEXTDOMAINDIR": prepared.catalogs])
        XCTAssertEqual(language.stderr, typo.stderr, "LANGUAGE is followed, as gettext does")

        s.initVault()
        let status = s.run(["status"], env: chinese)
        XCTAssertTrue(status.stdout.contains("消息语言：") && status.stdout.contains("zh_CN (\(prepared.catalogs))"), status.stdout)
        XCTAssertTrue(s.run(["status"]).stdout.contains("English (built in)"))
        let json = try JSONSerialization.jsonObject(with: Data(s.run(["status", "--json"], env: chinese).stdout.utf8)) as? [String: Any]
        XCTAssertEqual(json?["unlockedWith"] as? String, "keyring", "JSON values stay as they are")
        XCTAssertEqual(json?["messages"] as? String, "zh_CN (\(prepared.catalogs))")
    }
}
