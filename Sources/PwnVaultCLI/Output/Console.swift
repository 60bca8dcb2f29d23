import FoundationEssentials
import PwnVaultCore

/// Where a command's words go. stdout carries results only; errors, hints, notes and progress go to stderr.
/// Commands say *what* to show; the terminal capabilities and display policy decide *how much* of it.
final class Console: Sendable {
    let terminal: TerminalCapabilities
    /// The one disclosure gate: every account, label and breach list printed goes through it.
    let disclosure: Disclosure
    var policy: DisplayPolicy { disclosure.policy }
    let colors: Bool
    private let writeOut: @Sendable (String) -> Void
    private let writeErr: @Sendable (String) -> Void

    init(terminal: TerminalCapabilities, policy: DisplayPolicy, colorsAllowed: Bool,
         writeOut: @escaping @Sendable (String) -> Void, writeErr: @escaping @Sendable (String) -> Void,
         apiKeyFromEnvironment: Bool = false) {
        self.apiKeyFromEnvironment = apiKeyFromEnvironment
        self.terminal = terminal
        self.disclosure = Disclosure(policy: policy)
        self.colors = colorsAllowed && terminal.colorsOnStdout
        self.writeOut = writeOut
        self.writeErr = writeErr
    }

    /// A result line on stdout.
    func out(_ line: String = "") { writeOut(line + "\n") }
    /// Result lines on stdout in one write: a table of 10,000 rows is one system call, not 10,000.
    func out(lines: [String]) {
        // Copied as bytes into one string: `+=` per line cost about 800 instructions a line.
        let count = lines.reduce(0) { $0 + $1.utf8.count + 1 }
        let text = String(unsafeUninitializedCapacity: count) { buffer in
            var at = 0
            for var line in lines {
                line.withUTF8 { utf8 in
                    if let base = utf8.baseAddress { (buffer.baseAddress! + at).initialize(from: base, count: utf8.count) }
                    at += utf8.count
                }
                buffer[at] = 0x0A
                at += 1
            }
            return at
        }
        writeOut(text)
    }
    /// Result lines through the pager (`less -FRX` unless PAGER/PWNVAULT_PAGER says otherwise) when stdout
    /// is a terminal and they are more than a screenful may hold; else as `out(lines:)`. The lines have
    /// passed the gate already: the pager only shows them. Returns whether the pager took them.
    @discardableResult
    func paged(_ lines: [String], pager command: String?) -> Bool {
        guard terminal.stdoutIsTerminal, lines.count > 20, let pager = Pager(command: command ?? "less -FRX") else {
            out(lines: lines)
            return false
        }
        for line in lines where !pager.write(line + "\n") { break }
        pager.finish()
        return true
    }

    /// A message on stderr, prefixed `pwnvault: `. Notes, warnings, hints and errors all go through
    /// `message`: wrapped to the window at word boundaries under a hanging indent, commands whole.
    func note(_ line: String) { message("pwnvault: ", line) }
    func warning(_ line: String) { message(msg("pwnvault: warning: "), line) }
    /// `pwnvault: hint: …`, worded as an error's hint.
    func hint(_ line: String) { message(msg("pwnvault: hint: "), line) }
    func error(_ error: UserFacingError) { writeErr(Self.errorLines(hintThatApplies(error), width: terminal.stderrColumns)) }

    /// The one writer of messages on stderr: `prefix` then `text`, wrapped to stderr's window under a
    /// hanging indent (one line when stderr is no terminal, for grep).
    func message(_ prefix: String, _ text: String) {
        writeErr(Self.messageLines(prefix, text, width: terminal.stderrColumns))
    }

    /// The lines `message` writes, each ending in a new line. A text of several lines (a crontab line
    /// below its sentence) keeps its lines, each wrapped under the same indent.
    static func messageLines(_ prefix: String, _ text: String, width: Int?) -> String {
        let parts = text.split(separator: "\n", omittingEmptySubsequences: false)
        var lines = TerminalCells.hanging(prefix, String(parts[0]), width: width)
        let pad = String(repeating: " ", count: TerminalCells.width(prefix))
        for part in parts.dropFirst() {
            lines += width == nil ? [pad + part] : TerminalCells.hanging(pad, String(part), width: width)
        }
        return lines.map { $0 + "\n" }.joined()
    }

    /// Whether this run's HIBP key comes from `HIBP_API_KEY` (set by `CLI`): then a refused key is
    /// fixed in the variable, not by storing the key again (the variable wins over the stored key).
    let apiKeyFromEnvironment: Bool

    /// The error with a hint that names only what applies to this run.
    func hintThatApplies(_ error: UserFacingError) -> UserFacingError {
        guard apiKeyFromEnvironment, let hibp = error as? HIBPError, case .unauthorized = hibp else { return error }
        return Rehinted(base: error, hint: msg("{1} is set and wins over any stored key: correct it, or unset it to use the key stored with 'pwnvault config api-key'",
                                               Settings.apiKeyVariable))
    }

    /// `pwnvault: error: …` and, when there is one, `pwnvault: hint: …` (the words in the reader's language).
    /// On a terminal (`width`), each is wrapped at word boundaries under where its text starts; in a
    /// log or a pipe each stays one line, for grep.
    static func errorLines(_ error: UserFacingError, width: Int? = nil) -> String {
        messageLines(msg("pwnvault: error: "), error.message, width: width)
            + (error.hint.map { messageLines(msg("pwnvault: hint: "), $0, width: width) } ?? "")
    }

    /// An error reported on stderr where no console exists (before the command line is read as
    /// text, or after the command's console is gone). Its message names no vault data.
    static func reportBeforeAnyConsole(_ error: UserFacingError) {
        StandardStream.write(errorLines(error), to: 2)
    }

    /// `pwnvault: warning: …` on stderr before any console exists (a message catalog refused while the
    /// language is chosen). The text names no vault data; strings from files in it are sanitized by the caller.
    static func warnBeforeAnyConsole(_ text: String) {
        StandardStream.write(messageLines(msg("pwnvault: warning: "), text, width: nil), to: 2)
    }
    /// Raw text on stderr (help for usage errors, progress).
    func errRaw(_ text: String) { writeErr(text) }

    /// How many cells wide stdout's lines may be; nil when stdout is no terminal (nothing is wrapped or cut).
    var width: Int? { terminal.columns }

    /// A table's lines fitted to the width, the header in bold.
    func lines(of table: Table) -> [String] { table.render(width: width, style: { self.styled($0, .bold) }) }
    /// The same, grouped by row (the header first): a row whose cell wraps or spills has several lines.
    func lineGroups(of table: Table) -> [[String]] { table.renderRows(width: width, style: { self.styled($0, .bold) }) }

    /// `first` then `text` wrapped to the width with a hanging indent under where `text` starts.
    func hanging(_ first: String, _ text: String) -> [String] { TerminalCells.hanging(first, text, width: width) }

    /// A paragraph wrapped to the width (one line when stdout is no terminal).
    func wrapped(_ paragraph: String, indent: Int = 0) -> [String] {
        let pad = String(repeating: " ", count: indent)
        return TerminalCells.wrap(paragraph, to: width.map { $0 - indent } ?? 0).map { pad + $0 }
    }

    /// Whether account characters (masked) may appear at all: on a terminal, outside share mode.
    var showsAccounts: Bool { policy.showsMaskedAccounts }

    /// `#3  a•••e@e•••.com  Label`, as the gate allows for this output.
    func heading(_ account: Account) -> String { disclosure.heading(account) }

    /// The label as the gate allows (account-like parts masked), or nil.
    func label(_ account: Account) -> String? { disclosure.label(account) }
    /// The same, with the labels already read in this run (`import`).
    func label(_ account: Account, readings: LabelReadings?) -> String? { disclosure.label(account, readings: readings) }

    // MARK: color

    enum Style: String { case red = "31", green = "32", yellow = "33", bold = "1", dim = "2" }

    func styled(_ text: String, _ style: Style) -> String {
        colors ? "\u{1B}[\(style.rawValue)m\(text)\u{1B}[0m" : text
    }

    // MARK: JSON

    func json<T: Encodable>(_ value: T) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .iso8601
        let data = try encoder.encode(value)
        out(Self.escapingInvisibles(String(decoding: data, as: UTF8.self)))
    }

    /// JSON written by hand in the encoder's layout (`PrettyJSON.document`, its new line included),
    /// escaped like `json(_:)`'s.
    func json(document: String) {
        writeOut(Self.escapingInvisibles(document))
    }

    /// JSONEncoder escapes only C0 controls: C1 controls (U+009B is an 8-bit CSI), line separators and
    /// bidi controls from outside data would reach a terminal raw. They can only occur inside strings,
    /// so `\uXXXX` escapes keep the JSON valid and the meaning unchanged.
    static func escapingInvisibles(_ json: String) -> String {
        // Every character escaped here is outside ASCII: an all-ASCII document (the usual one) is
        // returned as it is, without touching it character by character.
        var json = json
        let plain = json.withUTF8 { bytes in
            var any: UInt8 = 0
            for b in bytes { any |= b &+ 1 }   // DEL + 1 and UTF-8 lead/continuation bytes + 1 (never 0xFF) set the high bit
            return any & 0x80 == 0
        }
        guard !plain else { return json }
        let hex = Array("0123456789abcdef".utf8)
        var out: [UInt8] = []
        out.reserveCapacity(json.utf8.count + 64)
        for scalar in json.unicodeScalars {
            switch scalar.value {
            case 0x7F...0x9F, 0x061C, 0x200E, 0x200F, 0x2028, 0x2029, 0x202A...0x202E, 0x2066...0x2069:
                let v = Int(scalar.value)
                out += [UInt8(ascii: "\\"), UInt8(ascii: "u"), hex[v >> 12 & 0xF], hex[v >> 8 & 0xF], hex[v >> 4 & 0xF], hex[v & 0xF]]
            default:
                UTF8.encode(scalar) { out.append($0) }
            }
        }
        return String(decoding: out, as: UTF8.self)
    }
}

/// The first failed write to stdout (other than a broken pipe), so that a truncated result is not
/// reported as success.
final class OutputFailure: Sendable {
    private let failure = Locked<StandardStream.Failure?>(nil)

    func record(_ failure: StandardStream.Failure?) {
        guard let failure, !failure.isBrokenPipe else { return }
        self.failure.withLock { if $0 == nil { $0 = failure } }
    }

    var error: UserFacingError? {
        failure.value.map { OutputWriteError(reason: $0.reason) }
    }
}

struct OutputWriteError: UserFacingError {
    let reason: String
    var message: String { msg("could not write the output ({1}); what was written is incomplete", reason) }
    var hint: String? { msg("check the disk or the file the output goes to, then run it again") }
    var exitStatus: ExitStatus { .vault }
}

/// An error shown with another hint (see `Console.hintThatApplies`).
struct Rehinted: UserFacingError {
    let base: UserFacingError
    let hint: String?
    var message: String { base.message }
    var exitStatus: ExitStatus { base.exitStatus }
}
