import FoundationEssentials
import PwnVaultCore

/// `--notify` / `--notify=count` of `check` and `watch`: one desktop notification when a run found
/// something new. Its text comes from the disclosure gate (`Disclosure.notificationText`): labels,
/// ids and breach titles, never an account, never a sensitive breach's name.
struct NotifyOption: Sendable, Equatable {
    static let spec = OptionSpec("notify", help: msg("send a desktop notification when something new is found (labels, ids and breach titles only; =count: only how many accounts)"),
                                 optionalValue: "count")

    enum Mode: Sendable { case off, full, count }
    let mode: Mode

    /// `--notify` as `command` (check, watch) read it.
    init(_ arguments: ParsedArguments, command: String) throws {
        guard arguments.has(Self.spec) else { mode = .off; return }
        switch arguments.value(Self.spec) {
        case nil: mode = .full
        case "count"?: mode = .count
        default:
            throw UsageError.invalidValue(command: command, option: "--notify",
                                          reason: msg("give --notify alone, or --notify=count for only how many accounts have news"))
        }
    }

    /// Sends the notification for `news`; when no notification service answers, says so in one line
    /// and the run goes on. Returns false only when a notification was wanted and did not go out
    /// (`watch` then keeps the news for its next run).
    @discardableResult
    func send(_ news: [(account: Account, findings: [Finding])], catalog: BreachCatalog?, console: Console,
              unsent: String = msg("the results are saved ('pwnvault list')")) -> Bool {
        guard mode != .off, !news.isEmpty else { return true }
        let notification = Disclosure.notification(news, catalog: catalog, countOnly: mode == .count)
        if case let .unavailable(reason) = DesktopNotifier().send(notification) {
            console.note(msg("no desktop notification: {1}; {2}", reason, unsent))
            return false
        }
        return true
    }
}
