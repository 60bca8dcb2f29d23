import Foundation
import PwnVaultCore

/// Where a command's words go. stdout carries results only; errors, hints, notes and progress go to stderr.
/// Commands say *what* to show; the terminal capabilities and display policy decide *how much* of it.
final class Console {
    let terminal: TerminalCapabilities
    let policy: DisplayPolicy
    let colors: Bool
    private let writeOut: (String) -> Void
    private let writeErr: (String) -> Void

    init(terminal: TerminalCapabilities, policy: DisplayPolicy, colorsAllowed: Bool,
         writeOut: @escaping (String) -> Void, writeErr: @escaping (String) -> Void) {
        self.terminal = terminal
        self.policy = policy
        self.colors = colorsAllowed && terminal.colorsOnStdout
        self.writeOut = writeOut
        self.writeErr = writeErr
    }

    /// A result line on stdout.
    func out(_ line: String = "") { writeOut(line + "\n") }
    /// A message on stderr, prefixed `pwnvault: `.
    func note(_ line: String) { writeErr("pwnvault: \(line)\n") }
    func warning(_ line: String) { writeErr("pwnvault: warning: \(line)\n") }
    func error(_ error: UserFacingError) {
        writeErr("pwnvault: error: \(error.message)\n")
        if let hint = error.hint { writeErr("pwnvault: hint: \(hint)\n") }
    }
    /// Raw text on stderr (help for usage errors, progress).
    func errRaw(_ text: String) { writeErr(text) }

    /// Whether account characters (masked) may appear at all: on a terminal, outside share mode.
    var showsAccounts: Bool { policy.terminal && !policy.shareMode }

    /// How an account appears in human output: masked on a terminal, `#id` elsewhere.
    func show(_ account: Account) -> String { AccountDisplay.display(account, policy: policy) }

    /// The label, cleaned of control characters, or nil.
    func label(_ account: Account) -> String? { AccountDisplay.labelText(account) }

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
        out(String(decoding: data, as: UTF8.self))
    }
}

/// Writes all of `text` to a file descriptor, retrying on EINTR and partial writes. Errors (EPIPE) are dropped:
/// there is nobody left to tell.
func writeAll(fd: Int32, _ text: String) {
    var bytes = Array(text.utf8)
    var offset = 0
    while offset < bytes.count {
        let n = bytes.withUnsafeBytes { write(fd, $0.baseAddress! + offset, $0.count - offset) }
        if n > 0 { offset += n } else if n < 0 && errno == EINTR { continue } else { break }
    }
    bytes.removeAll()
}
