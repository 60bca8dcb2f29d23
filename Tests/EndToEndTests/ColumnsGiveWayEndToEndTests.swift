import Foundation
import TestSupport
import XCTest

/// Issue 32, items 1, 2 and 7: against a catalog the size and shape of HIBP's real one (860 breaches,
/// names of up to 30 characters: tools/fake-hibp/real_size_catalog.py), in tmux at 60, 80 and 120
/// columns. Dates give way first, no breach name and (at 80 and wider) no status word is cut, every
/// message on stderr breaks only at spaces, and no command to copy is split across rows.
final class ColumnsGiveWayEndToEndTests: XCTestCase {
    var s: Sandbox!
    var server: FakeHIBP!
    var catalog: [[String: Any]] = []

    override func setUpWithError() throws {
        s = try Sandbox(keyring: false)
        let path = s.dir.appendingPathComponent("catalog-real-size.json").path
        let made = Process()
        made.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        made.arguments = ["python3", Paths.root.appendingPathComponent("tools/fake-hibp/real_size_catalog.py").path, path]
        try made.run()
        made.waitUntilExit()
        XCTAssertEqual(made.terminationStatus, 0)
        let json = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path))) as! [String: Any]
        catalog = json["breaches"] as! [[String: Any]]
        XCTAssertEqual(catalog.count, 860)
        // The account is in the four longest-named breaches of the catalog, and Adobe.
        let longest = catalog.filter { !($0["IsSensitive"] as! Bool) }.map { $0["Name"] as! String }
            .sorted { ($0.count, $0) > ($1.count, $1) }.prefix(4)
        XCTAssertEqual(longest.first?.count, 30)
        let names = (longest + ["Adobe"]).map { "\"\($0)\"" }.joined(separator: ", ")
        let fixtures = s.writeFile("fixtures.json", #"{"accounts": {"long@example.com": {"breaches": [\#(names)]}}}"#)
        server = try FakeHIBP(arguments: ["--rpm", "6000", "--burst", "100", "--catalog", path, "--fixtures", fixtures])
        s.use(server)
        s.initVault()
        XCTAssertEqual(s.run(["add", "long@example.com", "--label", "My forum account"]).status, 0)
        for n in 2...10 { XCTAssertEqual(s.run(["add", "user\(n)x"]).status, 0) }
        XCTAssertEqual(s.run(["check", "--all"]).status, 1)
        // A second run: what was new is now "to acknowledge", the longest status there is.
        XCTAssertEqual(s.run(["check", "--all", "--force"]).status, 1)
    }

    override func tearDown() { server = nil; s = nil }

    func testAt60To120ColumnsDatesGiveWayFirstAndNoNameStatusOrCommandIsCut() throws {
        let tmux = try TmuxSession(columns: 60, rows: 40, environment: [
            "PWNVAULT_VAULT": s.vault, "PWNVAULT_KEYRING": "none", "PWNVAULT_PASSPHRASE_FILE": s.passphraseFile,
            "PWNVAULT_API_URL": server.apiURL, "TEST_BIN": Paths.binary, "HOME": s.home.path, "TEST_DIR": s.dir.path,
            "TEST_KEY": FakeHIBP.key, "PWNVAULT_PASSWORDS_URL": "http://127.0.0.1:9", "PWNVAULT_K_ANONYMITY": "off",
        ])
        defer { tmux.close() }
        var step = 0
        /// What `command` printed (stdout and stderr) in the pane, lines joined where the terminal wrapped them.
        func transcript(_ command: String, width: Int) -> [String] {
            step += 1
            tmux.tmux("clear-history", "-t", "main")
            tmux.run("clear; PAGER=cat HIBP_API_KEY=$TEST_KEY \(command); echo END-$((\(step)))")
            XCTAssertTrue(tmux.wait(for: "END-\(step)", seconds: 60), command)
            let joined = tmux.call(["tmux", tmux.socket, "capture-pane", "-p", "-J", "-S", "-", "-t", "main"]).output
            var lines = joined.components(separatedBy: "\n").map { $0.trailingSpacesTrimmed }
            if let end = lines.lastIndex(of: "END-\(step)") { lines = Array(lines[..<end]) }
            if let start = lines.lastIndex(where: { $0.contains("END-$((\(step)))") }) { lines = Array(lines[(start + 1)...]) }
            // A word longer than the window (a path of the test's folder) has a row of its own, uncut.
            for line in lines where TermFitEndToEndTests.cells(line) > width && line.trimmingCharacters(in: .whitespaces).contains(" ") {
                XCTFail("\(command) at \(width) columns: the terminal broke a line of \(TermFitEndToEndTests.cells(line)) cells: \(line)")
            }
            for (i, line) in lines.enumerated() {
                // A command to copy is never split: no row ends inside one.
                XCTAssertFalse(line.hasSuffix(" pwnvault") || line.hasSuffix("'pwnvault") || line.hasSuffix(": pwnvault"),
                               "\(command) at \(width): \(lines[i...].prefix(2))")
                for quoted in line.components(separatedBy: "'pwnvault ").dropFirst() {
                    XCTAssertTrue(quoted.contains("'"), "\(command) at \(width): a quoted command split at \(lines[i...].prefix(2))")
                }
            }
            return lines
        }
        let names = Set(catalog.map { $0["Name"] as! String })
        for width in [60, 80, 120] {
            XCTAssertTrue(tmux.resize(columns: width, rows: 40))
            // list: the id, the status whole; the date in a shorter form before the label is cut.
            let list = transcript("\"$TEST_BIN\" --no-share list", width: width)
            XCTAssertTrue(list.first?.hasPrefix("ID") == true, "\(list)")
            let rows = list.dropFirst().filter { $0.hasPrefix("#") }
            XCTAssertEqual(rows.count, 10, "\(list)")
            XCTAssertTrue(list[1].contains("breached (4, 4 to") && list.joined().contains("acknowledge)"), "\(width): \(list)")
            XCTAssertFalse(list.contains { $0.contains("breached (") && $0.contains("…") && !$0.contains("My") }, "the status whole: \(list)")
            if width == 120 {
                XCTAssertTrue(list[1].contains("My forum account"), "wide: the label whole: \(list)")
            } else {
                XCTAssertFalse(list[1].contains(String(Calendar.current.component(.year, from: Date()))) && list[1].contains("…"),
                               "\(width): a label cut while the full date stays: \(list[1])")
            }
            if width == 80 { XCTAssertTrue(rows.allSatisfy { !$0.contains("…") || $0.contains("My") }, "at 80 only the label may give way: \(list)") }
            // breaches: every one of the 860 names whole, on the row or the row below.
            let breaches = transcript("\"$TEST_BIN\" --no-share breaches", width: width)
            let words = Set(breaches.flatMap { $0.split(separator: " ").map(String.init) })
            let missing = names.subtracting(words)
            XCTAssertTrue(missing.isEmpty, "\(width): \(missing.count) names cut or missing, e.g. \(missing.sorted().prefix(3))")
            // show and check: the breach names whole, `pwnvault ack '#1'` on one row.
            let show = transcript("\"$TEST_BIN\" --no-share show 1", width: width)
            XCTAssertTrue(show.contains { $0.contains("pwnvault ack '#1'") }, "\(width): \(show)")
            let check = transcript("\"$TEST_BIN\" --no-share check 1", width: width)
            // What does not fit is left out whole (`… 3 more`), never a name cut short.
            for line in check { XCTAssertFalse(line.contains { $0 == "…" } && !line.contains(" … "), "\(width): \(check)") }
            XCTAssertTrue(check[0].contains("Northern Music Rewritten Cleaning") || check[0].contains("pwned in 4"), "\(width): \(check)")
            // Messages on stderr: wrapped at spaces under their prefix, commands whole (checked above).
            let notes = transcript("\"$TEST_BIN\" --no-share list --status never; \"$TEST_BIN\" --no-share ack 99;"
                                   + " \"$TEST_BIN\" --no-share check --all; PWNVAULT_VAULT=$TEST_DIR/v\(width) \"$TEST_BIN\" init --kdf interactive;"
                                   + " \"$TEST_BIN\" --no-share schedule status",
                                   width: width)
            XCTAssertTrue(notes.contains { $0.contains("'pwnvault list --status unacknowledged'") }, "\(width): \(notes)")
            XCTAssertTrue(notes.contains { $0.contains("pwnvault import contacts.vcf") }, "\(width): \(notes)")
            // schedule status: a path too long to follow its name has a row of its own, whole.
            XCTAssertTrue(notes.contains { $0.contains("~/.config/systemd/user/pwnvault-watch.service") }, "\(width): \(notes)")
        }
    }

    /// The ui's accounts and catalog pages: LAST CHECK shortens (today 14:33, then 2 h ago) rather than
    /// being cut, no NEW column repeats what the status says, the status is whole at 80 columns.
    func testTheUIsPagesShortenTheDateAndKeepTheStatusWhole() throws {
        XCTAssertEqual(s.run(["breaches"]).status, 0)   // the catalog cached for the ui
        for width in [60, 80, 120] {
            let tmux = try TmuxSession(columns: width, rows: 24, environment: [
                "PWNVAULT_VAULT": s.vault, "PWNVAULT_KEYRING": "none", "PWNVAULT_PASSPHRASE_FILE": s.passphraseFile,
                "PWNVAULT_API_URL": server.apiURL, "TEST_BIN": Paths.binary, "HOME": s.home.path, "TEST_KEY": FakeHIBP.key,
            ])
            defer { tmux.close() }
            tmux.run("HIBP_API_KEY=$TEST_KEY \"$TEST_BIN\" --no-share ui")
            let deadline = Date().addingTimeInterval(15)
            while Date() < deadline, !tmux.screen.contains("Accounts (10)") {
                if tmux.screen.contains("hidden: focus lost") { tmux.type("\\e[I") }
                usleep(100_000)
            }
            var lines = tmux.screen.components(separatedBy: "\n")
            let header = try XCTUnwrap(lines.first { $0.hasPrefix("ID") }, tmux.screen)
            XCTAssertFalse(header.contains("NEW"), "\(width): no NEW column: \(header)")
            let rows = lines.filter { $0.hasPrefix("#") }
            XCTAssertEqual(rows.count, 10, tmux.screen)
            XCTAssertFalse(header.contains("…"), "\(width): \(header)")
            if let column = header.range(of: "LAST CHECK") ?? header.range(of: "CHECKED") {
                let at = column.lowerBound
                for row in rows {
                    let date = String(row[at...]).trimmingCharacters(in: .whitespaces)
                    XCTAssertFalse(date.contains("…"), "\(width): LAST CHECK cut: \(row)")
                    XCTAssertFalse(date.isEmpty, "\(width): \(row)")
                }
            } else {
                XCTAssertEqual(width, 60, "only at 60 may the last check give way: \(header)")
            }
            if width >= 80 {
                XCTAssertTrue(rows[0].contains("breached (4, 4 to acknowledge)"), "\(width): the status whole: \(rows[0])")
            }
            tmux.type("c")
            XCTAssertTrue(tmux.wait(for: "Catalog (860)"))
            lines = tmux.screen.components(separatedBy: "\n")
            let catalogHeader = try XCTUnwrap(lines.first { $0.hasPrefix("DATE") }, tmux.screen)
            let dateWidth = catalogHeader.distance(from: catalogHeader.startIndex, to: catalogHeader.range(of: "TITLE")!.lowerBound) - 2
            let entries = lines.filter { $0.first?.isNumber == true }
            XCTAssertGreaterThan(entries.count, 10, tmux.screen)
            for entry in entries {
                XCTAssertFalse(entry.prefix(dateWidth).contains("…"), "\(width): a date cut: \(entry)")
            }
            if width == 120 {
                XCTAssertFalse(entries.contains { $0.contains("…") }, "120: nothing cut: \(entries)")
            }
            tmux.type("q")
            tmux.type("q")
        }
    }
}
