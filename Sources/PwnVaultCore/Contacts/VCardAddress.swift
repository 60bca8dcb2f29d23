/// One e-mail address or phone number of a contact, as the file wrote it (decoded and unescaped,
/// `mailto:` or `tel:` removed, trimmed), and the line its property starts on.
public struct VCardAddress: Equatable, Sendable {
    public let value: String
    public let line: Int

    public init(value: String, line: Int) { self.value = value; self.line = line }
}
