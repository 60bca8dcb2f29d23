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

    /// One lock idiom (README, Layout): state shared between threads lives in a `Locked<Value>`. A bare
    /// `Lock` is built only where it guards an action rather than a value, each listed here with why; no
    /// other lock type is used, and no other class declares itself `@unchecked Sendable` (the
    /// hand-written lock boxes were such classes).
    func testSharedStateIsKeptInLockedValues() throws {
        let bareLocks: [String: String] = [
            "Sources/PwnVaultCore/Platform/Lock.swift": "Locked's own lock",
            "Sources/PwnVaultCore/Screen/ScreenGuard.swift": "released on other paths than the one that took it",
            "Sources/PwnVaultCore/Platform/FatalSignals.swift": "arming and disarming the signal handlers, with signals blocked",
            "Sources/PwnVaultCore/Lookalikes/ICUSpoofChecker.swift": "a C spoof checker and its buffer, used by one caller at a time",
        ]
        XCTAssertEqual(Set(try matches(#"\bLock\(\)"#)), Set(bareLocks.keys), "a Lock built outside the listed places: keep the state in a Locked")
        XCTAssertEqual(Set(try matches(#"\b(NSLock|NSRecursiveLock|NSCondition|pthread_mutex_\w+|pthread_rwlock_\w+|Mutex<|os_unfair_lock)"#)),
                       ["Sources/PwnVaultCore/Platform/Lock.swift"], "another lock type: use Lock and Locked")
        let unchecked: [String: String] = [
            "Lock": "a pthread mutex at a fixed address", "Locked": "the value only under its lock",
            "SecretBytes": "sodium memory, read-only after it is filled", "PasswordHash": "immutable after it is built",
            "PhoneNumberLibrary": "a loaded C library's immutable function table",
            "ICUCountryNames": "a loaded C library's immutable function table (ICU's display names are thread-safe)",
            "CheckSession": "immutable; the vault session only used by the saver's queue during a run",
            "CheckResultSaver": "the vault session only used on its serial queue; the rest Locked",
            "ScreenGuard": "its Lock, released on other paths than the one that took it",
            "PendingLine": "one thread: the command's (reveal's next prompt)",
        ]
        let regex = try NSRegularExpression(pattern: #"\bclass\s+(\w+)[^{]*@unchecked\s+Sendable"#)
        var found: Set<String> = []
        for (_, code) in try sources() {
            for m in regex.matches(in: code, range: NSRange(code.startIndex..., in: code)) {
                found.insert((code as NSString).substring(with: m.range(at: 1)))
            }
        }
        XCTAssertEqual(found, Set(unchecked.keys), "an @unchecked Sendable class not reviewed: keep its mutable state in a Locked")
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
            // `CheckCommand+Options.swift` is check's own file, as `CheckCommand.swift` is.
            let own = String(((path as NSString).lastPathComponent as NSString).deletingPathExtension
                .split(separator: "+", maxSplits: 1)[0])
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
