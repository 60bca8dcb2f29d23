import FoundationEssentials

/// Where HIBP found an account: a breach, a paste, or a website in info-stealer logs.
public enum FindingKind: String, Codable, Sendable, CaseIterable {
    case breach
    case paste
    case stealerLog = "stealer-log"
}

/// Something an account was ever found in, remembered across checks (VAULT_FORMAT §7, *finding*):
/// when pwnvault first saw it, and whether the user said it was dealt with (`pwnvault ack`).
///
/// A finding is never forgotten: when a later answer no longer lists it (HIBP retired a breach, a
/// paste was taken down) it stays, so what the user once knew is not lost.
///
/// Not `Codable`: the vault codec writes it; it prints its kind only.
public struct Finding: Equatable, Sendable {
    public var kind: FindingKind
    /// The breach `Name`, the paste's `Source/Id`, or the stealer-log website domain. Internal: which
    /// breaches an account is in leaves the process only through `Disclosure`.
    var key: String
    /// When pwnvault first saw it: the time of the good answer that first listed it.
    public var firstSeen: Date
    /// When the user acknowledged it; nil while it waits to be dealt with.
    public var acknowledgedAt: Date?
    /// `true` while a `watch` run that recorded it has not delivered it yet (VAULT_FORMAT §7,
    /// `unannounced`); nil once delivered, or when a command that shows what it finds recorded it.
    var unannounced: Bool?
    /// When HIBP stopped listing it (VAULT_FORMAT §7, `unlistedSince`): the time of the first good
    /// answer that could have listed it and did not; nil while listed.
    public var unlistedSince: Date?

    init(kind: FindingKind, key: String, firstSeen: Date, acknowledgedAt: Date? = nil, unannounced: Bool = false,
         unlistedSince: Date? = nil) {
        self.kind = kind; self.key = key; self.firstSeen = firstSeen; self.acknowledgedAt = acknowledgedAt
        self.unannounced = unannounced ? true : nil
        self.unlistedSince = unlistedSince
    }

    public var isAcknowledged: Bool { acknowledgedAt != nil }

    /// Whether HIBP's latest answer that could list it still did. A finding no longer listed still
    /// counts: the account was in that breach (paste, stealer log) and what leaked stays leaked.
    public var isListed: Bool { unlistedSince == nil }

    /// Whether `watch` still has to deliver it: recorded by a `watch` run that did not print (or
    /// notify) it, and not acknowledged since.
    public var awaitsAnnouncement: Bool { unannounced == true && !isAcknowledged }

    enum CodingKeys: String, CodingKey { case acknowledgedAt, firstSeen, key, kind, unannounced, unlistedSince }
}

extension Finding: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    public var description: String { "Finding(\(kind.rawValue), redacted)" }
    public var debugDescription: String { description }
    public var customMirror: Mirror { Mirror(self, children: ["kind": kind, "listed": isListed]) }
}

extension Account {
    /// What the account was ever found in. For a vault written before findings existed, the breaches of
    /// the saved answer stand in, first seen at that answer and not acknowledged.
    public var knownFindings: [Finding] {
        if !findings.isEmpty || result.breaches.isEmpty { return findings }
        let at = result.checkedAt ?? addedAt
        return result.breaches.map { Finding(kind: .breach, key: $0, firstSeen: at) }
    }

    /// Findings first seen by the latest good answer and not acknowledged: news since the previous
    /// successful check.
    public var newFindings: [Finding] { knownFindings.filter { isNew($0) } }

    /// Findings nobody acknowledged yet (new or not).
    public var unacknowledgedFindings: [Finding] { knownFindings.filter { !$0.isAcknowledged } }

    /// Whether `finding` is new: first seen by the latest good answer, and not acknowledged.
    public func isNew(_ finding: Finding) -> Bool {
        guard !finding.isAcknowledged, let checkedAt = result.checkedAt else { return false }
        return finding.firstSeen >= checkedAt
    }

    /// Records one check's outcome: the result as `CheckResult.recording(_:)` does, and every breach,
    /// paste and stealer-log website seen for the first time as a finding dated at the answer.
    /// Returns the findings this attempt added (the news); empty for a failure. `unannounced`: the
    /// run does not show them as they are saved (`watch`), so they wait for `markAnnounced`.
    @discardableResult
    public mutating func record(_ check: AccountCheck, unannounced: Bool = false) -> [Finding] {
        recordChanges(check, unannounced: unannounced).found
    }

    /// What one attempt changed in an account's findings: those seen for the first time, and those
    /// HIBP stopped listing (not acknowledged: an acknowledged one is marked, but it is no news).
    public struct FindingChanges: Sendable {
        public var found: [Finding] = []
        public var unlisted: [Finding] = []
        public var isEmpty: Bool { found.isEmpty && unlisted.isEmpty }
    }

    /// `record(_:unannounced:)`, telling also which findings the answer no longer lists. Saved
    /// findings are history, not a cache: one the answer could have listed and did not is kept, marked
    /// `unlistedSince` the answer (VAULT_FORMAT §7); one listed again loses the mark and is not new.
    /// `isSensitive` says which breach names the catalog marks sensitive: an answer that never lists
    /// them (`breachedaccount`) leaves them as they are.
    @discardableResult
    public mutating func recordChanges(_ attempt: AccountCheck, unannounced: Bool = false,
                                       isSensitive: (String) -> Bool = { _ in false }) -> FindingChanges {
        let answer = attempt.answer
        guard answer.hasAnswer, let at = answer.checkedAt else {
            result = result.recording(answer)
            return FindingChanges()
        }
        // Keep what an older vault knew before findings existed, as first seen at its own answer.
        findings = knownFindings
        var known = Set(findings.map { FindingID(kind: $0.kind, key: $0.key) })
        var changes = FindingChanges()
        // What this answer lists, per kind it answered for (pastes and stealer logs only when asked).
        var listed: [FindingKind: Set<String>] = [.breach: Set(answer.breaches)]
        if let pastes = attempt.pastes { listed[.paste] = Set(pastes) }
        if let sites = attempt.stealerLogSites { listed[.stealerLog] = Set(sites) }
        for i in findings.indices {
            guard let keys = listed[findings[i].kind] else { continue }
            if keys.contains(findings[i].key) {
                if findings[i].unlistedSince != nil {
                    // Listed again: no longer "no longer listed", and not news. A change not delivered yet is void.
                    findings[i].unlistedSince = nil
                    findings[i].unannounced = nil
                }
            } else if findings[i].unlistedSince == nil {
                if findings[i].kind == .breach, !attempt.listsSensitive, isSensitive(findings[i].key) { continue }
                findings[i].unlistedSince = at
                guard !findings[i].isAcknowledged else { continue }
                if unannounced { findings[i].unannounced = true }
                changes.unlisted.append(findings[i])
            }
        }
        func see(_ kind: FindingKind, _ keys: [String]?) {
            for key in keys ?? [] where known.insert(FindingID(kind: kind, key: key)).inserted {
                changes.found.append(Finding(kind: kind, key: key, firstSeen: at, unannounced: unannounced))
            }
        }
        see(.breach, answer.breaches)
        see(.paste, attempt.pastes)
        see(.stealerLog, attempt.stealerLogSites)
        findings += changes.found
        result = result.recording(answer)
        return changes
    }

    /// Findings HIBP no longer lists, in the order first seen.
    public var unlistedFindings: [Finding] { knownFindings.filter { !$0.isListed } }

    /// When HIBP stopped listing the account in the breach `name` (nil: listed, or no such finding).
    public func unlistedSince(ofBreach name: String) -> Date? {
        knownFindings.first { $0.kind == .breach && $0.key == name }?.unlistedSince
    }

    /// Findings `watch` still has to deliver (`Finding.awaitsAnnouncement`), in the order first seen.
    public var unannouncedFindings: [Finding] { findings.filter(\.awaitsAnnouncement) }

    /// Marks `delivered` (findings of this account, by kind and key) as announced. Returns how many
    /// were waiting.
    @discardableResult
    public mutating func markAnnounced(_ delivered: [Finding]) -> Int {
        let ids = Set(delivered.map { FindingID(kind: $0.kind, key: $0.key) })
        var count = 0
        for i in findings.indices where findings[i].unannounced != nil && ids.contains(FindingID(kind: findings[i].kind, key: findings[i].key)) {
            findings[i].unannounced = nil
            count += 1
        }
        return count
    }

    /// Acknowledges every finding, or those of `kinds` and (for breaches) `breachNames` only. Returns
    /// how many were acknowledged now (already acknowledged ones are left as they were).
    @discardableResult
    public mutating func acknowledge(breachNames: Set<String>? = nil, at date: Date) -> Int {
        findings = knownFindings
        var count = 0
        for i in findings.indices where findings[i].acknowledgedAt == nil {
            if let names = breachNames {
                guard findings[i].kind == .breach,
                      names.contains(where: { $0.equalsIgnoringCase(findings[i].key) }) else { continue }
            }
            findings[i].acknowledgedAt = date
            findings[i].unannounced = nil   // dealt with: nothing left to deliver
            count += 1
        }
        return count
    }

    /// The breach names among `names` that this account has no finding for (case-insensitive).
    public func unknownBreachNames(_ names: [String]) -> [String] {
        let keys = knownFindings.filter { $0.kind == .breach }.map { $0.key.lowercased() }
        return names.filter { !keys.contains($0.lowercased()) }
    }
}

/// Changes print as counts: the findings in them never name what they are.
extension Account.FindingChanges: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    public var description: String { "FindingChanges(\(found.count) found, \(unlisted.count) unlisted)" }
    public var debugDescription: String { description }
    public var customMirror: Mirror { Mirror(self, children: ["foundCount": found.count, "unlistedCount": unlisted.count]) }
}

/// A finding's identity: its kind and key.
struct FindingID: Hashable {
    let kind: FindingKind
    let key: String
}
