/// Why the breach catalog cache could not be used.
public enum BreachCatalogError: Error, Hashable, Sendable {
    /// Neither `$XDG_CACHE_HOME` nor `$HOME` gives a place for the cache.
    case noCacheDirectory
    /// The cache folder is not a private folder of ours (a symlink, another owner, not a folder).
    case unsafeCacheDirectory(path: String)
    /// Writing the cache failed (`reason` is the system's error text).
    case writeFailed(path: String, reason: String)
}

extension BreachCatalogError: UserFacingError {
    public var message: String {
        switch self {
        case .noCacheDirectory: return msg("no folder for the breach catalog cache ($XDG_CACHE_HOME and $HOME are unset)")
        case let .unsafeCacheDirectory(path): return msg("refusing to use the cache folder {1}: it is not a private folder of this user", path)
        case let .writeFailed(path, reason): return msg("could not save the breach catalog to {1}: {2}", path, Messages.shown(reason))
        }
    }

    public var hint: String? {
        switch self {
        case .noCacheDirectory: return msg("set XDG_CACHE_HOME to a folder of yours")
        case let .unsafeCacheDirectory(path): return msg("remove {1}, or point XDG_CACHE_HOME elsewhere", path)
        case .writeFailed: return msg("check the free space and permissions of the cache folder")
        }
    }

    public var exitStatus: ExitStatus { .vault }
}
