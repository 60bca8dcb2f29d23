/// What the standard streams are connected to, and whether to use colors: the one place that decides.
///
/// `TERM=dumb` counts as no terminal at all (a dumb terminal cannot show masks or colors reliably, and
/// is what editors and CI runners announce). Colors need a terminal and no non-empty `NO_COLOR`.
public struct TerminalCapabilities: Equatable, Sendable {
    public var stdoutIsTerminal: Bool
    public var stderrIsTerminal: Bool
    public var stdinIsTerminal: Bool
    public var colorsOnStdout: Bool
    public var colorsOnStderr: Bool
    /// How many cells wide stdout's lines may be: the terminal's window size, then `COLUMNS`, then 80;
    /// nil when stdout is no terminal (pipes and files get unwrapped lines and whole table cells).
    public var columns: Int?
    /// The same for stderr, where errors and hints go: nil when stderr is no terminal (a log keeps
    /// each message on one line).
    public var stderrColumns: Int?

    public init(stdoutIsTerminal: Bool, stderrIsTerminal: Bool, stdinIsTerminal: Bool,
                colorsOnStdout: Bool, colorsOnStderr: Bool, columns: Int? = nil, stderrColumns: Int? = nil) {
        self.stdoutIsTerminal = stdoutIsTerminal; self.stderrIsTerminal = stderrIsTerminal
        self.stdinIsTerminal = stdinIsTerminal; self.colorsOnStdout = colorsOnStdout; self.colorsOnStderr = colorsOnStderr
        self.columns = columns
        self.stderrColumns = stderrColumns
    }

    /// The width rule for a terminal: its window size, else `COLUMNS` (a positive number), else 80.
    /// Never below 20 cells, so that tables and wrapped text keep a usable shape.
    public static func columns(windowColumns: Int?, environment: [String: String]) -> Int {
        let n = windowColumns ?? environment["COLUMNS"].flatMap { Int($0.trimmingWhitespace()) }.flatMap { $0 > 0 ? $0 : nil } ?? 80
        return max(20, n)
    }

    /// No terminal anywhere, no colors: what pipes, files and tests without a pseudo-terminal get.
    /// Whether stdin is a terminal device at all (TERM ignored): where to read a secret with echo off.
    public static var stdinIsATTY: Bool { isATTY(StandardStream.inputDescriptor) }

    /// Whether `fd` is a terminal device (TERM ignored): a run's standard input when it is not fd 0
    /// (a command line run in-process by the tests reads a descriptor of its own).
    public static func isATTY(_ fd: Int32) -> Bool { TerminalIO.isTerminal(fd) }

    /// Whether stdout is a real terminal that `TERM=dumb` declares unable to do more than print: not a
    /// pipe or a file, and no place for a private screen either.
    public static func stdoutIsDumbTerminal(environment: [String: String]) -> Bool {
        environment["TERM"] == "dumb" && TerminalIO.isTerminal(StandardStream.outputDescriptor)
    }

    public static let none = TerminalCapabilities(stdoutIsTerminal: false, stderrIsTerminal: false,
                                                  stdinIsTerminal: false, colorsOnStdout: false, colorsOnStderr: false)

    /// The capabilities of this process's standard streams (fds 0, 1, 2) under `environment`.
    public static func detect(environment: [String: String]) -> TerminalCapabilities {
        detect(environment: environment, isTerminal: { TerminalIO.isTerminal($0) })
    }

    /// The same decision with the "is this fd a terminal" question answered by `isTerminal`.
    /// `windowColumns` answers the window width of the terminal on stdout (the real `ioctl` by default).
    public static func detect(environment: [String: String], isTerminal: (Int32) -> Bool,
                              windowColumns: () -> Int? = stdoutWindowColumns) -> TerminalCapabilities {
        let dumb = environment["TERM"] == "dumb"
        let noColor = !(environment["NO_COLOR"] ?? "").isEmpty
        let stdin = !dumb && isTerminal(StandardStream.inputDescriptor)
        let stdout = !dumb && isTerminal(StandardStream.outputDescriptor)
        let stderr = !dumb && isTerminal(StandardStream.errorDescriptor)
        return TerminalCapabilities(stdoutIsTerminal: stdout, stderrIsTerminal: stderr, stdinIsTerminal: stdin,
                                    colorsOnStdout: stdout && !noColor, colorsOnStderr: stderr && !noColor,
                                    columns: stdout ? columns(windowColumns: windowColumns(), environment: environment) : nil,
                                    stderrColumns: stderr ? columns(windowColumns: TerminalIO.windowSize(StandardStream.errorDescriptor)?.columns, environment: environment) : nil)
    }

    /// The window width of the terminal on stdout, when it has one.
    public static func stdoutWindowColumns() -> Int? { TerminalIO.windowSize(StandardStream.outputDescriptor)?.columns }
}
