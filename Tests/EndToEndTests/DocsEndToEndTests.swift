import Foundation
import XCTest

/// The documentation says what the binary says: Docs/CLI.md holds every help screen verbatim.
final class DocsEndToEndTests: XCTestCase {
    func testCLIReferenceMatchesTheHelpTexts() throws {
        let doc = try String(contentsOf: Paths.root.appendingPathComponent("Docs/CLI.md"), encoding: .utf8)
        let env = ["PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"]
        let overview = Sandbox.exec(Paths.binary, ["--help"], input: nil, environment: env).stdout
        XCTAssertTrue(doc.contains("```\n" + overview + "```"), "Docs/CLI.md is stale: run scripts/gen-cli-doc.sh")
        let commands = overview.components(separatedBy: "COMMANDS:\n")[1].components(separatedBy: "\n\n")[0]
            .split(separator: "\n").map { $0.split(separator: " ")[0] }
        XCTAssertGreaterThanOrEqual(commands.count, 7)
        for command in commands {
            let help = Sandbox.exec(Paths.binary, ["help", String(command)], input: nil, environment: env).stdout
            XCTAssertTrue(doc.contains("## pwnvault \(command)\n\n```\n" + help + "```"),
                          "Docs/CLI.md is stale for '\(command)': run scripts/gen-cli-doc.sh")
        }
        for topic in ["exit-status", "environment"] {
            let help = Sandbox.exec(Paths.binary, ["help", topic], input: nil, environment: env).stdout
            XCTAssertTrue(doc.contains("## \(topic)\n\n```\n" + help + "```"), "Docs/CLI.md is stale for '\(topic)'")
        }
    }
}
