import FoundationEssentials
import PwnVaultCore

/// The ui's one state machine: the next state and what to do, from a state and an event. Pure: the
/// effects are only asked for here; `VaultUI` does them and sends back what came of them.
enum UIUpdate {
    static func update(_ state: UIState, _ event: UIEvent) -> (UIState, [UIEffect]) {
        var s = state
        var effects: [UIEffect] = []
        s.apply(event, &effects)
        return (s, effects)
    }
}

extension UIState {
    mutating func apply(_ event: UIEvent, _ effects: inout [UIEffect]) {
        switch event {
        case let .key(key, focusReporting, now):
            message = nil
            notice = nil
            self.focusReporting = focusReporting
            let armed = forceArmed
            forceArmed = false
            take(key, armed: armed, now: now, &effects)
        case let .lockedKey(key):
            lockedKey(key, &effects)
        case let .tick(now):
            if let revealed, now >= revealed.until { self.revealed = nil }
        case .hide:
            revealed = nil
            if let asking, asking.purpose != .unlock { _ = asking.field.take(); self.asking = nil }
        case let .resize(size):
            self.size = size
            accountsPage.cursor.keepVisible(count: accountsPage.shown.count, height: listHeight)
            catalogPage.cursor.keepVisible(count: catalogPage.shown.count, height: listHeight)
        case let .saved(accounts, message, select):
            reload(accounts)
            if let message { self.message = message }
            if let select, let i = accountsPage.shown.firstIndex(where: { accountsPage.rows[$0].id == select }) {
                accountsPage.cursor.selected = i
                accountsPage.cursor.keepVisible(count: accountsPage.shown.count, height: listHeight)
            }
        case let .said(message, notice):
            self.message = message
            if let notice { self.notice = notice }
        case let .saveFailed(message):
            self.message = message
            messageIsSaveFailure = true
        case let .revealed(id, text, pager, until):
            revealed = Revealed(id: id, text: text, until: until, pager: pager)
            revealedSomething = true
        case let .unlocked(ok):
            unlockFailed = !ok
        case let .contacts(page):
            pickPage = page
            push(.pick)
        case let .checkProgress(status):
            if check != nil { check = status }
        case let .checkNotice(text):
            notice = text
        case let .checkEnded(closing):
            check = nil
            // "could not save: …" stays: it matters more.
            if !messageIsSaveFailure { message = closing }
        }
    }

    mutating func push(_ p: Page) { stack.append(p) }

    /// The page on top replaced by `p` (its scroll or breach cursor moved).
    mutating func replaceTop(_ p: Page) {
        stack.removeLast()
        stack.append(p)
    }
}
