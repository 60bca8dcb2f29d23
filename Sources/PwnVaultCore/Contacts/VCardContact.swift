/// One contact (`BEGIN:VCARD` … `END:VCARD`): what pwnvault takes from it, nothing else.
public struct VCardContact: Equatable, Sendable {
    /// The line of its `BEGIN:VCARD`.
    public let line: Int
    /// Its `VERSION`; nil when the card has none.
    public let version: VCardVersion?
    /// `FN`, the name as the person wants it shown (the preferred one when there are several).
    public let formattedName: String?
    /// `N` put in reading order: prefix, given, additional, family, suffix.
    public let structuredName: String?
    /// The first part of `ORG`, the organisation's name.
    public let organization: String?
    /// Every non-empty `EMAIL`, in file order.
    public let emails: [VCardAddress]
    /// Every non-empty `TEL`, in file order.
    public let phones: [VCardAddress]

    public init(line: Int, version: VCardVersion?, formattedName: String?, structuredName: String?,
                organization: String?, emails: [VCardAddress], phones: [VCardAddress]) {
        self.line = line; self.version = version; self.formattedName = formattedName
        self.structuredName = structuredName; self.organization = organization
        self.emails = emails; self.phones = phones
    }

    /// The name to show: `FN`, else `N`, else `ORG`; nil when the card has none of them.
    public var name: String? { formattedName ?? structuredName ?? organization }
}
