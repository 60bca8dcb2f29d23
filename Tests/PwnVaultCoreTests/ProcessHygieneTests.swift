import Foundation
import Glibc
import XCTest
import PwnVaultCore

/// Each protection of `ProcessHygiene.harden()`, checked in this process with the kernel's own
/// read-back calls, and where possible by its effect.
final class ProcessHygieneTests: XCTestCase {
    /// Undoes every protection (as far as this process may), so that each test sees `harden()`
    /// itself turn them on, not a shell's `ulimit -c 0` or an earlier test.
    override func setUp() {
        signal(SIGPIPE, SIG_DFL)
        signal(SIGXFSZ, SIG_DFL)
        umask(0o022)
        _ = prctl(4, 1)   // PR_SET_DUMPABLE 1
        var someCore = rlimit(rlim_cur: 1 << 20, rlim_max: 1 << 20)
        _ = setrlimit(__rlimit_resource_t(RLIMIT_CORE.rawValue), &someCore)   // works for root; others keep 0
        XCTAssertFalse(isIgnored(SIGPIPE))
        XCTAssertEqual(prctl(3, 0), 1)

        ProcessHygiene.harden()
    }

    func testCoreDumpsAreOffAndCannotBeTurnedBackOnBySoftLimit() {
        var limit = rlimit()
        XCTAssertEqual(getrlimit(__rlimit_resource_t(RLIMIT_CORE.rawValue), &limit), 0)
        XCTAssertEqual(limit.rlim_cur, 0)
        XCTAssertEqual(limit.rlim_max, 0, "the hard limit too, so a child cannot raise it again")
    }

    func testTheProcessIsNotDumpable() {
        XCTAssertEqual(prctl(3, 0), 0)   // PR_GET_DUMPABLE
    }

    func testTheUmaskIsPrivate() throws {
        let previous = umask(0o077)
        XCTAssertEqual(previous, 0o077)

        // And its effect: a file asked for with 0666 comes out 0600.
        let path = NSTemporaryDirectory() + "pwnvault-umask-\(getpid())"
        let fd = open(path, O_WRONLY | O_CREAT | O_EXCL, 0o666)
        XCTAssertGreaterThanOrEqual(fd, 0)
        defer { close(fd); unlink(path) }
        var st = stat()
        XCTAssertEqual(fstat(fd, &st), 0)
        XCTAssertEqual(st.st_mode & 0o777, 0o600)
    }

    func testSIGPIPEIsIgnoredSoAClosedPipeIsAnError() {
        XCTAssertTrue(isIgnored(SIGPIPE))
        var fds: [Int32] = [0, 0]
        XCTAssertEqual(pipe(&fds), 0)
        close(fds[0])
        defer { close(fds[1]) }
        let byte: [UInt8] = [1]
        let written = write(fds[1], byte, 1)   // with the default disposition this would kill the test run
        let code = errno
        XCTAssertEqual(written, -1)
        XCTAssertEqual(code, EPIPE)
    }

    func testSIGXFSZIsIgnoredSoAFileSizeLimitIsAnError() throws {
        XCTAssertTrue(isIgnored(SIGXFSZ))
        let path = NSTemporaryDirectory() + "pwnvault-fsize-\(getpid())"
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        XCTAssertGreaterThanOrEqual(fd, 0)
        defer { close(fd); unlink(path) }

        var saved = rlimit()
        XCTAssertEqual(getrlimit(__rlimit_resource_t(RLIMIT_FSIZE.rawValue), &saved), 0)
        var small = rlimit(rlim_cur: 1024, rlim_max: saved.rlim_max)
        XCTAssertEqual(setrlimit(__rlimit_resource_t(RLIMIT_FSIZE.rawValue), &small), 0)
        let bytes = [UInt8](repeating: 0, count: 4096)
        let first = write(fd, bytes, 4096)
        let second = write(fd, bytes, 4096)   // with the default disposition SIGXFSZ would kill the test run
        let code = errno
        XCTAssertEqual(setrlimit(__rlimit_resource_t(RLIMIT_FSIZE.rawValue), &saved), 0)

        XCTAssertEqual(first, 1024, "a short write up to the limit")
        XCTAssertEqual(second, -1)
        XCTAssertEqual(code, EFBIG)
    }

    func testHardeningTwiceChangesNothing() {
        ProcessHygiene.harden()
        var limit = rlimit()
        XCTAssertEqual(getrlimit(__rlimit_resource_t(RLIMIT_CORE.rawValue), &limit), 0)
        XCTAssertEqual(limit.rlim_max, 0)
        let previous = umask(0o077)
        XCTAssertEqual(previous, 0o077)
        XCTAssertTrue(isIgnored(SIGPIPE))
        XCTAssertTrue(isIgnored(SIGXFSZ))
    }

    /// `prctl` through our own fixed-arity pointer (it is variadic in C), independent of the code under test.
    private func prctl(_ option: Int32, _ argument: UInt) -> Int32 {
        typealias Prctl = @convention(c) (Int32, UInt, UInt, UInt, UInt) -> Int32
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "prctl") else { return -1 }
        return unsafeBitCast(symbol, to: Prctl.self)(option, argument, 0, 0, 0)
    }

    private func isIgnored(_ signal: Int32) -> Bool {
        var current = sigaction()
        guard sigaction(signal, nil, &current) == 0 else { return false }
        return unsafeBitCast(current.__sigaction_handler.sa_handler, to: Int.self) == unsafeBitCast(SIG_IGN, to: Int.self)
    }
}
