import FoundationEssentials
import PwnVaultCore

/// Everything `pwnvault ui` shows, as a value: `UIUpdate.update` makes the next one from an event,
/// `UIView.rows` draws one. Nothing here touches the terminal, the vault file or the network.
struct UIState {
    enum Page: Equatable { case accounts, catalog, result(ResultPage), detail(DetailPage), help(HelpPage), pick }

    /// Why a passphrase (or a new account) is being typed: on the status line, never shown.
    enum Purpose: Equatable { case reveal(id: Int), unlock, add }
    struct Asking { let purpose: Purpose; let field: SecretField }

    /// The one account shown unmasked, with all reveal shows of it, until another key, a focus loss, a
    /// stop or `until` (`TerminalClock` time).
    struct Revealed: Equatable { let id: Int; let text: String; let until: Double; var pager: TextPager }

    struct Size: Equatable { var columns: Int; var rows: Int }

    /// What the ui knows of the vault and how it may show it.
    var accounts: [Account]
    let catalog: BreachCatalog?
    let disclosure: Disclosure
    let shareReason: String?
    let colors: Bool

    var size = Size(columns: 80, rows: 24)
    var stack: [Page] = [.accounts]
    var accountsPage = AccountsPage()
    var catalogPage: CatalogPage
    var pickPage: PickPage?

    /// The status line's message. Setting it forgets that it was a save failure.
    var message: String? { didSet { messageIsSaveFailure = false } }
    /// The message says the vault could not be saved: a check's closing line does not replace it.
    var messageIsSaveFailure = false
    /// A longer message than the status line holds, shown above it until the next key.
    var notice: String?
    /// The status of the check running in the background, if one is.
    var check: String?
    /// After an `R` that found nothing due: a second `R` checks every account shown anyway.
    var forceArmed = false

    var asking: Asking?
    var revealed: Revealed?
    /// Something was revealed in this run: the idle lock then needs the passphrase.
    var revealedSomething = false
    var unlockFailed = false
    /// Import: the vCard's path as typed (a path, shown).
    var typingPath: String?

    /// What sits between the terminal and us and keeps focus changes away (tmux with focus-events off,
    /// GNU screen), from `FocusObstacle.detect`.
    var focusObstacle: FocusObstacle?
    /// Under GNU screen: whether its alternate screen works (nil elsewhere); `v` reveals only if so.
    var alternateScreen: AlternateScreenProbe.Verdict?
    /// What the screen knows about focus reporting, as of the last key.
    var focusReporting: FocusReporting = .unknown

    init(accounts: [Account], catalog: BreachCatalog?, policy: DisplayPolicy, shareReason: String?, colors: Bool) {
        self.accounts = accounts
        self.catalog = catalog
        self.disclosure = Disclosure(policy: policy)
        self.shareReason = shareReason
        self.colors = colors
        catalogPage = CatalogPage(catalog: catalog, disclosure: disclosure, colors: colors)
        accountsPage.load(accounts, disclosure: disclosure, height: listHeight)
    }

    var page: Page { stack.last ?? .accounts }

    /// Rows between the title and header lines and the status line.
    var listHeight: Int { max(1, size.rows - 3) }
    /// Rows of a scrolled page (result, detail, help).
    var pageHeight: Int { max(1, size.rows - 2) }

    /// How long a revealed account stays, where the screen hides it on focus loss (as `reveal`).
    static let revealSeconds = PrivateScreen.defaultTimeout

    /// Why a revealed account cannot be hidden on focus loss here, with the fix; nil where it can.
    var focusProblem: (reason: String, fix: String)? {
        if let focusObstacle { return (focusObstacle.reason, focusObstacle.fix) }
        return FocusWarning.unreported(focusReporting)
    }

    /// How long a revealed account stays: 30 s, or 10 s where focus loss cannot hide it (as `reveal`).
    var revealSeconds: Double { focusProblem == nil ? UIState.revealSeconds : PrivateScreen.unfocusableTimeout }

    /// reveal's warning, said while the passphrase for `v` is asked and while an account is revealed,
    /// where focus loss cannot hide it.
    var focusWarning: String? {
        guard let problem = focusProblem else { return nil }
        return FocusWarning.line(reason: problem.reason, fix: problem.fix, closesAfter: Int(revealSeconds))
    }

    var selectedAccount: Account? {
        guard let id = accountsPage.selectedID else { return nil }
        return accounts.first { $0.id == id }
    }

    /// The vault's accounts changed (a check saved, an acknowledgement, an add, an import).
    mutating func reload(_ accounts: [Account]) {
        self.accounts = accounts
        accountsPage.load(accounts, disclosure: disclosure, height: listHeight)
    }

    /// A console that writes nothing, for the command renderers' lines at `width`.
    func console(width: Int) -> Console {
        Console(terminal: TerminalCapabilities(stdoutIsTerminal: true, stderrIsTerminal: true, stdinIsTerminal: true,
                                               colorsOnStdout: colors, colorsOnStderr: colors, columns: width),
                policy: disclosure.policy, colorsAllowed: colors, writeOut: { _ in }, writeErr: { _ in })
    }
}
