import FoundationEssentials

/// KeePass 2's unencrypted XML export (KeePass 2 `Export → KeePass XML (2.x)`, `keepassxc-cli export
/// --format xml`): `KeePassFile/Root/Group`, groups within groups, each `Entry` with `String` pairs
/// (`Title`, `UserName`, `Password`, `URL`), `Times`, and its earlier versions under `History`.
///
/// The password's date comes from the history: the first version after the last one with another
/// password is when it was set (`passwordChanged`). When every version kept has the same password, it
/// was set by the oldest one's modification or before (`entryModified`: KeePass keeps only the last
/// few versions). Entries in the recycle bin are skipped as deleted.
enum KeePassXMLReader {
    static func read(_ input: [UInt8]) throws -> LoginReading {
        let root: MiniXMLElement
        switch MiniXML.parse(input) {
        case let .success(r): root = r
        case let .failure(error): throw error
        }
        guard root.name == "KeePassFile" else { throw LoginReadError.notKeePassXML }
        var reading = LoginReading(format: .keepassXML)
        let meta = root.child("Meta")
        let recycleBin = meta?.child("RecycleBinEnabled")?.text.lowercased() == "false" ? nil : meta?.child("RecycleBinUUID")?.text
        func walk(_ group: MiniXMLElement, deleted: Bool) {
            let inBin = deleted || (recycleBin.map { !$0.isEmpty && group.child("UUID")?.text == $0 } ?? false)
            for child in group.children {
                switch child.name {
                case "Entry": entry(child, deleted: inBin)
                case "Group": walk(child, deleted: inBin)
                default: continue
                }
            }
        }
        func entry(_ e: MiniXMLElement, deleted: Bool) {
            let position = LoginPosition.lines(e.line, e.line)
            if deleted { reading.skipped.append(LoginSkip(position: position, problem: .deleted)); return }
            let url = value(e, "URL"), username = value(e, "UserName"), password = value(e, "Password")
            if url.trimmingWhitespace().isEmpty && username.trimmingWhitespace().isEmpty && password.isEmpty {
                reading.skipped.append(LoginSkip(position: position, problem: .empty)); return
            }
            reading.logins.append(ImportedLogin(position: position, url: url, username: username,
                                                password: password.isEmpty ? nil : SecretBytes(copying: password.utf8),
                                                passwordDate: passwordDate(e, current: password)))
        }
        for group in root.child("Root")?.children("Group") ?? [] { walk(group, deleted: false) }
        return reading
    }

    private static func value(_ entry: MiniXMLElement, _ key: String) -> String {
        entry.children("String").first { $0.child("Key")?.text == key }?.child("Value")?.text ?? ""
    }

    private static func modified(_ entry: MiniXMLElement) -> Date? {
        entry.child("Times")?.child("LastModificationTime").flatMap { LoginDateText.keepass($0.text.trimmingWhitespace()) }
    }

    private static func passwordDate(_ entry: MiniXMLElement, current: String) -> LoginPasswordDate? {
        let versions = (entry.child("History")?.children("Entry") ?? []) + [entry]   // oldest first, as KeePass keeps them
        if let lastOther = versions.lastIndex(where: { value($0, "Password") != current }) {
            return modified(versions[lastOther + 1]).map { LoginPasswordDate(date: $0, meaning: .passwordChanged) }
        }
        return modified(versions[0]).map { LoginPasswordDate(date: $0, meaning: .entryModified) }
    }
}
