import XCTest
import TestSupport
@testable import PwnVaultCore

/// Password-manager exports (Tests/Fixtures/logins, written in the shapes the programs write and
/// public importers' test data show, with made-up logins): each is detected from its content and
/// yields a table of logins (site, account, password date and how sure it is) and of skipped entries.
final class LoginExportFormatTests: XCTestCase {
    static func fixture(_ name: String) throws -> [UInt8] {
        Array(try Data(contentsOf: PackageRoot.url.appendingPathComponent("Tests/Fixtures/logins/\(name)")))
    }

    /// One row per login: site (or the reason it has none), account, date (`-` unknown) and its kind.
    static func table(_ reading: LoginReading) -> [String] {
        reading.logins.map { login in
            let site: String
            switch login.site {
            case let .success(s): site = s.domain + (s.host.map { " (\($0))" } ?? "") + (s.isWholeHost ? " [host]" : "")
            case let .failure(problem): site = "<\(problem)>"
            }
            let date = login.passwordDate.map { "\(iso($0.date)) \($0.meaning.rawValue)" } ?? "-"
            return "\(site) | \(login.username) | \(date)"
        }
    }

    static func skips(_ reading: LoginReading) -> [String] {
        reading.skipped.map { skip in
            switch skip.position {
            case let .lines(a, b): return "\(a)-\(b) \(skip.problem)"
            case let .entry(n): return "#\(n) \(skip.problem)"
            }
        }
    }

    static func iso(_ d: Date) -> String {
        let s = Int64(d.timeIntervalSince1970.rounded(.down))
        let (y, m, day) = CivilCalendar.civil(fromDays: CivilCalendar.floorDivide(s, 86_400))
        let r = s - CivilCalendar.floorDivide(s, 86_400) * 86_400
        func two(_ n: Int64) -> String { n < 10 ? "0\(n)" : "\(n)" }
        return "\(y)-\(two(m))-\(two(day))T\(two(r / 3600)):\(two(r / 60 % 60)):\(two(r % 60))Z"
    }

    private func check(_ name: String, _ format: LoginExportFormat, logins: [String], skipped: [String] = [],
                       passwords: [String?]? = nil, file: StaticString = #filePath, line: UInt = #line) throws {
        let bytes = try Self.fixture(name)
        XCTAssertEqual(try LoginExportDetector.detect(bytes), format, "detected", file: file, line: line)
        let reading = try LoginExportReader.read(bytes)
        XCTAssertEqual(reading.format, format, file: file, line: line)
        XCTAssertEqual(Self.table(reading), logins, name, file: file, line: line)
        XCTAssertEqual(Self.skips(reading), skipped, name, file: file, line: line)
        if let passwords {
            XCTAssertEqual(reading.logins.count, passwords.count, file: file, line: line)
            for (login, expected) in zip(reading.logins, passwords) {
                switch (login.password, expected) {
                case (nil, nil): continue
                case let (p?, e?): XCTAssertTrue(p.isEqual(to: SecretBytes(copying: Array(e.utf8))), "password of \(login.position)", file: file, line: line)
                default: XCTFail("password of \(login.position): \(login.password == nil ? "none" : "one") read", file: file, line: line)
                }
            }
        }
        // The same file read with --format gives the same.
        XCTAssertEqual(Self.table(try LoginExportReader.read(bytes, format: format)), logins, file: file, line: line)
    }

    func testBitwardenCSVPersonal() throws {
        try check("bitwarden.csv", .bitwardenCSV, logins: [
            "example.com (forum.example.com) | ann@example.com | -",
            "example.co.uk (www.bank.example.co.uk) | ann.smith | -",
            "<androidApp> | ann@example.com | -",
        ], skipped: ["5-5 notALogin", "7-7 notALogin"], passwords: ["fixture-pw-1", "fixture-pw-2", "fixture-pw-1"])
    }

    func testBitwardenCSVOrganization() throws {
        try check("bitwarden-org.csv", .bitwardenCSV, logins: [
            "example.org (wiki.example.org) | ops@example.org | -",
            "<ipAddress> | admin | -",
        ], passwords: ["fixture-pw-3", "fixture-pw-4"])
    }

    func testBitwardenJSONPersonal() throws {
        try check("bitwarden.json", .bitwardenJSON, logins: [
            "example.com (forum.example.com) | ann@example.com | 2022-03-15T08:30:00Z passwordChanged",
            "example.net (shop.example.net) | ann_s | 2019-07-08T09:10:11Z created",
            "example.com (mail.example.com) | ann@example.com | 2023-09-10T11:12:13Z passwordChanged",
        ], skipped: ["#4 notALogin", "#5 deleted", "#6 unreadableItem"], passwords: ["fixture-pw-1", "fixture-pw-5", "fixture-pw-6"])
    }

    func testBitwardenJSONOrganization() throws {
        try check("bitwarden-org.json", .bitwardenJSON, logins: [
            "example.org (wiki.example.org) | ops@example.org | 2022-10-10T10:10:10Z created",
        ], passwords: ["fixture-pw-3"])
    }

    func testEncryptedBitwardenJSONIsRefused() throws {
        let bytes = try Self.fixture("bitwarden-encrypted.json")
        XCTAssertThrowsError(try LoginExportReader.read(bytes)) { XCTAssertEqual($0 as? LoginReadError, .encryptedBitwarden) }
        let error = LoginReadError.encryptedBitwarden
        XCTAssertTrue(error.message.contains("encrypted"))
        XCTAssertNotNil(error.hint)
    }

    func testChromeCSV() throws {
        try check("chrome.csv", .chromeCSV, logins: [
            "example.com (forum.example.com) | ann@example.com | -",
            "<localName> | dev | -",
            "example.co.uk (www.bank.example.co.uk) | ann.smith | -",
        ], passwords: ["fixture-pw-1", "fixture-pw-8", "fixture-pw-2"])
    }

    func testFirefoxCSVTimePasswordChangedIsMilliseconds() throws {
        try check("firefox.csv", .firefoxCSV, logins: [
            "example.com (forum.example.com) | ann@example.com | 2021-01-01T00:00:00Z passwordChanged",
            "example.co.jp (accounts.example.co.jp) | ann | 2023-07-22T04:26:40Z passwordChanged",
            "<notWeb> | ann@example.com | 2020-01-01T00:00:00Z passwordChanged",
        ], passwords: ["fixture-pw-1", "fixture-pw-9", "fixture-pw-10"])
    }

    func testKeePassXCCSVWithByteOrderMarkAndQuotedNewlines() throws {
        try check("keepassxc.csv", .keepassxcCSV, logins: [
            "example.com (forum.example.com) | ann@example.com | 2022-04-05T06:07:08Z entryModified",
            "alice.github.io | ann | 2023-11-12T13:14:15Z entryModified",
            "github.io [host] | ann | -",
        ], passwords: ["fixture-pw-1", "fixture-pw-11", "fixture-pw-12"])
        // The second login's record spans lines 3-4 (a note with a line break); the third starts on line 5.
        let reading = try LoginExportReader.read(try Self.fixture("keepassxc.csv"))
        XCTAssertEqual(reading.logins.map(\.position), [.lines(2, 2), .lines(3, 4), .lines(5, 5)])
    }

    func testKeePass2XMLDatesComeFromTheHistory() throws {
        try check("keepass.xml", .keepassXML, logins: [
            "example.com (forum.example.com) | ann@example.com | 2021-05-06T07:08:09Z passwordChanged",
            "example.net (shop.example.net) | ann_s | 2019-09-09T09:09:09Z entryModified",
            "example.co.uk (www.bank.example.co.uk) | ann.smith | 2018-12-31T23:59:59Z entryModified",
        ], skipped: ["92-92 deleted"], passwords: ["fixture-pw-1", "fixture-pw-5", "fixture-&-pw-2"])
    }

    func testOnePassword8CSV() throws {
        try check("1password8.csv", .onePassword8CSV, logins: [
            "example.com (forum.example.com) | ann@example.com | -",
            "example.net (shop.example.net) | ann_s | -",
        ], passwords: ["fixture-pw-1", "fixture-pw-5"])
    }

    func testOnePassword7CSV() throws {
        try check("1password7.csv", .onePassword7CSV, logins: [
            "example.com (forum.example.com) | ann@example.com | 2022-06-12T02:13:20Z entryModified",
            "example.com (mail.example.com) | ann@example.com | -",
        ], skipped: ["3-3 notALogin"], passwords: ["fixture-pw-1", "fixture-pw-6"])
    }

    func testLastPassCSVSkipsSecureNotes() throws {
        try check("lastpass.csv", .lastpassCSV, logins: [
            "example.com (forum.example.com) | ann@example.com | -",
            "example.net (shop.example.net) | ann_s | -",
        ], skipped: ["3-4 notALogin"], passwords: ["fixture-pw-1", "fixture-pw-5"])
    }

    func testDashlaneCSVTakesTheFirstUsernameColumnThatHasOne() throws {
        try check("dashlane.csv", .dashlaneCSV, logins: [
            "example.com (forum.example.com) | ann@example.com | -",
            "example.net (shop.example.net) | ann_s | -",
        ], passwords: ["fixture-pw-1", "fixture-pw-5"])
    }

    func testNordPassCSV() throws {
        try check("nordpass.csv", .nordpassCSV, logins: [
            "example.com (forum.example.com) | ann@example.com | -",
            "example.net (shop.example.net) | ann@example.com | -",
        ], skipped: ["4-4 notALogin"], passwords: ["fixture-pw-1", "fixture-pw-5"])
    }

    func testProtonPassCSV() throws {
        try check("protonpass.csv", .protonPassCSV, logins: [
            "example.com (forum.example.com) | ann@example.com | 2023-11-14T22:13:20Z entryModified",
            "example.net (shop.example.net) | ann_s | 2020-09-13T12:26:40Z entryModified",
        ], skipped: ["4-4 notALogin"], passwords: ["fixture-pw-1", "fixture-pw-5"])
    }

    /// Every `--format` value names one format and reads back; the list in messages names them all.
    func testFormatOptionValues() {
        for format in LoginExportFormat.allCases {
            XCTAssertEqual(LoginExportFormat(optionValue: format.optionValue.uppercased()), format)
            XCTAssertTrue(LoginExportFormat.optionValues.contains(format.optionValue))
        }
        XCTAssertNil(LoginExportFormat(optionValue: "csv"))
        XCTAssertEqual(LoginExportFormat.allCases.count, 13)
    }

    func testAPassStoreIsRecognisedFromItsFolder() {
        XCTAssertTrue(LoginExportDetector.isPassStore(entries: [".gpg-id", "web"]))
        XCTAssertTrue(LoginExportDetector.isPassStore(entries: ["mail.gpg"]))
        XCTAssertFalse(LoginExportDetector.isPassStore(entries: ["notes.txt"]))
        XCTAssertThrowsError(try LoginExportReader.read(Array("x".utf8), format: .passStore)) {
            XCTAssertEqual($0 as? LoginReadError, .passStoreIsAFolder)
        }
    }

    /// A reading prints as counts: its logins hold accounts, sites and passwords.
    func testAReadingPrintsNothingOfItsLogins() throws {
        let reading = try LoginExportReader.read(try Self.fixture("bitwarden.csv"))
        for text in [String(describing: reading), String(reflecting: reading), "\(reading)", String(describing: reading.logins),
                     String(reflecting: reading.logins[0]), String(describing: Mirror(reflecting: reading.logins[0]).children.map(\.value))] {
            for needle in ["ann", "example", "fixture-pw"] { XCTAssertFalse(text.contains(needle), "\(needle) in \(text)") }
        }
        var dumped = ""
        dump(reading, to: &dumped)
        XCTAssertFalse(dumped.contains("fixture-pw") || dumped.contains("ann@"), dumped)
    }
}
