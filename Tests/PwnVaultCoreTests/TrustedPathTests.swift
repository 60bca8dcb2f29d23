import Foundation
@testable import PwnVaultCore
import TestSupport
import XCTest

/// Issue 30: the rule for files loaded from beside the binary, the catalog header check, the language
/// names gettext tries, and the sanitiser translations pass through.
final class TrustedPathTests: XCTestCase {
    private var dir: String!

    override func setUpWithError() throws {
        dir = NSTemporaryDirectory() + "pwnvault-trust-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: dir + "/a/b", withIntermediateDirectories: true)
        chmod(dir, 0o700); chmod(dir + "/a", 0o755); chmod(dir + "/a/b", 0o755)
        FileManager.default.createFile(atPath: dir + "/a/b/f", contents: Data("x".utf8), attributes: [.posixPermissions: 0o644])
    }

    override func tearDown() { try? FileManager.default.removeItem(atPath: dir) }

    func testAFileOfTheUserInFoldersOnlyTheUserOrRootMayWritePasses() {
        XCTAssertNil(TrustedPath.checkFile(dir + "/a/b/f"))
        XCTAssertNil(TrustedPath.checkFolder(dir + "/a/b"))
        // /tmp is sticky: it may be on the way.
        XCTAssertNil(TrustedPath.checkFile(dir + "/a/./b/../b/f"))
    }

    /// Two libraries loaded one after the other through descriptors of the same number (the first one
    /// closed, the lowest free number given again): each handle is its own library. The loader matches
    /// objects by name, and both were `/proc/self/fd/N`: the second load returned the first library
    /// (CI: the phone shim after ICU "has no pwv_phone_format_e164").
    func testALibraryLoadedThroughADescriptorIsThatLibraryEvenWhenTheNumberComesAgain() throws {
        func real(_ path: String) -> String { URL(fileURLWithPath: path).resolvingSymlinksInPath().path }
        let sodiumPath = real("/usr/lib/x86_64-linux-gnu/libsodium.so.23"), pslPath = real("/usr/lib/x86_64-linux-gnu/libpsl.so.5")
        guard FileManager.default.fileExists(atPath: sodiumPath), FileManager.default.fileExists(atPath: pslPath) else {
            throw XCTSkip("libsodium and libpsl (scripts/setup.sh installs them) are not at Debian's amd64 paths")
        }
        var first: Int32 = -1
        do {
            let descriptor = try TrustedPath.open(sodiumPath).get()
            first = descriptor.raw
            let sodium = try SharedLibrary.open(descriptor: descriptor).get()
            XCTAssertNotNil(sodium.symbol("sodium_init", as: UnsafeRawPointer.self))
        }
        let descriptor = try TrustedPath.open(pslPath).get()
        XCTAssertEqual(descriptor.raw, first, "the number is given again (else this test proves nothing)")
        let psl = try SharedLibrary.open(descriptor: descriptor).get()
        XCTAssertNotNil(psl.symbol("psl_builtin", as: UnsafeRawPointer.self), "the second handle is libpsl")
        XCTAssertNil(psl.symbol("sodium_init", as: UnsafeRawPointer.self), "not libsodium again")
    }

    func testEachFailureNamesWhatFailed() throws {
        chmod(dir + "/a", 0o775)
        XCTAssertEqual(TrustedPath.checkFile(dir + "/a/b/f"), .writableByOthers(path: dir + "/a", mode: 0o775))
        XCTAssertEqual(TrustedPath.checkFile(dir + "/a/b/f")?.reason, "\(dir!)/a may be written by others than its owner (mode 0775)")
        chmod(dir + "/a", 0o755)
        chmod(dir + "/a/b/f", 0o666)
        XCTAssertEqual(TrustedPath.checkFile(dir + "/a/b/f"), .writableByOthers(path: dir + "/a/b/f", mode: 0o666))
        chmod(dir + "/a/b/f", 0o644)
        try FileManager.default.createSymbolicLink(atPath: dir + "/a/b/link", withDestinationPath: dir + "/a/b/f")
        XCTAssertEqual(TrustedPath.checkFile(dir + "/a/b/link"), .symbolicLink(path: dir + "/a/b/link"))
        XCTAssertEqual(TrustedPath.checkFile(dir + "/a/b/none"), .missing(path: dir + "/a/b/none"))
        XCTAssertEqual(TrustedPath.checkFile(dir + "/a/b"), .notRegularFile(path: dir + "/a/b"))
        // Another user (checked as if we were uid 4242: root's files pass, ours do not).
        if geteuid() != 0 {
            XCTAssertEqual(TrustedPath.checkFile(dir + "/a/b/f", user: 4242), .foreignOwner(path: dir, owner: UInt32(geteuid())))
        } else {
            XCTAssertNil(TrustedPath.checkFile(dir + "/a/b/f", user: 4242))
            XCTAssertEqual(chown(dir + "/a/b", 65534, 65534), 0)
            XCTAssertEqual(TrustedPath.checkFile(dir + "/a/b/f"), .foreignOwner(path: dir + "/a/b", owner: 65534))
            XCTAssertEqual(TrustedPath.checkFile(dir + "/a/b/f", user: 65534), nil)
        }
    }

    func testPluralFormsDividingByAnythingButANonZeroConstantAreRefused() {
        for safe in [" nplurals=2; plural=n != 1;", "nplurals=3; plural=n%10==1 && n%100!=11 ? 0 : n%10>=2 ? 1 : 2;",
                     "nplurals=1; plural=0;", "nplurals=2; plural=n / 10 > 1;"] {
            XCTAssertTrue(MessageCatalogHeader.dividesSafely(safe), safe)
        }
        for bad in ["nplurals=2; plural=n/0;", "nplurals=2; plural=n%0;", "nplurals=2; plural=n % 00;", "nplurals=2; plural=n/n;",
                    "nplurals=2; plural=n%(n-1);", "nplurals=2; plural=n/ ;", "nplurals=2; plural=n%10n;"] {
            XCTAssertFalse(MessageCatalogHeader.dividesSafely(bad), bad)
        }
    }

    func testTheHeaderIsReadFromACompiledCatalog() throws {
        let mo = PackageRoot.url.appendingPathComponent(".build/locale/zh_CN/LC_MESSAGES/pwnvault.mo").path
        guard let bytes = FileManager.default.contents(atPath: mo) else { throw XCTSkip("run scripts/build-locale.sh first") }
        let header = try XCTUnwrap(MessageCatalogHeader.text(of: Array(bytes)))
        XCTAssertTrue(header.contains("Language: zh_CN"), header)
        XCTAssertEqual(MessageCatalogHeader.pluralForms(in: header)?.trimmingCharacters(in: .whitespaces), "nplurals=1; plural=0;")
        XCTAssertNil(MessageCatalogHeader.text(of: Array("not a catalog at all".utf8)))
        XCTAssertNil(MessageCatalogHeader.text(of: Array(bytes.prefix(30))))
    }

    func testTheLanguageNamesAreGettextsMostSpecificFirst() {
        XCTAssertEqual(Gettext.languageNames(locale: "zh_CN.UTF-8", environment: [:]),
                       ["zh_CN.UTF-8", "zh_CN.utf8", "zh_CN", "zh.UTF-8", "zh.utf8", "zh"])
        XCTAssertEqual(Gettext.languageNames(locale: "C", environment: ["LANGUAGE": "zh_CN"]), [])
        XCTAssertEqual(Gettext.languageNames(locale: "C.UTF-8", environment: ["LANGUAGE": "zh_CN"]), ["zh_CN", "zh"])
        XCTAssertEqual(Gettext.languageNames(locale: "en_GB.UTF-8", environment: ["LANGUAGE": "zh_CN:de"]), ["zh_CN", "zh", "de"])
        XCTAssertEqual(Gettext.languageNames(locale: "de_DE@euro", environment: [:]), ["de_DE@euro", "de_DE", "de@euro", "de"])
        XCTAssertEqual(Gettext.languageNames(locale: "x", environment: ["LANGUAGE": "../../etc:zh"]), ["zh"])
    }

    func testTranslationsLoseControlsAndBidiButKeepLinesAndTabs() {
        XCTAssertEqual(Sanitizer.translation("a\u{1B}]0;T\u{07}b\u{1B}[2Jc\u{9B}31md\u{202E}e\u{1B}P1$q\u{1B}\\f\n\tg"), "abcde" + "f\n\tg")
    }
}
