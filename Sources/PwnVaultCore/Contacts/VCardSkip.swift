/// Something `VCardParser` left out of a file it read: a line, a property, or a whole contact, with
/// the lines it spans and why, never what they hold.
public struct VCardSkip: Equatable, Sendable {
    /// The first line left out (a contact's: its `BEGIN:VCARD`).
    public let line: Int
    /// The last line of a run of lines left out for the same reason; `line` for one line.
    public internal(set) var lastLine: Int
    public let problem: VCardError

    public init(_ problem: VCardError, line: Int, lastLine: Int? = nil) {
        self.problem = problem; self.line = line; self.lastLine = lastLine ?? line
    }

    /// "12" or "12-80".
    public var lines: String { lastLine > line ? "\(line)-\(lastLine)" : "\(line)" }

    /// "line 12: why" or "lines 12-80: why".
    public var message: String { lastLine > line ? msg("lines {1}: {2}", lines, problem.reason) : msg("line {1}: {2}", lines, problem.reason) }
}

extension VCardSkip: Encodable {
    private enum CodingKeys: String, CodingKey { case line, lastLine, reason }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(line, forKey: .line)
        try c.encode(lastLine, forKey: .lastLine)
        try c.encode(Messages.english { problem.reason }, forKey: .reason)   // `import --json`: English always
    }
}
