/// Why a vault file could not be read or written (Docs/VAULT_FORMAT.md §9).
///
/// Messages name no path and contain no secret and no account: the caller knows which file it
/// read, so it shows `<path>: <message>`, and it adds the backup hint for `.truncated`, `.damaged`
/// and `.tampered`, since only it knows where the backup is.
public enum VaultFormatError: UserFacingError, Equatable, Sendable {
    /// The file does not start with the magic `PWNVAULT`.
    case notAVault
    /// The file ends before its header does, or before the length its header announces.
    case truncated
    /// The format version is not one this build reads.
    case unsupportedVersion(UInt16)
    /// The header uses a feature (flag, key-derivation algorithm) this build does not know.
    case unsupported(feature: String)
    /// A header field has a value no writer produces: reserved bytes, or Argon2id limits out of bounds.
    case tampered(reason: String)
    /// The payload does not decrypt, or decrypts to something malformed.
    case damaged(reason: String)
    /// The key does not authenticate the header: it belongs to another vault, or the header was altered.
    case keyMismatch
    /// The passphrase does not unwrap the vault key.
    case wrongPassphrase
    /// The payload holds a schema newer than this build understands.
    case unsupportedSchema(Int)
    /// Argon2id could not run with these limits (usually not enough free memory).
    case keyDerivationFailed(KDFParameters)
    /// A writer was asked for Argon2id limits outside `KDFParameters.minimum ... maximum`.
    case kdfParametersOutOfBounds(KDFParameters)
    /// The payload cannot be written: it breaks a schema rule or is too large.
    case unwritablePayload(reason: String)

    public var message: String {
        switch self {
        case .notAVault:
            return msg("the file is not a pwnvault vault")
        case .truncated:
            return msg("the vault file is truncated")
        case let .unsupportedVersion(version):
            return msg("the vault uses format version {1}, which this pwnvault cannot read", version)
        case let .unsupported(feature):
            return msg("the vault uses {1}, which this pwnvault cannot read", feature)
        case let .tampered(reason):
            return msg("the vault header was altered or damaged ({1})", Messages.shown(reason))
        case let .damaged(reason):
            return msg("the vault is damaged ({1})", Messages.shown(reason))
        case .keyMismatch:
            return msg("the key does not open this vault: it belongs to another vault, or the vault header was altered")
        case .wrongPassphrase:
            return msg("wrong passphrase")
        case let .unsupportedSchema(schema):
            return msg("the vault holds data of schema {1}, which this pwnvault cannot read", schema)
        case let .keyDerivationFailed(kdf):
            return msg("the passphrase could not be stretched with Argon2id ({1})", kdf.summary)
        case let .kdfParametersOutOfBounds(kdf):
            return msg("the Argon2id limits {1} are outside the supported range ({2} to {3})",
                       kdf.summary, KDFParameters.minimum.summary, KDFParameters.maximum.summary)
        case let .unwritablePayload(reason):
            return msg("the accounts cannot be saved ({1})", Messages.shown(reason))
        }
    }

    public var hint: String? {
        switch self {
        case .unsupportedVersion, .unsupportedSchema:
            return msg("a newer pwnvault wrote it; upgrade pwnvault to open it")
        case .wrongPassphrase:
            return msg("passphrases are case-sensitive; check caps lock and the keyboard layout")
        case .keyDerivationFailed:
            return msg("this needs that much free memory; close other programs and try again")
        case .kdfParametersOutOfBounds:
            return msg("choose one of: interactive, moderate, sensitive")
        default:
            return nil
        }
    }

    public var exitStatus: ExitStatus {
        switch self {
        case .wrongPassphrase: return .authentication
        // The usual source of a non-matching key is the keyring (ExitStatus.keyring: "holds a key
        // for another vault"). A caller that unwrapped the key itself may report .vault instead.
        case .keyMismatch: return .keyring
        case .kdfParametersOutOfBounds: return .usage
        default: return .vault
        }
    }
}
