import Foundation
import Glibc
import TestSupport
import XCTest

/// Issue 11: pwnvault fits the terminal and the user's habits. Global options anywhere, forgiving
/// ids, breaches by title, every line within the terminal's width at 60, 80 and 120 columns in tmux,
/// columns aligned cell by cell with CJK and emoji labels, and HIBP's real-catalog oddities rendered
/// as plain text whatever the time zone.
final class TermFitEndToEndTests: XCTestCase {
    var s: Sandbox!
    var server: FakeHIBP!

    /// The account checked against the real-style catalog, in every hard case at once.
    static let fixtures = #"{"accounts": {"rc@example.com": {"breaches": ["Kettlewise", "FernhillForum", "RiverCityMedia", "Ohmbook", "Jipkkumigi", "Adobe", "Quillstream", "Glimmerbot", "MailSpindle"]}}}"#

    override func setUpWithError() throws {
        s = try Sandbox(inProcess: true, keyring: false)
        let fixtures = s.writeFile("fixtures.json", Self.fixtures)
        let catalog = Paths.root.appendingPathComponent("tools/fake-hibp/catalog-real-style.json").path
        server = try FakeHIBP(arguments: ["--rpm", "6000", "--burst", "100", "--catalog", catalog, "--fixtures", fixtures])
        s.use(server)
        s.initVault()
        XCTAssertEqual(s.run(["add", "rc@example.com", "--label", "张三（工作）"]).status, 0)
        XCTAssertEqual(s.run(["add", "bob@example.org", "--label", "🙂 emoji"]).status, 0)
        XCTAssertEqual(s.run(["add", "carol_c", "--label", "Cafe\u{301} combining"]).status, 0)
        XCTAssertEqual(s.run(["check", "#1"]).status, 1)
    }

    override func tearDown() { server = nil; s = nil }

    func testGlobalOptionsGoAnywhereAndIdsAreForgiving() throws {
        let before = s.run(["--json", "list"]), after = s.run(["list", "--json"])
        XCTAssertEqual(before.status, 0, before.all)
        XCTAssertEqual(before.stdout, after.stdout)
        XCTAssertEqual(s.run(["--vault", s.vault, "--no-color", "list", "--json"]).stdout, after.stdout)
        let unknown = s.run(["-x", "list"])
        XCTAssertEqual(unknown.status, 2)
        XCTAssertTrue(unknown.stderr.contains("unknown option '-x'"), unknown.stderr)
        XCTAssertFalse(unknown.stderr.contains("pwnvault pwnvault"), unknown.stderr)

        let byHash = s.run(["show", "#2"])
        XCTAssertEqual(byHash.status, 0, byHash.all)
        XCTAssertEqual(s.run(["show", "2"]).stdout, byHash.stdout)
        XCTAssertEqual(s.run(["show", "%2"]).stdout, byHash.stdout)
        let missing = s.run(["show", "9"])
        XCTAssertEqual(missing.status, 2, missing.all)
        XCTAssertTrue(missing.stderr.contains("did you mean '#3'?"), missing.stderr)
        // A typed account is suggested only on a terminal outside share mode (piped, a suggestion
        // would answer guesses about the vault); ids are suggested everywhere.
        let typo = s.run(["show", "rc@exmple.com"])
        XCTAssertEqual(typo.status, 2, typo.all)
        XCTAssertFalse(typo.stderr.contains("did you mean"), typo.stderr)
        XCTAssertFalse(typo.stderr.contains("rc@e"), "piped: the account is not shown, even masked: \(typo.stderr)")
        XCTAssertTrue(s.runOnTerminal(["show", "rc@exmple.com"]).stdout.contains("did you mean '#1'"))
        func ids(_ args: [String]) throws -> [Int] {
            let rows = try JSONSerialization.jsonObject(with: Data(s.run(args).stdout.utf8)) as? [[String: Any]]
            return rows?.compactMap { $0["id"] as? Int } ?? []
        }
        XCTAssertEqual(try ids(["list", "--status", "breached", "--json"]), [1])
        XCTAssertEqual(try ids(["list", "--status", "new", "--json"]), [1])
        XCTAssertEqual(try ids(["list", "--status", "never", "--status", "clean", "--json"]), [2, 3])
        XCTAssertEqual(try ids(["--json", "list", "--status", "failed"]), [])
        XCTAssertEqual(try ids(["list", "--status", "pwned", "--json"]), [1], "the ui's and HIBP's word for breached")
        let status = try JSONSerialization.jsonObject(with: Data(s.run(["status", "--json"]).stdout.utf8)) as? [String: Any]
        XCTAssertEqual(status?["path"] as? String, s.vault, "absolute, not ~/…")

        let comment = s.run(["show"])   // what `pwnvault show #2` becomes in a shell
        XCTAssertTrue(comment.stderr.contains("an unquoted # starts a shell comment"), comment.stderr)
    }

    func testBreachByTitleAndOneRenderingOfTheRealCatalogsOddities() throws {
        let byTitle = s.run(["breach", "river city media spam list"])
        XCTAssertEqual(byTitle.status, 0, byTitle.all)
        XCTAssertEqual(byTitle.stdout, s.run(["breach", "RiverCityMedia"]).stdout)
        XCTAssertTrue(byTitle.stdout.contains("spam list"), byTitle.stdout)
        let near = s.run(["breach", "River City Media Spam Lst"])
        XCTAssertTrue(near.stderr.contains("did you mean 'River City Media Spam List'?"), near.stderr)

        for name in ["Kettlewise", "FernhillForum"] {
            let r = s.run(["breach", name])
            XCTAssertFalse(r.stdout.contains("<") || r.stdout.contains("href"), "malformed anchors never raw: \(r.stdout)")
            let json = try JSONSerialization.jsonObject(with: Data(s.run(["breach", name, "--json"]).stdout.utf8)) as? [String: Any]
            let description = try XCTUnwrap(json?["description"] as? String)
            XCTAssertFalse(description.contains("<") || description.contains("\n"), "plain, not hard-wrapped: \(description)")
            XCTAssertNotNil(json?["isVerified"] as? Bool)
        }
        // Dates as HIBP gives them: Adobe was added at midnight UTC on 2013-12-04, wherever the user is.
        for tz in ["UTC", "America/Los_Angeles", "Pacific/Kiritimati"] {
            XCTAssertTrue(s.run(["breach", "adobe"], env: ["TZ": tz]).stdout.contains("added to HIBP:      2013-12-04"), tz)
        }
        // Every breach date in show, breaches and the JSON is HIBP's; only "checked …" (the user's own
        // clock time of the check) follows the local zone.
        func withoutCheckTimes(_ text: String) -> String {
            text.components(separatedBy: "\n").filter { !$0.hasPrefix("checked ") }.joined(separator: "\n")
        }
        for args in [["show", "1"], ["show", "1", "--json"], ["breaches"], ["breaches", "--json"], ["breach", "Jipkkumigi"]] {
            let utc = s.run(args, env: ["TZ": "UTC"]).stdout, east = s.run(args, env: ["TZ": "Pacific/Kiritimati"]).stdout
            XCTAssertEqual(withoutCheckTimes(utc), withoutCheckTimes(east), args.joined(separator: " "))
        }
        let catalog = try JSONSerialization.jsonObject(with: Data(s.run(["breaches", "--json"]).stdout.utf8)) as? [[String: Any]]
        let ohmbook = try XCTUnwrap(catalog?.first { $0["name"] as? String == "Ohmbook" })
        XCTAssertEqual((ohmbook["dataClasses"] as? [String])?.count, 31)
        XCTAssertEqual(catalog?.first { $0["name"] as? String == "RiverCityMedia" }?["isSpamList"] as? Bool, true)

        // show: HIBP's casing, newest first, flags; check lists the same titles in the same order.
        let show = s.run(["show", "1"]).stdout
        XCTAssertTrue(show.contains("exposed: Email addresses, IP addresses"), show)
        XCTAssertTrue(show.contains("Quillstream [fabricated, unverified]"), show)
        XCTAssertTrue(show.contains("River City Media Spam List [spam list]"), show)
        let dates = show.components(separatedBy: "\n").filter { $0.range(of: #"^\d{4}-\d\d-\d\d  "#, options: .regularExpression) != nil }
            .map { String($0.prefix(10)) }
        XCTAssertEqual(dates, dates.sorted(by: >), "newest first: \(show)")
        let check = s.run(["check", "1"]).stdout
        let order = ["Glimmerbot Malware", "Ohmbook", "Kettlewise", "집꾸미기", "Fernhill", "MailSpindle", "Quillstream", "River City", "Adobe"]
        let positions = order.compactMap { check.range(of: $0)?.lowerBound }
        XCTAssertEqual(positions.count, order.count, check)
        XCTAssertEqual(positions, positions.sorted(), "check lists newest first too: \(check)")
    }

    /// At 60, 80 and 120 columns in tmux: no line of help or of any table is wider than the window,
    /// and every table column starts in the same cell on every row, as glibc's wcwidth counts cells.
    func testEverythingFitsTheWindowAndAlignsByCells() throws {
        let tmux = try TmuxSession(columns: 60, rows: 40, environment: [
            "PWNVAULT_VAULT": s.vault, "PWNVAULT_KEYRING": "none", "PWNVAULT_PASSPHRASE_FILE": s.passphraseFile,
            "PWNVAULT_API_URL": server.apiURL, "TEST_BIN": Paths.binary, "HOME": s.home.path,
        ])
        defer { tmux.close() }
        for width in [60, 80, 120] {
            tmux.resize(columns: width, rows: 40)
            tmux.run("for c in 'help breaches' 'help list' help 'help environment' list status breaches 'show 1' 'breach Ohmbook' 'breach Kettlewise'; do "
                     + "echo \"== $c\"; PAGER=cat \"$TEST_BIN\" --no-share $c; done; echo END-$((\(width)))")
            XCTAssertTrue(tmux.wait(for: "END-\(width)", seconds: 30))
            let joined = tmux.call(["tmux", tmux.socket, "capture-pane", "-p", "-J", "-S", "-", "-t", "main"]).output
            guard let start = joined.range(of: "== help breaches", options: .backwards) else { XCTFail(joined); continue }
            let transcript = joined[start.lowerBound...].components(separatedBy: "\n").map(Self.trimmedRight)
            XCTAssertTrue(transcript.contains("END-\(width)"), joined)
            for line in transcript where Self.cells(line) > width {
                XCTFail("\(Self.cells(line)) cells at \(width) columns: \(line)")
            }
            // list: the columns of every row start where the header's do.
            // A status too long for its column goes on under it, on rows of its own (never cut): those rows
            // hold nothing before the status column.
            let list = Self.section("list", in: transcript)
            let rows = list.dropFirst().filter { $0.hasPrefix("#") }
            XCTAssertEqual(rows.count, 3, "the id is never cut: \(list)")
            for column in ["LABEL", "STATUS", "CHECKED"] {
                guard let header = list.first, let r = header.range(of: column) else { XCTFail("\(column): \(list)"); continue }
                let at = Self.cells(String(header[..<r.lowerBound]))
                for row in rows {
                    XCTAssertTrue(Self.columnStarts(at: at, in: row), "\(column) at cell \(at), \(width) columns: \(row)")
                }
                guard column == "STATUS" else { continue }
                for row in list.dropFirst() where !row.hasPrefix("#") {
                    XCTAssertEqual(row.prefix { $0 == " " }.count, at, "a status goes on in its own column at \(width) columns: \(row)")
                }
            }
            XCTAssertTrue(list.contains { $0.contains("张三（工作）") || $0.contains("张三") }, "\(list)")
            let breaches = Self.section("breaches", in: transcript)
            if let header = breaches.first, let r = header.range(of: "ACCOUNTS") {
                let at = Self.cells(String(header[..<r.lowerBound]))
                for row in breaches.dropFirst() where !row.hasPrefix("pwnvault:") {
                    XCTAssertTrue(Self.columnStarts(at: at, in: row), "ACCOUNTS at cell \(at), \(width) columns: \(row)")
                }
                XCTAssertTrue(breaches.contains { $0.contains("집꾸미기") }, "\(breaches)")
                // Names, which commands take, give way only after the domain and most of the title:
                // at 60 columns no name of the catalog is cut.
                for row in breaches.dropFirst() where !row.hasPrefix("pwnvault:") {
                    XCTAssertFalse(row.hasSuffix("…"), "a name cut at \(width) columns: \(row)")
                }
            } else { XCTFail("\(breaches)") }
            // The long data-class list wraps under a hanging indent.
            let ohmbook = Self.section("breach Ohmbook", in: transcript)
            XCTAssertTrue(ohmbook.contains { $0.hasPrefix("exposed:            Ages,") }, "\(ohmbook)")
            XCTAssertTrue(ohmbook.contains { $0.hasPrefix("                    ") && $0.contains("Usernames") }, "\(ohmbook)")
        }
    }

    // MARK: cells, as glibc counts them

    /// glibc's `wcwidth` (the Glibc module does not export it), under a UTF-8 locale: an
    /// independent count of the cells pwnvault's own table measures.
    static let wcwidth: @convention(c) (Int32) -> Int32 = {
        _ = setlocale(LC_CTYPE, "C.UTF-8")
        let symbol = dlsym(dlopen(nil, RTLD_NOW), "wcwidth")
        return unsafeBitCast(symbol, to: (@convention(c) (Int32) -> Int32).self)
    }()

    static func cells(_ s: String) -> Int {
        s.unicodeScalars.reduce(0) { $0 + max(0, Int(wcwidth(Int32(bitPattern: $1.value)))) }
    }

    /// Whether a column starts at cell `column` of `row`: a space ends just before it and a visible
    /// character starts exactly there (not in the middle of a wide one).
    static func columnStarts(at column: Int, in row: String) -> Bool {
        var used = 0, before: Character?
        for c in row {
            if used == column { return before == " " && c != " " }
            if used > column { return false }
            before = c
            used += cells(String(c))
        }
        return false
    }

    static func trimmedRight(_ s: String) -> String {
        var s = s
        while s.last == " " { s.removeLast() }
        return s
    }

    /// The lines a command printed in the transcript, after its `== NAME` line, up to the next one.
    static func section(_ name: String, in lines: [String]) -> [String] {
        guard let start = lines.firstIndex(of: "== \(name)") else { return [] }
        let rest = lines[(start + 1)...]
        let end = rest.firstIndex { $0.hasPrefix("== ") || $0.hasPrefix("END-") } ?? rest.endIndex
        return Array(rest[..<end])
    }
}
