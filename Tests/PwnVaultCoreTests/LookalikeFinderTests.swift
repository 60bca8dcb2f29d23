import Foundation
@testable import PwnVaultCore
import TestSupport
import XCTest

/// UTS #39 checks against Debian's real ICU (scripts/setup.sh installs it).
final class LookalikeFinderTests: XCTestCase {
    var checker: ICUSpoofChecker!

    override func setUpWithError() throws {
        checker = try ICUSpoofChecker.load()
    }

    func account(_ id: Int, _ raw: String) throws -> Account {
        let p = try AccountParser.parse(raw)
        return Account(id: id, entered: p.entered, normalized: p.normalized, kind: p.kind, label: nil, addedAt: Date(timeIntervalSince1970: 0))
    }

    func testTheLibraryIsDebiansWithItsVersionSuffix() {
        XCTAssertTrue(checker.path.contains("libicui18n.so."), checker.path)
        XCTAssertNotNil(checker.version)
        XCTAssertEqual(ICUSpoofChecker.majorVersion(fromFileName: "/usr/lib/x86_64-linux-gnu/libicui18n.so.72.1"), 72)
        XCTAssertEqual(ICUSpoofChecker.majorVersion(fromFileName: "libicui18n.so.76"), 76)
        XCTAssertNil(ICUSpoofChecker.majorVersion(fromFileName: "libicuuc.so.72"))
        XCTAssertNil(ICUSpoofChecker.majorVersion(fromFileName: "libicui18n.so"))
    }

    /// The checker frees ICU's caches (`u_cleanup`) before unloading it; LeakSanitizer found them lost
    /// at every `add` under scripts/sanitize.sh. ICU must still work when it is loaded again afterwards.
    func testICUWorksAgainAfterACheckerIsReleased() throws {
        let cyrillic = "\u{430}lice"
        XCTAssertTrue(checker.isSuspicious(cyrillic + "\u{6F}"))
        let skeleton = checker.skeleton(cyrillic)
        checker = nil   // close, u_cleanup, dlclose
        for _ in 0..<3 {
            let again = try ICUSpoofChecker.load()
            XCTAssertTrue(again.isSuspicious(cyrillic + "\u{6F}"))
            XCTAssertEqual(again.skeleton(cyrillic), skeleton)
            XCTAssertEqual(again.scripts(of: cyrillic).count, 2)
        }
    }

    func testTheThreeLookAlikesOfTheIssueAreFound() throws {
        var finder = LookalikeFinder(checker: checker, existing: [try account(1, "alice@example.com")])
        let cyrillicA = try XCTUnwrap(finder.examine(try account(2, "\u{430}lice@example.com")))
        XCTAssertEqual(cyrillicA.resembles.map(\.id), [1])
        XCTAssertEqual(Set(cyrillicA.mixedScripts), ["Latin", "Cyrillic"])
        let inDomain = try XCTUnwrap(finder.examine(try account(3, "alice@ex\u{430}mple.com")))
        XCTAssertEqual(inDomain.resembles.map(\.id), [1, 2], "also like the one added just before")
        XCTAssertEqual(Set(inDomain.mixedScripts), ["Latin", "Cyrillic"])
    }

    /// UTS #39 restriction levels are per identifier: a part in one script is not mixed, whatever
    /// script that is. An all-Cyrillic address is therefore no warning by itself, but one whose every
    /// letter has a Latin twin (с о р у @ ѕ р а с е . с х) looks like that twin, and is reported as such.
    func testAnAllCyrillicAddressMixesNoScriptButLooksLikeItsLatinTwin() throws {
        var empty = LookalikeFinder(checker: checker, existing: [])
        XCTAssertNil(empty.examine(try account(1, "иван@пример.рф")), "Russian written in Cyrillic is not suspicious")
        let cyrillic = "\u{441}\u{43E}\u{440}\u{443}@\u{455}\u{440}\u{430}\u{441}\u{435}.\u{441}\u{445}"
        XCTAssertNil(empty.examine(try account(2, cyrillic)), "nothing like it in the vault yet")
        var finder = LookalikeFinder(checker: checker, existing: [try account(1, "copy@space.cx")])
        let found = try XCTUnwrap(finder.examine(try account(2, cyrillic)))
        XCTAssertEqual(found.resembles, [Lookalike.Match(id: 1, scripts: ["Latin"])])
        XCTAssertEqual(found.mixedScripts, [])
        XCTAssertEqual(found.scripts, ["Cyrillic"])
    }

    func testAPlainASCIIVaultHasNoWarnings() throws {
        let accounts = try ["alice@example.com", "bob_the_builder", "+44 7700 900123", "carol.smith+news@example.org",
                            "dave-1984", "erin@sub.example.co.uk"].enumerated().map { try account($0.offset + 1, $0.element) }
        var finder = LookalikeFinder(checker: checker, existing: [])
        for a in accounts { XCTAssertNil(finder.examine(a), a.normalized) }
    }

    func testOneScriptPerPartAndLatinWithHanAreFine() throws {
        var finder = LookalikeFinder(checker: checker, existing: [])
        for raw in ["jörg+news@münchen.de", "用户@例子.广告", "tanaka田中@example.jp", "ivan@пример.рф", "Ζωή", "пользователь"] {
            XCTAssertNil(finder.examine(try account(1, raw)), raw)
        }
    }

    func testMixedScriptsWithoutATwinInTheVaultAreStillReported() throws {
        var finder = LookalikeFinder(checker: checker, existing: [])
        let found = try XCTUnwrap(finder.examine(try account(1, "p\u{430}ypal")))
        XCTAssertEqual(found.resembles, [])
        XCTAssertEqual(Set(found.mixedScripts), ["Latin", "Cyrillic"])
    }

    /// The ASCII shortcut in `skeleton` must agree with ICU, character by character and on whole strings.
    func testTheASCIIShortcutGivesICUsSkeleton() {
        var samples = (1..<128).map { String(UnicodeScalar(UInt8($0))) }
        samples += ["alice@example.com", "rn@m.com", "modern", "a1ice@examp1e.corn", "Il1|", "0O.o", "vv-w__",
                    "carol.smith+news@example.org", "x!#$%&'*+-/=?^_`{|}~.y"]
        var generator = SplitMix64(seed: 0x600D)
        for _ in 0..<500 {
            samples.append(String((0..<Int.random(in: 1...24, using: &generator)).map { _ in
                Character(UnicodeScalar(UInt8.random(in: 0x21...0x7E, using: &generator)))
            }))
        }
        for text in samples {
            XCTAssertEqual(checker.skeleton(text), checker.icuSkeleton(text), text.debugDescription)
        }
    }

    func testAMissingLibraryIsReportedNotFatal() {
        XCTAssertThrowsError(try ICUSpoofChecker.load(candidates: ["/nonexistent/libicui18n.so.72"])) { e in
            XCTAssertTrue(String(describing: e).contains("could not be used"), "\(e)")
        }
        XCTAssertThrowsError(try ICUSpoofChecker.load(candidates: [])) { e in
            XCTAssertTrue(String(describing: e).contains("not installed"), "\(e)")
        }
        XCTAssertEqual(ICUSpoofChecker.systemLibraryFiles(folders: ["/nonexistent"]), [])
    }
}
