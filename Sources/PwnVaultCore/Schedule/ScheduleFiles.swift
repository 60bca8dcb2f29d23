import FoundationEssentials

/// The two unit files of the schedule in `$XDG_CONFIG_HOME/systemd/user/`: writing them, telling
/// pwnvault's own from a user's unit of the same name (by `ScheduledWatch.marker` on the first
/// line), and removing exactly what was written.
///
/// Units are written 0644, as systemd expects of unit files: they hold no secret, only the paths of
/// the program and the vault and the period. Folders that do not exist yet are created 0700.
public struct ScheduleFiles: Sendable {
    /// Whose file is at a unit's path.
    public enum Owner: Sendable, Equatable {
        case absent
        /// pwnvault's, with the period its marker names (nil when unreadable).
        case pwnvault(every: ScheduleInterval?)
        /// Someone else's: no marker.
        case foreign
    }

    /// `$XDG_CONFIG_HOME/systemd/user` (or `$HOME/.config/systemd/user`).
    public let folder: String
    public var servicePath: String { folder + "/" + ScheduledWatch.serviceName }
    public var timerPath: String { folder + "/" + ScheduledWatch.timerName }
    /// The link `systemctl --user enable` makes for the timer.
    public var wantsLink: String { folder + "/timers.target.wants/" + ScheduledWatch.timerName }

    public init(settings: Settings) throws {
        guard let configHome = settings.configHome else { throw ScheduleError.noConfigFolder }
        folder = Settings.join(configHome, "systemd/user")
    }

    /// Who owns the file at `path`.
    public func owner(of path: String) throws -> Owner {
        guard (try? FileSystem.status(path, followingLinks: false)) != nil else { return .absent }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw ScheduleError.fileFailure(path: path, action: "read", reason: phrase("it cannot be opened"))
        }
        let first = String(decoding: data.prefix(200), as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false).first ?? ""
        let prefix = ScheduledWatch.marker + " every="
        guard first.hasPrefix(prefix) else { return .foreign }
        return .pwnvault(every: try? ScheduleInterval(parsing: String(first.dropFirst(prefix.count))))
    }

    /// The owners of the service and the timer.
    public func owners() throws -> (service: Owner, timer: Owner) {
        (try owner(of: servicePath), try owner(of: timerPath))
    }

    /// Writes both units (replacing pwnvault's own, never a foreign one: nothing is written then).
    /// Returns the paths written.
    @discardableResult
    public func install(_ watch: ScheduledWatch) throws -> [String] {
        for path in [servicePath, timerPath] where try owner(of: path) == .foreign {
            throw ScheduleError.foreignUnit(path: path)
        }
        try makeFolders()
        for (path, text) in [(servicePath, watch.serviceUnit), (timerPath, watch.timerUnit)] {
            do {
                try Data(text.utf8).write(to: URL(fileURLWithPath: path), options: .atomic)
                try FileSystem.setPermissions(path, 0o644)
            } catch {
                throw ScheduleError.fileFailure(path: path, action: "write", reason: Self.reason(error))
            }
        }
        return [servicePath, timerPath]
    }

    /// Removes both units when they are pwnvault's (nothing is removed when either is foreign), and
    /// the timer's `timers.target.wants` link when it points at pwnvault's timer. Returns the paths
    /// removed; empty when nothing was installed.
    @discardableResult
    public func remove() throws -> [String] {
        let paths = [servicePath, timerPath]
        for path in paths where try owner(of: path) == .foreign { throw ScheduleError.foreignUnit(path: path) }
        var removed: [String] = []
        if let target = try? FileManager.default.destinationOfSymbolicLink(atPath: wantsLink),
           target == timerPath || target == "../" + ScheduledWatch.timerName {
            try removeFile(wantsLink)
            removed.append(wantsLink)
        }
        for path in paths where try owner(of: path) != .absent {
            try removeFile(path)
            removed.append(path)
        }
        return removed
    }

    /// The command line of pwnvault's service as written (`ExecStart=`'s value), or nil.
    public func serviceCommand() -> String? {
        guard case .pwnvault = try? owner(of: servicePath),
              let text = try? String(contentsOfFile: servicePath, encoding: .utf8) else { return nil }
        return text.split(separator: "\n").first { $0.hasPrefix("ExecStart=") }.map { String($0.dropFirst("ExecStart=".count)) }
    }

    /// Creates each missing folder on the way to `folder` 0700; existing ones are left as they are.
    private func makeFolders() throws {
        var path = ""
        for part in folder.split(separator: "/") {
            path += "/" + part
            do { _ = try FileSystem.makeDirectory(path, mode: 0o700) } catch {
                throw ScheduleError.fileFailure(path: path, action: "create the folder", reason: Self.reason(error))
            }
        }
    }

    private func removeFile(_ path: String) throws {
        do { try FileSystem.removeFile(path) } catch {
            throw ScheduleError.fileFailure(path: path, action: "remove", reason: Self.reason(error))
        }
    }

    static func reason(_ error: Error) -> String {
        if let e = error as? SystemError { return e.reason }
        if let e = error as? CocoaError {   // from Data.write
            switch e.code {
            case .fileWriteNoPermission, .fileReadNoPermission: return phrase("permission denied")
            case .fileWriteOutOfSpace: return phrase("no space left on the device")
            case .fileWriteVolumeReadOnly: return phrase("the file system is read-only")
            case .fileNoSuchFile, .fileReadNoSuchFile: return phrase("no such file or folder")
            default: break
            }
        }
        return Sanitizer.singleLine(String(describing: error))
    }
}
