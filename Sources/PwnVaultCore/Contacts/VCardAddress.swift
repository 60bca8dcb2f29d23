/// One e-mail address or phone number of a contact, as the file wrote it (decoded and unescaped,
/// `mailto:` or `tel:` and a `tel:` URI's parameters removed, trimmed), and the line its property
/// starts on.
///
/// The value is an account: internal (`ContactImportPlan` parses it into a `ParsedAccount`, which the
/// disclosure gate shows), and an address prints as its line only.
public struct VCardAddress: Equatable, Sendable {
    /// Something the reader changed or noticed about a value.
    public enum Note: Equatable, Sendable {
        /// A `tel:` URI's `;ext=` (an extension) was dropped: the number is what is watched.
        case extensionDropped
        /// A `TEL` holding a URI of another scheme (`sip:`, `xmpp:`, …), which is not a phone number.
        /// `scheme` is one of `otherSchemes`, never text from the file.
        case notAPhoneNumber(scheme: String)
    }

    let value: String
    public let line: Int
    public let note: Note?

    init(value: String, line: Int, note: Note? = nil) { self.value = value; self.line = line; self.note = note }

    /// URI schemes that `TEL` values are seen with (vCard 4.0's `VALUE=uri`, softphones) and that are
    /// not phone numbers.
    static let otherSchemes: Set<String> = ["sip", "sips", "xmpp", "skype", "callto", "mailto", "http", "https", "im",
                                            "facetime", "facetime-audio", "h323", "iax", "urn", "msteams", "whatsapp"]

    /// An `EMAIL` value; nil when empty.
    static func email(_ value: String, line: Int) -> VCardAddress? {
        var value = value
        if value.lowercased().hasPrefix("mailto:") { value = String(value.dropFirst("mailto:".count)) }
        return value.isEmpty ? nil : VCardAddress(value: value, line: line)
    }

    /// A `TEL` value; nil when empty. A `tel:` URI (RFC 3966: `tel:+1-555-555-5555;ext=5555`) gives its
    /// number without its parameters; a URI of another scheme is kept with `notAPhoneNumber`.
    static func phone(_ value: String, line: Int) -> VCardAddress? {
        guard let colon = value.firstIndex(of: ":") else { return value.isEmpty ? nil : VCardAddress(value: value, line: line) }
        let scheme = value[..<colon].lowercased()
        if scheme == "tel" {
            let parts = value[value.index(after: colon)...].split(separator: ";", omittingEmptySubsequences: false)
            let number = VCardText.trimmed(parts.first ?? "")
            let hasExtension = parts.dropFirst().contains { $0.lowercased().hasPrefix("ext=") && $0.count > 4 }
            return number.isEmpty ? nil : VCardAddress(value: number, line: line, note: hasExtension ? .extensionDropped : nil)
        }
        if otherSchemes.contains(scheme) { return VCardAddress(value: value, line: line, note: .notAPhoneNumber(scheme: scheme)) }
        return VCardAddress(value: value, line: line)
    }
}

extension VCardAddress: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    public var description: String { "VCardAddress(line \(line), redacted)" }
    public var debugDescription: String { description }
    public var customMirror: Mirror { Mirror(self, children: ["line": line, "note": note as Any]) }
}
