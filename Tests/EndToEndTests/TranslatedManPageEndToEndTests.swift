import Foundation
import PwnVaultCore
import XCTest

/// The manual page in every language of po/ (issue 24): Docs/LANG/pwnvault.1 is what the binary prints
/// through that catalog, groff renders it without a warning, and at man's usual 80 columns no line of
/// it is wider than the page: the page marks where Chinese may break (groff breaks only at spaces).
final class TranslatedManPageEndToEndTests: XCTestCase {
    func testEveryCatalogsManPageIsCommittedAndRendersWithinEightyColumns() throws {
        let prepared = try XCTUnwrap(LocalizationEndToEndTests.prepared, "localedef (locales) and msgfmt (gettext) are needed: scripts/setup.sh installs them")
        let languages = try FileManager.default.contentsOfDirectory(atPath: Paths.root.appendingPathComponent("po").path)
            .filter { $0.hasSuffix(".po") }.map { String($0.dropLast(3)) }
        XCTAssertTrue(languages.contains("zh_CN"))
        for language in languages {
            let generated = Sandbox.exec(Paths.binary, ["help", "man"], input: nil,
                                         environment: ["LC_ALL": "C.UTF-8", "LANGUAGE": language, "TEXTDOMAINDIR": prepared.catalogs])
            XCTAssertEqual(generated.status, 0, generated.stderr)
            let committed = try String(contentsOf: Paths.root.appendingPathComponent("Docs/\(language)/pwnvault.1"), encoding: .utf8)
            XCTAssertEqual(committed, generated.stdout, "Docs/\(language)/pwnvault.1 is stale: run scripts/gen-man.sh")
            XCTAssertNotEqual(committed, try String(contentsOf: Paths.root.appendingPathComponent("Docs/pwnvault.1"), encoding: .utf8),
                              "the \(language) page is the English one")

            guard FileManager.default.isExecutableFile(atPath: "/usr/bin/groff") else { throw XCTSkip("groff is not installed") }
            // groff measures wide characters by the locale, as man does under the reader's UTF-8 locale.
            let utf8 = ["PATH": "/usr/bin:/bin", "LC_ALL": "C.UTF-8"]
            let warnings = Sandbox.exec("/usr/bin/groff", ["-man", "-Tutf8", "-ww", "-z"], input: committed, environment: utf8)
            XCTAssertEqual(warnings.stderr, "", "groff warns about the \(language) page")
            let rendered = Sandbox.exec("/usr/bin/groff", ["-man", "-Tutf8", "-P-cbou", "-rLL=80n"], input: committed,
                                        environment: utf8)
            XCTAssertEqual(rendered.status, 0, rendered.stderr)
            let lines = rendered.stdout.split(separator: "\n").map(String.init)
            // Usage lines are set unfilled, as in the English page; every other line fits.
            let usage = { (line: String) in line.trimmingCharacters(in: .whitespaces).hasPrefix("pwnvault ") && !line.contains { $0.unicodeScalars.first!.value >= 0x3000 } }
            let wide = lines.filter { TerminalCells.width($0) > 80 && !usage($0) }
            XCTAssertEqual(wide, [], "\(language): lines wider than 80 columns")
            XCTAssertFalse(rendered.stdout.contains("\u{FFFD}"), "\(language): a character was lost")
            if language == "zh_CN" {
                for heading in ["名称", "概要", "说明", "命令", "全局选项", "环境变量", "退出状态", "安全"] {
                    XCTAssertTrue(lines.contains(heading), "no \(heading) section in the Chinese page")
                }
                let prose = lines.filter { $0.unicodeScalars.contains { (0x4E00...0x9FFF).contains($0.value) } }
                XCTAssertGreaterThan(prose.count, lines.count / 3, "the Chinese page is mostly not Chinese")
            }
        }
    }
}
