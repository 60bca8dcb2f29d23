/// How an account is shown on a terminal: a few characters and a fixed run of bullets.
///
/// The rules, in grapheme clusters (a Unicode character is never split):
/// - e-mail: at most the first and last character of the local part before any `+tag`
///   (1 character: none; 2-3: the first; 4 or more: first and last), the first character of the
///   registrable domain name (none when it has a single character), and the public suffix (from the
///   Public Suffix List through libpsl):
///   `alice@example.com` → `a•••e@e•••.com`, `bob@mail.example.co.uk` → `b•••@e•••.co.uk`.
/// - username: 3 characters or fewer: none; 4-7: the first; 8 or more: first and last.
/// - phone number: its last two digits when it has at least 7: `•••67`.
///
/// The bullet run is always `•••`, so a mask never tells how long the hidden part is.
public enum Masking {
    /// The fixed run of mask characters (three U+2022).
    public static let bullets = "•••"

    /// The masked form of an account in its normalised form.
    public static func mask(_ normalized: String, kind: AccountKind) -> String {
        switch kind {
        case .email:
            guard let at = normalized.lastIndex(of: "@") else { return maskUsername(normalized) }
            let local = normalized[..<at], domain = normalized[normalized.index(after: at)...]
            return maskLocalPart(local) + "@" + maskDomain(domain)
        case .username:
            return maskUsername(normalized)
        case .phone:
            return maskPhone(normalized)
        }
    }

    // MARK: e-mail

    private static func maskLocalPart(_ local: Substring) -> String {
        // Plus-addressing: the tag is never shown, and it does not count toward the length rule.
        let base = local.firstIndex(of: "+").map { local[..<$0] } ?? local
        switch base.count {
        case 0...1: return bullets
        case 2...3: return shown(base.first) + bullets
        default: return shown(base.first) + bullets + shown(base.last)
        }
    }

    private static func maskDomain(_ domain: Substring) -> String {
        let labels = domain.split(separator: ".")
        guard let last = labels.last else { return bullets }
        // The public suffix as the Public Suffix List says (libpsl); one label when it cannot say.
        let suffixCount = min(PublicSuffixList.suffixLabelCount(of: domain.lowercased()) ?? 1, max(1, labels.count - 1))
        guard labels.count > suffixCount else {
            // A single label ("localhost"): it is the name, there is no suffix to show.
            return (last.count >= 2 ? shown(last.first) : "") + bullets
        }
        let name = labels[labels.count - suffixCount - 1]
        let suffix = labels.suffix(suffixCount).joined(separator: ".")
        return (name.count >= 2 ? shown(name.first) : "") + bullets + "." + Sanitizer.singleLine(suffix)
    }

    // MARK: username, phone

    private static func maskUsername(_ username: String) -> String {
        switch username.count {
        case 0...3: return bullets
        case 4...7: return shown(username.first) + bullets
        default: return shown(username.first) + bullets + shown(username.last)
        }
    }

    private static func maskPhone(_ phone: String) -> String {
        let digits = phone.unicodeScalars.filter { $0.value >= 0x30 && $0.value <= 0x39 }
        guard digits.count >= 7 else { return bullets }
        return bullets + String(String.UnicodeScalarView(digits.suffix(2)))
    }

    /// A character that may be shown, or nothing when it is missing, would act on the terminal (a
    /// control, a bidi override, a line break, whitespace) or holds a bullet (it would lengthen the run:
    /// a bullet with a joiner or a combining mark is another `Character` but draws as a fourth bullet).
    private static func shown(_ c: Character?) -> String {
        guard let c else { return "" }
        let text = String(c)
        guard !c.isWhitespace, !c.unicodeScalars.contains("•"), Sanitizer.singleLine(text) == text else { return "" }
        return text
    }
}
