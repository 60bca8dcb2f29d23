import PwnVaultCore

/// `--kdf PRESET`, taken by `init` and `passwd` (each declares it with its own help text).
enum KDFOption {
    /// The Argon2id preset given with `option`, nil when it is not given.
    static func parameters(_ arguments: ParsedArguments, option: OptionSpec, command: String) throws -> KDFParameters? {
        guard let name = arguments.value(option) else { return nil }
        guard let kdf = KDFParameters.named(name) else {
            throw UsageError.invalidValue(command: command, option: "--\(option.name)",
                                          reason: msg("expected interactive, moderate or sensitive"))
        }
        return kdf
    }
}
