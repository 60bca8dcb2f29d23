import Foundation
import TestSupport
import XCTest
@testable import PwnVaultCore

/// The disclosure gate, sealed in the types: no public type of the library that holds an account, a
/// label before screening, a breach name list with sensitive names, a paste id or a stealer-log website
/// shows any of it through `String(describing:)`, `String(reflecting:)`, interpolation, `print`,
/// `dump`, `Mirror` or `JSONEncoder` (issue 21, "Seal the gate in types").
///
/// `testEveryGatedTypeHidesItsData` builds each gated type from hostile fixtures and renders it every
/// way Swift can; `testEveryPublicTypeHoldingTextIsListed` reads the library's sources so that a new
/// public type with such a stored property cannot appear without being added to one of the two lists.
final class GateReflectionTests: XCTestCase {
    // MARK: Hostile fixtures: each holds one of the needles below.

    static let email = "zz-secret-local@very-secret-domain.example"
    static let phone = "+44 7700 900123"
    static let username = "zz-secret-username"
    static let sensitiveBreach = "ZzSecretSensitiveBreach"
    static let namedBreach = "ZzSecretNamedBreach"
    static let pasteID = "ZzSecretPasteId42"
    static let stealerSite = "zz-secret-stealer-site.example"
    static let label = "Zz Secret Label Text"
    static let contactName = "Zz Secret Contact Name"
    static let alias = "zz-secret-alias"

    /// What no rendering may contain (compared case-insensitively): every fixture above holds one.
    static let needles = ["zz-secret", "zzsecret", "zz secret", "very-secret-domain", "7700900", "7700 900", "900123"]

    static let date = Date(timeIntervalSince1970: 1_700_000_000)

    static let catalog = BreachCatalog(breaches: [
        Breach(name: sensitiveBreach, title: "Zz Secret Sensitive", isSensitive: true),
        Breach(name: namedBreach, title: "Zz Secret Named"),
    ], fetchedAt: date)

    static func parsed(_ raw: String) throws -> ParsedAccount { try AccountParser.parse(raw, phones: .internationalOnly) }

    static func account(_ raw: String, id: Int) throws -> Account {
        let p = try parsed(raw)
        var members = UnknownJSONMembers()
        members.add(name: "zz-secret-member", json: Array("\"\(email)\"".utf8))
        var account = Account(id: id, entered: p.entered, normalized: p.normalized, kind: p.kind, label: label, addedAt: date,
                              unknownMembers: members)
        account.record(attempt)
        return account
    }

    static var result: CheckResult { .answer(breaches: [sensitiveBreach, namedBreach], pasteCount: 1, at: date) }
    static var attempt: AccountCheck { AccountCheck(answer: result, pastes: ["Pastebin/\(pasteID)"], stealerLogSites: [stealerSite]) }

    static let vcard = """
        BEGIN:VCARD
        VERSION:3.0
        FN:\(contactName)
        N:Name;Zz Secret;;;
        ORG:Zz Secret Org
        EMAIL:\(email)
        TEL:\(phone)
        END:VCARD

        """.replacingOccurrences(of: "\n", with: "\r\n")

    // MARK: The gated types

    /// Every public type of PwnVaultCore that can hold vault data, with hostile instances of it.
    ///
    /// How the list was made: `grep -rnE 'public (final )?(struct|class|enum|actor) ' Sources/PwnVaultCore`,
    /// keeping the types whose stored properties or enum payloads hold an account (its text, a
    /// `ParsedAccount`, an `Account`), a label before screening, breach names of an account (sensitive
    /// included), a paste id, a stealer-log website, or an HTTP exchange carrying one of these; the
    /// scan in `testEveryPublicTypeHoldingTextIsListed` keeps it complete.
    static var gated: [String: () throws -> [Any]] { [
        "Account": { [try account(email, id: 3), try account(phone, id: 4), try account(username, id: 5)] },
        "AccountKey": { [try parsed(email).dedupKey, try account(phone, id: 4).dedupKey] },
        "ParsedAccount": { [try parsed(email), try parsed(phone), try parsed(username)] },
        "CheckResult": { [result, result.recording(.failure("timed out", at: date))] },
        "Finding": { try account(email, id: 3).findings },
        "Account.FindingChanges": { [try unlisting()] },
        "VaultPayload": { [VaultPayload(nextID: 6, accounts: [try account(email, id: 3), try account(phone, id: 4)])] },
        "UnknownJSONMembers": { [try account(email, id: 3).unknownMembers] },
        "AccountCheckRun.Target": { [AccountCheckRun.Target(index: 0, account: try account(email, id: 3)),
                                     AccountCheckRun.Target(index: 1, parsed: try parsed(phone))] },
        "AccountLookup": { [AccountLookup.breached([Breach(name: sensitiveBreach), Breach(name: namedBreach)])] },
        "DomainSearch": { [DomainSearch(domain: "very-secret-domain.example", aliases: [alias: [sensitiveBreach]])] },
        "Paste": { [Paste(source: "Pastebin", id: pasteID, title: "Zz Secret Paste Title", date: date, emailCount: 2)] },
        "VCardAddress": { try VCardParser.parse(Array(vcard.utf8)).flatMap { $0.emails + $0.phones }.map { $0 as Any } },
        "VCardContact": { try VCardParser.parse(Array(vcard.utf8)) },
        "TextPager": { [TextPager(header: [email], lines: [TextPager.Line(email), TextPager.Line(pasteID, indent: 2)])] },
        "TextPager.Line": { [TextPager.Line(email), TextPager.Line(sensitiveBreach, indent: 4)] },
        "CellRenderer.Span": { [CellRenderer.Span(email), CellRenderer.Span(sensitiveBreach), CellRenderer.Span(pasteID)] },
        "VCardReading": { [try VCardParser.read(Array(vcard.utf8), locale: nil)] },
        "ContactImportPlan": { [try plan()] },
        "ContactImportPlan.Contact": { try plan().contacts },
        "ContactImportPlan.Address": { try plan().addresses },
        "AccountLabel": { [try AccountLabel.screened(label)!] },
        "DisclosedBreaches": {
            [Disclosure(policy: DisplayPolicy(terminal: true)).breaches(of: try account(email, id: 3), catalog: catalog)]
        },
        "HTTPRequest": {
            [HTTPRequest(url: URL(string: "https://haveibeenpwned.com/api/v3/breachedaccount/"
                                  + (try HIBPClient.accountSegment(email)))!)]
        },
        "HTTPResponse": {
            [HTTPResponse(status: 200, body: Data(#"["\#(stealerSite)","\#(sensitiveBreach)","\#(pasteID)"]"#.utf8))]
        },
        "VaultSession": { [try session()] },
        "CheckEntry": { [CheckEntry(account: try account(email, id: 3)), CheckEntry(parsed: try parsed(phone), source: "argument 1")] },
        "AccountCheck": { [attempt, try outcome(), try failedOutcome()] },
        "CheckSession.DomainAnswers": {
            var answers = CheckSession.DomainAnswers()
            answers.checks = [try outcome()]
            answers.ids = [3]
            return [answers]
        },
        "CheckSessionEvent": {
            var report = CheckRunReport()
            report.checks = [try outcome(), try failedOutcome()]
            return [CheckSessionEvent.result(try outcome()), CheckSessionEvent.result(try failedOutcome()), CheckSessionEvent.finished(report)]
        },
        "CheckRunReport": {
            var report = CheckRunReport()
            report.checks = [try outcome()]
            report.stop = HIBPError.unauthorized(detail: "refused")
            return [report]
        },
        "CheckSession": {
            [CheckSession(transport: NoTransport(), baseURL: URL(string: "https://hibp.test/api/v3/")!, version: "0.1.0",
                          apiKey: SecretBytes(copying: Array("zz-secret-key-0123456789abcdef00".utf8)), now: { date },
                          cacheDirectory: nil, vault: try session(), options: .init(pastes: true))]
        },
        "CheckSession.WatchPlan": {
            [CheckSession.WatchPlan(accounts: [try account(email, id: 3), try account(phone, id: 4)], monitor: nil,
                                    catalog: catalog, now: date, fullEvery: 7)]
        },
        "PhoneNumberLibrary.Reading": { [PhoneNumberLibrary.Reading(e164: "+447700900123", hadExtension: true)] },
        // Needs Debian's ICU (libicu): without it there is no finder to build, and nothing to check.
        "LookalikeFinder": {
            guard let checker = try? ICUSpoofChecker.load() else { return [] }
            return [LookalikeFinder(checker: checker, existing: [try account(email, id: 1), try account(username, id: 2)])]
        },
    ] }

    static func plan() throws -> ContactImportPlan {
        try ContactImportPlan(contacts: try VCardParser.parse(Array(vcard.utf8)), includePhones: true, phones: .internationalOnly,
                              maxLabelLength: AccountLabel.maxLength)
    }

    /// A check session's outcome for the hostile e-mail address, with what it found and what it no
    /// longer lists.
    static func outcome() throws -> AccountCheck {
        let a = try account(email, id: 3)
        var check = attempt
        check.entry = CheckEntry(account: a)
        check.known = a
        check.news = a.findings
        check.unlisted = try unlisting().unlisted
        check.saved = true
        return check
    }

    /// What an answer that lists nothing any more changes in the hostile account: every finding unlisted.
    static func unlisting() throws -> Account.FindingChanges {
        var a = try account(email, id: 3)
        return a.recordChanges(AccountCheck(answer: .answer(breaches: [], pasteCount: 0, at: date.addingTimeInterval(60)),
                                            pastes: [], stealerLogSites: []))
    }

    /// The same account's failed attempt, its error texts (English and shown) quoting the hostile strings.
    static func failedOutcome() throws -> AccountCheck {
        let a = try account(email, id: 3)
        var check = AccountCheck.failure("not checked: \(email) \(sensitiveBreach)",
                                         error: .unauthorized(detail: "未检查：\(email) \(pasteID)"), at: date)
        check.entry = CheckEntry(account: a)
        check.known = a
        return check
    }

    /// A transport that never answers anything useful (a check session is only built here, not run).
    struct NoTransport: HTTPTransport {
        func send(_ request: HTTPRequest) async throws -> HTTPResponse { HTTPResponse(status: 404) }
    }

    /// A real vault (Argon2id at its cheapest preset) holding the hostile accounts.
    static func session() throws -> VaultSession {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("pwnvault-gate-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true,
                                                attributes: [.posixPermissions: 0o700])
        let location = try VaultLocation(path: folder.appendingPathComponent("vault").path)
        let session = try VaultSession.create(at: location, keyring: DisabledKeyring(),
                                              passphrase: SecretBytes(copying: Array("gate reflection test".utf8)),
                                              kdf: .interactive).session
        try session.update { payload in
            payload.accounts = [try account(email, id: 1), try account(phone, id: 2)]
            payload.nextID = 3
        }
        return session
    }

    // MARK: Renderings

    /// Every way a value becomes text without the gate, each named.
    static func renderings<T>(of value: T) -> [(way: String, text: String)] {
        var dumped = ""
        dump(value, to: &dumped)
        var printed = ""
        print(value, to: &printed)
        var debugPrinted = ""
        debugPrint(value, to: &debugPrinted)
        var out: [(String, String)] = [
            ("String(describing:)", String(describing: value)),
            ("String(reflecting:)", String(reflecting: value)),
            ("interpolation", "\(value)"),
            ("interpolation in an array", "\([value])"),
            ("interpolation as an optional", "\(Optional(value) as Any)"),
            ("print", printed),
            ("debugPrint", debugPrinted),
            ("dump", dumped),
            ("Mirror", mirrorText(value, depth: 0)),
        ]
        if let encodable = value as? any Encodable {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys]
            let json = (try? encoder.encode(encodable)).map { String(decoding: $0, as: UTF8.self) } ?? "(does not encode)"
            out.append(("JSONEncoder", json))
        }
        return out
    }

    /// The labels and values of `value`'s mirror, its children's, and so on.
    static func mirrorText(_ value: Any, depth: Int) -> String {
        guard depth < 12 else { return "" }
        return Mirror(reflecting: value).children.map { child in
            "\(child.label ?? "_")=\(String(describing: child.value)) {\(mirrorText(child.value, depth: depth + 1))}"
        }.joined(separator: ", ")
    }

    static func leaks(_ text: String) -> [String] {
        let lower = text.lowercased()
        return needles.filter { lower.contains($0) }
    }

    // MARK: Tests

    /// The fixtures hold what they should: a test that never sees a needle proves nothing.
    func testTheFixturesHoldTheSecrets() throws {
        let account = try Self.account(Self.email, id: 3)
        XCTAssertEqual(Self.leaks(account.entered + (account.label ?? "")).sorted(), ["very-secret-domain", "zz secret", "zz-secret"])
        XCTAssertEqual(account.findings.map(\.key), [Self.sensitiveBreach, Self.namedBreach, "Pastebin/\(Self.pasteID)", Self.stealerSite])
        XCTAssertFalse(Self.leaks(try Self.account(Self.phone, id: 4).normalized).isEmpty)
        let contacts = try VCardParser.parse(Array(Self.vcard.utf8))
        XCTAssertEqual(contacts.first?.emails.map(\.value), [Self.email])
        XCTAssertEqual(contacts.first?.formattedName, Self.contactName)
        XCTAssertEqual(try Self.plan().addresses.count, 2)
        XCTAssertEqual(try Self.plan().contacts.first?.label?.text, Self.contactName)
        let search = DomainSearch(domain: "very-secret-domain.example", aliases: [Self.alias: [Self.sensitiveBreach]])
        XCTAssertEqual(search.accounts(at: Self.date).count, 1)
        // The renderer finds a secret where the type does not hide it (a plain struct, a raw tuple).
        struct Unsealed { let account = GateReflectionTests.email }
        for (way, text) in Self.renderings(of: Unsealed()) where way != "JSONEncoder" {
            XCTAssertFalse(Self.leaks(text).isEmpty, "\(way) of an unsealed struct shows nothing: the check is blind")
        }
    }

    func testEveryGatedTypeHidesItsData() throws {
        for (name, make) in Self.gated.sorted(by: { $0.key < $1.key }) {
            let values = try make()
            XCTAssertFalse(values.isEmpty && name != "LookalikeFinder", "\(name): no fixture")
            for value in values {
                XCTAssertEqual(Self.qualifiedName(of: value), name, "\(name): the fixture is of another type")
                XCTAssertFalse(value is any Encodable, "\(name) is Encodable: JSONEncoder writes what it holds")
                for (way, text) in Self.renderings(of: value) {
                    XCTAssertEqual(Self.leaks(text), [], "\(way) of \(name) shows vault data: \(text.prefix(300))")
                }
            }
        }
    }

    /// The type's name as the lists spell it (nested types with their parent, no module).
    static func qualifiedName(of value: Any) -> String {
        String(reflecting: type(of: value)).split(separator: ".").dropFirst().joined(separator: ".")
    }

    // MARK: The list stays complete

    /// Public types whose stored properties hold text (or `Data`) but no vault data, each with why.
    /// A new public type holding text must be added here or to `gated`.
    static let reviewed: [String: String] = [
        // Settings, paths, file and process plumbing: no vault data.
        "Settings": "paths and settings from the environment",
        "PwnedPasswordsClient": "user agent", "PwnedPasswordsFile": "the file's path",
        "PhoneNumberLibrary": "the library's path",
        "PhoneRegion": "a region code", "KeyringItem": "keyring attributes (the vault id)",
        "KeyringProvider": "a provider's name and advice", "KeyringInteraction": "a closure",
        "HIBPClient": "user agent and base URL", "BreachQuery": "what the user typed to search the public catalog",
        "Breach": "a public catalog entry; which breaches an account is in lives in gated types only",
        "BreachCatalog": "the public catalog",
        "SubscribedDomain": "a domain the API key verified (not an account)",
        "SubscriptionStatus": "the key's plan",
        "ContactImportPlan.LabelNote": "the vCard property name and a fixed reason",
        "ContactImportPlan.Invalid": "a line number and a fixed reason", "ContactPicker": "closures for the terminal",
        "VCardReading.CodePage": "a character set's name and line numbers", "VCardSkip": "line numbers and a fixed reason",
        "VCardAddress.Note": "a URI scheme from a fixed list",
        "DesktopNotification": "text already made by Disclosure.notification (the gate's output)",
        "DesktopNotifier": "the D-Bus address",
        "FocusObstacle": "fixed wording", "PromptRetry": "a closure", "ShareModeReason": "why share mode is on",
        "UIKey": "a key pressed",
        "ICUSpoofChecker": "the library's path and a table",
        "ICUCountryNames": "the library's path (country names are asked of ICU, never kept)",
        "Lookalike": "script names and ids", "Lookalike.Match": "script names and ids", "LocatedVaultError": "the vault's path",
        "VaultLocation": "the vault's path", "PassphraseSource": "a file path",
        "UnlockMethod": "why the passphrase was asked", "MonitorState": "the catalog mark (a count and a date)",
        "CheckFailure": "a failure's cleaned message (never an account)", "StandardStream.Failure": "a reason",
        "OutputFileError": "a reason",
        "ScheduleFiles": "unit file paths", "ScheduleStatus": "unit file state",
        "ScheduleStatus.LastRun": "a run's result", "ScheduledWatch": "the command line of the scheduled watch",
        "SystemdUserManager": "the environment for systemctl", "UserManagerAbsence": "systemctl's refusal put in a sentence; no vault data", "Gettext.Catalog": "a language code and the folder of the message catalogs", "Gettext.Loaded": "the LC_MESSAGES locale name and the catalog in use", "Gettext.Folder": "a folder catalogs are looked for in", "Gettext.Refusal": "a catalog's path and its Plural-Forms expression", "TrustedPath.Refusal": "a path beside the binary and the system's words about it", "BreachCatalogDiff.Change": "a catalog breach's public name and what changed in the public catalog", "BreachCatalogDiff.Entry": "a catalog breach's public name, count and flags (the remembered catalog)", "WatchRunLog.Run": "a status and a reason", "Zxcvbn.Unavailable": "a reason", "ICUSpoofChecker.Unavailable": "a reason",
        // Errors: their associated values are paths, reasons, counts and ids, never vault data.
        "SettingsError": "variables, paths and reasons", "PasswordFileError": "paths",
        "PasswordInputError": "a reason", "PhoneLibraryError": "paths and reasons",
        "AccountLabel.Problem": "a LabelScreen.Finding: a fixed reason and ids", "BreachCatalogError": "paths", "HIBPError": "HIBP's own message",
        "HTTPTransportError": "a reason", "ContactPickError": "numbers and a letter",
        "NotificationOutcome": "a reason", "TerminalError": "a reason",
        "KeyringError": "a reason", "PassphraseError": "paths and counts",
        "VaultFormatError": "reasons", "VaultStoreError": "paths and reasons", "ScheduleError": "paths and reasons",
    ]

    func testEveryPublicTypeHoldingTextIsListed() throws {
        let found = try Self.publicTypesHoldingText(in: PackageRoot.url.appendingPathComponent("Sources/PwnVaultCore"))
        XCTAssertGreaterThan(found.count, 40, "the scan finds too little to be working")
        let listed = Set(Self.gated.keys).union(Self.reviewed.keys)
        XCTAssertTrue(Set(Self.gated.keys).isDisjoint(with: Self.reviewed.keys))
        for (name, property) in found.sorted(by: { $0.key < $1.key }) where !listed.contains(name) {
            XCTFail("\(name) is public and holds text (\(property)): add it to `gated` with hostile fixtures (and give it a "
                    + "redacted description and mirror), or to `reviewed` with why it holds no vault data")
        }
        for name in listed.sorted() where found[name] == nil {
            XCTFail("\(name) is listed but the scan does not find it as a public type holding text: update the list")
        }
    }

    /// The scan itself: a line-based reading of Swift that knows declarations, braces, comments and
    /// string literals, enough for this code base. Returns each public type (nested ones as
    /// `Outer.Inner`) that has a stored property or an enum payload whose type mentions text, with the
    /// first such declaration.
    static func publicTypesHoldingText(in folder: URL) throws -> [String: String] {
        let textual = try NSRegularExpression(pattern: #"\b(String|Substring|Character|Data|Account|ParsedAccount|Finding|CheckResult|AccountCheck|Breach|Paste|VCard\w*|AccountLabel|DomainSearch|AccountLookup|VaultPayload|UnknownJSONMembers|Target|Address|Contact)\b"#)
        let typeDecl = try NSRegularExpression(pattern: #"^\s*(?:@\w+(?:\([^)]*\))?\s+)*(public\s+|open\s+)?(?:final\s+|indirect\s+)*(struct|class|enum|actor|extension)\s+([\w.]+)"#)
        let stored = try NSRegularExpression(pattern: #"^\s*(?:@\w+(?:\([^)]*\))?\s+)*((?:(?:public|internal|private|fileprivate|package)(?:\(set\))?|nonisolated|weak|unowned|lazy)\s+)*(let|var)\s+(\w+)\s*(:\s*([^=]+?))?\s*(=\s*(.*))?$"#)
        let enumCase = try NSRegularExpression(pattern: #"^\s*(?:indirect\s+)?case\s+(.*\(.*)$"#)

        func match(_ re: NSRegularExpression, _ line: String) -> [String?]? {
            let range = NSRange(line.startIndex..., in: line)
            guard let m = re.firstMatch(in: line, range: range) else { return nil }
            return (0..<m.numberOfRanges).map { i in Range(m.range(at: i), in: line).map { String(line[$0]) } }
        }
        func mentionsText(_ s: String) -> Bool { textual.firstMatch(in: s, range: NSRange(s.startIndex..., in: s)) != nil }

        var result: [String: String] = [:]
        let files = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil)!
            .compactMap { $0 as? URL }.filter { $0.pathExtension == "swift" }
        for file in files {
            let source = try String(contentsOf: file, encoding: .utf8)
            var scopes: [(name: String, isPublic: Bool, depth: Int)] = []
            var depth = 0
            var inBlockComment = false, inMultilineString = false
            for rawLine in source.split(separator: "\n", omittingEmptySubsequences: false) {
                // Code only: comments and the contents of string literals removed.
                var code = ""
                var inString = false
                var chars = Array(rawLine)
                if inMultilineString {
                    if rawLine.contains("\"\"\"") { inMultilineString = false }
                    continue
                }
                if rawLine.filter({ $0 == "\"" }).count >= 3, rawLine.contains("\"\"\"") {
                    // A multi-line literal opens (and closes on a later line).
                    inMultilineString = rawLine.components(separatedBy: "\"\"\"").count == 2
                    chars = Array(rawLine.components(separatedBy: "\"\"\"")[0])
                }
                var i = 0
                while i < chars.count {
                    let c = chars[i], next: Character? = i + 1 < chars.count ? chars[i + 1] : nil
                    if inBlockComment {
                        if c == "*" && next == "/" { inBlockComment = false; i += 1 }
                    } else if inString {
                        if c == "\\" { i += 1 } else if c == "\"" { inString = false; code.append("\"") }
                    } else if c == "/" && next == "/" {
                        break
                    } else if c == "/" && next == "*" {
                        inBlockComment = true; i += 1
                    } else if c == "\"" {
                        inString = true; code.append("\"")
                    } else {
                        code.append(c)
                    }
                    i += 1
                }
                let lineDepth = depth
                /// Notes `member` (one declaration) when it is a stored property or an enum payload holding text.
                func examine(_ member: String, in scope: (name: String, isPublic: Bool, depth: Int)) {
                    guard scope.isPublic, !member.contains("static ") else { return }
                    var holds: String?
                    if let m = match(stored, member), member.contains(":") || member.contains("=") {
                        let typeText = m[5] ?? m[7] ?? ""
                        let computed = m[7] == nil && member.contains("{")
                        if !computed && mentionsText(typeText) { holds = "\(m[2] ?? "") \(m[3] ?? ""): \(typeText)" }
                    } else if let m = match(enumCase, member), mentionsText(m[1] ?? "") {
                        holds = "case " + (m[1] ?? "")
                    }
                    if let holds, result[scope.name] == nil { result[scope.name] = holds.trimmingCharacters(in: .whitespaces) }
                }
                if let scope = scopes.last, lineDepth == scope.depth + 1 {
                    code.split(separator: ";").forEach { examine(String($0), in: scope) }
                }
                if let m = match(typeDecl, code), let brace = code.firstIndex(of: "{") {
                    let kind = m[2] ?? "", name = m[3] ?? ""
                    let parent = scopes.last
                    let qualified = kind == "extension" ? name : (parent.map { "\($0.name)." } ?? "") + name
                    let isPublic = kind == "extension" ? true : m[1] != nil
                    let scope = (name: qualified, isPublic: isPublic && (kind == "extension" ? true : (parent?.isPublic ?? true)), depth: lineDepth)
                    scopes.append(scope)
                    // A type written on one line (`public struct X { let a: String }`): its members are on this line.
                    var body = code[code.index(after: brace)...]
                    if body.last == "}" { body = body.dropLast() }
                    if !body.contains("{") { body.split(separator: ";").forEach { examine(String($0), in: scope) } }
                }
                depth += code.filter { $0 == "{" }.count - code.filter { $0 == "}" }.count
                while let scope = scopes.last, depth <= scope.depth, code.contains("}") { scopes.removeLast() }
            }
        }
        return result
    }
}
