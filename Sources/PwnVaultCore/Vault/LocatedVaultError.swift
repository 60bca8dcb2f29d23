import FoundationEssentials

/// A vault format error with the path it concerns and, where the file is damaged, where the backup is.
public struct LocatedVaultError: UserFacingError {
    public let underlying: VaultFormatError
    public let displayPath: String
    public let backupPath: String?

    public var message: String { msg("vault {1}: {2}", displayPath, underlying.message) }

    public var hint: String? {
        if underlying.pointsToBackup, let backupPath {
            return msg("the file was left as it is; a backup of the previous version is at {1}", backupPath)
        }
        return underlying.hint
    }

    public var exitStatus: ExitStatus { underlying.exitStatus }
}

extension VaultFormatError {
    /// Whether the file itself is bad, so that the backup is worth naming.
    var pointsToBackup: Bool {
        switch self {
        case .truncated, .damaged, .tampered, .notAVault: return true
        default: return false
        }
    }

    /// Adds the vault's path (and the backup's, when one exists) to this error, both in their escaped
    /// display form.
    func located(_ location: VaultLocation, backup: String?) -> LocatedVaultError {
        let existing = backup.flatMap { FileManager.default.fileExists(atPath: $0) ? location.display($0) : nil }
        return LocatedVaultError(underlying: self, displayPath: location.displayPath, backupPath: existing)
    }
}
