import FoundationEssentials

/// `watch`'s side of a check session: which accounts the breach catalog's changes concern (`WatchPlan`),
/// and what the vault remembers between runs (the catalog acted on, the last full check, news not yet
/// delivered).
extension CheckSession {
    /// What an unattended run checks, from the catalog now, what the vault remembers and the accounts.
    public struct WatchPlan {
        /// Why every account is checked, when it is.
        public enum FullReason: Equatable, Sendable {
            case noFullCheckYet
            /// The catalog the last full check saw is not known (an older vault, a lost mark).
            case unknownCatalog
            /// The last full check is `days` days old or more.
            case olderThan(days: Int)
            case changeConcernsEveryAccount
        }

        public let full: FullReason?
        /// The catalog changed in a way that concerns some accounts (not a full check).
        public let triggered: Bool
        /// Accounts a change concerns by address, and those only a domain search can answer (a
        /// sensitive breach); the latter only when not a full check.
        public let concerned: [Account]
        public let domainOnly: [Account]
        /// The accounts to check: every one in a full check; else the concerned ones, the unanswered
        /// and those whose latest check failed.
        public let chosen: [Account]

        public var isFull: Bool { full != nil }
        /// Whether the run sends domain searches and checks for the catalog's sake.
        public var sweep: Bool { isFull || triggered }
        public var nothingToCheck: Bool { chosen.isEmpty && domainOnly.isEmpty }

        public init(accounts: [Account], monitor: MonitorState?, catalog: BreachCatalog, now: Date, fullEvery days: Int) {
            let monitor = monitor ?? MonitorState()
            // What changed in the catalog since the last run that acted on it, and whom it can concern.
            let diff = BreachCatalogDiff.remembered(mark: monitor.catalogMark).map { BreachCatalogDiff(from: $0, to: catalog) }
            var full: FullReason?
            if monitor.lastFullCheck == nil {
                full = .noFullCheckYet
            } else if diff == nil {
                full = .unknownCatalog
            } else if let last = monitor.lastFullCheck, now.timeIntervalSince(last) >= Double(days) * 86_400 || now < last {
                full = .olderThan(days: days)
            }
            // A change asks only for the accounts whose kind it can hold (a sensitive breach: only those a
            // domain search answers); one that can concern every account is a full check.
            let concerned = full == nil ? accounts.filter { diff?.concernsByAddress($0.kind) == true } : []
            var domainOnly = full == nil ? accounts.filter { diff?.concernsByDomainSearchOnly($0.kind) == true } : []
            if full == nil, !accounts.isEmpty, concerned.count == accounts.count {
                full = .changeConcernsEveryAccount
            }
            let triggered = full == nil && !(concerned.isEmpty && domainOnly.isEmpty)
            if full != nil { domainOnly = [] }
            let concernedIDs = Set(concerned.map(\.id))
            self.full = full
            self.triggered = triggered
            self.concerned = concerned
            self.domainOnly = domainOnly
            self.chosen = full != nil ? accounts : accounts.filter { a in
                !a.result.hasAnswer || a.result.lastFailure != nil || concernedIDs.contains(a.id)
            }
        }
    }

    /// Records `catalog` as the one the last run acted on (nothing it changed can concern an account not
    /// yet asked), without moving the last full check.
    public static func rememberCatalog(_ catalog: BreachCatalog, in vault: VaultSession) throws {
        let mark = catalog.mark
        guard vault.payload.monitor?.catalogMark != mark else { return }
        try vault.update { payload in
            var m = payload.monitor ?? MonitorState()
            m.catalogMark = mark
            payload.monitor = m
        }
    }

    /// Records a full check that asked every account, at `date`, with the catalog it saw.
    public static func recordFullCheck(in vault: VaultSession, at date: Date, catalog: BreachCatalog) throws {
        try vault.update { payload in
            var m = payload.monitor ?? MonitorState()
            m.lastFullCheck = date
            m.catalogMark = catalog.mark
            payload.monitor = m
        }
    }

    /// Every account with findings a `watch` saved and has not delivered yet, by id.
    public static func waitingNews(in vault: VaultSession) -> [(account: Account, findings: [Finding])] {
        vault.payload.accounts.compactMap { a in
            let waiting = a.unannouncedFindings
            return waiting.isEmpty ? nil : (a, waiting)
        }.sorted { $0.account.id < $1.account.id }
    }

    /// Marks `news` delivered, so the next run does not repeat it.
    public static func markAnnounced(_ news: [(account: Account, findings: [Finding])], in vault: VaultSession) throws {
        try vault.update { payload in
            for item in news {
                if let i = payload.accounts.firstIndex(where: { $0.id == item.account.id }) {
                    payload.accounts[i].markAnnounced(item.findings)
                }
            }
        }
    }
}
