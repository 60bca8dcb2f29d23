import FoundationEssentials

/// The CSV exports: each format's header row (what detection looks for) and where its address, user
/// name, password, date and item type are. Header names are compared lower-cased and trimmed.
struct CSVLoginColumns: Sendable {
    /// Columns the format always writes: detection needs all of them; `--format` reports those missing.
    let required: [String]
    /// Columns that, when present, say the file is another format (Chrome's four columns are in others).
    var excluded: [String] = []
    /// The address column(s), first non-empty wins.
    let url: [String]
    /// The user-name column(s), first non-empty wins (Proton Pass and NordPass have `username` and `email`).
    let username: [String]
    let password: String
    /// The date column and how to read it.
    var date: (column: String, read: @Sendable (String) -> Date?, meaning: LoginPasswordDate.Meaning)?
    /// The item-type column and the values that mean a login (lower-case; empty counts as a login).
    var type: (column: String, logins: Set<String>)?
    /// An address that marks a non-login item (LastPass writes `http://sn` for secure notes).
    var nonLoginURL: String?

    static func of(_ format: LoginExportFormat) -> CSVLoginColumns? {
        switch format {
        case .bitwardenCSV:
            return CSVLoginColumns(required: ["type", "name", "login_uri", "login_username", "login_password"],
                                   url: ["login_uri"], username: ["login_username"], password: "login_password",
                                   type: ("type", ["login"]))
        case .chromeCSV:
            return CSVLoginColumns(required: ["name", "url", "username", "password"],
                                   excluded: ["title", "grouping", "httprealm", "type", "otpauth", "category", "email", "username2"],
                                   url: ["url"], username: ["username"], password: "password")
        case .firefoxCSV:
            return CSVLoginColumns(required: ["url", "username", "password", "httprealm", "formactionorigin", "guid",
                                              "timepasswordchanged"],
                                   url: ["url"], username: ["username"], password: "password",
                                   date: ("timepasswordchanged", { LoginDateText.epoch($0, milliseconds: true) }, .passwordChanged))
        case .keepassxcCSV:
            return CSVLoginColumns(required: ["group", "title", "username", "password", "url", "notes"],
                                   url: ["url"], username: ["username"], password: "password",
                                   date: ("last modified", { LoginDateText.iso8601($0) }, .entryModified))
        case .onePassword8CSV:
            return CSVLoginColumns(required: ["title", "url", "username", "password", "otpauth", "favorite", "archived"],
                                   url: ["url"], username: ["username"], password: "password")
        case .onePassword7CSV:
            return CSVLoginColumns(required: ["title", "username", "password"],
                                   excluded: ["archived", "group", "grouping", "category", "username2"],
                                   url: ["url", "website", "urls"], username: ["username"], password: "password",
                                   date: ("last edited", { LoginDateText.iso8601($0) ?? LoginDateText.epoch($0, milliseconds: false) },
                                          .entryModified),
                                   type: ("type", ["login", "password", "logins", "passwords"]))
        case .lastpassCSV:
            return CSVLoginColumns(required: ["url", "username", "password", "extra", "name", "grouping"],
                                   url: ["url"], username: ["username"], password: "password", nonLoginURL: "http://sn")
        case .dashlaneCSV:
            return CSVLoginColumns(required: ["username", "username2", "title", "password", "url", "category"],
                                   url: ["url"], username: ["username", "username2", "username3"], password: "password")
        case .nordpassCSV:
            return CSVLoginColumns(required: ["name", "url", "username", "password", "note", "cardholdername", "cardnumber"],
                                   url: ["url"], username: ["username", "email"], password: "password",
                                   type: ("type", ["password"]))
        case .protonPassCSV:
            return CSVLoginColumns(required: ["type", "name", "url", "username", "password", "createtime", "modifytime", "vault"],
                                   url: ["url"], username: ["username", "email"], password: "password",
                                   date: ("modifytime", { text in
                                       // seconds since 1970; milliseconds read as such when the number is that large
                                       (text.utf8.count >= 12 ? LoginDateText.epoch(text, milliseconds: true) : nil)
                                           ?? LoginDateText.epoch(text, milliseconds: false) ?? LoginDateText.iso8601(text)
                                   }, .entryModified),
                                   type: ("type", ["login"]))
        case .bitwardenJSON, .keepassXML, .passStore:
            return nil
        }
    }

    /// The CSV formats in the order detection tries them: those with the most telling columns first.
    static let detectionOrder: [LoginExportFormat] = [.firefoxCSV, .protonPassCSV, .bitwardenCSV, .nordpassCSV, .dashlaneCSV,
                                                      .lastpassCSV, .keepassxcCSV, .onePassword8CSV, .onePassword7CSV, .chromeCSV]

    /// The columns of `required` that `header` lacks.
    func missing(in header: [String]) -> [String] {
        let names = Set(header)
        return required.filter { !names.contains($0) }
    }

    /// Whether `header` is this format's.
    func matches(_ header: [String]) -> Bool {
        missing(in: header).isEmpty && !excluded.contains(where: header.contains)
    }
}

/// Reads the logins of a CSV export whose format is known (`LoginExportDetector` or `--format`).
enum CSVLoginReader {
    /// The header row's names, lower-cased and trimmed; nil when the file has no first record, or
    /// its first record is not text.
    static func header(of input: [UInt8]) -> [String]? {
        struct Found: Error {}   // stops the reader at the header: the rest of the file is not needed here
        var names: [String]?
        try? CSVReader.read(input, { record in
            guard !record.isBlank else { return }
            var row: [String] = []
            for k in 0..<record.count {
                guard let t = record.text(k) else { names = []; throw Found() }
                row.append(t.trimmingWhitespace().lowercased())
            }
            names = row
            throw Found()
        }, problem: { _, _, _ in if names == nil { names = [] } })
        return names.flatMap { $0.isEmpty ? nil : $0 }
    }

    static func read(_ input: [UInt8], format: LoginExportFormat) throws -> LoginReading {
        guard let columns = CSVLoginColumns.of(format) else { throw LoginReadError.unknownFormat }
        var reading = LoginReading(format: format)
        var index: [String: Int]?
        var missingHeader: [String]?
        func column(_ name: String) -> Int? { index?[name] }
        CSVReader.read(input, { record in
            guard index != nil || record.isBlank else {
                var header: [String] = []
                var positions: [String: Int] = [:]
                for k in 0..<record.count {
                    let name = (record.text(k) ?? "").trimmingWhitespace().lowercased()
                    header.append(name)
                    if positions[name] == nil { positions[name] = k }
                }
                index = positions
                let missing = columns.missing(in: header)
                if !missing.isEmpty { missingHeader = missing }
                return
            }
            guard missingHeader == nil, !record.isBlank else { return }
            let position = LoginPosition.lines(record.line, record.lastLine)
            func text(_ name: String) -> String?? { column(name).map { record.text($0) } }
            func first(_ names: [String]) -> String?? {
                var sawInvalid = false
                for name in names {
                    switch text(name) {
                    case .some(.some(let t)) where !t.trimmingWhitespace().isEmpty: return .some(t)
                    case .some(.none): sawInvalid = true
                    default: continue
                    }
                }
                return sawInvalid ? .some(nil) : .some("")
            }
            guard case let .some(.some(url)) = first(columns.url), case let .some(.some(username)) = first(columns.username) else {
                reading.skipped.append(LoginSkip(position: position, problem: .invalidText)); return
            }
            if let type = columns.type, let k = column(type.column) {
                guard let value = record.text(k) else { reading.skipped.append(LoginSkip(position: position, problem: .invalidText)); return }
                let v = value.trimmingWhitespace().lowercased()
                if !v.isEmpty && !type.logins.contains(v) { reading.skipped.append(LoginSkip(position: position, problem: .notALogin)); return }
            }
            if let marker = columns.nonLoginURL, url.trimmingWhitespace().lowercased() == marker {
                reading.skipped.append(LoginSkip(position: position, problem: .notALogin)); return
            }
            let passwordBytes = column(columns.password).map { record.bytes($0) } ?? UnsafeBufferPointer(start: nil, count: 0)
            let password = passwordBytes.isEmpty ? nil : SecretBytes(copying: passwordBytes)
            var date: LoginPasswordDate?
            if let d = columns.date, let k = column(d.column), let t = record.text(k), let when = d.read(t.trimmingWhitespace()) {
                date = LoginPasswordDate(date: when, meaning: d.meaning)
            }
            // Bitwarden writes every address of an item in login_uri, one a line or comma-separated: the first is the site.
            let firstURL = url.split(whereSeparator: { $0 == "\n" || $0 == "\r" || $0 == "," }).first.map(String.init) ?? ""
            if firstURL.trimmingWhitespace().isEmpty && username.trimmingWhitespace().isEmpty && password == nil {
                reading.skipped.append(LoginSkip(position: position, problem: .empty)); return
            }
            reading.logins.append(ImportedLogin(position: position, url: firstURL, username: username, password: password,
                                                passwordDate: date))
        }, problem: { problem, line, last in
            let p: LoginSkipProblem = problem == .unterminatedQuote ? .unterminatedQuote : .fieldTooLarge
            reading.skipped.append(LoginSkip(position: .lines(line, last), problem: p))
        })
        if let missingHeader { throw LoginReadError.wrongHeader(format, missing: missingHeader) }
        if index == nil { throw reading.skipped.isEmpty ? LoginReadError.empty : LoginReadError.wrongHeader(format, missing: columns.required) }
        return reading
    }
}
