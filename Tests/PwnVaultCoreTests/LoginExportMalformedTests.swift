import XCTest
@testable import PwnVaultCore

/// Real exports are messy: quoted newlines, byte-order marks, CRLF, missing and extra columns, cut-off
/// files, wrong headers, huge fields. Each gives logins or a reason, never a crash and never a guess.
final class LoginExportMalformedTests: XCTestCase {
    private func records(_ text: String) -> (rows: [[String]], lines: [ClosedRange<Int>], problems: [String]) {
        var rows: [[String]] = [], lines: [ClosedRange<Int>] = [], problems: [String] = []
        CSVReader.read(Array(text.utf8), { r in
            rows.append((0..<r.count).map { r.text($0) ?? "<invalid>" })
            lines.append(r.line...r.lastLine)
        }, problem: { p, a, b in problems.append("\(a)-\(b) \(p)") })
        return (rows, lines, problems)
    }

    func testRFC4180QuotingAndLineEnds() {
        let r = records("a,\"b,c\",\"d\"\"e\"\r\n\"multi\r\nline\",,x\n\"\"\rlast")
        XCTAssertEqual(r.rows, [["a", "b,c", "d\"e"], ["multi\r\nline", "", "x"], [""], ["last"]])
        XCTAssertEqual(r.lines, [1...1, 2...3, 4...4, 5...5])
        XCTAssertEqual(r.problems, [])
    }

    func testSloppyQuotesAreReadAsSpreadsheetsReadThem() {
        XCTAssertEqual(records("ab\"c,\"de\"f,g").rows, [["ab\"c", "def", "g"]])
    }

    func testAByteOrderMarkIsDroppedOnlyAtTheStart() {
        XCTAssertEqual(records("\u{FEFF}name,url\n\u{FEFF}x,y\n").rows, [["name", "url"], ["\u{FEFF}x", "y"]])
    }

    func testAQuoteThatNeverClosesCutsOffItsRecordOnly() {
        let r = records("a,b\nc,\"d\ne,f\n")
        XCTAssertEqual(r.rows, [["a", "b"]])
        XCTAssertEqual(r.problems, ["2-3 unterminatedQuote"])   // the file's last line is 3: its final line break ends it
        XCTAssertEqual(records("a\n\"b").problems, ["2-2 unterminatedQuote"])
    }

    func testAHugeFieldIsReportedNotRead() {
        let huge = String(repeating: "x", count: CSVReader.maxFieldBytes + 1)
        let r = records("a,b\n\(huge),c\nd,e\n")
        XCTAssertEqual(r.rows, [["a", "b"], ["d", "e"]])
        XCTAssertEqual(r.problems, ["2-2 fieldTooLarge"])
    }

    func testMissingAndExtraColumnsAndBlankLines() throws {
        let text = "name,url,username,password\nA,https://a.example.com,ann\n\nB,https://b.example.com,bob,pw,extra,more\n,,,\n"
        let reading = try LoginExportReader.read(Array(text.utf8))
        XCTAssertEqual(reading.format, .chromeCSV)
        XCTAssertEqual(LoginExportFormatTests.table(reading), ["example.com (a.example.com) | ann | -", "example.com (b.example.com) | bob | -"])
        XCTAssertNil(reading.logins[0].password)
        XCTAssertTrue(reading.logins[1].password?.isEqual(to: SecretBytes(copying: Array("pw".utf8))) ?? false)
        XCTAssertEqual(reading.skipped, [])
    }

    func testBlankLinesBeforeTheHeaderAreSkipped() throws {
        let reading = try LoginExportReader.read(Array("\r\n,,\nname,url,username,password\nA,https://a.example.com,ann,pw\n".utf8))
        XCTAssertEqual(reading.format, .chromeCSV)
        XCTAssertEqual(reading.logins.map(\.position), [.lines(4, 4)])
    }

    func testTextThatIsNotUTF8IsSkippedWithItsLine() throws {
        var bytes = Array("name,url,username,password\nA,https://a.example.com,".utf8)
        bytes += [0xE9, 0x41] + Array(",pw\nB,https://b.example.com,bob,pw\n".utf8)
        let reading = try LoginExportReader.read(bytes)
        XCTAssertEqual(LoginExportFormatTests.skips(reading), ["2-2 invalidText"])
        XCTAssertEqual(reading.logins.count, 1)
    }

    func testWholeFileRefusals() {
        func refusal(_ bytes: [UInt8], format: LoginExportFormat? = nil) -> LoginReadError? {
            do { _ = try LoginExportReader.read(bytes, format: format); return nil } catch { return error as? LoginReadError }
        }
        XCTAssertEqual(refusal([]), .empty)
        XCTAssertEqual(refusal(Array(" \r\n\n".utf8)), .empty)
        XCTAssertEqual(refusal([0xEF, 0xBB, 0xBF]), .empty)
        XCTAssertEqual(refusal([0xFF, 0xFE, 0x6E, 0x00]), .utf16)
        XCTAssertEqual(refusal(Array("name,url\u{0}".utf8)), .binary)
        XCTAssertEqual(refusal(Array("just some text\nand more\n".utf8)), .unknownFormat)
        XCTAssertEqual(refusal(Array("title,notes\nx,y\n".utf8)), .unknownFormat)
        XCTAssertEqual(refusal(Array("name,url,login\nx,y,z\n".utf8), format: .chromeCSV), .wrongHeader(.chromeCSV, missing: ["username", "password"]))
        XCTAssertEqual(refusal(Array("\"name,url\n".utf8)), .unknownFormat)
        XCTAssertEqual(refusal(Array("\"name,url\n".utf8), format: .lastpassCSV),
                       .wrongHeader(.lastpassCSV, missing: ["url", "username", "password", "extra", "name", "grouping"]))
        XCTAssertEqual(refusal(Array("{\"items\": [".utf8)), .notBitwardenJSON)
        XCTAssertEqual(refusal(Array("{\"folders\": []}".utf8)), .notBitwardenJSON)
        XCTAssertEqual(refusal(Array("{\"encrypted\": true, \"items\": []}".utf8)), .encryptedBitwarden)
        XCTAssertEqual(refusal(Array("<KeePassFile><Root>\n<Group>".utf8)), .invalidXML(line: 2))
        XCTAssertEqual(refusal(Array("<?xml version=\"1.0\"?>\n<!DOCTYPE x [<!ENTITY a \"b\">]><KeePassFile/>".utf8)), .invalidXML(line: 2))
        XCTAssertEqual(refusal(Array("<html><body/></html>".utf8)), .notKeePassXML)
        XCTAssertEqual(refusal(Array("<KeePassFile>&bogus;</KeePassFile>".utf8)), .invalidXML(line: 1))
    }

    /// Every refusal and every skip says what is wrong in a non-empty, one-line message; a column name
    /// from the file is screened before it is shown.
    func testReasonsAreCleanText() {
        let errors: [LoginReadError] = [.tooLarge(limit: LoginExportReader.maxBytes), .empty, .binary, .utf16, .unknownFormat,
                                        .wrongHeader(.firefoxCSV, missing: ["url\u{1B}[31m", "guid"]), .encryptedBitwarden,
                                        .notBitwardenJSON, .invalidXML(line: 3), .notKeePassXML, .passStoreIsAFolder]
        for e in errors {
            XCTAssertFalse(e.message.isEmpty)
            XCTAssertEqual(Sanitizer.singleLine(e.message), e.message, "\(e)")
        }
        XCTAssertTrue(LoginReadError.unknownFormat.message.contains("keepass-xml"))
        let problems: [LoginSkipProblem] = [.unterminatedQuote, .fieldTooLarge, .invalidText, .notALogin, .empty, .unreadableItem, .deleted, .cannotDecrypt]
        for p in problems { XCTAssertEqual(Sanitizer.singleLine(LoginSkip(position: .lines(2, 3), problem: p).message), LoginSkip(position: .lines(2, 3), problem: p).message) }
        XCTAssertEqual(LoginSkip(position: .entry(4), problem: .notALogin).message, "entry 4: not a login (a note, card or identity)")
        XCTAssertEqual(LoginSkip(position: .lines(2, 3), problem: .deleted).message, "lines 2-3: in the recycle bin (deleted in the password manager)")
    }

    /// What the file holds is screened before it is kept: escape sequences and line breaks in an
    /// address or a user name never reach a terminal.
    func testFileTextIsScreened() throws {
        let text = "name,url,username,password\nA,\"https://a.example.com/\u{1B}]0;title\u{07}x\",\"ann\u{1B}[2J\nbob\",pw\n"
        let login = try XCTUnwrap(LoginExportReader.read(Array(text.utf8)).logins.first)
        XCTAssertEqual(login.url, "https://a.example.com/x")
        XCTAssertEqual(login.username, "ann bob")
    }

    func testSitesFromAddresses() {
        func site(_ url: String) -> String {
            switch LoginSite.of(url) {
            case let .success(s): return s.domain + (s.host.map { " (\($0))" } ?? "") + (s.isWholeHost ? " [host]" : "")
            case let .failure(p): return "<\(p)>"
            }
        }
        XCTAssertEqual(site("https://user:pw@Login.Example.CO.UK:8443/path?q#f"), "example.co.uk (login.example.co.uk)")
        XCTAssertEqual(site("example.com"), "example.com")
        XCTAssertEqual(site("example.com:8080/x"), "example.com")
        XCTAssertEqual(site("www.example.com."), "example.com (www.example.com)")
        XCTAssertEqual(site("https://alice.github.io/"), "alice.github.io")
        XCTAssertEqual(site("https://github.io/"), "github.io [host]")
        XCTAssertEqual(site(""), "<noAddress>")
        XCTAssertEqual(site("   "), "<noAddress>")
        XCTAssertEqual(site("androidapp://com.example.app"), "<androidApp>")
        XCTAssertEqual(site("http://192.168.1.1/"), "<ipAddress>")
        XCTAssertEqual(site("http://[::1]:8080/"), "<ipAddress>")
        XCTAssertEqual(site("http://localhost:3000"), "<localName>")
        XCTAssertEqual(site("http://app.localhost"), "<localName>")
        XCTAssertEqual(site("http://nas/"), "<localName>")
        XCTAssertEqual(site("chrome://FirefoxAccounts"), "<notWeb>")
        XCTAssertEqual(site("about:blank"), "<notWeb>")
        XCTAssertEqual(site("https://exa mple.com"), "<notWeb>")
        XCTAssertEqual(site("https://a..example.com"), "<notWeb>")
    }

    func testDatesAsExportsWriteThem() {
        XCTAssertEqual(LoginDateText.iso8601("2023-04-05T06:07:08Z"), Date(timeIntervalSince1970: 1_680_674_828))
        XCTAssertEqual(LoginDateText.iso8601("2023-04-05T06:07:08.123Z"), Date(timeIntervalSince1970: 1_680_674_828))
        XCTAssertEqual(LoginDateText.iso8601("2023-04-05T08:07:08+02:00"), Date(timeIntervalSince1970: 1_680_674_828))
        XCTAssertEqual(LoginDateText.iso8601("2023-04-05 06:07:08"), Date(timeIntervalSince1970: 1_680_674_828))
        XCTAssertEqual(LoginDateText.iso8601("2023-04-05"), Date(timeIntervalSince1970: 1_680_652_800))
        for bad in ["", "2023-13-01", "2023-04-05T25:00:00Z", "2023-04-05T06:07:08Q", "yesterday", "2023-04-05T06:07:08Z junk"] {
            XCTAssertNil(LoginDateText.iso8601(bad), bad)
        }
        XCTAssertEqual(LoginDateText.epoch("1609459200000", milliseconds: true), Date(timeIntervalSince1970: 1_609_459_200))
        XCTAssertNil(LoginDateText.epoch("-5", milliseconds: false))
        XCTAssertNil(LoginDateText.epoch("99999999999999999", milliseconds: false))
        XCTAssertEqual(LoginDateText.keepass("6O5j3A4AAAA="), LoginDateText.iso8601("2023-08-08T08:08:08Z"))
        XCTAssertNil(LoginDateText.keepass("AAAAAAAAAAA="))
    }

    /// The readers keep the password only in SecretBytes: the logins they return hold no String with it.
    func testNoStoredPropertyHoldsThePassword() throws {
        let reading = try LoginExportReader.read(try LoginExportFormatTests.fixture("keepass.xml"))
        for login in reading.logins {
            for child in Mirror(reflecting: login).children { XCTAssertFalse("\(child.value)".contains("fixture")) }
            XCTAssertFalse(login.url.contains("fixture") || login.username.contains("fixture"))
        }
    }
}
