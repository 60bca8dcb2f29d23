/// A message for a person, in their language: `msg("no account #{1} in the vault", id)`.
///
/// The text is a whole sentence with numbered placeholders `{1}`, `{2}`… so that a translation may put
/// them in another order; it is a literal (a `StaticString`), so `scripts/extract-pot.py` finds every
/// message in the sources and `po/pwnvault.pot` holds them all. Machine interfaces (JSON keys and values,
/// exit statuses, option and command names) never go through here.
public func msg(_ text: StaticString, _ arguments: any CustomStringConvertible...) -> String {
    Messages.fill(Messages.translated(text), arguments)
}

/// A message whose words depend on a count, chosen by `ngettext` (never by concatenation):
/// `msg(one: "{1} account", many: "{1} accounts", count: n, n)`.
public func msg(one: StaticString, many: StaticString, count: Int, _ arguments: any CustomStringConvertible...) -> String {
    let chosen = !Gettext.translates || Messages.inEnglish ? (count == 1 ? one.description : many.description)
        : Gettext.plural(one.description, many.description, count)
    return Messages.fill(chosen, arguments)
}

/// A fixed phrase kept in English where it is stored: a reason inside an error that reaches the vault
/// or `--json` ("the connection was refused"). `Messages.shown(_:)` gives it in the reader's language
/// where a person reads it. The literal is in the catalog like any `msg`'s (scripts/extract-pot.py).
public func phrase(_ text: StaticString) -> String { text.description }

public enum Messages {
    /// `english` in the reader's language: the translation of a `phrase` (or of any message's English
    /// text) when the catalog has one; anything else as it is (what libsecret or the system said).
    public static func shown(_ english: String) -> String { !Gettext.translates || inEnglish ? english : Gettext.text(english) }

    /// `text` in the reader's language: English at once when no catalog is loaded (LANG=C, and every
    /// unit test), else gettext's answer, remembered per literal (`list` of 10,000 accounts asks for the
    /// same few state words tens of thousands of times; each gettext call converts both ways).
    static func translated(_ text: StaticString) -> String {
        guard Gettext.translates, !inEnglish else { return text.description }
        let key = UInt(bitPattern: text.utf8Start)
        if let hit = remembered.withLock({ $0[key] }) { return hit }
        let found = Gettext.text(text.description)
        remembered.withLock { $0[key] = found }
        return found
    }

    private static let remembered = Locked<[UInt: String]>([:])

    /// True inside `english { … }`: `msg` gives the English original whatever the language.
    @TaskLocal static var inEnglish = false

    /// `body` with every `msg` in English: for text that a machine reads or that is kept, which never
    /// changes with the reader's language (`--json` values, what the vault and the caches store, logs
    /// that scripts parse). Such text is built inside this scope where it is written, so errors keep
    /// their messages as computed `description`s rather than stored strings.
    public static func english<T>(_ body: () throws -> T) rethrows -> T {
        try $inEnglish.withValue(true, operation: body)
    }

    /// `text` with `{1}`…`{9}` replaced by the arguments' descriptions; any other brace stays as it is.
    static func fill(_ text: String, _ arguments: [any CustomStringConvertible]) -> String {
        guard !arguments.isEmpty, text.contains("{") else { return text }
        var out = ""
        var rest = Substring(text)
        while let open = rest.firstIndex(of: "{") {
            out += rest[..<open]
            let after = rest.index(after: open)
            if after < rest.endIndex, let digit = rest[after].wholeNumberValue, digit >= 1, digit <= arguments.count,
               rest.index(after: after) < rest.endIndex, rest[rest.index(after: after)] == "}" {
                out += arguments[digit - 1].description
                rest = rest[rest.index(after: rest.index(after: after))...]
            } else {
                out.append("{")
                rest = rest[after...]
            }
        }
        return out + rest
    }
}
