import Foundation
import XCTest

/// The disclosure matrix again, every command in every output mode over the same hostile vault, under
/// LANG=zh_CN.UTF-8 (issue 24): masking and redaction do not depend on the language. And the machine
/// interfaces do not either: for every command of the matrix, `--json` output and the exit status are
/// byte for byte those of LANG=C.
final class ChineseDisclosureMatrixTests: DisclosureMatrixTests {
    override class func languageEnvironment() throws -> [String: String] { try ChineseLocale.chinese() }
    override class var speaksEnglish: Bool { false }

    /// The matrix's runs do speak Chinese, piped and on a terminal (the command-line errors are translated).
    override func setUpWithError() throws {
        try super.setUpWithError()
        XCTAssertTrue(s.run(["lst"]).stderr.contains("未知命令"), s.run(["lst"]).stderr)
        XCTAssertTrue(s.runOnTerminal(["lst"]).stdout.contains("未知命令"), s.runOnTerminal(["lst"]).stdout)
    }

    // Inherited and run here: testNoOutputModeDisclosesAnAccountASensitiveBreachOrAnEscape,
    // testEveryCommandIsInTheMatrix, testTheGateStillTellsWhatItMay (without its English sentences).

    /// Every invocation of the matrix with --json, and the errors a script meets, each run twice from the
    /// same copy of the sandbox's home (vault, caches, settings): once under LANG=C, once under
    /// LANG=zh_CN.UTF-8. Standard output and the exit status must be the same bytes; a JSON error object
    /// on stderr too. Only instants of the run itself (a check's time) are normalised, and status's
    /// "messages", which by design names the catalog loaded (LocalizationEndToEndTests checks it).
    func testJSONOutputAndExitStatusAreTheSameInEnglishAndChinese() throws {
        let english = try ChineseLocale.english(), chinese = try ChineseLocale.chinese()
        let snapshot = s.dir.appendingPathComponent("home-snapshot")
        try FileManager.default.copyItem(at: s.home, to: snapshot)
        func restore() throws {
            try FileManager.default.removeItem(at: s.home)
            try FileManager.default.copyItem(at: snapshot, to: s.home)
        }
        var invocations = Self.matrix.sorted { $0.key < $1.key }.flatMap { $0.value }
        invocations += [["reveal", "--unredacted", "--passphrase-file", s.passphraseFile], ["breaches"], ["breach", "Adobe"],
                        ["lst"], ["list", "--bogus"], ["show", "#9"], ["show"], ["ack", "nobody@example.com"], ["check", "#1", "--pastes"],
                        ["add", "eve@example.com", "--label", "eve@example.com"], ["list", "--status", "bogus"]]
        var withJSON = 0
        for args in invocations {
            let args = args.map { $0 == "@CONTACTS" ? contacts : $0 } + ["--json"]
            var runs: [RunResult] = []
            for language in [english, chinese] {
                try restore()
                runs.append(s.run(args, env: language))
            }
            let (c, zh) = (runs[0], runs[1])
            let what = args.joined(separator: " ")
            XCTAssertEqual(c.status, zh.status, "\(what): exit status\nC: \(c.all)\nzh: \(zh.all)")
            XCTAssertEqual(Self.normalised(c.stdout), Self.normalised(zh.stdout), "\(what): --json output differs")
            if (try? JSONSerialization.jsonObject(with: Data(c.stdout.utf8))) != nil { withJSON += 1 }
            if (try? JSONSerialization.jsonObject(with: Data(c.stderr.utf8))) != nil {
                XCTAssertEqual(Self.normalised(c.stderr), Self.normalised(zh.stderr), "\(what): the JSON error differs")
            }
        }
        XCTAssertGreaterThanOrEqual(withJSON, 20, "most runs printed JSON")
    }

    /// The output with every ISO 8601 instant within ten minutes of now (made by the run itself: a check's
    /// time) replaced by `<now>`; HIBP's dates and the fixtures' instants stay.
    static func normalised(_ text: String) -> String {
        let pattern = try! NSRegularExpression(pattern: #"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?(Z|[+-]\d\d:?\d\d)"#)
        let iso = ISO8601DateFormatter(), fractional = ISO8601DateFormatter()
        fractional.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        var result = text.replacingOccurrences(of: #"(?m)^  "messages" : "[^"\n]*",\n"#, with: "", options: .regularExpression)
        let text = result
        for match in pattern.matches(in: text, range: NSRange(text.startIndex..., in: text)).reversed() {
            guard let range = Range(match.range, in: text) else { continue }
            let stamp = String(text[range])
            guard let date = iso.date(from: stamp) ?? fractional.date(from: stamp), abs(date.timeIntervalSinceNow) < 600 else { continue }
            result.replaceSubrange(Range(match.range, in: result)!, with: "<now>")
        }
        return result
    }
}
