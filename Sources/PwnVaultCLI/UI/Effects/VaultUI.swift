import FoundationEssentials
import PwnVaultCore

/// `pwnvault ui`'s runner: keeps the `UIState`, sends it every event (`UIUpdate.update`), draws it
/// (`UIView.rows`) and does the effects the update asks for — open the vault with a passphrase, run a
/// check (`UIWork`), save an acknowledgement, an account or an import — each reported back as an event.
/// `FullScreen` runs it and keeps the protections (blanking, stops, signals, idle lock) to itself.
final class VaultUI: FullScreenApp {
    let context: Context
    var session: VaultSession
    private(set) var state: UIState
    /// Background work (a check), when running.
    private var work: UIWork?
    private var wake = ScreenWake()
    /// The answer of the last `.unlock` effect.
    private var unlocked = false

    /// How the ui's checks are paced: `check`'s typed options, read once by `UICommand`.
    let pacing: PacingOptions

    init(context: Context, session: VaultSession, catalog: BreachCatalog?, pacing: PacingOptions) {
        self.context = context
        self.session = session
        self.pacing = pacing
        state = UIState(accounts: session.payload.accounts, catalog: catalog, policy: context.console.policy,
                        shareReason: context.shareReason?.description, colors: context.console.colors)
    }

    /// Sends `event` through the update and does what it asks; what the effects report goes the same way.
    func send(_ event: UIEvent) {
        var queue = [event]
        while !queue.isEmpty {
            let (next, effects) = UIUpdate.update(state, queue.removeFirst())
            state = next
            for effect in effects { queue += perform(effect) }
        }
    }

    /// Configures what `UICommand` found before the screen opened.
    func prepare(message: String?, focusObstacle: FocusObstacle?, alternateScreen: AlternateScreenProbe.Verdict?) {
        state.message = message
        state.focusObstacle = focusObstacle
        state.alternateScreen = alternateScreen
    }

    // MARK: FullScreenApp

    func rows(columns: Int, rows: Int) -> [[CellRenderer.Span]] {
        if state.size != UIState.Size(columns: columns, rows: rows) { send(.resize(UIState.Size(columns: columns, rows: rows))) }
        return UIView.rows(state, columns: columns, rows: rows).map { $0.cells(colors: state.colors) }
    }

    func handle(_ key: UIKey, screen: FullScreen) throws -> FullScreen.Answer {
        quit = false
        // A check can end between the last tick and this key: an `R` typed then must not be ignored as
        // if the check were still running.
        if let work, !work.isRunning { settle(work) }
        send(.key(key, focusReporting: screen.focusReporting, now: context.now()))
        return quit ? .quit : .stay
    }
    private var quit = false

    var nextTick: Double? { state.revealed?.until }

    func attach(_ wake: ScreenWake) { self.wake = wake }

    func tick() -> Bool {
        var changed = false
        if let revealed = state.revealed, TerminalClock.now >= revealed.until {
            send(.tick(now: TerminalClock.now))
            changed = true
        }
        if let work, work.takeChanged() {
            settle(work)
            changed = true
        }
        return changed
    }

    func hide() { send(.hide) }

    func unlock(_ key: UIKey) -> Bool {
        guard state.revealedSomething else { return true }
        unlocked = false
        send(.lockedKey(key))
        defer { unlocked = false }
        return unlocked
    }

    var lockedLine: String? { state.lockedLine }

    // MARK: effects

    private func perform(_ effect: UIEffect) -> [UIEvent] {
        switch effect {
        case .quit:
            quit = true
            return []
        case let .reveal(id, field, seconds):
            return [reveal(id, passphrase: field.take(), seconds: seconds)]
        case let .unlock(field):
            unlocked = opened(with: field.take()) != nil
            return [.unlocked(unlocked)]
        case let .check(ids, what):
            let accounts = session.payload.accounts.filter { ids.contains($0.id) }
            work = UIWork.check(context: context, accounts: accounts, what: what, pacing: pacing, wake: wake)
            return []
        case .cancelCheck:
            work?.cancel()
            return []
        case let .acknowledge(id):
            return [acknowledge(id)]
        case let .add(field):
            return [add(field.take())]
        case let .readContacts(path):
            return [readContacts(path)]
        case let .importPicked(chosen):
            return [importPicked(chosen)]
        }
    }

    /// Records the results `work` has posted and, once it has ended, its closing line.
    private func settle(_ work: UIWork) {
        // Whether it ended is read before its results are taken: a check that ends between the two
        // (its last result, then its end) would otherwise be dropped with that last result unrecorded.
        let running = work.isRunning
        let results = work.takeResults()
        for note in work.takeNotes() { send(.checkNotice(note)) }
        if !results.isEmpty { send(record(results)) }
        if running { send(.checkProgress(work.status)) } else { self.work = nil; send(.checkEnded(work.status)) }
    }

    /// Saves check results as they come, on the interface's own thread, exactly as `check` saves them
    /// (`CheckSession.record`: the same findings, news and "no longer listed" marks; a breach the
    /// catalog marks sensitive is left to a search that lists it).
    private func record(_ results: [(id: Int, check: AccountCheck)]) -> UIEvent {
        do {
            try CheckSession.record(results, in: session, catalog: state.catalog)
            return .saved(session.payload.accounts, message: nil)
        } catch let error as UserFacingError {
            return .saveFailed(msg("could not save: {1}", error.message))
        } catch {
            return .saveFailed(msg("could not save the vault"))
        }
    }

    private func acknowledge(_ id: Int) -> UIEvent {
        let now = context.now()
        do {
            let n = try session.update { payload -> Int in
                guard let i = payload.accounts.firstIndex(where: { $0.id == id }) else { return 0 }
                return payload.accounts[i].acknowledge(at: now)
            }
            return .saved(session.payload.accounts, message: n == 0 ? msg("nothing to acknowledge for #{1}", id)
                          : msg(one: "#{1}: acknowledged {2} finding", many: "#{1}: acknowledged {2} findings", count: n, id, n))
        } catch let error as UserFacingError {
            return .saveFailed(msg("could not save: {1}", error.message))
        } catch {
            return .saveFailed(msg("could not save the vault"))
        }
    }

    /// Opens the vault again with the typed passphrase (the proof `Disclosure.revealed` needs).
    private func opened(with passphrase: SecretBytes) -> VaultSession? {
        guard let location = try? context.vaultLocation() else { return nil }
        return try? VaultSession.open(at: location, keyring: context.keyring, requirePassphrase: true) { _ in passphrase }
    }

    private func reveal(_ id: Int, passphrase: SecretBytes, seconds: Double) -> UIEvent {
        guard let opened = opened(with: passphrase), let grant = opened.revealGrant,
              let account = opened.payload.accounts.first(where: { $0.id == id }) else {
            return .said(msg("wrong passphrase: nothing revealed"))
        }
        let text = RevealedLines.lines(for: account, status: StateText.of(account), catalog: state.catalog, grant: grant)
        return .revealed(id: id, text: Disclosure.revealed(account, grant: grant), pager: TextPager(lines: text),
                         until: TerminalClock.now + seconds)
    }

    /// Adds the typed account (never drawn: the row shows it masked, as everywhere). What the adder
    /// would warn about on stderr (look-alikes, by id) goes to the status line instead.
    private func add(_ typed: SecretBytes) -> UIEvent {
        let text = typed.withUnsafeBytes { String(decoding: $0, as: UTF8.self) }.trimmingWhitespace()
        guard !text.isEmpty else { return .said(msg("nothing added")) }
        let parsed: ParsedAccount
        do {
            parsed = try AccountParser.parse(text, phones: context.phoneNumbering)
        } catch let e as PhoneLibraryError {
            return .said(msg("not added: {1}", e.message))
        } catch AccountParseError.phoneWithoutRegion {
            return .said(msg("not added: {1} (write it as +44 7700 900123)", AccountParseError.phoneWithoutRegion.message))
        } catch {
            return .said(msg("not added: not an e-mail address, a phone number or a username pwnvault understands"))
        }
        let warnings = Locked<[String]>([])
        var unwrapped = context.console.terminal
        unwrapped.stderrColumns = nil   // each warning one line for the status line
        let quiet = Console(terminal: unwrapped, policy: context.console.policy, colorsAllowed: false,
                            writeOut: { _ in }, writeErr: { text in warnings.withLock { $0.append(text.trimmingWhitespaceAndNewlines()) } })
        do {
            let outcomes = try AccountAdder.add([(parsed, nil)], to: session, now: context.now(), phones: context.phoneNumbering, console: quiet)
            var message: String
            var select: Int?
            switch outcomes.first {
            case let .added(a)?: message = msg("added #{1}; r checks it", a.id); select = a.id
            case let .alreadyIn(id)?: message = msg("already in the vault as #{1}", id)
            case nil: message = msg("nothing added")
            }
            if let first = warnings.value.first { message = msg("{1}; {2}", message, first.replacingLiterally("pwnvault: ", with: "")) }
            return .saved(session.payload.accounts, message: message, select: select)
        } catch let error as UserFacingError {
            return .said(msg("not added: {1}", error.message))
        } catch {
            return .said(msg("not added: the vault could not be saved"))
        }
    }

    /// Reads the vCard for the pick list: addresses as a picker shows them (masked; the kind only in
    /// share mode), their contact's label, and whether the vault has them already.
    private func readContacts(_ rawPath: String) -> UIEvent {
        let path = (rawPath.hasPrefix("~/") ? FileManager.default.homeDirectoryForCurrentUser.path + rawPath.dropFirst(1) : rawPath).trimmingWhitespace()
        let name = Sanitizer.singleLine(path)
        var plan: ContactImportPlan
        let checker = try? ICUSpoofChecker.load()
        do {
            plan = try ContactImportPlan(contacts: try VCardParser.parse(try VCardFile.read(path, name: name)),
                                         includePhones: false, phones: context.phoneNumbering, maxLabelLength: AccountLabel.maxLength,
                                         checker: checker)
        } catch let e as VCardError {
            return .said(msg("{1}: {2}; nothing was added", name, e.message))
        } catch let e as UserFacingError {
            return .said(e.message)
        } catch {
            return .said(msg("cannot read {1}", name))
        }
        // A name that spells one of the vault's accounts (or part of one) labels nothing, as in `import`.
        _ = plan.screenLabels(against: session.payload.accounts, checker: checker)
        let inVault = Dictionary(session.payload.accounts.map { ($0.dedupKey, $0.id) }) { first, _ in first }
        let disclosure = state.disclosure
        let items = plan.contacts.flatMap { contact in
            contact.addresses.map { a in
                PickPage.Item(account: a.account, label: contact.label, shown: disclosure.pickerAccount(a.account), inVault: inVault[a.account.dedupKey])
            }
        }
        guard !items.isEmpty else { return .said(msg("{1}: no e-mail address in it; nothing was added", name)) }
        return .contacts(PickPage(source: name.lastPathComponent, items: items))
    }

    private func importPicked(_ chosen: [(ParsedAccount, AccountLabel?)]) -> UIEvent {
        let quiet = Console(terminal: context.console.terminal, policy: context.console.policy, colorsAllowed: false,
                            writeOut: { _ in }, writeErr: { _ in })
        do {
            let outcomes = try AccountAdder.add(chosen, to: session, now: context.now(), phones: context.phoneNumbering, console: quiet)
            let added = outcomes.filter { if case .added = $0 { return true } else { return false } }.count
            return .saved(session.payload.accounts, message: added < chosen.count
                          ? msg(one: "imported {1} account; {2} already in the vault", many: "imported {1} accounts; {2} already in the vault",
                                count: added, added, chosen.count - added)
                          : msg(one: "imported {1} account", many: "imported {1} accounts", count: added, added))
        } catch let error as UserFacingError {
            return .saved(session.payload.accounts, message: msg("nothing imported: {1}", error.message))
        } catch {
            return .saved(session.payload.accounts, message: msg("nothing imported: the vault could not be saved"))
        }
    }
}
