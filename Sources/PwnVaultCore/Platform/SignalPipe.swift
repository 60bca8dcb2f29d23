import Glibc

/// The self-pipe pattern: while installed, each watched signal only writes its number into a pipe,
/// and the owner reads the numbers in its own `poll()` loop, where any call is allowed.
///
/// One pipe is active per process at a time; installing a second one (a private screen opened while
/// a screen guard runs) takes the signals over and gives them back when it is restored: nest them
/// strictly. Signals that were ignored at installation (`nohup`) stay ignored.
final class SignalPipe {
    /// Poll this for readability; then call `takeSignals()`.
    let readEnd: Int32
    private let writeEnd: Int32
    private let watched: [Int32]
    private var previousActions: [(Int32, sigaction)] = []
    private let previousWriteEnd: Int32
    private var restored = false

    /// The byte `wake()` writes: not a signal number.
    static let wakeByte: UInt8 = 0

    /// Creates the pipe and installs the handler for each of `signals`. Nil when no pipe could be made.
    init?(signals: [Int32]) {
        guard let fds = TerminalIO.makeSelfPipe() else { return nil }
        readEnd = fds.read
        writeEnd = fds.write
        watched = signals
        // Handlers must never see a half-updated state: hold the signals while switching.
        let mask = TerminalIO.block(signals)
        previousWriteEnd = signalPipeWriteEnd.pointee
        signalPipeWriteEnd.pointee = writeEnd
        for signo in signals {
            let previous = TerminalIO.disposition(signo)
            guard !TerminalIO.isIgnored(previous) else { continue }
            TerminalIO.installSelfPipeHandler(signo, blocking: TerminalIO.signalSet(signals))
            previousActions.append((signo, previous))
        }
        TerminalIO.setSignalMask(mask)
    }

    deinit { restore() }

    /// Whether `signo` is handled through this pipe (false when it was ignored at installation).
    func isWatching(_ signo: Int32) -> Bool { previousActions.contains { $0.0 == signo } }

    /// The signal numbers received since the last call, in order (wake bytes appear as 0).
    func takeSignals() -> [Int32] {
        var result: [Int32] = []
        while case let .bytes(bytes) = TerminalIO.read(readEnd) {
            result += bytes.map { Int32($0) }
        }
        return result
    }

    /// The pipe's write end, for a `ScreenWake` (valid until `restore()`).
    var writeDescriptor: Int32 { writeEnd }

    /// Wakes whoever polls `readEnd` (a `0` in `takeSignals()`), e.g. to end a watching thread.
    func wake() { TerminalIO.poke(writeEnd, SignalPipe.wakeByte) }

    /// Puts the self-pipe handler back for `signo` after it was set to the default (to stop or to die).
    func reinstall(_ signo: Int32) {
        guard !restored, isWatching(signo) else { return }
        TerminalIO.installSelfPipeHandler(signo, blocking: TerminalIO.signalSet(watched))
    }

    /// Hands `signo` back to its previous disposition early (a second Ctrl-C should then act at once).
    func release(_ signo: Int32) {
        guard let index = previousActions.firstIndex(where: { $0.0 == signo }) else { return }
        TerminalIO.setDisposition(signo, previousActions[index].1)
        previousActions.remove(at: index)
    }

    /// Gives every signal its previous disposition back and closes the pipe. Signals that came in
    /// meanwhile and were not taken are lost to the owner: call `takeSignals()` first if they matter.
    func restore() {
        guard !restored else { return }
        restored = true
        let mask = TerminalIO.block(watched)
        for (signo, previous) in previousActions { TerminalIO.setDisposition(signo, previous) }
        previousActions = []
        signalPipeWriteEnd.pointee = previousWriteEnd
        TerminalIO.setSignalMask(mask)
        TerminalIO.close(readEnd)
        TerminalIO.close(writeEnd)
    }
}
