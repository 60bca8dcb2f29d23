import Foundation
import TestSupport
import XCTest

/// Issue 24, "speak the reader's language": under LANG=zh_CN.UTF-8 what a person reads comes out in
/// Chinese and still fits the terminal. Each command runs in a real tmux, once under LANG=C at 80
/// columns (the English the check must tell apart) and under LANG=zh_CN.UTF-8 at 80 and 60 columns:
///
/// - Chinese: `ChineseProse` (no run of 4 lowercase English words that is not a command, an option, a
///   URL or data; most prose lines hold ideographs), and the LANG=C output fails that same check;
/// - fits: no line, as tmux joins what it wrapped, is wider than the window in cells (glibc's wcwidth),
///   so no wide character was split or pushed over a row's end; every byte the pane received (pipe-pane)
///   is UTF-8, and neither they nor the screen hold U+FFFD.
///
/// The machine interfaces and the disclosure matrix in Chinese: ChineseDisclosureMatrixTests.
final class ChineseEndToEndTests: XCTestCase {
    var server: FakeHIBP!
    var s: Sandbox!

    /// Breaches chosen so the data's own words are known: HIBP's titles and data classes are data,
    /// printed as HIBP wrote them in every language, and are taken out before the check.
    static let fixtures = #"{"accounts": {"pwned-zanzibar@example.com": {"breaches": ["Adobe", "Quillstream"]}, "pwned-numbat@example.net": {"breaches": ["DuneRunner"]}}}"#
    static let data = ["Quokka", "Adobe", "Quillstream", "DuneRunner", "Email addresses", "Password hints", "Passwords", "Usernames",
                       "Geographic locations", "Physical attributes", "adobe.com", "Have I Been Pwned", "Pwned Passwords",
                       "GNOME Keyring", "Secret Service", "KeePassXC", "KWallet"]

    override func setUpWithError() throws {
        _ = try ChineseLocale.require()
        server = try FakeHIBP(fixtures: Self.fixtures)
        s = try Sandbox(keyring: false)
        s.use(server)
        s.initVault()
        XCTAssertEqual(s.run(["add", "pwned-zanzibar@example.com", "--label", "Quokka"]).status, 0)
        XCTAssertEqual(s.run(["add", "clean-wombat@example.org", "pwned-numbat@example.net"]).status, 0)
        let checked = s.run(["check", "--all"])
        XCTAssertEqual(checked.status, 1, checked.all)
    }

    override func tearDown() { server = nil; s = nil }

    // MARK: the commands

    /// The command-line errors are translated already: this one passes before the rest of the catalog.
    func testAnErrorAndItsHintAreChineseAndFit() throws {
        try assertChineseAndFitting([("unknown command", "lst"), ("unknown option", "list --bogus"), ("missing argument", "ack")])
    }

    func testHelpAndHelpCheckAreChineseAndFit() throws {
        try assertChineseAndFitting([("--help", "--help"), ("help check", "help check")])
    }

    func testListAndShowAreChineseAndFit() throws {
        try assertChineseAndFitting([("list", "list"), ("show", "show '#1'"), ("show clean", "show '#2'")])
    }

    /// Issue 32: what a breach exposed is named in Chinese from the table beside the catalog, joined
    /// with 、; breaches are counted with 起; what waits is 待确认 in list and show alike; an import's
    /// sentence and an added account's kind read as Chinese.
    func testShowNamesDataClassesInChineseAndImportReadsAsChinese() throws {
        let pane = try Pane(s, server)
        defer { pane.close() }
        let show = pane.run("show '#1'", chinese: true).lines.joined(separator: "\n")
        for word in ["电子邮件地址", "密码提示", "、", "起数据泄露", "待确认"] {
            XCTAssertTrue(show.contains(word), "\(word) in show: \(show)")
        }
        for english in ["Email addresses", "Password hints", ", "] {
            XCTAssertFalse(show.contains(english), "\(english) left in show: \(show)")
        }
        let list = pane.run("list", chinese: true).lines.joined(separator: "\n")
        XCTAssertTrue(list.contains("已泄露（2 起，2 项待确认）"), list)
        let card = s.writeFile("contacts.vcf", "BEGIN:VCARD\r\nVERSION:3.0\r\nFN:Kea\r\nEMAIL:kea.import@example.org\r\nEND:VCARD\r\n")
        let imported = pane.run("import '\(card)'", chinese: true).lines.joined(separator: "\n")
        ChineseLocale.assertChinese(imported, english: nil, data: Self.data + [card, "contacts.vcf"], "import")
        XCTAssertTrue(imported.contains("已添加 1 个地址"), imported)
        XCTAssertTrue(imported.contains("邮箱"), "the kind in Chinese: \(imported)")
    }

    func testDoctorIsChineseAndFits() throws {
        try assertChineseAndFitting([("doctor", "doctor")])
    }

    /// `check --all` on a terminal: its result lines, its summary, and every drawing of the progress line
    /// (read from the bytes the pane received: the line is erased at the end) in Chinese, each drawing
    /// narrower than the window (a wrapped progress line cannot be redrawn in place).
    func testCheckAllAndItsProgressLineAreChineseAndFit() throws {
        let pane = try Pane(s, server)
        defer { pane.close() }
        var english: (progress: String, lines: String)?
        for (width, chinese) in [(80, false), (80, true), (60, true)] {
            pane.resize(width)
            // One request a second: the progress line is drawn between them.
            let out = pane.run("check --all --force --rpm 60", chinese: chinese, focusIn: true)
            let progress = Self.progressDrawings(out.raw)
            XCTAssertGreaterThanOrEqual(progress.count, 2, "the progress line was drawn at \(width) columns: \(out.raw.debugDescription)")
            if !chinese {
                english = (progress.joined(separator: "\n"), out.lines.joined(separator: "\n"))
                continue
            }
            for drawing in progress {
                XCTAssertLessThan(TermFitEndToEndTests.cells(drawing), width, "a progress drawing wider than \(width) columns: \(drawing)")
                XCTAssertTrue(ChineseProse.containsIdeograph(drawing), "a progress drawing in English at \(width) columns: \(drawing)")
            }
            ChineseLocale.assertChinese(progress.joined(separator: "\n"), english: english?.progress, data: Self.data,
                                        "the progress line at \(width)")
            ChineseLocale.assertChinese(out.lines.joined(separator: "\n"), english: width == 80 ? english?.lines : nil, data: Self.data,
                                        "check --all at \(width)")
            assertFits(out, width: width, "check --all")
        }
    }

    /// reveal's private screen (the alternate screen, after the passphrase) with the accounts in full.
    func testRevealsPrivateScreenIsChineseAndFits() throws {
        try assertPrivateScreenChineseAndFitting("reveal --timeout 600 --passphrase-file \"$TEST_PASSFILE\"",
                                                 shows: "pwned-zanzibar@example.com")
    }

    /// The ui's first screen, the accounts, masked.
    func testTheUIAccountsScreenIsChineseAndFits() throws {
        try assertPrivateScreenChineseAndFitting("ui", shows: "p•••r@e•••.com")
    }

    // MARK: checks

    /// Runs each command under LANG=C at 80 columns and under LANG=zh_CN.UTF-8 at 80 and 60: Chinese
    /// where the English fails the check, and every line within the window.
    private func assertChineseAndFitting(_ commands: [(name: String, args: String)], file: StaticString = #filePath, line: UInt = #line) throws {
        let pane = try Pane(s, server)
        defer { pane.close() }
        var english: [String: String] = [:]
        for (width, chinese) in [(80, false), (80, true), (60, true)] {
            pane.resize(width)
            for c in commands {
                let out = pane.run(c.args, chinese: chinese)
                let text = out.lines.joined(separator: "\n")
                XCTAssertFalse(text.isEmpty, "\(c.name) printed nothing", file: file, line: line)
                if !chinese { english[c.name] = text; continue }
                ChineseLocale.assertChinese(text, english: width == 80 ? english[c.name] : nil, data: Self.data,
                                            "\(c.name) at \(width) columns", file: file, line: line)
                assertFits(out, width: width, c.name, file: file, line: line)
            }
        }
    }

    /// A full-screen view (reveal, ui) opened under each language: its screen in Chinese, every row within
    /// the window, then closed with q.
    private func assertPrivateScreenChineseAndFitting(_ args: String, shows anchor: String, file: StaticString = #filePath, line: UInt = #line) throws {
        let pane = try Pane(s, server)
        defer { pane.close() }
        var english: String?
        for (width, chinese) in [(80, false), (80, true), (60, true)] {
            pane.resize(width)
            let screen = pane.open(args, chinese: chinese, shows: anchor)
            XCTAssertTrue(screen.lines.joined(separator: "\n").contains(anchor), "\(args) at \(width): \(screen.lines)", file: file, line: line)
            let text = screen.lines.joined(separator: "\n")
            if !chinese {
                english = text
            } else {
                ChineseLocale.assertChinese(text, english: width == 80 ? english : nil, data: Self.data + [anchor],
                                            "\(args) at \(width) columns", file: file, line: line)
                assertFits(screen, width: width, args, file: file, line: line)
            }
            pane.close(with: "q")
        }
    }

    /// Every line within `width` cells, no U+FFFD on the screen, and the bytes the program wrote valid UTF-8.
    private func assertFits(_ out: Pane.Output, width: Int, _ what: String, file: StaticString = #filePath, line: UInt = #line) {
        for problem in Self.fitProblems(out, width: width) { XCTFail("\(what): \(problem)", file: file, line: line) }
    }

    static func fitProblems(_ out: Pane.Output, width: Int) -> [String] {
        var problems: [String] = []
        for row in out.lines where TermFitEndToEndTests.cells(row) > width {
            problems.append("\(TermFitEndToEndTests.cells(row)) cells at \(width) columns: \(row)")
        }
        for row in out.lines where row.contains("\u{FFFD}") { problems.append("a garbled character at \(width) columns: \(row)") }
        if !out.rawIsUTF8 { problems.append("the bytes written at \(width) columns are not UTF-8 (a character cut)") }
        if out.raw.contains("\u{FFFD}") { problems.append("U+FFFD written at \(width) columns") }
        return problems
    }

    /// The fit check itself, on lines a shell prints: a wide character that no longer fits a row's last
    /// cell (the terminal moves it to the next row), a character cut in its bytes, and a row that fits.
    func testTheFitCheckSeesAWideCharacterOverTheRowsEndAndACutCharacter() throws {
        let pane = try Pane(s, server)
        defer { pane.close() }
        pane.resize(60)
        let a59 = String(repeating: "a", count: 59)
        let over = pane.runShell("printf '%s\\n' '\(a59)中文'")
        XCTAssertEqual(over.lines, [a59 + "中文"], "tmux joins the row it wrapped")
        XCTAssertEqual(Self.fitProblems(over, width: 60), ["63 cells at 60 columns: \(a59)中文"])
        let cut = pane.runShell("printf 'ab\\344\\270\\n'")   // 中 is e4 b8 ad: its last byte is missing
        XCTAssertTrue(Self.fitProblems(cut, width: 60).contains("the bytes written at 60 columns are not UTF-8 (a character cut)"),
                      "\(Self.fitProblems(cut, width: 60))")
        let fits = pane.runShell("printf '%s\\n' '\(String(repeating: "a", count: 58))中'")
        XCTAssertEqual(Self.fitProblems(fits, width: 60), [])
        XCTAssertEqual(fits.lines.count, 1)
    }

    /// The progress line's drawings in the bytes a run wrote: each starts with "\r ESC[2K" and the bar
    /// (or, with no room for one, "done/total"), and ends where the next begins or a line does.
    static func progressDrawings(_ raw: String) -> [String] {
        raw.components(separatedBy: "\r\u{1B}[2K").dropFirst()
            .map { $0.components(separatedBy: CharacterSet(charactersIn: "\r\n")).first ?? "" }
            .map { $0.replacingOccurrences(of: "\u{1B}\\[[0-9;?]*[A-Za-z]", with: "", options: .regularExpression) }
            .filter { $0.hasPrefix("█") || $0.hasPrefix("░") || $0.range(of: #"^\d+/\d+"#, options: .regularExpression) != nil }
    }
}

/// One tmux pane (80×40 to begin with) whose shell runs pwnvault against the test's sandbox and fake
/// server; every byte written to it is kept (pipe-pane) to be checked as UTF-8.
final class Pane {
    struct Output {
        /// The lines between the run's markers, as tmux shows them with wrapped lines joined (-J); empty ones left out.
        var lines: [String]
        /// The bytes the pane received during the run, decoded (invalid sequences as U+FFFD).
        var raw: String
        var rawIsUTF8: Bool
    }

    let tmux: TmuxSession
    let rawFile: String
    private var runs = 0
    private var prompts = 1
    private(set) var width = 80

    init(_ s: Sandbox, _ server: FakeHIBP) throws {
        // The sandbox's PWNVAULT_ settings (loopback only: the API and Pwned Passwords URLs), the fake server.
        let settings = s.environment.filter { $0.key.hasPrefix("PWNVAULT_") }
        tmux = try TmuxSession(columns: 80, rows: 40, environment: settings.merging([
            "PWNVAULT_KEYRING": "none", "PWNVAULT_PASSPHRASE_FILE": s.passphraseFile, "PWNVAULT_API_URL": server.apiURL,
            "TEST_BIN": Paths.binary, "HOME": s.home.path, "TEST_KEY": FakeHIBP.key, "TEST_PASSFILE": s.passphraseFile,
        ]) { $1 }.merging(try ChineseLocale.tmuxEnvironment()) { $1 })
        rawFile = s.dir.appendingPathComponent("pane-\(UUID().uuidString.prefix(8)).raw").path
        FileManager.default.createFile(atPath: rawFile, contents: nil)
        tmux.call(["pipe", tmux.socket, rawFile])
    }

    func close() { tmux.close() }

    func resize(_ columns: Int) {
        tmux.resize(columns: columns, rows: 40)
        width = columns
    }

    private func command(_ args: String, chinese: Bool) -> String {
        "\(ChineseLocale.shellAssignments(chinese: chinese)) PAGER=cat HIBP_API_KEY=$TEST_KEY \"$TEST_BIN\" --no-share \(args)"
    }

    /// Runs `pwnvault ARGS` (words as the shell reads them) and returns what it printed.
    /// `focusIn`: once the program turns focus reporting on (tmux with no client attached answers that the
    /// pane is unfocused, and a check's progress line then hides), a focus-in, as a click on the window.
    func run(_ args: String, chinese: Bool, focusIn: Bool = false, file: StaticString = #filePath, line: UInt = #line) -> Output {
        runShell(command(args, chinese: chinese), focusIn: focusIn, file: file, line: line)
    }

    /// Runs a shell command line in the pane and returns what it printed.
    func runShell(_ commandLine: String, focusIn: Bool = false, file: StaticString = #filePath, line: UInt = #line) -> Output {
        runs += 1
        let start = "==\(runs)==", end = "END-\(runs)"
        // The markers as typed ($((N))) differ from the markers printed: only the printed ones are found.
        // Each on a line of its own after an empty one (-J joins a line to a command line that filled its row).
        tmux.run("echo; echo ==$((\(runs)))==; \(commandLine); echo; echo END-$((\(runs)))")
        prompts += 1
        if focusIn { showWhenHidden(start) }
        XCTAssertTrue(tmux.wait(for: end, seconds: 60, file: file, line: line), file: file, line: line)
        tmux.waitForPrompt(prompts, file: file, line: line)
        let joined = tmux.call(["tmux", tmux.socket, "capture-pane", "-p", "-J", "-S", "-", "-t", "main"]).output
            .components(separatedBy: "\n").map(TermFitEndToEndTests.trimmedRight)
        var lines: [String] = []
        if let from = joined.lastIndex(of: start), let to = joined[from...].firstIndex(of: end) {
            lines = joined[(from + 1)..<to].filter { !$0.isEmpty }
        } else {
            XCTFail("markers \(start)/\(end) not found: \(joined.suffix(60).joined(separator: "\n"))", file: file, line: line)
        }
        let (raw, valid) = rawBytes(from: start + "\r\n", to: end)
        return Output(lines: lines, raw: raw, rawIsUTF8: valid)
    }

    /// Starts a full-screen command, shows it (tmux with no client attached reports the pane unfocused:
    /// a focus-in, as a click on the window, once the program is on the alternate screen), and returns the
    /// visible screen once it holds `anchor`.
    func open(_ args: String, chinese: Bool, shows anchor: String, file: StaticString = #filePath, line: UInt = #line) -> Output {
        runs += 1
        let start = "==\(runs)=="
        tmux.run("echo; echo ==$((\(runs)))==; \(command(args, chinese: chinese))")
        prompts += 1
        let deadline = Date().addingTimeInterval(20)
        var screen = tmux.screen
        while !screen.contains(anchor) && Date() < deadline {
            if tmux.display("#{alternate_on}") == "1" { tmux.type("\\e[I") }
            usleep(200_000)
            screen = tmux.screen
        }
        XCTAssertTrue(screen.contains(anchor), "\(args) never showed \(anchor): \(screen)", file: file, line: line)
        usleep(300_000)   // the last redraw after the focus-in
        let visible = tmux.call(["tmux", tmux.socket, "capture-pane", "-p", "-J", "-t", "main"]).output
            .components(separatedBy: "\n").map(TermFitEndToEndTests.trimmedRight)
        let (raw, valid) = rawBytes(from: start + "\r\n", to: nil)
        return Output(lines: visible.filter { !$0.isEmpty }, raw: raw, rawIsUTF8: valid)
    }

    /// Types a focus-in once the bytes after `start` turn focus reporting on (within 10 s).
    private func showWhenHidden(_ start: String) {
        let deadline = Date().addingTimeInterval(10)
        while Date() < deadline {
            let data = FileManager.default.contents(atPath: rawFile) ?? Data()
            if let from = data.range(of: Data((start + "\r\n").utf8), options: .backwards),
               data.range(of: Data("\u{1B}[?1004h".utf8), in: from.upperBound..<data.endIndex) != nil {
                tmux.type("\\e[I")
                return
            }
            usleep(20_000)
        }
    }

    /// Closes the full-screen command with `key` and waits for the prompt.
    func close(with key: String, file: StaticString = #filePath, line: UInt = #line) {
        tmux.type(key)
        tmux.waitForPrompt(prompts, file: file, line: line)
    }

    /// The bytes written to the pane from the last `start` to the next `end` (or all that came), waiting
    /// for pipe-pane to pass them on; and whether they are valid UTF-8.
    private func rawBytes(from start: String, to end: String?) -> (String, Bool) {
        let deadline = Date().addingTimeInterval(5)
        var data = Data()
        repeat {
            data = FileManager.default.contents(atPath: rawFile) ?? Data()
            if let end, let from = data.range(of: Data(start.utf8), options: .backwards),
               data.range(of: Data(end.utf8), in: from.upperBound..<data.endIndex) != nil { break }
            if end == nil, data.range(of: Data(start.utf8)) != nil { break }
            usleep(50_000)
        } while Date() < deadline
        guard let from = data.range(of: Data(start.utf8), options: .backwards) else { return ("", false) }
        let to = end.flatMap { data.range(of: Data($0.utf8), in: from.upperBound..<data.endIndex)?.lowerBound } ?? data.endIndex
        let bytes = data[from.upperBound..<to]
        let decoded = String(data: bytes, encoding: .utf8)
        return (decoded ?? String(decoding: bytes, as: UTF8.self), decoded != nil)
    }
}
