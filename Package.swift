// swift-tools-version:6.0
// pwnvault: no outside packages. The toolchain, Foundation, and Debian's C libraries only. The product's
// modules import FoundationEssentials (never Foundation, which loads ICU at start); tests may import Foundation.
import PackageDescription

// GLib, GIO and libsecret are loaded with dlopen at their first use (Sources/CGLibDeadline/include/pwv_dl.h),
// not linked: their headers only, from Debian's libsecret-1-dev and libglib2.0-dev. The paths are what
// `pkg-config --cflags libsecret-1 gio-2.0` says; a pkg-config system library would link them too.
#if arch(arm64)
let multiarch = "aarch64-linux-gnu"
#else
let multiarch = "x86_64-linux-gnu"
#endif
let glibHeaders: [CSetting] = [.unsafeFlags([
    "-I/usr/include/libsecret-1", "-I/usr/include/glib-2.0", "-I/usr/lib/\(multiarch)/glib-2.0/include",
    "-I/usr/include/gio-unix-2.0",
])]

// The Swift runtime is linked into the binary (below), except in sanitizer builds (scripts/sanitize.sh sets
// PWNVAULT_SHARED_SWIFT_RUNTIME): linked in, the runtime's `--exclude-libs ALL` also hides the sanitizer's
// malloc/free from the shared libraries, and ThreadSanitizer aborts on a free of glibc's memory.
let linkSwiftRuntime: [LinkerSetting] = Context.environment["PWNVAULT_SHARED_SWIFT_RUNTIME"] != nil ? [] :
    [.unsafeFlags(["-static-stdlib", "-l_FoundationCollections", "-l_FoundationCShims"])]

let package = Package(
    name: "pwnvault",
    products: [
        .executable(name: "pwnvault", targets: ["pwnvault"]),
        // libPwnVaultPhone.so: the libphonenumber shim, dlopen'ed at the first phone number (see CPhoneShim).
        // Beside the binary in .build, in PREFIX/lib/pwnvault after `make install`.
        .library(name: "PwnVaultPhone", type: .dynamic, targets: ["CPhoneShim"]),
    ],
    targets: [
        // C libraries from Debian, each imported by exactly one Swift file (GLib's only by the C shims).
        .systemLibrary(name: "CSodium", path: "Sources/CSodium",
                       pkgConfig: "libsodium", providers: [.apt(["libsodium-dev"])]),
        // Fixed-arity wrappers around libsecret (variadic calls, GLib cancellation and lock checks).
        .target(name: "CSecretShim", dependencies: ["CGLibDeadline"], path: "Sources/CSecretShim", cSettings: glibHeaders),
        // HTTP through libcurl, loaded with dlopen at the first request (no link, no -dev package):
        // commands that never go online never map libcurl and its TLS/Kerberos/LDAP libraries.
        .target(name: "CHTTPShim", path: "Sources/CHTTPShim", linkerSettings: [.linkedLibrary("dl")]),
        .target(name: "CSpawnShim", path: "Sources/CSpawnShim"),
        // glibc's iconv (libc6's gconv modules) for the character sets vCards name: errno mapped to return
        // codes, and open/convert/flush/close in one call so no iconv_t reaches Swift.
        .target(name: "CIconvShim", path: "Sources/CIconvShim"),
        // glibc's gettext for the messages (libintl is part of glibc): the text domain bound once, UTF-8 out.
        .target(name: "CIntlShim", path: "Sources/CIntlShim"),
        // Phone numbers to E.164 with Debian's libphonenumber (C++, libphonenumber-dev), behind a fixed-arity
        // extern "C" API (include/pwv_phone.h). No target depends on it: it is built only as the
        // PwnVaultPhone product, which links libphonenumber (and through it ICU, protobuf, abseil), so the
        // executable never names them and `list` or `add -` never maps them.
        // SwiftPM links every product with swiftc, which would add the Swift runtime to a C++ library: swiftrt.o
        // (-nostartfiles leaves it out) and libswiftCore.so with the toolchain's rpath (-static-stdlib names the
        // runtime's archives instead, from which nothing is taken). The process already runs the runtime that
        // is linked into the binary; a second one, from the toolchain, must never be loaded beside it.
        // -soname: without one, the linker names the library's base version definition after its output
        // path in .build, which put the build folder into the installed file (and made the Debian package's
        // bytes depend on where it was built: scripts/test-deb.sh checks both).
        .target(name: "CPhoneShim", path: "Sources/CPhoneShim",
                linkerSettings: [.linkedLibrary("phonenumber"), .unsafeFlags(["-nostartfiles", "-static-stdlib",
                                                                              "-Xlinker", "-soname=libPwnVaultPhone.so"])]),
        // GIO's GDBus (Debian's libglib2.0-dev) for desktop notifications, called through a fixed-arity
        // shim (GVariant constructors are variadic; one deadline per call).
        .target(name: "CNotifyShim", dependencies: ["CGLibDeadline"], path: "Sources/CNotifyShim", cSettings: glibHeaders),
        // The shims' deadline for synchronous GLib calls (a thread that cancels a GCancellable), and the
        // loader that dlopens GLib/GIO/libsecret at the first call (pwv_dl.h). C only.
        .target(name: "CGLibDeadline", path: "Sources/CGLibDeadline", cSettings: glibHeaders,
                linkerSettings: [.linkedLibrary("dl"), .linkedLibrary("pthread")]),

        // The product: vault, crypto, keyring, HIBP, screen, desktop alerts, schedules. Never prints, never exits.
        .target(name: "PwnVaultCore", dependencies: ["CSodium", "CSecretShim", "CNotifyShim", "CHTTPShim", "CSpawnShim", "CIconvShim", "CIntlShim"], path: "Sources/PwnVaultCore"),
        // Argument reading, help, one file per command, console output.
        .target(name: "PwnVaultCLI", dependencies: ["PwnVaultCore"], path: "Sources/PwnVaultCLI"),
        // `exit(CLI.run(...))`, nothing else.
        // The Swift runtime (standard library, FoundationEssentials, Dispatch) linked into the binary, not
        // loaded from the toolchain: the loader maps and relocates a few pages of it instead of every page of
        // six shared objects (issue 10: peak memory of `list` 20.5 → 16.8 MiB, `--version` 4.4 → 2.9 ms),
        // and the binary runs without the toolchain's lib/swift on the machine.
        .executableTarget(name: "pwnvault", dependencies: ["PwnVaultCLI"], path: "Sources/pwnvault",
                          linkerSettings: linkSwiftRuntime),

        // Test helpers shared by the test targets (the tmux harness, the recording notification server).
        .target(name: "TestSupport", path: "Tests/TestSupport"),
        .testTarget(name: "PwnVaultCoreTests", dependencies: ["PwnVaultCore", "TestSupport"], path: "Tests/PwnVaultCoreTests"),
        .testTarget(name: "PwnVaultCLITests", dependencies: ["PwnVaultCLI", "PwnVaultCore", "TestSupport"], path: "Tests/PwnVaultCLITests"),
        // Runs the built binary against a real keyring, real terminals and a fake HIBP server on loopback.
        // (PwnVaultCore only to seed vaults as older versions wrote them, e.g. a label that holds an address.)
        // No dependency on the executable target: it would link pwnvault's module, and with it its static Swift
        // runtime, into the test bundle beside the shared Foundation; `swift build --build-tests` builds the
        // binary anyway (it builds every product).
        // PwnVaultCLI for the command lines run in-process (Support/InProcessRun.swift): the library, not the binary.
        .testTarget(name: "EndToEndTests", dependencies: ["PwnVaultCore", "PwnVaultCLI", "TestSupport"], path: "Tests/EndToEndTests"),
    ],
    swiftLanguageModes: [.v6]
)
