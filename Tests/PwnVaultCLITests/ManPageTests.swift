@testable import PwnVaultCLI
import Foundation
import PwnVaultCore
import TestSupport
import XCTest

/// The manual page says what the help says, is valid roff, and is the one committed in Docs/.
final class ManPageTests: XCTestCase {
    let page = ManPage.render()

    static let root = PackageRoot.url

    func testTheCommittedManPageIsTheGeneratedOne() throws {
        let committed = try String(contentsOf: Self.root.appendingPathComponent("Docs/pwnvault.1"), encoding: .utf8)
        XCTAssertEqual(committed, page + "\n", "Docs/pwnvault.1 is stale: run scripts/gen-man.sh")
    }

    func testEverySectionIsThere() {
        for section in ["NAME", "SYNOPSIS", "DESCRIPTION", "COMMANDS", "GLOBAL OPTIONS", "ENVIRONMENT",
                        "EXIT STATUS", "FILES", "SECURITY", "SEE ALSO"] {
            XCTAssertTrue(page.contains("\n.SH \(section)\n"), "no \(section) section")
        }
        XCTAssertTrue(page.contains(".TH PWNVAULT 1 "))
    }

    func testEveryCommandWithItsOptionsAndExamplesIsDocumented() {
        for command in Commands.all {
            let spec = command.spec
            XCTAssertTrue(page.contains(".SS \"\(ManPage.text(spec.name))\"\n" + ManPage.text(spec.summary)), "\(spec.name) has no section")
            for option in spec.options {
                XCTAssertTrue(page.contains("\\fB\\-\\-\(ManPage.text(option.name))\\fR"), "\(spec.name): --\(option.name) missing")
                XCTAssertTrue(page.contains(ManPage.text(option.help)), "\(spec.name): help of --\(option.name) missing")
            }
            XCTAssertFalse(spec.examples.isEmpty, "\(spec.name) has no example")
            for (example, what) in spec.examples {
                XCTAssertTrue(page.contains("\\fB" + ManPage.text(example) + "\\fR\n" + ManPage.text(what)), "example missing: \(example)")
            }
        }
        for option in GlobalOptions.all {
            XCTAssertTrue(page.contains("\\fB\\-\\-\(ManPage.text(option.name))\\fR"), "global --\(option.name) missing")
        }
    }

    func testEveryEnvironmentVariableAndExitStatusIsDocumented() {
        for (name, _, meaning) in Settings.documentation {
            XCTAssertTrue(page.contains(".TP\n\\fB\(ManPage.text(name))\\fR\n\(ManPage.text(meaning))."), "\(name) missing")
        }
        for status in ExitStatus.allCases {
            XCTAssertTrue(page.contains(".TP\n\\fB\(status.rawValue)\\fR\n\(ManPage.text(status.meaning))\n"), "exit status \(status) missing")
        }
    }

    func testTextIsEscapedForRoff() {
        XCTAssertEqual(ManPage.text("--vault"), "\\-\\-vault")
        XCTAssertEqual(ManPage.text("a\\b"), "a\\eb")
        XCTAssertEqual(ManPage.text(".hidden"), "\\&.hidden")
        XCTAssertEqual(ManPage.text("'#3'"), "\\(aq#3\\(aq")
        XCTAssertEqual(ManPage.text("~/x ^ `y`"), "\\(ti/x \\(ha \\(gay\\(ga")
        XCTAssertEqual(ManPage.text("a\u{1B}[31mb"), "a[31mb", "control characters are dropped")
        XCTAssertEqual(ManPage.text("a•é…—"), "a\\(bu\\[u00E9]...\\(em")
        XCTAssertEqual(ManPage.text("x\ny"), "x y")
    }

    func testNoTextLineStartsWithARoffControlCharacterOrHoldsARawHyphenOrNonASCII() {
        for line in page.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix(".") {
                let known = [".\\\"", ".TH ", ".SH ", ".SS ", ".TP", ".PP", ".br", ".nf", ".fi"]
                XCTAssertTrue(known.contains { line.hasPrefix($0) }, "unexpected request: \(line)")
                continue
            }
            XCTAssertFalse(line.hasPrefix("'"), "a text line starts with a quote: \(line)")
            XCTAssertTrue(line.unicodeScalars.allSatisfy { $0.isASCII }, "non-ASCII in: \(line)")
            let unescapedHyphen = line.replacingOccurrences(of: "\\-", with: "").contains("-")
            XCTAssertFalse(unescapedHyphen, "unescaped hyphen in: \(line)")
        }
    }

    /// groff itself, with every warning on, must have nothing to say about the page.
    func testGroffRendersThePageWithoutWarnings() throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/groff") else {
            throw XCTSkip("groff is not installed (scripts/setup.sh installs groff-base)")
        }
        let result = try ProgramRun.run("/usr/bin/groff", ["-man", "-Tutf8", "-ww", "-z"], input: page + "\n")
        XCTAssertEqual(result.status, 0)
        XCTAssertEqual(result.stderr, "", "groff warns about the man page")
        let ascii = try ProgramRun.run("/usr/bin/groff", ["-man", "-Tascii", "-ww", "-z"], input: page + "\n")
        XCTAssertEqual(ascii.stderr, "", "groff warns about the man page on an ASCII terminal")
        let rendered = try ProgramRun.run("/usr/bin/groff", ["-man", "-Tutf8", "-P-cbou"], input: page)
        XCTAssertTrue(rendered.stdout.contains("pwnvault add ACCOUNT..."), "usage not rendered")
        XCTAssertTrue(rendered.stdout.contains("PWNVAULT_VAULT"))
    }
}
