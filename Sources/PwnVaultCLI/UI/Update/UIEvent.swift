import FoundationEssentials
import PwnVaultCore

/// What can happen to the ui: a key, time passing, the screen hiding or changing size, and what the
/// effects (`UIEffect`) report back when the runner has done them.
enum UIEvent {
    /// A key (with what the screen knows about focus reporting as it came).
    case key(UIKey, focusReporting: FocusReporting, now: Date)
    /// A key while locked after idling (the passphrase, where something was revealed).
    case lockedKey(UIKey)
    /// Time passed (`TerminalClock` time): what is revealed may be due to hide.
    case tick(now: Double)
    /// Focus lost, a stop or the idle lock: nothing stays unmasked, a half-typed passphrase is dropped.
    case hide
    case resize(UIState.Size)

    /// The vault's accounts after an effect saved something, and what to say about it.
    case saved([Account], message: String?, select: Int? = nil)
    /// An effect has something to say (and changed nothing).
    case said(String, notice: String? = nil)
    /// A change could not be saved (the text says why): it outranks what a check says when it ends.
    case saveFailed(String)
    /// The passphrase opened the vault: the account, unmasked, until `until`.
    case revealed(id: Int, text: String, pager: TextPager, until: Double)
    case unlocked(Bool)
    /// The vCard was read: its addresses to pick from.
    case contacts(PickPage)

    /// The background check moved on (its status line), or ended (`ended`: its closing line).
    case checkProgress(String)
    case checkEnded(String)
    /// The background check said something `check` says on stderr (a fallback, a refusal): in full,
    /// above the status line, until the next key.
    case checkNotice(String)
}
