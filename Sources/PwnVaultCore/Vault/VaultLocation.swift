/// Where one vault lives, and the files that go with it in the same folder.
///
/// Resolution order: `--vault PATH` > `PWNVAULT_VAULT` > `$XDG_DATA_HOME/pwnvault/vault` >
/// `$HOME/.local/share/pwnvault/vault` (`XDG_DATA_HOME` counts only when absolute, as the XDG spec
/// says). Relative paths are made absolute against the working folder; a leading `~/` means `$HOME`.
public struct VaultLocation: Sendable, Equatable, CustomStringConvertible {
    /// Where the path came from, for messages such as "(from PWNVAULT_VAULT)".
    public enum Source: String, Sendable, Equatable {
        /// `--vault PATH`.
        case commandLine = "--vault"
        /// `PWNVAULT_VAULT`.
        case environment = "PWNVAULT_VAULT"
        /// The default under `$XDG_DATA_HOME`.
        case dataHome = "XDG_DATA_HOME"
        /// The default under `$HOME/.local/share`.
        case home = "HOME"
    }

    /// The vault file: absolute, without "." components, repeated or trailing slashes.
    public let path: String
    /// The home folder used to shorten paths for display; nil shows paths in full.
    public let home: String?
    /// Where `path` came from.
    public let source: Source

    /// A location for an explicit path. `path` must be absolute (see `resolve` for relative paths).
    public init(path: String, home: String? = nil, source: Source = .commandLine) throws {
        guard path.hasPrefix("/") else {
            throw VaultStoreError.invalidPath(path: path, reason: phrase("it is not an absolute path"))
        }
        let normalized = Self.normalize(path)
        let name = normalized.split(separator: "/").last.map(String.init) ?? ""
        guard !name.isEmpty, name != "..", !path.hasSuffix("/"), !path.hasSuffix("/.") else {
            throw VaultStoreError.invalidPath(path: path, reason: phrase("it names a folder, not a file"))
        }
        self.path = normalized
        self.home = home.map(Self.normalize).flatMap { $0 == "/" ? nil : $0 }
        self.source = source
    }

    /// Resolves the vault location from the command line and the settings.
    /// - Parameters:
    ///   - explicitPath: the `--vault` argument, if given.
    ///   - currentDirectory: the working folder, for relative paths (`FileSystem.currentDirectory`
    ///     when nil).
    public static func resolve(explicitPath: String?, settings: Settings,
                               currentDirectory: String? = nil) throws -> VaultLocation {
        let home = settings.home
        func absolute(_ given: String, _ source: Source) throws -> VaultLocation {
            guard !given.isEmpty else {
                throw VaultStoreError.invalidPath(path: given, reason: phrase("it is empty"))
            }
            var p = given
            if p == "~" || p.hasPrefix("~/") {
                guard let home else {
                    throw VaultStoreError.invalidPath(path: given, reason: phrase("it starts with ~ but HOME is not set"))
                }
                p = home + p.dropFirst()
            } else if !p.hasPrefix("/") {
                guard let cwd = currentDirectory ?? FileSystem.currentDirectory else {
                    throw VaultStoreError.invalidPath(path: given, reason: phrase("it is relative and the working folder is unknown"))
                }
                p = Settings.join(cwd, p)
            }
            return try VaultLocation(path: p, home: home, source: source)
        }

        if let explicitPath { return try absolute(explicitPath, .commandLine) }
        if let fromEnvironment = settings.vaultPath { return try absolute(fromEnvironment, .environment) }
        guard let dataHome = settings.dataHome else { throw VaultStoreError.noLocation }
        let source: Source = (home.map { dataHome == Settings.join($0, ".local/share") } ?? false) ? .home : .dataHome
        return try VaultLocation(path: Settings.join(dataHome, "pwnvault/vault"), home: home, source: source)
    }

    /// Resolves from the raw environment (reads it through `Settings`).
    public static func resolve(explicitPath: String?, environment: [String: String],
                               currentDirectory: String? = nil) throws -> VaultLocation {
        try resolve(explicitPath: explicitPath, settings: Settings(environment: environment),
                    currentDirectory: currentDirectory)
    }

    // MARK: Derived paths

    /// The folder holding the vault and its companions.
    public var folder: String {
        let slash = path.lastIndex(of: "/")!
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }

    /// The vault's file name (`vault`).
    public var fileName: String { String(path[path.index(after: path.lastIndex(of: "/")!)...]) }

    /// The previous generation, kept by every replace: `<name>.bak`.
    public var backupPath: String { sibling(fileName + ".bak") }

    /// The file `flock`ed around read-modify-write: `<name>.lock`. Never deleted.
    public var lockPath: String { sibling(fileName + ".lock") }

    /// How the last `watch` runs ended (VAULT_FORMAT §10): `<name>.watch`.
    public var watchLogPath: String { sibling(fileName + ".watch") }

    /// Temporary files are this followed by six characters from [A-Za-z0-9]: `.<name>.tmp-`.
    public var temporaryPrefix: String { sibling("." + fileName + ".tmp-") }

    /// The `mkstemp`-style template of temporary files: `.<name>.tmp-XXXXXX`.
    public var temporaryTemplate: String { temporaryPrefix + "XXXXXX" }

    /// The vault path as shown to people, with the home folder shortened to `~`.
    public var displayPath: String { display(path) }

    /// The folder as shown to people.
    public var displayFolder: String { display(folder) }

    /// Any path shortened for display: `$HOME/x` becomes `~/x`; control characters are escaped so a
    /// file name cannot drive the terminal.
    public func display(_ somePath: String) -> String {
        var shown = somePath
        if let home {
            if somePath == home {
                shown = "~"
            } else if somePath.hasPrefix(home + "/") {
                shown = "~" + somePath.dropFirst(home.count)
            }
        }
        return SettingsError.shown(shown, limit: nil)
    }

    /// Any path whole (for `--json`), control characters escaped as in `display`.
    public func displayAbsolute(_ somePath: String) -> String { SettingsError.shown(somePath, limit: nil) }

    public var description: String { displayPath }

    private func sibling(_ name: String) -> String { Settings.join(folder, name) }

    /// Removes empty and "." components; keeps ".." (resolving it without the file system would be
    /// wrong when a component is a symbolic link).
    static func normalize(_ path: String) -> String {
        let parts = path.split(separator: "/", omittingEmptySubsequences: true).filter { $0 != "." }
        return "/" + parts.joined(separator: "/")
    }
}
