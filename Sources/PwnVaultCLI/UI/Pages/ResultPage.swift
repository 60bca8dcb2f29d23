import PwnVaultCore

/// One account's result, as `show` prints it; its breaches can be opened one by one (Enter): the
/// cursor picks among the breaches shown.
struct ResultPage: Equatable {
    let id: Int
    var text = ScrolledText()
    /// Which of the shown breaches Enter opens.
    var breach = 0

    /// The breaches listed on the page, in their order (what the disclosure gate lets through).
    static func breaches(_ state: UIState, id: Int) -> [Breach] {
        guard let a = state.accounts.first(where: { $0.id == id }) else { return [] }
        return state.disclosure.breaches(of: a, catalog: state.catalog).shown
    }

    static func rows(_ state: UIState, id: Int, width: Int) -> [UIRow] {
        guard let a = state.accounts.first(where: { $0.id == id }) else { return [UIRow(msg("this account is no longer in the vault"))] }
        let c = state.console(width: width)
        let disclosed = c.disclosure.breaches(of: a, catalog: state.catalog)
        return AccountResultText.lines(a, disclosed: disclosed, console: c).map(UIRow.rendered)
    }

    /// The line under the text: which breach Enter opens.
    func opens(_ state: UIState) -> String? {
        let shown = ResultPage.breaches(state, id: id)
        guard !shown.isEmpty else { return nil }
        let b = shown[min(breach, shown.count - 1)]
        let title = BreachRendering(state.console(width: 0)).title(b)
        return shown.count > 1 ? msg("Enter: details of {1} ({2} of {3}; Tab next)", title, min(breach, shown.count - 1) + 1, shown.count)
            : msg("Enter: details of {1}", title)
    }
}
