import Foundation
import Glibc
import XCTest
@testable import PwnVaultCore

/// The vault file on a real file system: atomic replace, backups, permissions, failures, locking.
/// Modes and contents are checked with libc and Foundation directly, not through the store.
final class VaultStoreTests: XCTestCase {
    private var root = ""          // plays $HOME, so paths show as ~/…
    private var immutableFolder: String?

    override func setUpWithError() throws {
        var template = Array("/tmp/pwnvault-store-XXXXXX".utf8CString)
        let made = template.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!) }
        root = String(cString: try XCTUnwrap(made))
    }

    override func tearDownWithError() throws {
        if let folder = immutableFolder { try runTool("/usr/bin/chattr", ["-i", folder]) }
        _ = chmodTree(root)
        try? FileManager.default.removeItem(atPath: root)
    }

    // MARK: Helpers

    private func makeStore(_ relative: String = "data/pwnvault/vault") throws -> VaultStore {
        VaultStore(location: try VaultLocation(path: root + "/" + relative, home: root))
    }

    private func permissions(_ path: String) -> UInt32? {
        var st = stat()
        guard lstat(path, &st) == 0 else { return nil }
        return UInt32(st.st_mode) & 0o7777
    }

    private func names(in folder: String) -> Set<String> {
        Set((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? [])
    }

    private func temporaryNames(in folder: String) -> [String] {
        names(in: folder).filter { $0.contains(".tmp-") }.sorted()
    }

    private func generation(_ n: Int, size: Int = 300) -> [UInt8] {
        (0..<size).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ n &* 7) }
    }

    private func withUmask<T>(_ mask: mode_t, _ body: () throws -> T) rethrows -> T {
        let old = umask(mask)
        defer { umask(old) }
        return try body()
    }

    private func assertThrows(_ expected: VaultStoreError, file: StaticString = #filePath, line: UInt = #line,
                              _ body: () throws -> Void) {
        do {
            try body()
            XCTFail("expected \(expected), nothing was thrown", file: file, line: line)
        } catch let error as VaultStoreError {
            XCTAssertEqual(error, expected, file: file, line: line)
        } catch {
            XCTFail("expected \(expected), got \(error)", file: file, line: line)
        }
    }

    @discardableResult
    private func runTool(_ tool: String, _ arguments: [String]) throws -> Int32 {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: tool)
        process.arguments = arguments
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        return process.terminationStatus
    }

    /// Makes every folder under `path` writable again so it can be removed.
    private func chmodTree(_ path: String) -> Bool {
        guard let walker = FileManager.default.enumerator(atPath: path) else { return false }
        chmod(path, 0o700)
        while let item = walker.nextObject() as? String {
            var st = stat()
            let full = path + "/" + item
            if lstat(full, &st) == 0 && (st.st_mode & S_IFMT) == S_IFDIR { chmod(full, 0o700) }
        }
        return true
    }

    /// Makes `folder` refuse new entries: chmod 0500 for ordinary users; root ignores modes, so for
    /// root the immutable attribute (chattr +i), which root obeys.
    private func makeReadOnly(_ folder: String) throws {
        if geteuid() != 0 {
            XCTAssertEqual(chmod(folder, 0o500), 0)
            return
        }
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/chattr"),
              try runTool("/usr/bin/chattr", ["+i", folder]) == 0 else {
            throw XCTSkip("running as root without chattr +i support: cannot make a folder read-only")
        }
        immutableFolder = folder
    }

    private func makeWritable(_ folder: String) throws {
        if let immutable = immutableFolder {
            try runTool("/usr/bin/chattr", ["-i", immutable])
            immutableFolder = nil
        } else {
            chmod(folder, 0o700)
        }
    }

    // MARK: Create and read

    func testCreateThenReadReturnsTheBytesWithPrivateModesWhateverTheUmask() throws {
        for (i, mask) in [mode_t(0o000), 0o022, 0o277, 0o777].enumerated() {
            let store = try makeStore("u\(i)/data/pwnvault/vault")
            let bytes = generation(i)
            try withUmask(mask) { try store.create(bytes) }
            XCTAssertEqual(try store.read(), bytes)
            XCTAssertEqual(permissions(store.path), 0o600, "vault, umask \(String(mask, radix: 8))")
            XCTAssertEqual(permissions(store.location.folder), 0o700, "folder, umask \(String(mask, radix: 8))")
            XCTAssertEqual(permissions(root + "/u\(i)/data"), 0o700, "created parent, umask \(String(mask, radix: 8))")
            XCTAssertEqual(names(in: store.location.folder), ["vault"])
            XCTAssertTrue(store.exists)
        }
    }

    func testCreateRefusesAnExistingVaultAndKeepsIt() throws {
        let store = try makeStore()
        try store.create(generation(1))
        assertThrows(.alreadyExists(path: "~/data/pwnvault/vault")) { try store.create(generation(2)) }
        XCTAssertEqual(try store.read(), generation(1))
        XCTAssertEqual(temporaryNames(in: store.location.folder), [])
    }

    func testAMissingVaultWithABackupSaysSoAndCreateNeverReplacesTheBackup() throws {
        let store = try makeStore()
        try store.create(generation(1))
        try store.withExclusiveLock { try store.replace(generation(2)) }   // vault.bak: generation 1
        XCTAssertEqual(unlink(store.path), 0)
        assertThrows(.notFoundButBackup(path: "~/data/pwnvault/vault", backup: "~/data/pwnvault/vault.bak")) { _ = try store.read() }
        assertThrows(.backupInTheWay(path: "~/data/pwnvault/vault", backup: "~/data/pwnvault/vault.bak")) { try store.create(generation(3)) }
        XCTAssertFalse(store.exists)
        XCTAssertEqual(try store.readBackup(), generation(1))
        XCTAssertEqual(VaultStoreError.notFoundButBackup(path: "~/v", backup: "~/v.bak").hint,
                       "restore it with: mv ~/v.bak ~/v (it holds the vault as it was before its last change)")
    }

    func testCreateRefusesAnythingAtThePathEvenADanglingLink() throws {
        let store = try makeStore("vault")
        XCTAssertEqual(symlink(root + "/nowhere", store.path), 0)
        assertThrows(.alreadyExists(path: "~/vault")) { try store.create(generation(1)) }
        XCTAssertFalse(FileManager.default.fileExists(atPath: root + "/nowhere"))
    }

    func testCreateRefusesAnExistingFolderOthersCanWrite() throws {
        let store = try makeStore("shared/vault")
        XCTAssertEqual(mkdir(root + "/shared", 0o700), 0)
        XCTAssertEqual(chmod(root + "/shared", 0o777), 0)
        assertThrows(.unsafeFolderPermissions(path: "~/shared", mode: 0o777)) { try store.create(generation(1)) }
        XCTAssertFalse(store.exists)
    }

    func testReadOfAMissingVaultSaysHowToCreateOne() throws {
        let store = try makeStore()
        XCTAssertFalse(store.exists)
        do {
            _ = try store.read()
            XCTFail("read succeeded without a vault")
        } catch let error as VaultStoreError {
            XCTAssertEqual(error, .notFound(path: "~/data/pwnvault/vault"))
            XCTAssertEqual(error.message, "no vault at ~/data/pwnvault/vault")
            XCTAssertEqual(error.hint, "create one with: pwnvault init")
            XCTAssertEqual(error.exitStatus, .vault)
        }
        XCTAssertNil(try store.readBackup())
    }

    // MARK: Unsafe permissions

    func testReadRefusesAVaultOthersCanWriteWithTheExactChmodCommand() throws {
        let store = try makeStore()
        try store.create(generation(1))
        XCTAssertEqual(chmod(store.path, 0o666), 0)
        do {
            _ = try store.read()
            XCTFail("read a vault with mode 0666")
        } catch let error as VaultStoreError {
            XCTAssertEqual(error, .unsafePermissions(path: "~/data/pwnvault/vault", mode: 0o666))
            XCTAssertEqual(error.message, "refusing to use ~/data/pwnvault/vault: other users can access it (mode 0666)")
            XCTAssertEqual(error.hint, "if nobody else changed it, make it private with: chmod 600 ~/data/pwnvault/vault")
            XCTAssertEqual(error.exitStatus, .vault)
        }
        XCTAssertEqual(chmod(store.path, 0o600), 0, "following the hint")
        XCTAssertEqual(try store.read(), generation(1))
    }

    func testReadRefusesAVaultOthersCanMerelyRead() throws {
        let store = try makeStore()
        try store.create(generation(1))
        XCTAssertEqual(chmod(store.path, 0o644), 0)
        assertThrows(.unsafePermissions(path: "~/data/pwnvault/vault", mode: 0o644)) { _ = try store.read() }
        XCTAssertEqual(chmod(store.path, 0o640), 0)
        assertThrows(.unsafePermissions(path: "~/data/pwnvault/vault", mode: 0o640)) { _ = try store.read() }
    }

    func testReadRefusesAFolderOthersCanWriteWithTheExactChmodCommand() throws {
        let store = try makeStore()
        try store.create(generation(1))
        XCTAssertEqual(chmod(store.location.folder, 0o777), 0)
        do {
            _ = try store.read()
            XCTFail("read from a folder with mode 0777")
        } catch let error as VaultStoreError {
            XCTAssertEqual(error, .unsafeFolderPermissions(path: "~/data/pwnvault", mode: 0o777))
            XCTAssertEqual(error.message,
                           "refusing to use the vault folder ~/data/pwnvault: other users can change it (mode 0777)")
            XCTAssertEqual(error.hint, "if nobody else changed it, make it private with: chmod 700 ~/data/pwnvault")
        }
        XCTAssertEqual(chmod(store.location.folder, 0o770), 0)
        assertThrows(.unsafeFolderPermissions(path: "~/data/pwnvault", mode: 0o770)) { _ = try store.read() }
        XCTAssertEqual(chmod(store.location.folder, 0o755), 0, "readable by others is fine for a folder")
        XCTAssertEqual(try store.read(), generation(1))
    }

    func testUnsafeFolderIsRefusedBeforeReplaceWritesAnything() throws {
        let store = try makeStore()
        try store.create(generation(1))
        XCTAssertEqual(chmod(store.location.folder, 0o777), 0)
        assertThrows(.unsafeFolderPermissions(path: "~/data/pwnvault", mode: 0o777)) { try store.replace(generation(2)) }
        XCTAssertEqual(names(in: store.location.folder), ["vault"])
    }

    func testHintQuotesPathsWithSpacesForTheShell() throws {
        let store = try makeStore("my vaults/it's here")
        try store.create(generation(1))
        XCTAssertEqual(chmod(store.path, 0o604), 0)
        do {
            _ = try store.read()
            XCTFail("read a vault with mode 0604")
        } catch let error as VaultStoreError {
            XCTAssertEqual(error.hint, "if nobody else changed it, make it private with: chmod 600 ~/'my vaults/it'\\''s here'")
        }
    }

    func testReadRefusesAVaultOrFolderOfAnotherUser() throws {
        guard geteuid() == 0 else { throw XCTSkip("changing a file's owner needs root") }
        let store = try makeStore()
        try store.create(generation(1))
        XCTAssertEqual(chown(store.path, 65534, 65534), 0)
        assertThrows(.notOwned(path: "~/data/pwnvault/vault", owner: 65534)) { _ = try store.read() }
        XCTAssertEqual(chown(store.path, 0, 0), 0)
        XCTAssertEqual(chown(store.location.folder, 65534, 65534), 0)
        assertThrows(.notOwned(path: "~/data/pwnvault", owner: 65534)) { _ = try store.read() }
    }

    func testReadRefusesASymbolicLinkAndAFifoWithoutHanging() throws {
        let store = try makeStore("vault")
        let target = root + "/elsewhere"
        XCTAssertTrue(FileManager.default.createFile(atPath: target, contents: Data(generation(1)),
                                                     attributes: [.posixPermissions: 0o600]))
        XCTAssertEqual(symlink(target, store.path), 0)
        assertThrows(.notARegularFile(path: "~/vault", what: "a symbolic link")) { _ = try store.read() }

        let fifoStore = try makeStore("fifo")
        XCTAssertEqual(mkfifo(fifoStore.path, 0o600), 0)
        assertThrows(.notARegularFile(path: "~/fifo", what: "a special file")) { _ = try fifoStore.read() }
    }

    func testReadRefusesAFileFarLargerThanAnyVault() throws {
        let store = try makeStore()
        try store.create(generation(1))
        XCTAssertEqual(truncate(store.path, off_t(VaultStore.maximumSize + 1)), 0)   // sparse: costs no disk
        assertThrows(.tooLarge(path: "~/data/pwnvault/vault", size: VaultStore.maximumSize + 1)) { _ = try store.read() }
    }

    // MARK: Replace

    func testReplaceKeepsThePreviousGenerationAsTheBackupAcrossGenerations() throws {
        let store = try makeStore()
        try store.create(generation(1))
        for n in 2...6 {
            let masks: [mode_t] = [0o000, 0o022, 0o277, 0o777]
            try withUmask(masks[n % masks.count]) { try store.replace(generation(n, size: 100 * n)) }
            XCTAssertEqual(try store.read(), generation(n, size: 100 * n))
            XCTAssertEqual(try store.readBackup(), generation(n - 1, size: n == 2 ? 300 : 100 * (n - 1)))
            XCTAssertEqual(permissions(store.path), 0o600)
            XCTAssertEqual(permissions(store.backupPath), 0o600)
            XCTAssertEqual(permissions(store.location.folder), 0o700)
            XCTAssertEqual(names(in: store.location.folder), ["vault", "vault.bak"])
        }
        var vault = stat(), backup = stat()
        XCTAssertEqual(stat(store.path, &vault), 0)
        XCTAssertEqual(stat(store.backupPath, &backup), 0)
        XCTAssertNotEqual(vault.st_ino, backup.st_ino, "the backup is a separate file, not the vault itself")
        XCTAssertEqual(vault.st_nlink, 1)
        XCTAssertEqual(backup.st_nlink, 1)
    }

    func testReplaceWithoutAVaultWritesOneAndNoBackup() throws {
        let store = try makeStore()
        try store.replace(generation(1))
        XCTAssertEqual(try store.read(), generation(1))
        XCTAssertNil(try store.readBackup())
        XCTAssertEqual(names(in: store.location.folder), ["vault"])
    }

    func testReplaceWithEmptyBytesWorks() throws {
        let store = try makeStore()
        try store.create(generation(1))
        try store.replace([])
        XCTAssertEqual(try store.read(), [])
        XCTAssertEqual(try store.readBackup(), generation(1))
    }

    func testFileSizeLimitMakesReplaceFailAndLeavesTheOldVaultAndNoTemporaryFile() throws {
        ProcessHygiene.harden()   // SIGXFSZ ignored: the limit becomes EFBIG instead of killing us
        let store = try makeStore()
        try store.create(generation(1, size: 1000))
        try store.replace(generation(2, size: 1000))

        var saved = rlimit()
        XCTAssertEqual(getrlimit(__rlimit_resource_t(RLIMIT_FSIZE.rawValue), &saved), 0)
        var small = rlimit(rlim_cur: 4096, rlim_max: saved.rlim_max)
        XCTAssertEqual(setrlimit(__rlimit_resource_t(RLIMIT_FSIZE.rawValue), &small), 0)
        var thrown: Error?
        do { try store.replace(generation(3, size: 100_000)) } catch { thrown = error }
        XCTAssertEqual(setrlimit(__rlimit_resource_t(RLIMIT_FSIZE.rawValue), &saved), 0)

        XCTAssertEqual(thrown as? VaultStoreError, .writeFailed(path: "~/data/pwnvault/vault", reason: "file too large"))
        XCTAssertEqual((thrown as? VaultStoreError)?.message, "could not save the vault at ~/data/pwnvault/vault: file too large")
        XCTAssertEqual((thrown as? VaultStoreError)?.hint, "the vault file on disk was not changed")
        XCTAssertEqual(try store.read(), generation(2, size: 1000))
        XCTAssertEqual(try store.readBackup(), generation(1, size: 1000))
        XCTAssertEqual(names(in: store.location.folder), ["vault", "vault.bak"])

        try store.replace(generation(4, size: 100_000))
        XCTAssertEqual(try store.read(), generation(4, size: 100_000), "works again once the limit is lifted")
    }

    func testReadOnlyFolderMakesReplaceFailAndLeavesTheVaultAsItWas() throws {
        let store = try makeStore()
        try store.create(generation(1))
        try store.replace(generation(2))
        try makeReadOnly(store.location.folder)
        var thrown: Error?
        do { try store.replace(generation(3)) } catch { thrown = error }
        try makeWritable(store.location.folder)

        guard case let .writeFailed(path, reason)? = thrown as? VaultStoreError else {
            return XCTFail("expected writeFailed, got \(String(describing: thrown))")
        }
        XCTAssertEqual(path, "~/data/pwnvault/vault")
        XCTAssertTrue(["permission denied", "operation not permitted", "read-only file system"].contains(reason), reason)
        XCTAssertEqual(try store.read(), generation(2))
        XCTAssertEqual(try store.readBackup(), generation(1))
        XCTAssertEqual(names(in: store.location.folder), ["vault", "vault.bak"])
    }

    /// A save killed between its two renames leaves the backup and the vault one file (two links).
    /// The next save's backup link is then renamed onto a link of the same file, which rename(2) does
    /// by doing nothing: the temporary link must not stay behind.
    func testReplaceLeavesNoTemporaryLinkWhenTheBackupIsAlreadyTheVault() throws {
        let store = try makeStore()
        try store.create(generation(1))
        try store.replace(generation(2))
        try FileManager.default.removeItem(atPath: store.backupPath)
        try FileManager.default.linkItem(atPath: store.path, toPath: store.backupPath)   // as the killed save left it
        try store.replace(generation(3))
        XCTAssertEqual(names(in: store.location.folder), ["vault", "vault.bak"])
        XCTAssertEqual(try store.read(), generation(3))
        XCTAssertEqual(try store.readBackup(), generation(2))
    }

    func testLeftoverTemporaryFilesAreRemovedOnTheNextReplaceWhateverTheirAgeAndNothingElse() throws {
        let store = try makeStore()
        try store.create(generation(1))
        let folder = store.location.folder
        func plant(_ name: String, folder isFolder: Bool = false) throws {
            let path = folder + "/" + name
            if isFolder {
                try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false)
            } else {
                XCTAssertTrue(FileManager.default.createFile(atPath: path, contents: Data([1, 2, 3])))
            }
        }
        // What saves killed a moment ago leave (just written: replace runs under the lock, so no live
        // save can own them), and a symbolic link of that name, which is not a file of ours.
        let leftovers = [".vault.tmp-Ab12Cd", ".vault.tmp-zz9ZZ9"]
        let others = [".vault.tmp-Ab12C", ".vault.tmp-Ab12Cde",     // not the pattern (5, 7 characters)
                      ".vault.tmp-Ab_2Cd", ".other.tmp-Ab12Cd",      // not the alphabet; another file's
                      ".vault.watch.tmp-Ab12Cd", "vault.tmp-Ab12Cd"]  // the run record's; no leading dot
        for name in leftovers + others { try plant(name) }
        try plant(".vault.tmp-Dir123", folder: true)                 // not a regular file
        try FileManager.default.createSymbolicLink(atPath: folder + "/.vault.tmp-Link12", withDestinationPath: folder + "/vault")
        let everything = Set(["vault", ".vault.tmp-Dir123", ".vault.tmp-Link12"] + leftovers + others)
        XCTAssertEqual(names(in: folder), everything)

        try store.replace(generation(2))
        XCTAssertEqual(names(in: folder), everything.subtracting(leftovers).union(["vault.bak"]))
        XCTAssertEqual(try store.read(), generation(2))
        XCTAssertEqual(try store.readBackup(), generation(1))
    }

    // MARK: Locking

    func testLockExcludesASecondLockerUntilTheFirstReleases() throws {
        let store = try makeStore()
        let holding = DispatchSemaphore(value: 0), release = DispatchSemaphore(value: 0), done = DispatchSemaphore(value: 0)
        let holder = Thread {
            do {
                try VaultStore(location: store.location).withExclusiveLock {
                    holding.signal()
                    release.wait()
                }
            } catch {
                XCTFail("the first locker failed: \(error)")
            }
            done.signal()
        }
        holder.start()
        holding.wait()

        do {
            try store.withExclusiveLock(timeout: .milliseconds(200)) { XCTFail("entered while another held the lock") }
            XCTFail("the second locker did not time out")
        } catch let error as VaultStoreError {
            XCTAssertEqual(error, .lockTimeout(path: "~/data/pwnvault/vault", seconds: 1))
            XCTAssertEqual(error.message, "another pwnvault is changing the vault at ~/data/pwnvault/vault (gave up after 1 s)")
            XCTAssertEqual(error.exitStatus, .vault)
        }

        release.signal()
        done.wait()
        let value = try store.withExclusiveLock(timeout: .milliseconds(200)) { 42 }
        XCTAssertEqual(value, 42)
        XCTAssertEqual(permissions(store.location.lockPath), 0o600)
        XCTAssertEqual(permissions(store.location.folder), 0o700)
    }

    func testAWaitingLockerEntersOnlyAfterTheHolderLeaves() throws {
        let store = try makeStore()
        let holding = DispatchSemaphore(value: 0), waiterDone = DispatchSemaphore(value: 0)
        let state = LockedFlag()
        let waiter = Thread {
            holding.wait()
            do {
                try store.withExclusiveLock { state.observed = state.holderLeft }
            } catch {
                XCTFail("the waiting locker failed: \(error)")
            }
            waiterDone.signal()
        }
        waiter.start()
        try store.withExclusiveLock {
            holding.signal()
            usleep(200_000)   // give the waiter time to start waiting; correctness does not depend on it
            state.holderLeft = true
        }
        waiterDone.wait()
        XCTAssertEqual(state.observed, true)
    }

    func testErrorsFromTheBodyPassThroughAndReleaseTheLock() throws {
        struct Boom: Error, Equatable {}
        let store = try makeStore()
        XCTAssertThrowsError(try store.withExclusiveLock { throw Boom() }) { XCTAssertEqual($0 as? Boom, Boom()) }
        XCTAssertEqual(try store.withExclusiveLock(timeout: .milliseconds(100)) { "again" }, "again")
    }

    func testConcurrentLockedIncrementsLoseNoUpdate() throws {
        let store = try makeStore()
        try store.create(Array("0".utf8))
        let threads = 8, rounds = 15
        let group = DispatchGroup()
        let failures = LockedFlag()
        for _ in 0..<threads {
            group.enter()
            Thread {
                for _ in 0..<rounds {
                    do {
                        let mine = VaultStore(location: store.location)   // its own lock descriptor each time
                        try mine.withExclusiveLock {
                            let current = Int(String(decoding: try mine.read(), as: UTF8.self))!
                            try mine.replace(Array(String(current + 1).utf8))
                        }
                    } catch {
                        failures.record(error)
                    }
                }
                group.leave()
            }.start()
        }
        group.wait()
        XCTAssertEqual(failures.errors, [])
        XCTAssertEqual(String(decoding: try store.read(), as: UTF8.self), String(threads * rounds))
        XCTAssertEqual(String(decoding: try XCTUnwrap(store.readBackup()), as: UTF8.self), String(threads * rounds - 1))
        XCTAssertEqual(temporaryNames(in: store.location.folder), [])
    }

    // MARK: Crash safety

    /// Kills a process that is saving the vault in a loop, at random instants, and checks that the
    /// vault always holds one complete generation and the backup the one before (or the same one,
    /// when the kill fell between keeping the backup and the rename). The saving process is this
    /// test binary running `testCrashHelperSavesForever`.
    func testKilledWhileSavingTheVaultHoldsACompleteGeneration() throws {
        let store = try makeStore()
        let executable = try XCTUnwrap(try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
        var killsMidRun = 0
        for round in 0..<10 {
            let marker = root + "/started-\(round)"
            let child = Process()
            child.executableURL = URL(fileURLWithPath: executable)
            child.arguments = ["PwnVaultCoreTests.VaultStoreTests/testCrashHelperSavesForever"]
            var environment = ProcessInfo.processInfo.environment
            environment[Self.crashVaultVariable] = store.path
            environment[Self.crashMarkerVariable] = marker
            environment[Self.crashHomeVariable] = root
            child.environment = environment
            child.standardOutput = FileHandle.nullDevice
            child.standardError = FileHandle.nullDevice
            try child.run()
            while !FileManager.default.fileExists(atPath: marker) && child.isRunning { usleep(5_000) }
            XCTAssertTrue(child.isRunning, "the saving child stopped by itself (status \(child.terminationStatus))")
            usleep(UInt32.random(in: 0...150_000))
            if child.isRunning { killsMidRun += 1 }
            kill(child.processIdentifier, SIGKILL)
            child.waitUntilExit()

            let vault = try store.read()
            let n = try XCTUnwrap(Self.decodeGeneration(vault), "round \(round): the vault is not a complete generation")
            if let backup = try store.readBackup() {
                let b = try XCTUnwrap(Self.decodeGeneration(backup), "round \(round): the backup is not a complete generation")
                XCTAssertTrue(b == n - 1 || b == n, "round \(round): backup \(b) for vault \(n)")
            }
        }
        XCTAssertGreaterThan(killsMidRun, 0)
        let before = try XCTUnwrap(Self.decodeGeneration(try store.read()))
        try store.replace(Self.encodeGeneration(before + 1))
        XCTAssertEqual(Self.decodeGeneration(try store.read()), before + 1, "saving works after the crashes")
    }

    static let crashVaultVariable = "PWNVAULT_TEST_CRASH_VAULT"
    static let crashMarkerVariable = "PWNVAULT_TEST_CRASH_MARKER"
    static let crashHomeVariable = "PWNVAULT_TEST_CRASH_HOME"

    /// Not a test on its own: the saving process for `testKilledWhileSavingTheVaultHoldsACompleteGeneration`.
    func testCrashHelperSavesForever() throws {
        let environment = ProcessInfo.processInfo.environment
        guard let path = environment[Self.crashVaultVariable], let marker = environment[Self.crashMarkerVariable] else {
            throw XCTSkip("runs only as the child of testKilledWhileSavingTheVaultHoldsACompleteGeneration")
        }
        try FileManager.default.removeItem(atPath: root)   // this process is killed: tearDown will not run
        let store = VaultStore(location: try VaultLocation(path: path, home: environment[Self.crashHomeVariable]))
        let parent = getppid()
        var n = store.exists ? (Self.decodeGeneration(try store.read()) ?? 0) : 0
        if !store.exists { try store.create(Self.encodeGeneration(n)) }
        while getppid() == parent {   // stop if the test that started us is gone
            n += 1
            try store.withExclusiveLock { try store.replace(Self.encodeGeneration(n)) }
            if !FileManager.default.fileExists(atPath: marker) {
                FileManager.default.createFile(atPath: marker, contents: nil)
            }
        }
    }

    /// Generation `n`: a header naming `n` and the length, then a fixed pattern with `n` stamped at
    /// the start of every 4 KiB block, so that a truncated file or a mix of two generations fails
    /// `decodeGeneration`. Sizes vary from 64 KiB to about 1 MiB. Cheap to build, so that the saving
    /// process spends its time writing, and random kills land inside writes.
    static func encodeGeneration(_ n: Int) -> [UInt8] {
        let size = 65_536 + (n * 104_729) % 983_040
        var bytes = Array("gen \(n) \(size)\n".utf8)
        let headerCount = bytes.count
        bytes += crashPattern[0..<size]
        bytes.withUnsafeMutableBytes { buffer in
            for offset in stride(from: headerCount, to: buffer.count - 8, by: 4096) {
                buffer.storeBytes(of: UInt64(n).littleEndian, toByteOffset: offset, as: UInt64.self)
            }
        }
        return bytes
    }

    private static let crashPattern: [UInt8] = (0..<1_048_576).map { UInt8(truncatingIfNeeded: ($0 &* 131) ^ ($0 >> 9)) }

    static func decodeGeneration(_ bytes: [UInt8]) -> Int? {
        guard let newline = bytes.prefix(64).firstIndex(of: 10) else { return nil }
        let header = String(decoding: bytes[..<newline], as: UTF8.self).split(separator: " ")
        guard header.count == 3, header[0] == "gen", let n = Int(header[1]), n >= 0 else { return nil }
        return encodeGeneration(n) == bytes ? n : nil
    }

    // MARK: Messages

    func testEveryMessageIsOneLowerCaseLine() {
        let errors: [VaultStoreError] = [
            .noLocation, .invalidPath(path: "", reason: "it is empty"), .notFound(path: "~/v"),
            .alreadyExists(path: "~/v"), .unsafePermissions(path: "~/v", mode: 0o644),
            .unsafeFolderPermissions(path: "~/d", mode: 0o777), .notOwned(path: "~/v", owner: 1000),
            .notARegularFile(path: "~/v", what: "a folder"), .notAFolder(path: "~/d"), .tooLarge(path: "~/v", size: 1),
            .readFailed(path: "~/v", reason: "input/output error"), .writeFailed(path: "~/v", reason: "no space left on device"),
            .syncFailed(path: "~/v", reason: "input/output error"), .lockTimeout(path: "~/v", seconds: 30),
            .lockFailed(path: "~/v", reason: "no locks available"),
            .notFoundButBackup(path: "~/v", backup: "~/v.bak"), .backupInTheWay(path: "~/v", backup: "~/v.bak"),
        ]
        for error in errors {
            let first = error.message.first!
            XCTAssertTrue(first.isLowercase || !first.isLetter, error.message)
            XCTAssertFalse(error.message.contains("\n"), error.message)
            XCTAssertFalse(error.hint?.contains("\n") ?? false)
        }
        XCTAssertEqual(VaultStoreError.noLocation.exitStatus, .usage)
        XCTAssertEqual(VaultStoreError.invalidPath(path: "", reason: "x").exitStatus, .usage)
    }
}

/// State shared between a test and its threads.
/// Unchecked: its mutable state is only touched with `lock` held.
private final class LockedFlag: @unchecked Sendable {
    private let lock = NSLock()
    private var _holderLeft = false, _observed: Bool?, _errors: [String] = []
    var holderLeft: Bool {
        get { lock.withLock { _holderLeft } }
        set { lock.withLock { _holderLeft = newValue } }
    }
    var observed: Bool? {
        get { lock.withLock { _observed } }
        set { lock.withLock { _observed = newValue } }
    }
    var errors: [String] { lock.withLock { _errors } }
    func record(_ error: Error) { lock.withLock { _errors.append(String(describing: error)) } }
}
