@testable import PwnVaultCLI
@testable import PwnVaultCore
import XCTest

/// `pwnvault ui`'s state machine without a terminal: events go into `UIUpdate.update`, the effects it
/// asks for are looked at (not done), and `UIView.rows` shows what a person would read. The tmux tests
/// (UIEndToEndTests, UIPrivateMomentsEndToEndTests) keep the protections that need a real terminal.
final class UIStateTests: XCTestCase {
    let now = Date(timeIntervalSince1970: 1_750_000_000)
    let link = "https://www.example.com/news/2024/a-very-long-article-about-this-breach-that-is-now-searchable-in-hibp"

    var catalog: BreachCatalog {
        BreachCatalog(breaches: [
            Breach(name: "Adobe", title: "Adobe", domain: "adobe.com", breachDate: BreachDay(year: 2013, month: 10, day: 4),
                   pwnCount: 152_445_165, descriptionHTML: "Adobe lost its users. <a href=\"\(link)\">More</a>",
                   dataClasses: ["Email addresses", "Passwords"], isVerified: true),
            Breach(name: "Estonia", title: "Estonian Citizens", domain: "a-rather-long-domain-name-for-estonia.example.ee",
                   breachDate: BreachDay(year: 2021, month: 7, day: 1), pwnCount: 290_000, isVerified: true),
        ], fetchedAt: now)
    }

    /// #1 breached in Adobe and Estonia (not acknowledged), #2 clean, #3 never checked; #1 and #2 checked an hour ago.
    func makeAccounts(checkedAgo: TimeInterval = 3600, thirdChecked: Bool = false) throws -> [Account] {
        let at = now.addingTimeInterval(-checkedAgo)
        var a = Account(id: 1, parsed: try AccountParser.parse("pwned-zanzibar@example.com", phones: .internationalOnly), label: nil, addedAt: at)
        _ = a.record(AccountCheck(answer: CheckResult(status: .breached, checkedAt: at, breaches: ["Adobe", "Estonia"])))
        var b = Account(id: 2, parsed: try AccountParser.parse("clean-wombat@example.org", phones: .internationalOnly), label: nil, addedAt: at)
        _ = b.record(AccountCheck(answer: CheckResult(status: .clean, checkedAt: at)))
        var c = Account(id: 3, parsed: try AccountParser.parse("numbat@example.net", phones: .internationalOnly), label: nil, addedAt: at)
        if thirdChecked { _ = c.record(AccountCheck(answer: CheckResult(status: .clean, checkedAt: at))) }
        return [a, b, c]
    }

    func makeState(columns: Int = 80, rows: Int = 24, share: String? = nil, thirdChecked: Bool = false) throws -> UIState {
        var s = UIState(accounts: try makeAccounts(thirdChecked: thirdChecked), catalog: catalog,
                        policy: DisplayPolicy(terminal: true, shareMode: share != nil), shareReason: share, colors: true)
        s = UIUpdate.update(s, .resize(UIState.Size(columns: columns, rows: rows))).0
        return s
    }

    /// The state after `keys`, and every effect they asked for.
    func press(_ keys: [UIKey], on state: UIState, reporting: FocusReporting = .reported) -> (UIState, [UIEffect]) {
        var s = state, all: [UIEffect] = []
        for k in keys {
            let (next, effects) = UIUpdate.update(s, .key(k, focusReporting: reporting, now: now))
            s = next; all += effects
        }
        return (s, all)
    }

    func type(_ text: String) -> [UIKey] { text.map { UIKey.char($0) } }

    func screen(_ s: UIState) -> [String] { UIView.rows(s, columns: s.size.columns, rows: s.size.rows).map(\.text) }

    func footer(_ s: UIState) -> String { screen(s).last ?? "" }

    // MARK: navigation

    func testArrowsMoveEnterOpensTheResultEscGoesBackCOpensTheCatalog() throws {
        var (s, _) = press([.down], on: try makeState())
        XCTAssertEqual(s.accountsPage.selectedID, 2)
        XCTAssertTrue(screen(s)[3].contains("#2"), "the second account's row is the selected one")
        XCTAssertEqual(UIView.rows(s, columns: 80, rows: 24)[3].spans.first?.style, .selected)
        (s, _) = press([.enter], on: s)
        XCTAssertEqual(s.page, .result(ResultPage(id: 2)))
        XCTAssertTrue(screen(s).joined(separator: "\n").contains("#2  c•••t@e•••.org"), screen(s).joined(separator: "\n"))
        (s, _) = press([.escape, .char("c")], on: s)
        XCTAssertEqual(s.page, .catalog)
        XCTAssertTrue(screen(s)[0].contains("Catalog (2) · sorted by date"), screen(s)[0])
        (s, _) = press([.char("?")], on: s)
        XCTAssertEqual(s.page, .help(HelpPage()))
        (s, _) = press([.escape, .escape], on: s)
        XCTAssertEqual(s.page, .accounts)
        let (_, effects) = press([.char("q")], on: s)
        guard case .quit? = effects.first else { return XCTFail("q quits: \(effects)") }
    }

    func testTheViewIsPureTheSameStateDrawsTheSameRows() throws {
        let s = try makeState()
        XCTAssertEqual(UIView.rows(s, columns: 80, rows: 24), UIView.rows(s, columns: 80, rows: 24))
        XCTAssertEqual(UIView.rows(s, columns: 80, rows: 24).count, 24)
        XCTAssertEqual(UIView.rows(s, columns: 80, rows: 24).first?.spans.first?.style, .bar, "typed styles, not escape strings")
        XCTAssertFalse(UIView.rows(s, columns: 80, rows: 24).contains { $0.text.contains("\u{1B}") })
    }

    // MARK: filter

    func testTheFilterMatchesTheStateText() throws {
        var (s, _) = press([.char("/")] + type("breached"), on: try makeState())
        XCTAssertEqual(s.accountsPage.shownIDs, [1])
        XCTAssertTrue(screen(s)[0].contains("Accounts (1 of 3)"), screen(s)[0])
        (s, _) = press([.escape, .char("/")] + type("never checked") + [.enter], on: s)
        XCTAssertEqual(s.accountsPage.shownIDs, [3])
        XCTAssertFalse(s.accountsPage.typing, "Enter keeps the filter")
        (s, _) = press([.escape, .char("/")] + type("2 to acknowledge"), on: s)
        XCTAssertEqual(s.accountsPage.shownIDs, [1])
        (s, _) = press([.escape, .char("/")] + type("clean"), on: s)
        XCTAssertEqual(s.accountsPage.shownIDs, [2])
        (s, _) = press([.escape], on: s)
        XCTAssertEqual(s.accountsPage.shownIDs, [1, 2, 3], "Esc clears it")
    }

    // MARK: Enter on a result opens a breach

    func testEnterOnTheResultOpensTheBreachTabPicksTheNext() throws {
        var (s, _) = press([.enter], on: try makeState())
        XCTAssertTrue(screen(s).contains { $0.contains("Enter: details of") }, "the page says what Enter opens: \(screen(s))")
        let first = ResultPage.breaches(s, id: 1).map(\.name)
        XCTAssertEqual(Set(first), ["Adobe", "Estonia"])
        (s, _) = press([.enter], on: s)
        XCTAssertEqual(s.page, .detail(DetailPage(name: first[0], account: 1)))
        XCTAssertTrue(screen(s)[0].contains("pwnvault · Breach"))
        (s, _) = press([.escape, .tab, .enter], on: s)
        XCTAssertEqual(s.page, .detail(DetailPage(name: first[1], account: 1)), "Tab picks the next breach")
        XCTAssertTrue(HelpPage.lines(width: 100).contains { $0.contains("Enter") && $0.contains("a breach's details") })
        XCTAssertTrue(UIView.keys(.result(ResultPage(id: 1))).contains { $0.key == "Enter" && $0.what == "breach" })
    }

    /// The key page wraps at any width under each key's hanging indent: no row wider than the window,
    /// and every word of every description is there (it used to cut its 100-column lines).
    func testTheKeyPageWrapsEveryDescriptionAtAnyWidth() {
        let words = (HelpPage.sections.flatMap { $0.keys.map(\.1) } + [HelpPage.protection.text])
            .flatMap { $0.split(separator: " ").map(String.init) }
        for width in [40, 59, 79, 120] {
            let rows = HelpPage.lines(width: width)
            XCTAssertTrue(rows.allSatisfy { TerminalCells.width($0) <= width }, "\(width): \(rows.filter { TerminalCells.width($0) > width })")
            let text = rows.joined(separator: " ")
            for word in words { XCTAssertTrue(text.contains(word), "\(width): '\(word)' was cut") }
            XCTAssertTrue(rows.contains { $0.hasPrefix("  R ") }, "keys start their rows")
        }
    }

    /// Issue 29: after an answer that no longer lists Estonia, the accounts page counts it, the result
    /// page keeps it with its mark and the day, and its detail page opened from there says so first.
    func testABreachNoLongerListedStaysOnTheResultAndDetailPages() throws {
        var accounts = try makeAccounts()
        let later = now.addingTimeInterval(-60)
        let changes = accounts[0].recordChanges(AccountCheck(answer: CheckResult(status: .breached, checkedAt: later, breaches: ["Adobe"])))
        XCTAssertEqual(changes.unlisted.map(\.key), ["Estonia"])
        var s = UIState(accounts: accounts, catalog: catalog, policy: DisplayPolicy(terminal: true, shareMode: false), shareReason: nil, colors: true)
        s = UIUpdate.update(s, .resize(UIState.Size(columns: 100, rows: 40))).0
        XCTAssertTrue(screen(s).contains { $0.contains("#1") && $0.contains("· 1 no longer listed") }, "\(screen(s))")
        (s, _) = press([.enter], on: s)
        let result = screen(s)
        XCTAssertTrue(result.contains { $0.contains("Estonian Citizens") && $0.contains("(no longer listed by HIBP since 2025-06-15)") }, "\(result)")
        XCTAssertTrue(result.contains { $0.contains("found earlier in 1 breach that HIBP no longer lists") }, "\(result)")
        XCTAssertEqual(Set(ResultPage.breaches(s, id: 1).map(\.name)), ["Adobe", "Estonia"], "both can still be opened")
        (s, _) = press([.enter], on: s)
        XCTAssertEqual(s.page, .detail(DetailPage(name: "Estonia", account: 1)), "the newest first")
        XCTAssertTrue(screen(s).contains { $0.contains("#1 (no longer listed by HIBP since 2025-06-15)") }, "\(screen(s))")
        (s, _) = press([.escape, .tab, .enter], on: s)
        XCTAssertEqual(s.page, .detail(DetailPage(name: "Adobe", account: 1)))
        XCTAssertFalse(screen(s).contains { $0.contains("no longer listed") }, "Adobe is listed: \(screen(s))")
    }

    func testLinksInDetailsWrapAndAreNeverCut() throws {
        for columns in [40, 60, 80] {
            var (s, _) = press([.char("c"), .char("/")] + type("adobe") + [.enter, .enter], on: try makeState(columns: columns, rows: 60))
            XCTAssertEqual(s.page, .detail(DetailPage(name: "Adobe")))
            let rows = screen(s)
            XCTAssertTrue(rows.allSatisfy { TerminalCells.width($0) <= columns }, "\(columns): \(rows)")
            XCTAssertFalse(rows.contains { $0.contains("…") && $0.contains("https") }, "no ellipsis: \(rows)")
            let joined = rows.map { $0.trimmingCharacters(in: .whitespaces) }.joined()
            XCTAssertTrue(joined.contains(link), "the whole link, in pieces at \(columns) columns: \(rows)")
            (s, _) = press([.end], on: s)
            XCTAssertEqual(s.page, .detail(DetailPage(name: "Adobe", text: ScrolledText(scroll: max(0, DetailPage.rows(s, name: "Adobe", width: columns - 1).count - (60 - 2))))))
        }
    }

    // MARK: footer and columns

    func testTheFooterKeepsHelpAndQuitAtAnyWidth() throws {
        for columns in [40, 60, 80, 200] {
            for share in [nil, "a screen is shared"] as [String?] {
                let base = try makeState(columns: columns, share: share)
                for keys in [[], [UIKey.char("c")], [.enter], [.char("c"), .enter], [.char("?")]] {
                    let s = press(keys, on: base).0
                    let line = footer(s)
                    XCTAssertEqual(TerminalCells.width(line), columns)
                    XCTAssertTrue(line.contains("q quit"), "\(columns) \(s.page): \(line)")
                    if s.page != .help(HelpPage()) { XCTAssertTrue(line.contains("? keys"), "\(columns) \(s.page): \(line)") }
                    XCTAssertFalse(line.contains("…"), "keys dropped whole, never cut: \(line)")
                }
            }
        }
        XCTAssertTrue(footer(try makeState(columns: 200)).contains("R check due"), "all keys where they fit")
        XCTAssertFalse(footer(try makeState(columns: 40)).contains("R check due"), "the least important go first")
    }

    func testColumnsShareTheWidthByPriorityAndStopAtWhatTheirContentNeeds() {
        let columns = CatalogPage.columns
        let needs = [10, 40, 27, 11]   // date, title, domain, accounts
        let narrow = ColumnLayout.widths(columns, needs: needs, width: 60)
        XCTAssertGreaterThan(narrow[1], narrow[2], "TITLE before DOMAIN: \(narrow)")
        XCTAssertEqual(narrow[3], 11, "numbers are not cut")
        XCTAssertLessThanOrEqual(narrow.reduce(0, +) + 2 * (narrow.filter { $0 > 0 }.count - 1), 60)
        let wide = ColumnLayout.widths(columns, needs: needs, width: 200)
        XCTAssertEqual(wide, needs, "at 200 columns each column is as wide as its content, no wider")
        let tiny = ColumnLayout.widths(columns, needs: needs, width: 30)
        XCTAssertEqual(tiny[2], 0, "DOMAIN gives way first: \(tiny)")
        XCTAssertGreaterThan(tiny[1], 0)
    }

    func testTheCatalogAndAccountsFitTheirRowsAt60And200Columns() throws {
        for columns in [60, 80, 200] {
            let s = try makeState(columns: columns)
            let accounts = screen(s)
            XCTAssertTrue(accounts[1].hasPrefix("ID  ACCOUNT"), accounts[1])
            XCTAssertTrue(accounts.allSatisfy { TerminalCells.width($0) <= columns }, "\(accounts)")
            XCTAssertTrue(accounts[2].contains("p•••r@e•••.com"), "the account whole: \(accounts[2])")
            XCTAssertTrue(accounts[2].contains("breached"), accounts[2])
            let catalog = screen(press([.char("c")], on: s).0)
            XCTAssertTrue(catalog[1].contains("TITLE"), catalog[1])
            XCTAssertTrue(catalog.contains { $0.contains("Estonian Citizens") }, "TITLE whole at \(columns): \(catalog)")
            if columns == 200 {
                let header = catalog[1]
                let title = header.range(of: "TITLE")!, domain = header.range(of: "DOMAIN")!
                XCTAssertLessThanOrEqual(header.distance(from: title.lowerBound, to: domain.lowerBound), "Estonian Citizens [verified]".count + 2 + 12,
                                         "TITLE stops at what it needs: \(header)")
            }
        }
    }

    // MARK: R

    func testRChecksTheDueAndRTwiceForcesARecheckWhenNoneIsDue() throws {
        // #3 was never checked: R checks it.
        var (s, effects) = press([.char("R")], on: try makeState())
        guard case let .check(ids, _)? = effects.first else { return XCTFail("R checks the due: \(effects)") }
        XCTAssertEqual(ids, [3])
        XCTAssertNotNil(s.check)
        (s, effects) = press([.char("R")], on: s)
        XCTAssertTrue(effects.isEmpty, "one check at a time")
        // Everything checked an hour ago: the first R says so, the second forces.
        (s, effects) = press([.char("R")], on: try makeState(thirdChecked: true))
        XCTAssertTrue(effects.isEmpty, "\(effects)")
        XCTAssertTrue(s.message?.contains("R again") == true, s.message ?? "")
        (s, effects) = press([.char("R")], on: s)
        guard case let .check(forced, _)? = effects.first else { return XCTFail("R twice forces: \(effects)") }
        XCTAssertEqual(forced, [1, 2, 3])
        // Another key between the two disarms it; a filter narrows what is forced.
        (s, effects) = press([.char("R"), .down, .char("R")], on: try makeState(thirdChecked: true))
        XCTAssertTrue(effects.isEmpty, "\(effects)")
        (s, effects) = press([.char("/")] + type("clean") + [.enter, .char("R"), .char("R")], on: try makeState(thirdChecked: true))
        guard case let .check(filtered, what)? = effects.first else { return XCTFail("\(effects)") }
        XCTAssertEqual(filtered, [2, 3])
        XCTAssertEqual(what, "2 accounts")
        XCTAssertTrue(HelpPage.lines(width: 100).contains { $0.contains("R again") })
    }

    func testCheckProgressAndEndArriveAsEvents() throws {
        var (s, _) = press([.char("r")], on: try makeState())
        XCTAssertEqual(footer(s).trimmingCharacters(in: .whitespaces), "checking #1…")
        s = UIUpdate.update(s, .checkProgress("checking #1: 1/1 done")).0
        XCTAssertTrue(footer(s).contains("1/1 done"))
        let (cancelled, effects) = press([.escape], on: s)
        guard case .cancelCheck? = effects.first else { return XCTFail("Esc cancels: \(effects)") }
        s = UIUpdate.update(cancelled, .checkEnded("check done: 1 of 1 checked")).0
        XCTAssertNil(s.check)
        XCTAssertTrue(footer(s).contains("check done"))
    }

    /// A save failure outranks a check's closing line; any other message gives way to it. Decided on the
    /// event's case, so a translated "could not save" (any wording) keeps its place too.
    func testASaveFailureOutranksTheClosingLineWhateverItsWording() throws {
        var (s, _) = press([.char("r")], on: try makeState())
        s = UIUpdate.update(s, .saveFailed("无法保存：磁盘已满")).0
        s = UIUpdate.update(s, .checkEnded("check done: 1 of 1 checked")).0
        XCTAssertTrue(footer(s).contains("无法保存"), footer(s))
        (s, _) = press([.char("r")], on: try makeState())
        s = UIUpdate.update(s, .said("could not save: but only said, not failed")).0
        s = UIUpdate.update(s, .checkEnded("check done: 1 of 1 checked")).0
        XCTAssertTrue(footer(s).contains("check done"), footer(s))
    }

    // MARK: reveal

    func testRevealAsksThePassphraseThenAnyKeyFocusLossOrTheTimeHidesIt() throws {
        var (s, effects) = press([.char("v")] + type("horse"), on: try makeState(), reporting: .reported)
        XCTAssertNotNil(s.asking)
        XCTAssertFalse(screen(s).joined().contains("horse"), "typed without echo")
        XCTAssertEqual(s.asking?.field.count, 5)
        (s, effects) = press([.enter], on: s, reporting: .reported)
        guard case let .reveal(id, field, seconds)? = effects.first else { return XCTFail("Enter asks to open the vault: \(effects)") }
        XCTAssertEqual(id, 1)
        XCTAssertEqual(seconds, 30)
        XCTAssertEqual(field.take().count, 5)
        let pager = TextPager(lines: (1...80).map { TextPager.Line("line \($0)") })
        let shown = UIUpdate.update(s, .revealed(id: 1, text: "pwned-zanzibar@example.com", pager: pager, until: 100)).0
        XCTAssertTrue(screen(shown)[0].contains("Revealed #1"))
        XCTAssertTrue(shown.revealedSomething)
        // Arrows scroll it; any other key hides it.
        var kept = press([.down, .pageDown], on: shown).0
        XCTAssertNotNil(kept.revealed)
        XCTAssertGreaterThan(kept.revealed!.pager.top, 0)
        kept = press([.char("x")], on: kept).0
        XCTAssertNil(kept.revealed)
        // Focus loss hides it; so does the time.
        XCTAssertNil(UIUpdate.update(shown, .hide).0.revealed)
        XCTAssertNotNil(UIUpdate.update(shown, .tick(now: 99.9)).0.revealed)
        XCTAssertNil(UIUpdate.update(shown, .tick(now: 100)).0.revealed)
        // Where focus changes are not reported: 10 s, and the warning is said.
        let unreported = press([.char("v")], on: try makeState(), reporting: .unknown).0
        XCTAssertEqual(unreported.revealSeconds, 10)
        XCTAssertTrue(screen(unreported).contains { $0.contains("cannot hide when this window loses focus") })
        // Share mode refuses.
        let share = press([.char("v")], on: try makeState(share: "a screen is shared")).0
        XCTAssertNil(share.asking)
        XCTAssertTrue(share.message?.contains("refused in share mode") == true)
    }

    func testAHalfTypedPassphraseIsDroppedOnFocusLoss() throws {
        let s = press([.char("v")] + type("hor"), on: try makeState()).0
        let field = try XCTUnwrap(s.asking?.field)
        let hidden = UIUpdate.update(s, .hide).0
        XCTAssertNil(hidden.asking)
        XCTAssertEqual(field.count, 0, "wiped")
    }

    // MARK: idle lock

    func testTheIdleLockNeedsThePassphraseOnlyOnceSomethingWasRevealed() throws {
        var s = try makeState()
        XCTAssertNil(s.lockedLine, "nothing revealed: any key unlocks (the screen's own line)")
        XCTAssertTrue(UIUpdate.update(s, .lockedKey(.char("a"))).1.isEmpty)
        s = UIUpdate.update(s, .revealed(id: 1, text: "x", pager: TextPager(lines: []), until: 1)).0
        s = UIUpdate.update(s, .hide).0
        XCTAssertTrue(s.lockedLine?.contains("type the passphrase") == true)
        var effects: [UIEffect] = []
        for k in type("nope") + [.enter] {
            let r = UIUpdate.update(s, .lockedKey(k)); s = r.0; effects += r.1
        }
        guard case let .unlock(field)? = effects.first else { return XCTFail("Enter tries the passphrase: \(effects)") }
        XCTAssertEqual(field.take().count, 4)
        s = UIUpdate.update(s, .unlocked(false)).0
        XCTAssertTrue(s.lockedLine?.hasPrefix("wrong passphrase.") == true)
        s = UIUpdate.update(s, .unlocked(true)).0
        XCTAssertFalse(s.lockedLine?.hasPrefix("wrong") == true)
    }
}
