import FoundationEssentials

/// Bitwarden's unencrypted JSON export, personal (`folders`, `items`) and organization
/// (`collections`, `items`). Items of `type` 1 are logins; their first `login.uris` entry is the
/// address. An encrypted export (`"encrypted": true`, account-bound or password-protected) is refused whole.
///
/// The password's date: `login.passwordRevisionDate` when Bitwarden recorded one; else the newest
/// `passwordHistory` entry's `lastUsedDate` (the old password was replaced then); else, with no history,
/// `creationDate` (the password never changed since the item was made). `revisionDate` is any edit of
/// the item, so it is not used: a later date would hide a breach.
///
/// JSONDecoder holds the password as a String while it decodes; it is copied into `SecretBytes` and the
/// decoded items are dropped before this returns.
enum BitwardenJSONReader {
    private struct Export: Decodable {
        let encrypted: Bool?
        let passwordProtected: Bool?
        let items: [Lenient<Item>]?
    }

    private struct Item: Decodable {
        let type: Int?
        let deletedDate: String?
        let login: Login?
        let creationDate: String?
        let passwordHistory: [History]?
    }

    private struct Login: Decodable {
        let uris: [URI]?
        let username: String?
        let password: String?
        let passwordRevisionDate: String?
    }

    private struct URI: Decodable { let uri: String? }
    private struct History: Decodable { let lastUsedDate: String? }

    /// An item that does not decode is kept as nil, not a failure of the whole array.
    private struct Lenient<T: Decodable>: Decodable {
        let value: T?
        init(from decoder: any Decoder) throws { value = try? T(from: decoder) }
    }

    static func read(_ input: [UInt8]) throws -> LoginReading {
        guard let export = try? JSONDecoder().decode(Export.self, from: Data(input)) else { throw LoginReadError.notBitwardenJSON }
        if export.encrypted == true || export.passwordProtected == true { throw LoginReadError.encryptedBitwarden }
        guard let items = export.items else { throw LoginReadError.notBitwardenJSON }
        var reading = LoginReading(format: .bitwardenJSON)
        for (k, wrapped) in items.enumerated() {
            let position = LoginPosition.entry(k + 1)
            guard let item = wrapped.value else { reading.skipped.append(LoginSkip(position: position, problem: .unreadableItem)); continue }
            guard item.type == 1 else { reading.skipped.append(LoginSkip(position: position, problem: .notALogin)); continue }
            if item.deletedDate != nil { reading.skipped.append(LoginSkip(position: position, problem: .deleted)); continue }
            let login = item.login
            let url = login?.uris?.lazy.compactMap(\.uri).first { !$0.trimmingWhitespace().isEmpty } ?? ""
            let username = login?.username ?? ""
            let password = login?.password.flatMap { $0.isEmpty ? nil : SecretBytes(copying: $0.utf8) }
            if url.trimmingWhitespace().isEmpty && username.trimmingWhitespace().isEmpty && password == nil {
                reading.skipped.append(LoginSkip(position: position, problem: .empty)); continue
            }
            reading.logins.append(ImportedLogin(position: position, url: url, username: username, password: password,
                                                passwordDate: passwordDate(item)))
        }
        return reading
    }

    private static func passwordDate(_ item: Item) -> LoginPasswordDate? {
        if let d = item.login?.passwordRevisionDate.flatMap(LoginDateText.iso8601) { return LoginPasswordDate(date: d, meaning: .passwordChanged) }
        let history = item.passwordHistory ?? []
        if let newest = history.compactMap({ $0.lastUsedDate.flatMap(LoginDateText.iso8601) }).max() {
            return LoginPasswordDate(date: newest, meaning: .passwordChanged)
        }
        if history.isEmpty, let d = item.creationDate.flatMap(LoginDateText.iso8601) { return LoginPasswordDate(date: d, meaning: .created) }
        return nil
    }
}
