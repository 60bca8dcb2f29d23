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
            return "the file is not a pwnvault vault"
        case .truncated:
            return "the vault file is truncated"
        case let .unsupportedVersion(version):
            return "the vault uses format version \(version), which this pwnvault cannot read"
        case let .unsupported(feature):
            return "the vault uses \(feature), which this pwnvault cannot read"
        case let .tampered(reason):
            return "the vault header was altered or damaged (\(reason))"
        case let .damaged(reason):
            return "the vault is damaged (\(reason))"
        case .keyMismatch:
            return "the key does not open this vault: it belongs to another vault, or the vault header was altered"
        case .wrongPassphrase:
            return "wrong passphrase"
        case let .unsupportedSchema(schema):
            return "the vault holds data of schema \(schema), which this pwnvault cannot read"
        case let .keyDerivationFailed(kdf):
            return "the passphrase could not be stretched with Argon2id (\(kdf.summary))"
        case let .kdfParametersOutOfBounds(kdf):
            return "the Argon2id limits \(kdf.summary) are outside the supported range "
                + "(\(KDFParameters.minimum.summary) to \(KDFParameters.maximum.summary))"
        case let .unwritablePayload(reason):
            return "the accounts cannot be saved (\(reason))"
        }
    }

    public var hint: String? {
        switch self {
        case .unsupportedVersion, .unsupportedSchema:
            return "a newer pwnvault wrote it; upgrade pwnvault to open it"
        case .wrongPassphrase:
            return "passphrases are case-sensitive; check caps lock and the keyboard layout"
        case .keyDerivationFailed:
            return "this needs that much free memory; close other programs and try again"
        case .kdfParametersOutOfBounds:
            return "choose one of: interactive, moderate, sensitive"
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
