import FoundationEssentials
import PwnVaultCore

/// Keys, page by page.
extension UIState {
    mutating func take(_ key: UIKey, armed: Bool, now: Date, _ effects: inout [UIEffect]) {
        if revealed != nil { if !revealedKeeps(key) { revealed = nil }; return }   // unmasked only until a key
        if asking != nil { passphraseKey(key, &effects); return }
        if typingPath != nil { pathKey(key, &effects); return }
        if accountsPage.typing || catalogPage.typing { typed(key); return }
        if check != nil, key == .escape || key == .char("x") { effects.append(.cancelCheck); return }
        switch key {
        case .char("q"), .char("Q"): effects.append(.quit); return
        case .escape where page == .pick, .backspace where page == .pick:
            stack.removeLast()
            message = msg("nothing imported")
            return
        case .char("?"):
            if case .help = page {} else { push(.help(HelpPage())) }
            return
        case .escape, .backspace, .left:
            if page == .accounts {
                if !accountsPage.filter.isEmpty { accountsPage.filter = ""; accountsPage.applyFilter(narrowing: false, height: listHeight) }
            } else { stack.removeLast() }
            return
        case .char("c"):
            if page != .catalog { push(.catalog) }
            return
        default: break
        }
        switch page {
        case .accounts: accountsKey(key, armed: armed, now: now, &effects)
        case .catalog: catalogKey(key)
        case let .result(p): resultKey(key, p, &effects)
        case let .detail(p):
            var p = p
            if p.text.take(key, total: DetailPage.rows(self, name: p.name, width: size.columns - 1, account: p.account).count, height: pageHeight) { replaceTop(.detail(p)) }
        case let .help(p):
            var p = p
            if p.text.take(key, total: HelpPage.lines(width: size.columns - 1).count, height: pageHeight) { replaceTop(.help(p)) }
        case .pick: pickKey(key, &effects)
        }
    }

    /// Typing the filter (accounts) or the search (catalog).
    mutating func typed(_ key: UIKey) {
        let filtering = accountsPage.typing
        var text = filtering ? accountsPage.filter : catalogPage.query
        var narrowing = false
        switch key {
        case .enter: accountsPage.typing = false; catalogPage.typing = false; return
        case .escape: text = ""; accountsPage.typing = false; catalogPage.typing = false
        case .backspace: if !text.isEmpty { text.removeLast() }
        case .control(0x15): text = ""   // Ctrl-U
        case let .char(c): text.append(c); narrowing = true
        case .up, .down, .pageUp, .pageDown:
            if filtering { _ = moved(key, &accountsPage.cursor, count: accountsPage.shown.count) }
            else { _ = moved(key, &catalogPage.cursor, count: catalogPage.shown.count) }
            return
        default: return
        }
        if filtering { accountsPage.filter = text; accountsPage.applyFilter(narrowing: narrowing, height: listHeight) }
        else { catalogPage.query = text; catalogPage.applyQuery(narrowing: narrowing, height: listHeight) }
    }

    /// Moves in a list; true when the key was a movement.
    func moved(_ key: UIKey, _ cursor: inout ListCursor, count: Int) -> Bool {
        let h = listHeight
        switch key {
        case .up, .char("k"), .wheelUp: cursor.move(-1, count: count, height: h)
        case .down, .char("j"), .wheelDown: cursor.move(1, count: count, height: h)
        case .pageUp: cursor.move(-h, count: count, height: h)
        case .pageDown, .char(" "): cursor.move(h, count: count, height: h)
        case .home, .char("g"): cursor.move(-count, count: count, height: h)
        case .end, .char("G"): cursor.move(count, count: count, height: h)
        case let .click(_, row) where row >= 2 && row < 2 + h:
            cursor.selected = cursor.top + row - 2
            cursor.keepVisible(count: count, height: h)
        default: return false
        }
        return true
    }

    mutating func accountsKey(_ key: UIKey, armed: Bool, now: Date, _ effects: inout [UIEffect]) {
        if moved(key, &accountsPage.cursor, count: accountsPage.shown.count) { return }
        switch key {
        case .char("/"): accountsPage.typing = true
        case .enter, .right: if let a = selectedAccount { push(.result(ResultPage(id: a.id))) }
        case .char("r"): if let a = selectedAccount { startCheck([a.id], what: "#\(a.id)", &effects) }
        case .char("R"): checkDue(armed: armed, now: now, &effects)
        case .char("v"): if let a = selectedAccount { startReveal(a.id) }
        case .char("n"): asking = Asking(purpose: .add, field: SecretField())
        case .char("i"): typingPath = ""
        default: break
        }
    }

    mutating func catalogKey(_ key: UIKey) {
        if moved(key, &catalogPage.cursor, count: catalogPage.shown.count) { return }
        switch key {
        case .char("/"): catalogPage.typing = true
        case .char("s"): catalogPage.nextSort(height: listHeight)
        case .enter, .right: if let b = catalogPage.selected { push(.detail(DetailPage(name: b.name))) }
        default: break
        }
    }

    mutating func resultKey(_ key: UIKey, _ page: ResultPage, _ effects: inout [UIEffect]) {
        var p = page
        switch key {
        case .char("a"): effects.append(.acknowledge(id: p.id))
        case .char("r"): startCheck([p.id], what: "#\(p.id)", &effects)
        case .enter, .right:
            let shown = ResultPage.breaches(self, id: p.id)
            if shown.isEmpty { message = msg("no breach to open for #{1}", p.id); return }
            push(.detail(DetailPage(name: shown[min(p.breach, shown.count - 1)].name, account: p.id)))
        case .tab:
            let count = ResultPage.breaches(self, id: p.id).count
            if count > 0 { p.breach = (p.breach + 1) % count; replaceTop(.result(p)) }
        default:
            if p.text.take(key, total: ResultPage.rows(self, id: p.id, width: size.columns - 1).count + 1, height: pageHeight) {
                replaceTop(.result(p))
            }
        }
    }

    /// `R`: every account that is due; where none is, a second `R` checks every account shown anyway.
    mutating func checkDue(armed: Bool, now: Date, _ effects: inout [UIEffect]) {
        guard check == nil else { return }
        if armed {
            let ids = accountsPage.shownIDs
            guard !ids.isEmpty else { return }
            startCheck(ids, what: ids.count == 1 ? "#\(ids[0])" : msg(one: "{1} account", many: "{1} accounts", count: ids.count, ids.count), &effects)
            return
        }
        let due = accounts.filter { CheckSession.isDue($0, now: now) }
        if due.isEmpty {
            let n = accountsPage.shown.count
            message = n == 1 ? msg("every account was checked within the last day; R again checks #{1} anyway", accountsPage.shownIDs[0])
                : msg("every account was checked within the last day; R again checks the {1} shown anyway", n)
            forceArmed = n > 0
            return
        }
        startCheck(due.map(\.id), what: msg(one: "{1} due account", many: "{1} due accounts", count: due.count, due.count), &effects)
    }

    mutating func startCheck(_ ids: [Int], what: String, _ effects: inout [UIEffect]) {
        guard check == nil else { return }
        check = msg("checking {1}…", what)
        effects.append(.check(ids: ids, what: what))
    }

    mutating func pathKey(_ key: UIKey, _ effects: inout [UIEffect]) {
        guard var path = typingPath else { return }
        switch key {
        case let .char(c): path.append(c)
        case .backspace: if !path.isEmpty { path.removeLast() }
        case .escape: typingPath = nil; return
        case .enter: typingPath = nil; effects.append(.readContacts(path: path)); return
        default: break
        }
        typingPath = path
    }

    mutating func pickKey(_ key: UIKey, _ effects: inout [UIEffect]) {
        guard var p = pickPage else { return }
        defer { if pickPage != nil { pickPage = p } }
        // Space picks here (elsewhere it pages down).
        if key != .char(" "), moved(key, &p.cursor, count: p.items.count) { return }
        switch key {
        case .char(" "), .char("x"):
            let i = p.cursor.selected
            if p.picked.contains(i) { p.picked.remove(i) } else { p.picked.insert(i) }
        case .char("*"):
            p.picked = p.picked.count == p.items.count ? [] : Set(p.items.indices)
        case .enter:
            let chosen = p.chosen
            stack.removeLast()
            pickPage = nil
            guard !chosen.isEmpty else { message = msg("nothing was picked; nothing was added"); return }
            effects.append(.importPicked(chosen))
        default: break
        }
    }
}
