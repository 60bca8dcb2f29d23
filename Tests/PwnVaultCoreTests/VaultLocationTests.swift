import XCTest
import PwnVaultCore

/// Where the vault is looked for, the paths derived from it, and how it is shown.
final class VaultLocationTests: XCTestCase {
    private func resolve(_ explicit: String? = nil, _ environment: [String: String],
                         cwd: String = "/work/here") throws -> VaultLocation {
        try VaultLocation.resolve(explicitPath: explicit, environment: environment, currentDirectory: cwd)
    }

    // MARK: Precedence

    func testTheCommandLineWinsOverEverything() throws {
        let l = try resolve("/flag/vault", ["PWNVAULT_VAULT": "/env/vault", "XDG_DATA_HOME": "/xdg", "HOME": "/home/al"])
        XCTAssertEqual(l.path, "/flag/vault")
        XCTAssertEqual(l.source, .commandLine)
    }

    func testTheEnvironmentVariableWinsOverXDGAndHome() throws {
        let l = try resolve(nil, ["PWNVAULT_VAULT": "/env/vault", "XDG_DATA_HOME": "/xdg", "HOME": "/home/al"])
        XCTAssertEqual(l.path, "/env/vault")
        XCTAssertEqual(l.source, .environment)
    }

    func testXDGDataHomeWinsOverHome() throws {
        let l = try resolve(nil, ["XDG_DATA_HOME": "/xdg", "HOME": "/home/al"])
        XCTAssertEqual(l.path, "/xdg/pwnvault/vault")
        XCTAssertEqual(l.source, .dataHome)
    }

    func testHomeIsTheLastResort() throws {
        let l = try resolve(nil, ["HOME": "/home/al"])
        XCTAssertEqual(l.path, "/home/al/.local/share/pwnvault/vault")
        XCTAssertEqual(l.source, .home)
        XCTAssertEqual(l.displayPath, "~/.local/share/pwnvault/vault")
    }

    func testARelativeXDGDataHomeIsIgnoredAsTheSpecSays() throws {
        XCTAssertEqual(try resolve(nil, ["XDG_DATA_HOME": "data", "HOME": "/home/al"]).path, "/home/al/.local/share/pwnvault/vault")
        XCTAssertEqual(try resolve(nil, ["XDG_DATA_HOME": "", "HOME": "/home/al"]).path, "/home/al/.local/share/pwnvault/vault")
        XCTAssertEqual(try resolve(nil, ["XDG_DATA_HOME": "/xdg/", "HOME": "/home/al"]).path, "/xdg/pwnvault/vault")
    }

    func testNoHomeAndNoXDGMeansNoLocationUnlessOneIsGiven() throws {
        XCTAssertThrowsError(try resolve(nil, [:])) { error in
            XCTAssertEqual(error as? VaultStoreError, .noLocation)
            XCTAssertEqual((error as? VaultStoreError)?.hint, "pass --vault PATH or set PWNVAULT_VAULT")
            XCTAssertEqual((error as? VaultStoreError)?.exitStatus, .usage)
        }
        XCTAssertThrowsError(try resolve(nil, ["HOME": "relative/home"])) { XCTAssertEqual($0 as? VaultStoreError, .noLocation) }
        XCTAssertEqual(try resolve("/v", [:]).path, "/v")
    }

    // MARK: Path forms

    func testRelativeAndTildePathsBecomeAbsolute() throws {
        XCTAssertEqual(try resolve("vaults/work", [:]).path, "/work/here/vaults/work")
        XCTAssertEqual(try resolve("./work", [:], cwd: "/").path, "/work")
        XCTAssertEqual(try resolve("~/vaults/work", ["HOME": "/home/al"]).path, "/home/al/vaults/work")
        XCTAssertEqual(try resolve(nil, ["PWNVAULT_VAULT": "~/v", "HOME": "/home/al"]).path, "/home/al/v")
        XCTAssertEqual(try resolve(nil, ["PWNVAULT_VAULT": "rel/v"]).path, "/work/here/rel/v")
        XCTAssertThrowsError(try resolve("~/v", [:])) { error in
            XCTAssertEqual(error as? VaultStoreError, .invalidPath(path: "~/v", reason: "it starts with ~ but HOME is not set"))
        }
    }

    func testPathsAreNormalisedButDotDotIsKept() throws {
        XCTAssertEqual(try VaultLocation(path: "//a/./b//vault").path, "/a/b/vault")
        XCTAssertEqual(try VaultLocation(path: "/a/../b/vault").path, "/a/../b/vault")
    }

    func testPathsThatCannotNameAFileAreRefused() {
        let cases: [(String, String)] = [
            ("", "it is empty"), ("/", "it names a folder, not a file"), ("/data/", "it names a folder, not a file"),
            ("/data/.", "it names a folder, not a file"), ("/data/..", "it names a folder, not a file"),
        ]
        for (given, reason) in cases {
            XCTAssertThrowsError(try resolve(given, [:]), given) { error in
                XCTAssertEqual(error as? VaultStoreError, .invalidPath(path: given, reason: reason))
                XCTAssertEqual((error as? VaultStoreError)?.exitStatus, .usage)
            }
        }
        XCTAssertThrowsError(try VaultLocation(path: "relative")) { error in
            XCTAssertEqual(error as? VaultStoreError, .invalidPath(path: "relative", reason: "it is not an absolute path"))
        }
    }

    // MARK: Derived paths

    func testCompanionFilesLiveInTheSameFolder() throws {
        let l = try VaultLocation(path: "/home/al/.local/share/pwnvault/vault", home: "/home/al")
        XCTAssertEqual(l.folder, "/home/al/.local/share/pwnvault")
        XCTAssertEqual(l.fileName, "vault")
        XCTAssertEqual(l.backupPath, "/home/al/.local/share/pwnvault/vault.bak")
        XCTAssertEqual(l.lockPath, "/home/al/.local/share/pwnvault/vault.lock")
        XCTAssertEqual(l.temporaryTemplate, "/home/al/.local/share/pwnvault/.vault.tmp-XXXXXX")
        XCTAssertEqual(l.temporaryPrefix, "/home/al/.local/share/pwnvault/.vault.tmp-")

        let custom = try VaultLocation(path: "/srv/work.pwv")
        XCTAssertEqual(custom.folder, "/srv")
        XCTAssertEqual(custom.backupPath, "/srv/work.pwv.bak")
        XCTAssertEqual(custom.lockPath, "/srv/work.pwv.lock")
        XCTAssertEqual(custom.temporaryTemplate, "/srv/.work.pwv.tmp-XXXXXX")
    }

    func testAVaultAtTheRootHasTheRootAsItsFolder() throws {
        let l = try VaultLocation(path: "/vault")
        XCTAssertEqual(l.folder, "/")
        XCTAssertEqual(l.backupPath, "/vault.bak")
    }

    // MARK: Display

    func testDisplayShortensTheHomeFolderOnlyAtAComponentBoundary() throws {
        let l = try VaultLocation(path: "/home/al/v", home: "/home/al/")
        XCTAssertEqual(l.displayPath, "~/v")
        XCTAssertEqual(l.displayFolder, "~")
        XCTAssertEqual(l.display("/home/alice/v"), "/home/alice/v")
        XCTAssertEqual(l.display("/srv/v"), "/srv/v")
        XCTAssertEqual(String(describing: l), "~/v")
        XCTAssertEqual(try VaultLocation(path: "/home/al/v").displayPath, "/home/al/v", "no home, no shortening")
        XCTAssertEqual(try VaultLocation(path: "/v", home: "/").displayPath, "/v", "a home of / shortens nothing")
    }

    func testDisplayEscapesControlCharactersInNames() throws {
        let l = try VaultLocation(path: "/tmp/\u{1B}]0;pwned\u{07}/v\u{202E}txt", home: nil)
        XCTAssertFalse(l.displayPath.unicodeScalars.contains { $0.value < 0x20 || $0.value == 0x202E })
        XCTAssertEqual(l.displayPath, "/tmp/\\u{1b}]0;pwned\\u{7}/v\\u{202e}txt")
    }
}
