/// The labels read in one run, kept by their exact text (byte for byte: two spellings of `é` read
/// differently), so that a label is read once though it is screened twice: `import` screens each
/// contact's name for its plan, and the gate screens the same text again (`Disclosure.label`, its
/// `failsScreen`) for the line that prints it. The reading depends on the text alone; what is decided
/// from it (which accounts it carries) is decided again by each caller, so the gate's answer stays the
/// gate's (issue 30: the second reading was a fifth of an import of 10,000 named contacts).
public final class LabelReadings: Sendable {
    private let table = Locked<[[UInt8]: LabelScreen.LabelReading]>([:])
    /// Beyond this many labels, new ones are read without being kept.
    static let capacity = 100_000

    public init() {}

    /// The reading of `label`, made now or earlier in the run.
    func reading(of label: String) -> LabelScreen.LabelReading {
        let key = Array(label.utf8)
        if let known = table.withLock({ $0[key] }) { return known }
        let reading = LabelScreen.LabelReading(label)
        table.withLock { if $0.count < Self.capacity { $0[key] = reading } }
        return reading
    }

    /// How many labels are kept (for tests).
    var count: Int { table.withLock { $0.count } }
}

/// Readings hold labels: never printed.
extension LabelReadings: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    public var description: String { "LabelReadings(redacted)" }
    public var debugDescription: String { description }
    public var customMirror: Mirror { Mirror(self, children: []) }
}
