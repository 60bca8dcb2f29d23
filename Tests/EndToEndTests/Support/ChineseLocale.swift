import Foundation
import TestSupport
import XCTest

/// The Simplified Chinese environment every Chinese test shares (issue 24): a zh_CN.UTF-8 locale made
/// with localedef (Debian's `locales`) in a folder of the test's own (LOCPATH), and the catalogs compiled
/// by scripts/build-locale.sh (TEXTDOMAINDIR). Made once per test process.
enum ChineseLocale {
    struct Prepared {
        let locpath: String
        let catalogs: String
    }

    enum Problem: Error {
        /// A tool is not installed: the test skips, saying which.
        case missing(String)
        /// The tools ran and failed: the test fails.
        case failed(String)
    }

    static let prepared: Result<Prepared, Problem> = {
        let path = ["PATH": "/usr/bin:/bin:/usr/sbin:/sbin"]
        let which = { (tool: String) in Sandbox.exec("/bin/sh", ["-c", "command -v \(tool)"], input: nil, environment: path).status == 0 }
        guard which("localedef"), FileManager.default.fileExists(atPath: "/usr/share/i18n/locales/zh_CN") else {
            return .failure(.missing("localedef and the zh_CN locale source (Debian's locales) are needed: scripts/setup.sh installs them"))
        }
        guard which("msgfmt") else { return .failure(.missing("msgfmt (Debian's gettext) is needed: scripts/setup.sh installs it")) }
        let dir = NSTemporaryDirectory() + "pwnvault-l10n-\(UUID().uuidString)"
        try? FileManager.default.createDirectory(atPath: dir + "/loc", withIntermediateDirectories: true)
        let made = Sandbox.exec("/usr/bin/env", ["localedef", "-i", "zh_CN", "-f", "UTF-8", dir + "/loc/zh_CN.UTF-8"], input: nil,
                                environment: path)
        guard made.status == 0 else { return .failure(.failed("localedef zh_CN.UTF-8 failed: \(made.all)")) }
        let built = Sandbox.exec("/bin/bash", [Paths.root.appendingPathComponent("scripts/build-locale.sh").path, dir + "/locale"],
                                 input: nil, environment: ["PATH": "/usr/bin:/bin"])
        guard built.status == 0 else { return .failure(.failed("scripts/build-locale.sh failed: \(built.all)")) }
        return .success(Prepared(locpath: dir + "/loc", catalogs: dir + "/locale"))
    }()

    /// The prepared locale and catalogs; skips the test when a tool is missing.
    static func require() throws -> Prepared {
        switch prepared {
        case let .success(p): return p
        case let .failure(.missing(why)): throw XCTSkip(why)
        case let .failure(.failed(why)): throw NSError(domain: "ChineseLocale", code: 1, userInfo: [NSLocalizedDescriptionKey: why])
        }
    }

    /// LANG=zh_CN.UTF-8 with the test's locale and catalogs.
    static func chinese() throws -> [String: String] {
        let p = try require()
        return ["LANG": "zh_CN.UTF-8", "LOCPATH": p.locpath, "TEXTDOMAINDIR": p.catalogs]
    }

    /// LANG=C with the same LOCPATH and catalogs: the two environments differ in LANG only.
    static func english() throws -> [String: String] {
        let p = try require()
        return ["LANG": "C", "LOCPATH": p.locpath, "TEXTDOMAINDIR": p.catalogs]
    }

    /// For a tmux pane (whose shell gets only PWNVAULT_*/TEST_* variables): the locale's folders as TEST_ variables.
    static func tmuxEnvironment() throws -> [String: String] {
        let p = try require()
        return ["TEST_LOCPATH": p.locpath, "TEST_TEXTDOMAINDIR": p.catalogs]
    }

    /// The assignments to put before a command typed in that pane (`LANG=… "$TEST_BIN" …`).
    static func shellAssignments(chinese: Bool) -> String {
        "LANG=\(chinese ? "zh_CN.UTF-8" : "C") LOCPATH=\"$TEST_LOCPATH\" TEXTDOMAINDIR=\"$TEST_TEXTDOMAINDIR\""
    }

    /// Fails unless `zh` comes out in Chinese (ChineseProse) while `english`, the LANG=C output of the
    /// same command, does not: the check is shown to tell the two apart on this very output.
    static func assertChinese(_ zh: String, english: String?, data: [String] = [], _ what: String,
                              file: StaticString = #filePath, line: UInt = #line) {
        if let english {
            let en = ChineseProse.report(english, data: data)
            XCTAssertFalse(en.isChinese, "\(what): the English output passes the Chinese check (\(en)):\n\(english)", file: file, line: line)
            XCTAssertNotEqual(zh, english, "\(what): the same output in both languages", file: file, line: line)
        }
        let report = ChineseProse.report(zh, data: data)
        XCTAssertTrue(report.isChinese, "\(what) is not in Chinese: \(report)\n\(zh)", file: file, line: line)
    }
}
