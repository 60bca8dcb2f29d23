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
    /// of the number is repeated (stderr may be a log): only the locale's region, named in the reader's
    /// language by ICU, and its calling code from libphonenumber (loaded by then: a number was read).
    func noteAssumedRegion(_ context: Context, added: [Account]) {
        guard !given, let region = context.settings.telephoneRegion,
              added.contains(where: \.isNationalPhoneNumber) else { return }
        let callingCode = (try? PhoneNumberLibrary.shared())?.callingCode(of: region)
        context.console.note(Self.assumedRegionNote(region, callingCode: callingCode, names: ICUCountryNames.shared()))
    }

    /// The note's words: the country's name from ICU in the reader's language ("China", 中国), or the
    /// region's code when ICU cannot be used or has no name; the calling code when libphonenumber gave one.
    /// (The name stands after a comma: CLDR's "United Kingdom" takes no article there.)
    static func assumedRegionNote(_ region: PhoneRegion, callingCode: Int?, names: ICUCountryNames?,
                                  language: String = Messages.language) -> String {
        let country = names?.name(of: region, in: language) ?? region.code
        let other = region.code == "GB" ? "US" : "GB"   // the example of another country is not the one assumed
        return callingCode.map {
            msg("a number without its country code was read as a number of your locale's country, {1} (+{2}); another country: --region {3}", country, $0, other)
        } ?? msg("a number without its country code was read as a number of your locale's country, {1}; another country: --region {2}", country, other)
    }
}
