@testable import PwnVaultCLI
import Foundation
import PwnVaultCore
import XCTest

/// Completion scripts offer every command and option, are valid in their shell, and bash's completes.
final class CompletionsTests: XCTestCase {
    func testEveryScriptNamesEveryCommandAndEachOfItsOptions() {
        for shell in Completions.Shell.allCases {
            let script = Completions.script(for: shell)
            for command in Commands.all {
                let spec = command.spec
                XCTAssertTrue(script.contains(spec.name), "\(shell): no \(spec.name)")
                for option in Completions.options(for: spec) {
                    let form = shell == .fish ? "-l \(option.name)" : "--\(option.name)"
                    XCTAssertTrue(script.contains(form), "\(shell): no --\(option.name) for \(spec.name)")
                }
            }
        }
    }

    func testVaultOptionsAreOfferedOnlyToCommandsThatOpenTheVault() {
        let vaultless = Commands.all.map { $0.spec }.filter { !$0.usesVault }
        XCTAssertFalse(vaultless.isEmpty)
        for spec in vaultless {
            XCTAssertFalse(Completions.options(for: spec).contains { $0.name == "vault" }, spec.name)
        }
        XCTAssertTrue(Completions.options(for: StatusCommand.spec).contains { $0.name == "vault" })
    }

    // MARK: bash, for real

    /// What `_pwnvault` puts in COMPREPLY for the words typed so far (the last one being completed).
    private func bashComplete(_ words: [String], cwd: String? = nil) throws -> [String] {
        guard let bash = ProgramRun.installed("bash") else { throw XCTSkip("bash is not installed") }
        let quoted = words.map { "'" + $0.replacingOccurrences(of: "'", with: #"'\''"#) + "'" }.joined(separator: " ")
        let script = Completions.script(for: .bash) + """
            \(cwd.map { "cd '\($0)' || exit 9" } ?? "")
            COMP_WORDS=(\(quoted)); COMP_CWORD=\(words.count - 1)
            _pwnvault
            printf '%s\\n' "${COMPREPLY[@]}"
            """
        let r = try ProgramRun.run(bash, ["--norc", "--noprofile", "-s"], input: script)
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertEqual(r.stderr, "")
        return r.stdout.split(separator: "\n").map(String.init).sorted()
    }

    func testBashCompletesCommandNames() throws {
        XCTAssertEqual(try bashComplete(["pwnvault", "li"]), ["list"])
        XCTAssertEqual(try bashComplete(["pwnvault", "do"]), ["doctor", "domain"])
        XCTAssertEqual(try bashComplete(["pwnvault", ""]).filter { !$0.hasPrefix("-") },
                       Commands.all.map { $0.spec.name }.sorted())
    }

    func testBashCompletesEachCommandsOptionsAndTheirValues() throws {
        XCTAssertEqual(try bashComplete(["pwnvault", "init", "--k"]), ["--kdf"])
        XCTAssertEqual(try bashComplete(["pwnvault", "init", "--kdf", ""]), ["interactive", "moderate", "sensitive"])
        XCTAssertEqual(try bashComplete(["pwnvault", "breaches", "--sort", "s"]), ["size"])
        XCTAssertEqual(try bashComplete(["pwnvault", "check", "--pa"]), ["--passphrase-fd", "--passphrase-file", "--pastes"])
        XCTAssertEqual(try bashComplete(["pwnvault", "breaches", "--pa"]), [], "breaches does not open the vault")
        XCTAssertEqual(try bashComplete(["pwnvault", "completions", ""]), ["bash", "fish", "zsh"])
        XCTAssertEqual(try bashComplete(["pwnvault", "help", "exit"]), ["exit-status"])
        XCTAssertEqual(try bashComplete(["pwnvault", "help", "ma"]), [], "the man topic is not advertised")
        XCTAssertEqual(try bashComplete(["pwnvault", "status", "-"]).count,
                       Completions.options(for: StatusCommand.spec).count + 1, "every option and -h")
    }

    func testBashCompletesFileNamesAfterPathOptions() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("pwnvault-compl-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        _ = FileManager.default.createFile(atPath: dir.appendingPathComponent("family.vault").path, contents: Data())
        XCTAssertEqual(try bashComplete(["pwnvault", "list", "--vault", "fam"], cwd: dir.path), ["family.vault"])
        XCTAssertEqual(try bashComplete(["pwnvault", "list", "--passphrase-file", "fa"], cwd: dir.path), ["family.vault"])
        XCTAssertEqual(try bashComplete(["pwnvault", "add", "fa"], cwd: dir.path), [], "accounts are not file names")
        // Where a file is expected without an option naming a PATH (issue 23): import's address book,
        // password's --offline FILE; and a global option's value before the command.
        _ = FileManager.default.createFile(atPath: dir.appendingPathComponent("contacts.vcf").path, contents: Data())
        XCTAssertEqual(try bashComplete(["pwnvault", "import", "con"], cwd: dir.path), ["contacts.vcf"])
        XCTAssertEqual(try bashComplete(["pwnvault", "import", "--pick", "con"], cwd: dir.path), ["contacts.vcf"])
        XCTAssertEqual(try bashComplete(["pwnvault", "import", "contacts.vcf", "con"], cwd: dir.path), [], "one address book")
        XCTAssertEqual(try bashComplete(["pwnvault", "password", "--offline", "con"], cwd: dir.path), ["contacts.vcf"])
        XCTAssertEqual(try bashComplete(["pwnvault", "--vault", "fam"], cwd: dir.path), ["family.vault"])
    }

    /// Global options may come before the command (`pwnvault --vault ~/v2 list`): completion skips them
    /// and their values to find the command, as git and gh do.
    func testBashCompletesAfterGlobalOptions() throws {
        XCTAssertEqual(try bashComplete(["pwnvault", "--vault", "/tmp/v2", "li"]), ["list"])
        XCTAssertEqual(try bashComplete(["pwnvault", "--vault=/tmp/v2", "--json", "li"]), ["list"])
        XCTAssertEqual(try bashComplete(["pwnvault", "--passphrase-fd", "3", "sta"]), ["status"])
        XCTAssertEqual(try bashComplete(["pwnvault", "--json", "init", "--kdf", "mo"]), ["moderate"])
        XCTAssertEqual(try bashComplete(["pwnvault", "--vault", "/tmp/v2", "completions", ""]), ["bash", "fish", "zsh"])
        XCTAssertTrue(try bashComplete(["pwnvault", "--"]).contains("--vault"), "global options before the command")
    }

    // MARK: zsh and fish: their own parsers

    func testZshAndFishAcceptTheirScripts() throws {
        var checked = 0
        for (shell, name, flag) in [(Completions.Shell.zsh, "zsh", "-n"), (.fish, "fish", "--no-execute")] {
            guard let path = ProgramRun.installed(name) else { continue }
            let dir = FileManager.default.temporaryDirectory.appendingPathComponent("pwnvault-\(name)-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: dir) }
            let file = dir.appendingPathComponent("pwnvault").path
            try Completions.script(for: shell).write(toFile: file, atomically: true, encoding: .utf8)
            let r = try ProgramRun.run(path, [flag, file])
            XCTAssertEqual(r.status, 0, "\(name) rejects its script: \(r.stderr)")
            XCTAssertEqual(r.stderr, "", name)
            checked += 1
        }
        if checked == 0 { throw XCTSkip("neither zsh nor fish is installed (scripts/setup.sh installs them)") }
    }

    func testFishCompletesCommandsAndOptions() throws {
        guard let fish = ProgramRun.installed("fish") else { throw XCTSkip("fish is not installed") }
        let script = Completions.script(for: .fish) + """

            complete -C 'pwnvault sta'
            echo ==
            complete -C 'pwnvault init --k'
            echo ==
            complete -C 'pwnvault completions '
            """
        let r = try ProgramRun.run(fish, ["--no-config", "-c", "source"], input: script,
                                   environment: ["HOME": NSTemporaryDirectory(), "PATH": "/usr/bin:/bin"])
        XCTAssertEqual(r.status, 0, r.stderr)
        let parts = r.stdout.components(separatedBy: "==\n").map { $0.split(separator: "\n").map { String($0.split(separator: "\t")[0]) } }
        XCTAssertEqual(parts.count, 3, r.stdout)
        XCTAssertEqual(parts[0], ["status"])
        XCTAssertEqual(parts[1], ["--kdf"])
        XCTAssertEqual(parts[2].sorted(), ["bash", "fish", "zsh"])
    }

    func testFishCompletesAfterGlobalOptionsAndFileNames() throws {
        guard let fish = ProgramRun.installed("fish") else { throw XCTSkip("fish is not installed") }
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("pwnvault-fish-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        _ = FileManager.default.createFile(atPath: dir.appendingPathComponent("contacts.vcf").path, contents: Data())
        let script = Completions.script(for: .fish) + """

            cd '\(dir.path)'
            complete -C 'pwnvault --vault /tmp/v2 sta'
            echo ==
            complete -C 'pwnvault --json init --k'
            echo ==
            complete -C 'pwnvault import con'
            echo ==
            complete -C 'pwnvault password --offline con'
            echo ==
            complete -C 'pwnvault add con'
            """
        let r = try ProgramRun.run(fish, ["--no-config", "-c", "source"], input: script,
                                   environment: ["HOME": NSTemporaryDirectory(), "PATH": "/usr/bin:/bin"])
        XCTAssertEqual(r.status, 0, r.stderr)
        let parts = r.stdout.components(separatedBy: "==\n").map { $0.split(separator: "\n").map { String($0.split(separator: "\t")[0]) } }
        XCTAssertEqual(parts.count, 5, r.stdout)
        XCTAssertEqual(parts[0], ["status"])
        XCTAssertEqual(parts[1], ["--kdf"])
        XCTAssertEqual(parts[2], ["contacts.vcf"])
        XCTAssertEqual(parts[3], ["contacts.vcf"])
        XCTAssertEqual(parts[4], [], "accounts are not file names")
    }

    /// zsh's script, run by zsh with its completion functions replaced by ones that print what they
    /// were asked: the command is found after global options, and each position gets the right action.
    func testZshFindsTheCommandAfterGlobalOptionsAndOffersFilesAndFindings() throws {
        guard let zsh = ProgramRun.installed("zsh") else { throw XCTSkip("zsh is not installed") }
        func complete(_ words: [String], prefix: String = "") throws -> String {
            let quoted = words.map { "'" + $0.replacingOccurrences(of: "'", with: #"'\''"#) + "'" }.joined(separator: " ")
            let script = """
                _describe() { print -r -- "describe $*" }
                _files() { print -r -- "files" }
                compadd() { print -r -- "compadd $*" }
                _arguments() { print -r -- "arguments $*" }
                words=(\(quoted)); CURRENT=\(words.count); PREFIX='\(prefix)'

                """ + Completions.script(for: .zsh)
            let r = try ProgramRun.run(zsh, ["-f", "-s"], input: script)
            XCTAssertEqual(r.status, 0, r.stderr)
            return r.stdout
        }
        XCTAssertTrue(try complete(["pwnvault", "li"]).hasPrefix("describe -t commands"))
        XCTAssertTrue(try complete(["pwnvault", "--vault", "/tmp/v2", "li"]).hasPrefix("describe -t commands"))
        XCTAssertEqual(try complete(["pwnvault", "--vault", ""]), "files\n", "the global option's value is a file")
        XCTAssertTrue(try complete(["pwnvault", "--", ""], prefix: "--").contains("compadd -- --help --version --vault"))
        let list = try complete(["pwnvault", "--vault", "/tmp/v2", "--json", "list", "--st"])
        XCTAssertTrue(list.hasPrefix("arguments -s") && list.contains("--status=[only accounts"), list)
        XCTAssertTrue(try complete(["pwnvault", "import", "con"]).contains("1:contacts.vcf:_files"))
        let ack = try complete(["pwnvault", "ack", "#1", ""])
        XCTAssertTrue(ack.contains("1:account|#id:_pwnvault_ids") && ack.contains("*:breach:_pwnvault_findings"), ack)
        XCTAssertTrue(try complete(["pwnvault", "password", "--offline", "c"]).contains("--offline=[search a downloaded Pwned Passwords file instead of the API]:file:_files"))
    }
}
