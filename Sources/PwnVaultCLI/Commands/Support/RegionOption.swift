import PwnVaultCore

/// `--region CC` of `add` and `import`: the country national phone numbers are read in (07700 900123
/// with GB is +44 7700 900123), instead of the locale's territory (`Settings.telephoneRegion`).
struct RegionOption: Sendable {
    static let spec = OptionSpec("region", value: "CC",
                                 help: msg("read phone numbers written without a country code as numbers of this country (GB, US, DE); default: the locale's (LC_TELEPHONE, LANG)"))

    /// The phone numbering of this run: `--region` when given (two letters libphonenumber knows, which
    /// loads it), else the locale's region.
    let numbering: PhoneNumbering
    /// Whether `--region` was given (else numbers are read in the locale's region: `noteAssumedRegion`).
    let given: Bool

    init(_ arguments: ParsedArguments, settings: Settings, command: String) throws {
        guard let raw = arguments.value(Self.spec) else {
            numbering = PhoneNumbering(region: settings.telephoneRegion); given = false
            return
        }
        // The value is not echoed: an account typed in its place would land on stderr.
        guard let region = PhoneRegion(code: raw.trimmingWhitespace()) else {
            throw UsageError.invalidValue(command: command, option: "--region",
                                          reason: msg("a region is two letters, its country's ISO 3166 code (GB, US, DE)"))
        }
        let numbering = PhoneNumbering(region: region)
        guard try numbering.knows(region) else {
            throw UsageError.invalidValue(command: command, option: "--region",
                                          reason: msg("libphonenumber has no numbering plan for that region; give a country's ISO 3166 code (GB, not UK)"))
        }
        self.numbering = numbering; given = true
    }

    /// Issue 32: when a number written without its country code was read in the locale's region (no
    /// --region), one note says which country was assumed, once a run, with how to choose another. Nothing
    /// of the number is repeated (stderr may be a log): only the locale's region and its calling code.
    func noteAssumedRegion(_ context: Context, added: [Account]) {
        guard !given, let region = context.settings.telephoneRegion,
              added.contains(where: \.isNationalPhoneNumber) else { return }
        context.console.note(Self.callingCodes[region.code].map {
            msg("a number without its country code was read as a number of {1} (+{2}), from your locale; another country: --region GB", region.code, $0)
        } ?? msg("a number without its country code was read as a number of {1}, from your locale; another country: --region GB", region.code))
    }

    /// Country calling codes of common regions (ITU-T E.164 assignments); others are named by code only.
    static let callingCodes: [String: String] = [
        "CN": "86", "HK": "852", "MO": "853", "TW": "886", "SG": "65", "JP": "81", "KR": "82", "IN": "91",
        "GB": "44", "IE": "353", "US": "1", "CA": "1", "AU": "61", "NZ": "64", "DE": "49", "AT": "43",
        "CH": "41", "FR": "33", "BE": "32", "NL": "31", "LU": "352", "ES": "34", "PT": "351", "IT": "39",
        "SE": "46", "NO": "47", "DK": "45", "FI": "358", "PL": "48", "CZ": "420", "RU": "7", "BR": "55",
        "MX": "52", "ZA": "27",
    ]
}
