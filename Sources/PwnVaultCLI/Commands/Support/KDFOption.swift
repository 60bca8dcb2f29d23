import PwnVaultCore

/// `--kdf PRESET`, taken by `init` and `passwd` (each declares it with its own help text).
enum KDFOption {
    /// The Argon2id preset given with `option`; `moderate` when it is not given.
    static func parameters(_ context: Context, option: OptionSpec) throws -> KDFParameters {
        guard let name = context.arguments.value(option) else { return .moderate }
        guard let kdf = KDFParameters.named(name) else {
            throw UsageError.invalidValue(command: context.commandName, option: "--\(option.name)",
                                          reason: msg("expected interactive, moderate or sensitive"))
        }
        return kdf
    }
}
