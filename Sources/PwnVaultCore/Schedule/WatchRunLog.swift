import FoundationEssentials

/// How the last `watch` runs ended, kept beside the vault in `vault.watch` (VAULT_FORMAT §10), so that
/// `schedule status` can say when an unattended run failed and why. It lives outside the vault because
/// the failure that matters most, a keyring out of reach, leaves the run without the key.
///
/// It holds times, exit statuses and one error line: never an account, a label or a breach name.
public struct WatchRunLog: Sendable, Equatable {
    /// One run's end.
    public struct Run: Sendable, Equatable, Encodable {
        /// When it ended (whole seconds).
        public let at: Date
        public let exitStatus: Int32
        /// Why it failed, one clean line; nil for a run that did not fail.
        public let reason: String?
    }

    /// The last run, whatever its end.
    public var lastRun: Run?
    /// The last run that ended with a status other than 0 (nothing new) and 1 (news).
    public var lastFailure: Run?
    /// The last run with no terminal on stdin, stdout or stderr, as cron and a systemd timer start
    /// it: what an unattended run last ended with, apart from runs by hand.
    public var lastUnattended: Run?

    static let firstLine = "pwnvault-watch 1"
    static let sizeLimit = 4096
    static let reasonLimit = 200

    public init(lastRun: Run? = nil, lastFailure: Run? = nil) {
        self.lastRun = lastRun
        self.lastFailure = lastFailure
    }

    /// Whether `status` is a failure worth recording as one.
    static func isFailure(_ status: ExitStatus) -> Bool { status != .success && status != .breachesFound }

    /// The file's text.
    var text: String {
        var lines = [Self.firstLine]
        if let r = lastRun { lines.append("run \(Int64(r.at.timeIntervalSince1970)) \(r.exitStatus)") }
        if let f = lastFailure { lines.append("failed \(Int64(f.at.timeIntervalSince1970)) \(f.exitStatus) \(f.reason ?? "")") }
        if let u = lastUnattended { lines.append("unattended \(Int64(u.at.timeIntervalSince1970)) \(u.exitStatus)") }
        return lines.joined(separator: "\n") + "\n"
    }

    /// Reads `text`; nil when it does not start with the first line. Unknown or malformed lines are ignored.
    init?(text: String) {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        guard lines.first == Substring(Self.firstLine) else { return nil }
        for line in lines.dropFirst() {
            let fields = line.split(separator: " ", maxSplits: 3, omittingEmptySubsequences: false)
            guard fields.count >= 3, let seconds = Int64(fields[1]), let status = Int32(fields[2]) else { continue }
            let at = Date(timeIntervalSince1970: Double(seconds))
            switch fields[0] {
            case "run": lastRun = Run(at: at, exitStatus: status, reason: nil)
            case "unattended": lastUnattended = Run(at: at, exitStatus: status, reason: nil)
            case "failed":
                let reason = fields.count == 4 ? Self.clean(String(fields[3])) : ""
                lastFailure = Run(at: at, exitStatus: status, reason: reason.isEmpty ? nil : reason)
            default: continue
            }
        }
    }

    /// One line, control characters removed, at most `reasonLimit` characters.
    static func clean(_ reason: String) -> String {
        let line = Sanitizer.singleLine(reason)
        return line.count <= reasonLimit ? line : String(line.prefix(reasonLimit - 1)) + "…"
    }

    /// The record beside `vault`; nil when there is none, or it is not a regular file of this user's
    /// within the size limit, or not in this format.
    public static func read(beside vault: VaultLocation) -> WatchRunLog? {
        guard let fd = try? FileSystem.open(vault.watchLogPath, for: .readExisting) else { return nil }
        defer { try? fd.close() }
        guard let st = try? fd.status(), st.kind == .regular, st.owner == FileSystem.effectiveUserID,
              st.size <= sizeLimit, let bytes = try? fd.readAll(limit: sizeLimit) else { return nil }
        return WatchRunLog(text: String(decoding: bytes, as: UTF8.self))
    }

    /// Records a run of `watch` on `vault` that ended now with `status` (and, when it failed, `reason`).
    /// Best effort: a run is never failed by its own record. Nothing is written when no vault is there.
    /// `unattended`: the run had no terminal at all (by default read from this process's stdin,
    /// stdout and stderr).
    public static func record(_ status: ExitStatus, reason: String?, at date: Date, beside vault: VaultLocation,
                              unattended: Bool? = nil) {
        let unattended = unattended ?? ![Int32(0), 1, 2].contains(where: TerminalIO.isTerminal)
        guard (try? FileSystem.status(vault.path, followingLinks: false)) != nil else { return }
        var log = read(beside: vault) ?? WatchRunLog()
        let at = Date(timeIntervalSince1970: date.timeIntervalSince1970.rounded(.down))
        log.lastRun = Run(at: at, exitStatus: status.rawValue, reason: nil)
        if unattended { log.lastUnattended = log.lastRun }
        if isFailure(status) {
            let line = clean(reason ?? status.meaning)
            log.lastFailure = Run(at: at, exitStatus: status.rawValue, reason: line.isEmpty ? nil : line)
        }
        removeStaleTemporaries(beside: vault)
        let prefix = Settings.join(vault.folder, temporaryPrefix(vault))
        guard let (fd, temporary) = try? FileSystem.createTemporaryFile(prefix: prefix) else { return }
        do {
            try fd.writeAll(Array(log.text.utf8))
            try fd.close()
            try FileSystem.rename(temporary, vault.watchLogPath)
        } catch {
            try? fd.close()
            try? FileSystem.removeFile(temporary)
        }
    }

    private static func temporaryPrefix(_ vault: VaultLocation) -> String { "." + vault.fileName + ".watch.tmp-" }

    /// Leftovers of a record written by a run killed before its rename, older than a minute, as the
    /// vault's own saves remove theirs.
    private static func removeStaleTemporaries(beside vault: VaultLocation) {
        guard let names = try? FileSystem.directoryEntries(vault.folder) else { return }
        let now = FileSystem.wallClockNow()
        for name in names where VaultStore.isTemporaryName(name, prefix: temporaryPrefix(vault)) {
            let full = Settings.join(vault.folder, name)
            guard let status = try? FileSystem.status(full, followingLinks: false), status.kind == .regular,
                  status.owner == FileSystem.effectiveUserID,
                  now - max(status.modified, status.changed) > VaultStore.staleTemporaryAge else { continue }
            try? FileSystem.removeFile(full)
        }
    }
}
