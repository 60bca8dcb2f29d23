import FoundationEssentials

/// Which accounts a run checks: the due ones (`check --all`, the ui), or every one (`--force`),
/// continuing a forced run that was interrupted.
extension CheckSession {
    /// Results older than this are checked again by `check --all`.
    public static let staleAfter: TimeInterval = 24 * 3600

    /// Whether `check --all` checks the account: never answered, the latest attempt failed, or the
    /// answer is older than a day.
    public static func isDue(_ a: Account, now: Date) -> Bool {
        if a.result.lastFailure != nil { return true }   // the latest attempt failed: try again
        switch a.result.status {
        case .neverChecked, .error: return true
        case .clean, .breached:
            guard let at = a.result.checkedAt else { return true }
            return now.timeIntervalSince(at) > staleAfter
        }
    }

    /// The accounts of `payload` that are due.
    public static func due(in payload: VaultPayload, now: Date) -> [Account] {
        payload.accounts.filter { isDue($0, now: now) }
    }

    /// A forced run that continues one interrupted within the last day.
    public struct Resumed: Sendable, Equatable {
        public let startedAt: Date
        public let alreadyChecked: Int
        public let total: Int
    }

    /// `check --all --force`: every account, except those an unfinished forced run (started within
    /// the last day) already answered, and that run when this one continues it. The start of a new
    /// forced run is saved first, so an interruption leaves behind what the next run needs to continue.
    public static func forced(_ vault: VaultSession, now: Date) throws -> (accounts: [Account], resumed: Resumed?) {
        var started = now
        if let earlier = vault.payload.monitor?.forceRunStartedAt, now.timeIntervalSince(earlier) < staleAfter,
           now >= earlier {
            started = earlier
        }
        let remaining = vault.payload.accounts.filter { a in
            guard started < now, let at = a.result.checkedAt, a.result.lastFailure == nil else { return true }
            return at < started
        }
        let total = vault.payload.accounts.count
        let resumed = started < now && remaining.count < total
            ? Resumed(startedAt: started, alreadyChecked: total - remaining.count, total: total) : nil
        if vault.payload.monitor?.forceRunStartedAt != started {
            try vault.update { payload in
                var monitor = payload.monitor ?? MonitorState()
                monitor.forceRunStartedAt = started
                payload.monitor = monitor
            }
        }
        return (remaining, resumed)
    }

    /// A forced run that answered every account: forget where it was, and remember it as a full
    /// check (with the catalog it saw), so the next `watch` has nothing to do until the catalog changes.
    public static func finishForcedRun(_ vault: VaultSession, catalog: BreachCatalog?) throws {
        try vault.update { payload in
            var monitor = payload.monitor ?? MonitorState()
            if let started = monitor.forceRunStartedAt,
               payload.accounts.allSatisfy({ a in a.result.lastFailure == nil && (a.result.checkedAt.map { $0 >= started } ?? false) }) {
                monitor.lastFullCheck = started
                if let catalog { monitor.catalogMark = catalog.mark }
            }
            monitor.forceRunStartedAt = nil
            payload.monitor = monitor.isEmpty ? nil : monitor
        }
    }
}
