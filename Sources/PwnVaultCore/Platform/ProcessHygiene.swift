import Glibc

/// Process-wide protections that pwnvault turns on before it touches a secret. The CLI calls
/// `harden()` first thing, before reading arguments; it is idempotent.
public enum ProcessHygiene {
    /// `PR_SET_DUMPABLE` and `PR_GET_DUMPABLE` from <linux/prctl.h>, which the Glibc module does not import.
    static let setDumpable: Int32 = 4
    static let getDumpable: Int32 = 3

    /// Applies every protection:
    /// - no core dumps (`RLIMIT_CORE` soft and hard limits 0): a crash must not write decrypted
    ///   accounts or keys to disk;
    /// - not dumpable (`prctl(PR_SET_DUMPABLE, 0)`): other processes of the same user cannot
    ///   `ptrace` us or read `/proc/self/mem`, and no core is written even if a limit is raised;
    /// - `umask(0o077)`: anything created later is private to the user;
    /// - SIGXFSZ ignored: exceeding a file-size limit makes `write` fail with EFBIG (which the vault
    ///   store reports) instead of killing the process mid-save;
    /// - SIGPIPE ignored: writing to a closed pipe (`pwnvault list | head`) fails with EPIPE instead
    ///   of killing the process.
    ///
    /// Children started later inherit the ignored signals across `exec`: whoever starts one (a pager)
    /// must reset SIGPIPE and SIGXFSZ to the default for it.
    public static func harden() {
        var noCore = rlimit(rlim_cur: 0, rlim_max: 0)
        _ = setrlimit(__rlimit_resource_t(RLIMIT_CORE.rawValue), &noCore)   // lowering a limit cannot fail
        _ = prctl(setDumpable, 0)
        _ = umask(0o077)
        ignore(SIGXFSZ)
        ignore(SIGPIPE)
    }

    /// Whether the process is currently dumpable (`prctl(PR_GET_DUMPABLE)`).
    static var isDumpable: Bool { prctl(getDumpable, 0) != 0 }

    private static func ignore(_ signal: Int32) {
        var action = sigaction()
        action.__sigaction_handler.sa_handler = SIG_IGN
        sigemptyset(&action.sa_mask)
        _ = sigaction(signal, &action, nil)
    }

    /// `prctl` is variadic in C, which Swift cannot call, and Glibc's module does not import it
    /// anyway. Calling it through a fixed-arity pointer is sound for integer arguments on the SysV
    /// x86-64 and AAPCS64 Linux ABIs, where variadic integers travel exactly like fixed ones.
    private typealias PrctlFunction = @convention(c) (Int32, UInt, UInt, UInt, UInt) -> Int32

    private static let prctlFunction: PrctlFunction? = {
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "prctl") else { return nil }   // RTLD_DEFAULT
        return unsafeBitCast(symbol, to: PrctlFunction.self)
    }()

    private static func prctl(_ option: Int32, _ argument: UInt) -> Int32 {
        guard let function = prctlFunction else { return -1 }
        return function(option, argument, 0, 0, 0)
    }
}
