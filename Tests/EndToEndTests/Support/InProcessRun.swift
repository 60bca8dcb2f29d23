import Foundation
import PwnVaultCLI
import PwnVaultCore
import XCTest

/// Runs one `pwnvault` command line inside the test process (`CLI.run(arguments:environment:standardInput:…)`)
/// with what a `Sandbox` run of the binary gets: the same environment dictionary (HOME, XDG folders,
/// settings: nothing from the test process's own), stdin a real pipe (or /dev/null), stdout and stderr
/// captured, no terminal, the real libcurl transport to the fake server on 127.0.0.1, real libsodium, the
/// keyring the environment names. What the binary's process does for itself is done around the run and
/// undone after it: umask 077, SIGPIPE and SIGXFSZ ignored (`ProcessHygiene.harden()`).
///
/// Not in-process (nil: the caller runs the binary): a run whose environment asks for a language other
/// than English (gettext's language is chosen once per process, from the process's own locale), changes
/// a variable libraries read from the process (`processVariables`, LD_*), or names a descriptor other
/// than stdin; and a run started while another in-process run is going on (two commands at once are
/// two processes).
enum InProcessRun {
    private static let lock = NSLock()
    nonisolated(unsafe) private static var busy = false

    static func run(_ args: [String], input: String?, environment: [String: String]) -> RunResult? {
        guard speaksEnglish(environment), !Gettext.translates, readsTheSameProcessVariables(environment),
              !namesAnotherDescriptor(args) else { return nil }
        lock.lock()
        guard !busy else { lock.unlock(); return nil }
        busy = true
        lock.unlock()
        defer { lock.lock(); busy = false; lock.unlock() }

        let out = Captured(), err = Captured()
        let stdin = StandardInput(input)
        let saved = ProcessState.enterRun()
        let status = CLI.run(arguments: args, environment: environment, standardInput: stdin.readEnd,
                             writeOut: { out.append($0) }, writeErr: { err.append($0) })
        stdin.finish()
        ProcessState.leaveRun(saved)
        RunLedger.record(.inProcess)
        return RunResult(status: status, stdout: out.text, stderr: err.text)
    }

    /// Variables that libraries read from the process's own environment, not from the dictionary a run is
    /// given, and that change what a test's run does: libsecret and GDBus (the session bus: the keyring
    /// and notifications), libcurl's proxies, glibc (the time zone of `LocalTime`, locale files).
    /// (Certificates matter to HTTPS only, which no test's run reaches; libraries are loaded as the test
    /// process loads them: what the loader reads was read at its start.)
    static let processVariables = ["DBUS_SESSION_BUS_ADDRESS", "XDG_RUNTIME_DIR", "TZ", "LOCPATH",
                                   "http_proxy", "HTTP_PROXY", "https_proxy", "HTTPS_PROXY", "all_proxy", "ALL_PROXY",
                                   "no_proxy", "NO_PROXY"]

    /// True when the run's environment agrees with the test process's on `processVariables`: a run that
    /// changes one of them (another bus, a time zone) needs a process of its own.
    static func readsTheSameProcessVariables(_ environment: [String: String]) -> Bool {
        let own = ProcessInfo.processInfo.environment
        // The loader's variables (LD_DEBUG, LD_PRELOAD…) and glibc's tunables act when a process starts:
        // a run that sets one is a process start. (Those only the test process has, a swift test's
        // LD_LIBRARY_PATH, reach no binary either: the sandbox's environment does not pass them on.)
        let loader = environment.keys.filter { $0.hasPrefix("LD_") || $0 == "GLIBC_TUNABLES" }
        return (processVariables + loader).allSatisfy { environment[$0] == own[$0] }
    }

    /// Whether the command line names a descriptor other than stdin (`--passphrase-fd 3`): the test
    /// process's own descriptors are not the ones a shell would give the binary.
    static func namesAnotherDescriptor(_ args: [String]) -> Bool {
        for (i, arg) in args.enumerated() {
            for option in ["--passphrase-fd", "--new-passphrase-fd"] {
                if arg == option { if i + 1 < args.count, args[i + 1] != "0" { return true } }
                if arg.hasPrefix(option + "="), arg != option + "=0" { return true }
            }
        }
        return false
    }

    /// True when every locale variable that is set names C, POSIX or English: then the binary's messages
    /// are English too (glibc reads LANGUAGE only under a locale other than C).
    static func speaksEnglish(_ environment: [String: String]) -> Bool {
        func english(_ name: String) -> Bool {
            name.isEmpty || name == "C" || name == "POSIX" || name.hasPrefix("C.") || name == "en" || name.hasPrefix("en_") || name.hasPrefix("en.")
        }
        let locale = ["LC_ALL", "LC_MESSAGES", "LANG"].compactMap { environment[$0] }.first { !$0.isEmpty } ?? ""
        guard english(locale) else { return false }
        if locale == "" || locale == "C" || locale == "POSIX" { return true }
        return (environment["LANGUAGE"] ?? "").split(separator: ":").allSatisfy { english(String($0)) }
    }

    /// A stream's bytes as the writers hand them over (from any thread: check's results come from tasks).
    private final class Captured: @unchecked Sendable {   // guarded by `lock`
        private let lock = NSLock()
        private var chunks: [String] = []
        func append(_ text: String) { lock.lock(); chunks.append(text); lock.unlock() }
        var text: String { lock.lock(); defer { lock.unlock() }; return chunks.joined() }
    }

    /// The run's stdin: /dev/null without input, else a pipe that holds all of it (its buffer grown to
    /// fit), or that a thread fills when it is larger than a pipe can hold.
    private final class StandardInput: @unchecked Sendable {   // `writer` is joined in `finish`
        let readEnd: Int32
        private var writer: Thread?
        private let written = DispatchSemaphore(value: 0)

        init(_ input: String?) {
            guard let input else {
                readEnd = open("/dev/null", O_RDONLY | O_CLOEXEC)
                written.signal()
                return
            }
            var fds: [Int32] = [0, 0]
            precondition(pipe(&fds) == 0, "pipe")
            for fd in fds { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }   // no child the command starts inherits them
            readEnd = fds[0]
            let writeEnd = fds[1], bytes = Array(input.utf8)
            // F_SETPIPE_SZ and F_GETPIPE_SZ (<linux/fcntl.h>, which Glibc's module does not import).
            let setPipeSize: Int32 = 1031, getPipeSize: Int32 = 1032
            if bytes.count > 65_536 { _ = fcntl(writeEnd, setPipeSize, Int32(min(bytes.count, 1 << 20))) }
            let capacity = Int(fcntl(writeEnd, getPipeSize))
            if bytes.count <= capacity {
                Self.writeAll(bytes, to: writeEnd)
                close(writeEnd)
                written.signal()
            } else {
                // SIGPIPE is ignored during the run: a command that stops reading early ends the write with EPIPE.
                let done = written
                let thread = Thread { Self.writeAll(bytes, to: writeEnd); close(writeEnd); done.signal() }
                writer = thread
                thread.start()
            }
        }

        private static func writeAll(_ bytes: [UInt8], to fd: Int32) {
            var offset = 0
            while offset < bytes.count {
                let n = bytes.withUnsafeBytes { write(fd, $0.baseAddress! + offset, $0.count - offset) }
                if n > 0 { offset += n } else if n < 0 && errno == EINTR { continue } else { return }
            }
        }

        /// Closes the read end (a writer still going gets EPIPE) and waits for the writer.
        func finish() {
            close(readEnd)
            written.wait()
        }
    }
}

/// The process-wide settings a pwnvault process makes for itself (`ProcessHygiene.harden()`) that an
/// in-process run needs: made for the run and put back after it, so nothing leaks into the next test.
/// Core dumps and dumpability stay the test process's (StartupEndToEndTests test them on the binary).
enum ProcessState {
    struct Saved {
        let umask: mode_t
        let actions: [(Int32, sigaction)]
    }

    static let ignoredSignals = [SIGPIPE, SIGXFSZ]

    static func enterRun() -> Saved {
        let old = umask(0o077)
        var actions: [(Int32, sigaction)] = []
        for signal in ignoredSignals {
            var ignore = sigaction(), previous = sigaction()
            ignore.__sigaction_handler.sa_handler = SIG_IGN
            sigemptyset(&ignore.sa_mask)
            sigaction(signal, &ignore, &previous)
            actions.append((signal, previous))
        }
        return Saved(umask: old, actions: actions)
    }

    static func leaveRun(_ saved: Saved) {
        umask(saved.umask)
        for (signal, action) in saved.actions {
            var action = action
            sigaction(signal, &action, nil)
        }
    }

    /// The dispositions of the signals a run may handle (check and watch guard the screen against
    /// SIGINT, SIGTERM, SIGHUP, SIGTSTP, SIGCONT, SIGWINCH and put them back): for the test that checks
    /// that nothing is left behind.
    static func dispositions() -> [Int32: UInt] {
        var out: [Int32: UInt] = [:]
        for signal in [SIGINT, SIGTERM, SIGHUP, SIGTSTP, SIGCONT, SIGWINCH, SIGPIPE, SIGXFSZ, SIGQUIT, SIGUSR1] {
            var current = sigaction()
            sigaction(signal, nil, &current)
            out[signal] = unsafeBitCast(current.__sigaction_handler.sa_handler, to: UInt.self)
        }
        return out
    }
}

/// How each run of pwnvault went, for the suite's count of tests run in-process and through the binary:
/// `KIND<TAB>Class.test` lines (`inprocess`, `binary`, `terminal`) appended to the file
/// `PWNVAULT_TEST_RUN_LEDGER` names when each test ends (Tests/Support/run-tests.py sets one per unit and
/// sums them up per test). Nothing without the variable.
enum RunLedger {
    enum Kind: String { case inProcess = "inprocess", binary, terminal }

    private static let path = ProcessInfo.processInfo.environment["PWNVAULT_TEST_RUN_LEDGER"]
    private static let lock = NSLock()
    nonisolated(unsafe) private static var pending: [Kind] = []
    /// Registered at the first run: it still hears the end of the test that made that run.
    private static let observer: Observer? = {
        guard let path, !path.isEmpty else { return nil }
        let observer = Observer()
        XCTestObservationCenter.shared.addTestObserver(observer)
        return observer
    }()

    static func record(_ kind: Kind) {
        guard observer != nil else { return }
        lock.lock(); pending.append(kind); lock.unlock()
    }

    fileprivate static func testEnded(_ name: String) {
        lock.lock()
        let kinds = pending
        pending = []
        lock.unlock()
        guard let path, !kinds.isEmpty else { return }
        let fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0o600)
        guard fd >= 0 else { return }
        let text = Array(kinds.map { "\($0.rawValue)\t\(name)\n" }.joined().utf8)
        _ = text.withUnsafeBytes { write(fd, $0.baseAddress!, $0.count) }
        close(fd)
    }

    private final class Observer: NSObject, XCTestObservation, @unchecked Sendable {   // no stored state
        func testCaseDidFinish(_ testCase: XCTestCase) {
            // "-[Class test]" or "Class.test" depending on the platform: Class.test either way.
            let name = testCase.name.trimmingCharacters(in: CharacterSet(charactersIn: "-[]")).replacingOccurrences(of: " ", with: ".")
            RunLedger.testEnded(name)
        }
    }
}
