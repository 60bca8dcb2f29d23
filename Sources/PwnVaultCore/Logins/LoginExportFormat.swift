/// The password-manager exports pwnvault reads logins from: what `--format` names, and how each is
/// recognised when it is not named (`LoginExportDetector`).
enum LoginExportFormat: String, CaseIterable, Sendable {
    case bitwardenCSV = "bitwarden-csv"
    case bitwardenJSON = "bitwarden-json"
    case chromeCSV = "chrome-csv"
    case firefoxCSV = "firefox-csv"
    case keepassxcCSV = "keepassxc-csv"
    case keepassXML = "keepass-xml"
    case onePassword7CSV = "1password7-csv"
    case onePassword8CSV = "1password8-csv"
    case lastpassCSV = "lastpass-csv"
    case dashlaneCSV = "dashlane-csv"
    case nordpassCSV = "nordpass-csv"
    case protonPassCSV = "protonpass-csv"
    /// A `pass` store: a folder of `.gpg` files, read by `PassStoreReader` with the user's gpg.
    case passStore = "pass"

    /// The `--format` value: stable, ASCII, never translated.
    var optionValue: String { rawValue }

    /// The program that writes it, for messages (a product name: not translated).
    var programName: String {
        switch self {
        case .bitwardenCSV: return "Bitwarden (CSV)"
        case .bitwardenJSON: return "Bitwarden (JSON)"
        case .chromeCSV: return "Chrome/Chromium/Edge (CSV)"
        case .firefoxCSV: return "Firefox (CSV)"
        case .keepassxcCSV: return "KeePassXC (CSV)"
        case .keepassXML: return "KeePass 2 (XML)"
        case .onePassword7CSV: return "1Password 7 (CSV)"
        case .onePassword8CSV: return "1Password 8 (CSV)"
        case .lastpassCSV: return "LastPass (CSV)"
        case .dashlaneCSV: return "Dashlane (CSV)"
        case .nordpassCSV: return "NordPass (CSV)"
        case .protonPassCSV: return "Proton Pass (CSV)"
        case .passStore: return "pass"
        }
    }

    /// The format a `--format` value names (case-insensitive), nil for anything else.
    init?(optionValue: String) {
        guard let format = Self(rawValue: optionValue.lowercased()) else { return nil }
        self = format
    }

    /// Every `--format` value, comma-separated, for messages and help.
    static var optionValues: String { allCases.map(\.optionValue).joined(separator: ", ") }

    /// Whether the file is a CSV table (read by `CSVLoginReader`).
    var isCSV: Bool {
        switch self {
        case .bitwardenJSON, .keepassXML, .passStore: return false
        default: return true
        }
    }
}
