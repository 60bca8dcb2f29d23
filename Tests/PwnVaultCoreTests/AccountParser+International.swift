@testable import PwnVaultCore

// Tests that are not about phone numbers parse accounts as a run with no region would: a phone number
// needs its country code there (libphonenumber is loaded from beside the test bundle, as the binary
// loads it from beside itself). Phone numbers have their own tests (PhoneNumberTests).
extension AccountParser {
    static func parse(_ raw: String) throws -> ParsedAccount { try parse(raw, phones: .internationalOnly) }
}

extension ContactImportPlan {
    init(contacts: [VCardContact], includePhones: Bool, maxLabelLength: Int) {
        // swiftlint:disable:next force_try
        try! self.init(contacts: contacts, includePhones: includePhones, phones: .internationalOnly, maxLabelLength: maxLabelLength)
    }
}
