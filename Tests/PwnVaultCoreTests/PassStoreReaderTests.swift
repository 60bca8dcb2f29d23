import XCTest
@testable import PwnVaultCore

/// A `pass` store made with the real gpg (a fresh key in a private GNUPGHOME, no passphrase), read
/// through `PassStoreReader.gpgDecrypt` as an import would: the password line, the `login:`/`url:`
/// lines, the path where they are missing, and an entry encrypted to a key that is not there, skipped
/// with its reason while the rest are read.
final class PassStoreReaderTests: XCTestCase {
    private var root = ""
    private var gnupgHome = ""
    private var environment: [String: String] = [:]

    override func setUpWithError() throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/gpg") else { throw XCTSkip("gpg is not installed") }
        root = FileManager.default.temporaryDirectory.appendingPathComponent("pwv-pass-\(UUID().uuidString)").path
        gnupgHome = root + "/gnupg"
        try FileManager.default.createDirectory(atPath: gnupgHome, withIntermediateDirectories: true,
                                                attributes: [.posixPermissions: 0o700])
        environment = ["GNUPGHOME": gnupgHome, "PATH": "/usr/bin:/bin", "HOME": root]
        try gpg(["--quick-gen-key", "pass-owner@example.invalid", "default", "default", "never"])
        try gpg(["--quick-gen-key", "someone-else@example.invalid", "default", "default", "never"])
    }

    override func tearDownWithError() throws {
        _ = Subprocess.run("/usr/bin/gpgconf", arguments: ["--kill", "gpg-agent"], environment: environment, timeLimit: 10)
        try? FileManager.default.removeItem(atPath: root)
    }

    @discardableResult
    private func gpg(_ arguments: [String], input: [UInt8]? = nil) throws -> [UInt8] {
        let result = try XCTUnwrap(Subprocess.run("/usr/bin/gpg", arguments: ["--batch", "--yes", "--passphrase", ""] + arguments,
                                                  environment: environment, input: input, timeLimit: 60))
        XCTAssertEqual(result.termination, .exited(0), String(decoding: result.errorOutput, as: UTF8.self))
        return result.output
    }

    private func store(_ relative: String, _ text: String, to recipient: String = "pass-owner@example.invalid") throws {
        let path = root + "/store/" + relative
        try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try gpg(["--encrypt", "--recipient", recipient, "--output", path], input: Array(text.utf8))
    }

    func testAStoreIsReadWithTheUsersGPG() throws {
        try store("web/forum.example.com.gpg", "fixture-pw-1\nlogin: ann@example.com\nurl: https://forum.example.com/login\n")
        try store("web/shop.example.net/ann_s.gpg", "fixture-pw-5\nnotes: none\n")
        try store("Email/mail.example.com.gpg", "fixture-pw-6\nUser: ann@example.com\n")
        try store("router.gpg", "fixture-pw-4\nurl: http://192.168.1.1\nusername: admin")
        try store("web/old.example.com.gpg", "fixture-pw-7\n", to: "someone-else@example.invalid")
        try "x".write(toFile: root + "/store/.gpg-id", atomically: true, encoding: .utf8)
        try FileManager.default.createDirectory(atPath: root + "/store/.git", withIntermediateDirectories: true)
        try "ignored".write(toFile: root + "/store/.git/HEAD.gpg", atomically: true, encoding: .utf8)
        try gpg(["--delete-secret-and-public-key", "--yes", try fingerprint("someone-else@example.invalid")])

        XCTAssertTrue(LoginExportDetector.isPassStore(entries: try FileSystem.directoryEntries(root + "/store")))
        let reading = try PassStoreReader.read(folder: root + "/store", decrypt: PassStoreReader.gpgDecrypt(environment: environment))
        XCTAssertEqual(reading.format, .passStore)
        // Sorted paths: Email/mail…, router, web/forum…, web/old…, web/shop…/ann_s
        XCTAssertEqual(LoginExportFormatTests.table(reading).map { $0.components(separatedBy: " | ").prefix(2).joined(separator: " | ") }, [
            "example.com (mail.example.com) | ann@example.com",
            "<ipAddress> | admin",
            "example.com (forum.example.com) | ann@example.com",
            "example.net (shop.example.net) | ann_s",
        ])
        XCTAssertEqual(reading.logins.map(\.position), [.entry(1), .entry(2), .entry(3), .entry(5)])
        XCTAssertEqual(LoginExportFormatTests.skips(reading), ["#4 cannotDecrypt"])
        for (login, password) in zip(reading.logins, ["fixture-pw-6", "fixture-pw-4", "fixture-pw-1", "fixture-pw-5"]) {
            XCTAssertTrue(login.password?.isEqual(to: SecretBytes(copying: Array(password.utf8))) ?? false, password)
            XCTAssertEqual(login.passwordDate?.meaning, .entryModified)
        }
    }

    func testAnEmptyFolderIsNoStore() throws {
        try FileManager.default.createDirectory(atPath: root + "/empty", withIntermediateDirectories: true)
        XCTAssertThrowsError(try PassStoreReader.read(folder: root + "/empty", decrypt: { _ in nil })) {
            XCTAssertEqual($0 as? LoginReadError, .empty)
        }
    }

    private func fingerprint(_ user: String) throws -> String {
        let listing = String(decoding: try gpg(["--with-colons", "--list-keys", user]), as: UTF8.self)
        let line = try XCTUnwrap(listing.split(separator: "\n").first { $0.hasPrefix("fpr:") })
        return String(line.split(separator: ":", omittingEmptySubsequences: false)[9])
    }
}
