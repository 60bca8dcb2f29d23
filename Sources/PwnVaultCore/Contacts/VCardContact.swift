/// One contact (`BEGIN:VCARD` … `END:VCARD`): what pwnvault takes from it, nothing else.
///
/// Its names are labels before screening and its addresses are accounts: internal, read only by
/// `ContactImportPlan` (which screens and parses them), and a contact prints as its line and counts.
public struct VCardContact: Equatable, Sendable {
    /// The line of its `BEGIN:VCARD`.
    public let line: Int
    /// Its `VERSION`; nil when the card has none.
    public let version: VCardVersion?
    /// `FN`, the name as the person wants it shown (the preferred one when there are several).
    let formattedName: String?
    /// `N` put in reading order: prefix, given, additional, family, suffix.
    let structuredName: String?
    /// The first part of `ORG`, the organisation's name.
    let organization: String?
    /// Every non-empty `EMAIL`, in file order.
    let emails: [VCardAddress]
    /// Every non-empty `TEL`, in file order.
    let phones: [VCardAddress]

    init(line: Int, version: VCardVersion?, formattedName: String?, structuredName: String?,
                organization: String?, emails: [VCardAddress], phones: [VCardAddress]) {
        self.line = line; self.version = version; self.formattedName = formattedName
        self.structuredName = structuredName; self.organization = organization
        self.emails = emails; self.phones = phones
    }

    /// The name to show: `FN`, else `N`, else `ORG`; nil when the card has none of them.
    var name: String? { formattedName ?? structuredName ?? organization }
}

extension VCardContact: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    public var description: String { "VCardContact(line \(line), \(emails.count) e-mail, \(phones.count) phone, redacted)" }
    public var debugDescription: String { description }
    public var customMirror: Mirror {
        Mirror(self, children: ["line": line, "version": version as Any, "emailCount": emails.count, "phoneCount": phones.count])
    }
}
