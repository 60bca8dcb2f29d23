import Foundation
import TestSupport
import XCTest

/// The layout rules a reader relies on, checked on the source tree: `Glibc` only behind
/// `Sources/PwnVaultCore/Platform/` (and in `main.swift`, which exits), and each C library imported by
/// exactly one Swift file, its wrapper.
final class ImportRulesTests: XCTestCase {
    static let sources = PackageRoot.url.appendingPathComponent("Sources")

    /// Every Swift file under Sources/, as (path relative to Sources/, text).
    static func swiftFiles() throws -> [(path: String, text: String)] {
        let root = sources.path
        guard let walker = FileManager.default.enumerator(atPath: root) else { return [] }
        var files: [(String, String)] = []
        while let relative = walker.nextObject() as? String {
            guard relative.hasSuffix(".swift") else { continue }
            files.append((relative, try String(contentsOfFile: root + "/" + relative, encoding: .utf8)))
        }
        XCTAssertFalse(files.isEmpty, "no Swift files found under \(root)")
        return files.sorted { $0.0 < $1.0 }
    }

    /// The modules a file imports (`import X`, `internal import X`, `@_implementationOnly import X`, …).
    static func imports(_ text: String) -> Set<String> {
        var found: Set<String> = []
        for line in text.split(separator: "\n", omittingEmptySubsequences: true) {
            let words = line.split(separator: " ").map(String.init)
            guard let at = words.firstIndex(of: "import"), at + 1 < words.count,
                  words[..<at].allSatisfy({ ["public", "package", "internal", "private", "fileprivate"].contains($0) || $0.hasPrefix("@") })
            else { continue }
            found.insert(String(words[at + 1].split(separator: ".")[0]))
        }
        return found
    }

    func testGlibcIsImportedOnlyInPlatformAndMain() throws {
        let allowed = { (path: String) in path.hasPrefix("PwnVaultCore/Platform/") || path == "pwnvault/main.swift" }
        let offenders = try Self.swiftFiles().filter { Self.imports($0.text).contains("Glibc") && !allowed($0.path) }.map(\.path)
        XCTAssertEqual(offenders, [], "Glibc belongs in Sources/PwnVaultCore/Platform (a small Swift-typed wrapper there)")
        // The rule holds because the check sees imports at all: Platform does import Glibc.
        XCTAssertTrue(try Self.swiftFiles().contains { $0.path.hasPrefix("PwnVaultCore/Platform/") && Self.imports($0.text).contains("Glibc") })
    }

    /// The C targets under Sources/ (a folder with a module map or C sources), and the one Swift file
    /// that may import each. CPhoneShim is loaded with dlopen (PhoneNumbering) and CGLibDeadline is
    /// used only by the other shims, so no Swift file imports either.
    static let wrappers: [String: String?] = [
        "CSodium": "PwnVaultCore/Crypto/Sodium.swift",
        "CSecretShim": "PwnVaultCore/Keyring/SecretServiceKeyring.swift",
        "CHTTPShim": "PwnVaultCore/HIBP/CurlTransport.swift",
        "CSpawnShim": "PwnVaultCore/Platform/SpawnActions.swift",
        "CIconvShim": "PwnVaultCore/Contacts/CharsetDecoder.swift",
        "CIntlShim": "PwnVaultCore/Platform/Gettext.swift",
        "CNotifyShim": "PwnVaultCore/Desktop/DesktopNotifier.swift",
        "CPhoneShim": nil,
        "CGLibDeadline": nil,
    ]

    func testEachCLibraryIsImportedByExactlyItsWrapper() throws {
        let folders = try FileManager.default.contentsOfDirectory(atPath: Self.sources.path).filter { name in
            let files = (try? FileManager.default.subpathsOfDirectory(atPath: Self.sources.path + "/" + name)) ?? []
            return !files.contains { $0.hasSuffix(".swift") }
        }
        XCTAssertEqual(Set(folders), Set(Self.wrappers.keys), "a C target was added or removed: name its one Swift wrapper here")
        let files = try Self.swiftFiles()
        for (module, wrapper) in Self.wrappers {
            let importers = files.filter { Self.imports($0.text).contains(module) }.map(\.path)
            XCTAssertEqual(importers, wrapper.map { [$0] } ?? [], "\(module) must be imported by exactly one Swift file, its wrapper")
        }
    }

    func testTheImportReaderSeesEveryForm() {
        XCTAssertEqual(Self.imports("import Glibc\ninternal import CSodium\n@_implementationOnly import CX\n// import Nope\nlet x = 1"),
                       ["Glibc", "CSodium", "CX"])
    }
}
