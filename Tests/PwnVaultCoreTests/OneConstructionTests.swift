import Foundation
import TestSupport
import XCTest

/// Issue 31: one door to keyed HIBP work. The sources (tests aside) build the request schedule, the
/// retry policy and the HTTP transport in one place each, and build a `CheckScheduler` only inside
/// the check session; no command file reads another command's statics. Read from the files, so a
/// second construction added anywhere fails here.
final class OneConstructionTests: XCTestCase {
    /// Every Swift source under Sources/, by path relative to the package, its comments removed.
    private func sources() throws -> [(path: String, code: String)] {
        let root = PackageRoot.url.appendingPathComponent("Sources")
        let walker = try XCTUnwrap(FileManager.default.enumerator(at: root, includingPropertiesForKeys: nil))
        var found: [(String, String)] = []
        for case let url as URL in walker where url.pathExtension == "swift" {
            let text = try String(contentsOf: url, encoding: .utf8)
            let code = text.split(separator: "\n", omittingEmptySubsequences: false).map { line -> Substring in
                // A line comment (documentation included) is not code; "//" inside a string is kept
                // only by lines that have a quote before it.
                guard let r = line.range(of: "//") else { return line }
                return line[..<r.lowerBound].contains("\"") ? line : line[..<r.lowerBound]
            }.joined(separator: "\n")
            found.append((url.path.replacingOccurrences(of: PackageRoot.url.path + "/", with: ""), code))
        }
        XCTAssertGreaterThan(found.count, 100, "the sources were found")
        return found
    }

    /// Where `pattern` (a regular expression) matches in the sources, as "path" once per match.
    private func matches(_ pattern: String) throws -> [String] {
        let regex = try NSRegularExpression(pattern: pattern)
        return try sources().flatMap { path, code in
            regex.matches(in: code, range: NSRange(code.startIndex..., in: code)).map { _ in path }
        }
    }

    func testTheScheduleTheRetryPolicyAndTheTransportAreEachBuiltOnce() throws {
        XCTAssertEqual(try matches(#"\bRequestSchedule\("#), ["Sources/PwnVaultCore/CheckSession/CheckSession.swift"])
        XCTAssertEqual(try matches(#"\bRetryPolicy\("#), ["Sources/PwnVaultCore/CheckSession/CheckSession.swift"])
        XCTAssertEqual(try matches(#"\bCheckScheduler\("#), ["Sources/PwnVaultCore/CheckSession/CheckSession.swift"])
        XCTAssertEqual(try matches(#"\bCurlTransport\("#), ["Sources/PwnVaultCLI/CLI.swift"])
    }

    /// A client that carries the API key is built by the check session alone: every keyed request
    /// (`doctor`'s subscription question too) goes through it. The public client (no key) is not keyed work.
    func testOnlyTheCheckSessionBuildsAKeyedClient() throws {
        XCTAssertEqual(try matches(#"\bHIBPClient\((?![^)]*apiKey: nil)"#), ["Sources/PwnVaultCore/CheckSession/CheckSession.swift"])
    }

    func testNoCommandFileReadsAnotherCommandsStatics() throws {
        let commands = try sources().filter { $0.path.hasPrefix("Sources/PwnVaultCLI/Commands/") }
        let names = commands.compactMap { path, _ -> String? in
            let file = (path as NSString).lastPathComponent
            return file.hasSuffix("Command.swift") ? String(file.dropLast(".swift".count)) : nil
        }
        XCTAssertGreaterThan(names.count, 20)
        var reads: [String] = []
        for (path, code) in commands {
            let own = ((path as NSString).lastPathComponent as NSString).deletingPathExtension
            for name in names where name != own {
                // `XCommand.self` (the command list) names a type; `XCommand.member` reads its statics.
                let regex = try NSRegularExpression(pattern: #"\b\#(name)\.(?!self\b)[a-z]\w*"#)
                for m in regex.matches(in: code, range: NSRange(code.startIndex..., in: code)) {
                    reads.append("\(path): \((code as NSString).substring(with: m.range))")
                }
            }
        }
        XCTAssertEqual(reads, [], "a command file reads another command's statics")
    }
}
