/// The check session's types hold accounts (and what they were found in): each prints ids, kinds and
/// counts only, never an account or a breach name (`GateReflectionTests`).
extension CheckEntry: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    public var description: String {
        account.map { "CheckEntry(#\($0.id))" } ?? "CheckEntry(\(kind.rawValue), not in the vault)"
    }
    public var debugDescription: String { description }
    public var customMirror: Mirror { Mirror(self, children: ["id": account?.id as Any, "kind": kind]) }
}

/// A check prints its status and counts, never an account, a breach name, a paste id or a stealer-log
/// website (`GateReflectionTests`).
extension AccountCheck: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    public var description: String {
        "AccountCheck(\(entry.map { "\($0), " } ?? "")\(answer)"
            + (pastes.map { ", \($0.count) pastes" } ?? "") + (stealerLogSites.map { ", \($0.count) stealer-log sites" } ?? "")
            + ", \(result.status.rawValue)\(attemptFailed ? ", failed" : ""), \(news.count) new, saved: \(saved))"
    }
    public var debugDescription: String { description }
    public var customMirror: Mirror {
        Mirror(self, children: ["id": entry?.account?.id as Any, "answer": answer, "pasteCount": pastes?.count as Any,
                                "stealerLogSiteCount": stealerLogSites?.count as Any, "status": result.status.rawValue,
                                "new": news.count, "saved": saved])
    }
}

extension CheckRunReport: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    public var description: String {
        "CheckRunReport(\(checks.count) checks, \(requests) requests, \(checked) checked, \(failed) failed"
            + (interrupted ? ", interrupted" : "") + (stop != nil ? ", stopped" : "") + ")"
    }
    public var debugDescription: String { description }
    public var customMirror: Mirror {
        Mirror(self, children: ["checked": checked, "failed": failed, "interrupted": interrupted, "stopped": stop != nil])
    }
}

extension CheckSession: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    public var description: String { "CheckSession(\(vault == nil ? "no vault" : "vault"))" }
    public var debugDescription: String { description }
    public var customMirror: Mirror { Mirror(self, children: ["hasVault": vault != nil]) }
}

extension CheckSession.WatchPlan: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    public var description: String {
        "WatchPlan(\(isFull ? "full" : triggered ? "triggered" : "quiet"), \(chosen.count) chosen, \(domainOnly.count) by domain only)"
    }
    public var debugDescription: String { description }
    public var customMirror: Mirror {
        Mirror(self, children: ["full": isFull, "triggered": triggered, "chosen": chosen.map(\.id), "domainOnly": domainOnly.map(\.id)])
    }
}
