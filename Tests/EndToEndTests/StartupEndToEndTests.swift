import Foundation
import XCTest

/// Issue 10: pwnvault starts like a small tool. Foundation (and with it ICU's data) is never loaded (the
/// product uses FoundationEssentials only), and GLib, GIO, libsecret (and libpsl) are loaded only when the keyring
/// or the desktop is first used (pwv_dl.h; libpsl when an address is first masked; libzxcvbn by init and passwd), not linked.
final class StartupEndToEndTests: XCTestCase {
    /// The shared objects of a running `pwnvault add -`, read from /proc/PID/maps while it waits for its
    /// accounts on stdin: everything it links is mapped by then, and it has not opened the vault yet, so
    /// it has had no use for the keyring.
    func testFoundationICUAndGLibAreNotLoadedAtStart() throws {
        let sandbox = try Sandbox()
        sandbox.initVault()
        let p = Process()
        p.executableURL = URL(fileURLWithPath: Paths.binary)
        p.arguments = ["add", "-"]
        p.environment = sandbox.environment.merging(["PWNVAULT_PASSPHRASE_FILE": sandbox.passphraseFile]) { $1 }
        let input = Pipe()
        p.standardInput = input
        p.standardOutput = FileHandle.nullDevice
        p.standardError = FileHandle.nullDevice
        try p.run()
        defer { try? input.fileHandleForWriting.close(); p.waitUntilExit() }
        // Blocked in read(0, …): /proc/PID/syscall starts with the call's number (0) and its first argument.
        let deadline = Date().addingTimeInterval(30)
        var blocked = false
        while Date() < deadline, p.isRunning {
            let call = (try? String(contentsOfFile: "/proc/\(p.processIdentifier)/syscall", encoding: .utf8)) ?? ""
            if call.hasPrefix("0 0x0 ") { blocked = true; break }
            usleep(20_000)
        }
        XCTAssertTrue(blocked, "pwnvault add - never waited on stdin")
        // Read to the end (a /proc file has no size, and a single read stops at a page).
        let handle = try XCTUnwrap(FileHandle(forReadingAtPath: "/proc/\(p.processIdentifier)/maps"))
        let maps = String(decoding: handle.readDataToEndOfFile(), as: UTF8.self)
        let objects = Set(maps.split(separator: "\n").compactMap { $0.split(separator: "/").last.map(String.init) }
            .filter { $0.contains(".so") })
        XCTAssertTrue(objects.contains { $0.hasPrefix("libsodium.so") }, "\(objects.sorted())")
        let unwanted = objects.filter {
            $0.hasPrefix("libFoundation.so") || $0.hasPrefix("libFoundationInternationalization") || $0.hasPrefix("lib_FoundationICU")
                || $0.hasPrefix("libFoundationNetworking") || $0.hasPrefix("libicu")
                || $0.hasPrefix("libglib-2.0") || $0.hasPrefix("libgio-2.0") || $0.hasPrefix("libsecret-1") || $0.hasPrefix("libpsl")
                || $0.hasPrefix("libzxcvbn")   // init and passwd only (Zxcvbn.swift)
                // The Swift runtime is linked in (Package.swift, -static-stdlib): none of it is a shared object.
                || (!Self.sharedRuntime && ($0.hasPrefix("libswift") || $0.hasPrefix("libFoundationEssentials")
                                            || $0.hasPrefix("libdispatch") || $0.hasPrefix("libBlocksRuntime")))
        }
        XCTAssertEqual(unwanted.sorted(), [])
    }

    /// Set by scripts/sanitize.sh, whose instrumented binary keeps the shared runtime (Package.swift).
    static let sharedRuntime = ProcessInfo.processInfo.environment["PWNVAULT_SHARED_SWIFT_RUNTIME"] != nil

    /// With the runtime linked in, "Foundation is never loaded" becomes "Foundation is not in the binary": a
    /// product file importing Foundation would link FoundationInternationalization and ICU's data (tens of MB,
    /// paged in by the first formatter) into it. Their names would be in the binary's symbol table.
    func testTheBinaryHoldsNeitherFoundationInternationalizationNorICUData() throws {
        if Self.sharedRuntime { throw XCTSkip("a sanitizer build: the runtime is not linked in (scripts/sanitize.sh)") }
        let binary = try Data(contentsOf: URL(fileURLWithPath: Paths.binary))
        XCTAssertGreaterThan(binary.count, 1 << 20)
        XCTAssertNotNil(binary.range(of: Data("FoundationEssentials".utf8)), "the runtime is expected linked in")
        for unwanted in ["FoundationInternationalization", "icudt", "FoundationNetworking"] {
            XCTAssertNil(binary.range(of: Data(unwanted.utf8)), "\(unwanted) is linked into \(Paths.binary)")
        }
    }
}
