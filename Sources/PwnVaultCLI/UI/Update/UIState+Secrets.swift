import PwnVaultCore

/// Passphrases and the revealed account: `v`, `n` (a new account, typed without echo), the idle lock.
extension UIState {
    mutating func startReveal(_ id: Int) {
        if let shareReason { message = msg("reveal is refused in share mode ({1})", shareReason); return }
        if let alternateScreen, alternateScreen != .works {
            message = msg("nothing revealed (GNU screen's scrollback would keep it)")
            notice = msg("reveal is refused: {1}. Fix: {2}", AlternateScreenProbe.problem(confirmed: alternateScreen == .ignored),
                         AlternateScreenProbe.fix)
            return
        }
        asking = Asking(purpose: .reveal(id: id), field: SecretField())
    }

    mutating func passphraseKey(_ key: UIKey, _ effects: inout [UIEffect]) {
        guard let asking else { return }
        switch key {
        case let .char(c): asking.field.append(c)
        case .backspace: asking.field.removeLast()
        case .escape:
            _ = asking.field.take()
            self.asking = nil
            message = asking.purpose == .add ? msg("nothing added") : msg("nothing revealed")
        case .enter:
            self.asking = nil
            switch asking.purpose {
            case let .reveal(id): effects.append(.reveal(id: id, passphrase: asking.field, seconds: revealSeconds))
            case .add: effects.append(.add(asking.field))
            case .unlock: break
            }
        default: break
        }
    }

    /// Whether `key` scrolls or searches the revealed text (it stays); any other key hides it.
    mutating func revealedKeeps(_ key: UIKey) -> Bool {
        guard var r = revealed else { return false }
        var typed = key == .backspace || key == .enter
        if case .char = key { typed = true }
        // Only keys that mean nothing else here: letters keep hiding it at once, n and N once a search was made.
        var scrolls: [UIKey] = [.up, .down, .pageUp, .pageDown, .home, .end, .char("/")]
        if r.pager.query != nil { scrolls += [.char("n"), .char("N")] }
        guard r.pager.isTyping ? typed : scrolls.contains(key) else { return false }
        _ = r.pager.take(key, columns: size.columns, rows: size.rows - 2)
        revealed = r
        return true
    }

    /// The one line shown while locked; nil for the screen's own (nothing was revealed).
    var lockedLine: String? {
        guard revealedSomething else { return nil }
        return unlockFailed ? msg("wrong passphrase. locked: something was revealed, so type the passphrase and press Enter (not shown).")
            : msg("locked: something was revealed, so type the passphrase and press Enter (not shown).")
    }

    /// A key while locked: once something was revealed, the passphrase (Enter asks the runner to try it).
    mutating func lockedKey(_ key: UIKey, _ effects: inout [UIEffect]) {
        guard revealedSomething else { return }
        if asking == nil { asking = Asking(purpose: .unlock, field: SecretField()) }
        guard let asking else { return }
        switch key {
        case let .char(c): asking.field.append(c)
        case .backspace: asking.field.removeLast()
        case .escape: _ = asking.field.take()
        case .enter:
            self.asking = nil
            effects.append(.unlock(passphrase: asking.field))
        default: break
        }
    }
}
