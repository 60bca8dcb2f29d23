import Foundation
import XCTest

/// Issue 21, item 8: a save killed by SIGKILL leaves its temporary file; it stayed forever. The next
/// save, holding the vault's lock, removes every leftover of pwnvault's own name pattern, and nothing
/// else in the folder (VAULT_FORMAT §10).
final class SaveLeftoverEndToEndTests: XCTestCase {
    /// Names near pwnvault's pattern that are not it: never touched.
    static let foreign = [".vault.tmp-Ab12C", ".vault.tmp-Ab12Cde", ".vault.tmp-Ab_2Cd", ".vault2.tmp-Ab12Cd",
                          ".vault.watch.tmp-Ab12Cd", "vault.tmp-Ab12Cd", ".vault.tmp-Ab12Cd.keep"]

    private func names(_ folder: String) -> Set<String> {
        Set((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? [])
    }

    private func leftovers(_ folder: String) -> [String] {
        names(folder).filter { $0.range(of: #"^\.vault\.tmp-[A-Za-z0-9]{6}$"#, options: .regularExpression) != nil }.sorted()
    }

    private func plantForeign(in folder: String) {
        for name in Self.foreign {
            XCTAssertTrue(FileManager.default.createFile(atPath: folder + "/" + name, contents: Data("not pwnvault's".utf8)))
        }
    }

    private func accounts(_ s: Sandbox) throws -> Int {
        let r = s.run(["list", "--json"])
        XCTAssertEqual(r.status, 0, r.all)
        return try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [Any]).count
    }

    /// A real SIGKILL at the save's last step: strace (its `-e inject`) kills `add` at its second
    /// rename, the complete temporary file over the vault (the first put the backup's link in place),
    /// which is where a kill -9 leaves a leftover. The assertions below hold that this is so.
    func testASaveKilledAtItsRenameLeavesATemporaryFileThatTheNextSaveRemoves() throws {
        guard let strace = ["/usr/bin/strace", "/bin/strace"].first(where: FileManager.default.isExecutableFile) else {
            throw XCTSkip("strace is not installed (scripts/setup.sh installs it)")
        }
        let s = try Sandbox(inProcess: true)
        s.initVault()
        XCTAssertEqual(s.run(["add", "first@example.com"]).status, 0)
        let folder = (s.vault as NSString).deletingLastPathComponent
        let before = try Data(contentsOf: URL(fileURLWithPath: s.vault))
        plantForeign(in: folder)

        let renames = "rename,renameat,renameat2"
        let killed = Sandbox.exec(strace, ["-qq", "-f", "-o", "/dev/null", "-e", "trace=" + renames,
                                           "-e", "inject=\(renames):signal=SIGKILL:when=2", Paths.binary, "add", "second@example.com"],
                                  input: nil, environment: s.environment.merging(["PWNVAULT_PASSPHRASE_FILE": s.passphraseFile]) { $1 })
        if killed.stderr.contains("strace: ") && killed.stderr.contains("ptrace") {
            throw XCTSkip("strace cannot trace here: \(killed.stderr)")
        }
        XCTAssertNotEqual(killed.status, 0, "the save was not killed: \(killed.all)")
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: s.vault)), before, "the kill came before the rename")
        XCTAssertEqual(leftovers(folder).count, 1, "a killed save leaves its temporary file: \(names(folder))")

        XCTAssertEqual(s.run(["add", "third@example.com"]).status, 0)
        XCTAssertEqual(leftovers(folder), [], "the next save removed it")
        XCTAssertTrue(names(folder).isSuperset(of: Self.foreign), "a foreign file was removed: \(names(folder))")
        XCTAssertEqual(try accounts(s), 2, "first and third: the killed add never happened")
    }

    /// What a killed save leaves, planted as it would be (0600, vault bytes, named by the pattern,
    /// written just now: no age rule may keep it), beside files with similar names.
    func testPlantedLeftoversGoAtTheNextSaveAndSimilarNamesStay() throws {
        let s = try Sandbox(inProcess: true)
        s.initVault()
        let folder = (s.vault as NSString).deletingLastPathComponent
        let bytes = try Data(contentsOf: URL(fileURLWithPath: s.vault))
        let planted = [".vault.tmp-Ab12Cd", ".vault.tmp-zz9ZZ9", ".vault.tmp-000000"]
        for name in planted {
            XCTAssertTrue(FileManager.default.createFile(atPath: folder + "/" + name, contents: bytes, attributes: [.posixPermissions: 0o600]))
        }
        plantForeign(in: folder)
        XCTAssertEqual(leftovers(folder), planted.sorted())

        // Reading is no save: nothing is removed.
        XCTAssertEqual(s.run(["list"]).status, 0)
        XCTAssertEqual(leftovers(folder), planted.sorted())

        XCTAssertEqual(s.run(["add", "fourth@example.com"]).status, 0)
        XCTAssertEqual(leftovers(folder), [])
        XCTAssertTrue(names(folder).isSuperset(of: Self.foreign), "a foreign file was removed: \(names(folder))")
        for name in Self.foreign {
            XCTAssertEqual(try String(contentsOfFile: folder + "/" + name, encoding: .utf8), "not pwnvault's", name)
        }
        XCTAssertEqual(try accounts(s), 1)
    }
}
