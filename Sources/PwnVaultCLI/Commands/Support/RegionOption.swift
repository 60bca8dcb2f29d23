import PwnVaultCore

/// `--region CC` of `add` and `import`: the country national phone numbers are read in (07700 900123
/// with GB is +44 7700 900123), instead of the locale's territory (`Settings.telephoneRegion`).
enum RegionOption {
    static let spec = OptionSpec("region", value: "CC",
                                 help: msg("read phone numbers written without a country code as numbers of this country (GB, US, DE); default: the locale's (LC_TELEPHONE, LANG)"))

    /// The phone numbering of this run: `--region` when given (two letters libphonenumber knows, which
    /// loads it), else the locale's region.
    static func numbering(_ context: Context) throws -> PhoneNumbering {
        guard let raw = context.arguments.value(spec) else { return context.phoneNumbering }
        // The value is not echoed: an account typed in its place would land on stderr.
        guard let region = PhoneRegion(code: raw.trimmingWhitespace()) else {
            throw UsageError.invalidValue(command: context.commandName, option: "--region",
                                          reason: msg("a region is two letters, its country's ISO 3166 code (GB, US, DE)"))
        }
        let numbering = PhoneNumbering(region: region)
        guard try numbering.knows(region) else {
            throw UsageError.invalidValue(command: context.commandName, option: "--region",
                                          reason: msg("libphonenumber has no numbering plan for that region; give a country's ISO 3166 code (GB, not UK)"))
        }
        return numbering
    }
}
