/// The vCard versions `VCardParser` reads. They differ in escaping, parameters and encodings, not in
/// what pwnvault takes from a card.
public enum VCardVersion: String, Equatable, Sendable, CaseIterable {
    /// vCard 2.1 (1996): Outlook, old phones. Bare parameters (`EMAIL;INTERNET:`), quoted-printable, `CHARSET`.
    case v2_1 = "2.1"
    /// vCard 3.0, RFC 2426: GNOME Contacts, Evolution, Google Contacts, Apple Contacts.
    case v3_0 = "3.0"
    /// vCard 4.0, RFC 6350: Thunderbird, newer exporters. UTF-8 only.
    case v4_0 = "4.0"
}
