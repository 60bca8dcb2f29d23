import Foundation
import XCTest

/// Issue 11, on a pseudo-terminal: prompts re-ask as sudo does (three tries, one line of reason
/// each), `config api-key` tries the key before storing it, `remove` shows what goes and asks.
final class ConfirmEndToEndTests: XCTestCase {
    func testNewPassphrasePromptsAskAgainWithAReason() throws {
        let s = try Sandbox(inProcess: true, keyring: false)
        let good = "four unrelated words here"
        let r = s.runOnTerminal(["init", "--weak-passphrase-ok", "--kdf", "interactive"],
                                steps: [("New passphrase", "short\n"),
                                        ("try again (2 more attempts)", ""), ("New passphrase", "first passphrase typed\n"),
                                        ("Repeat it", "second passphrase typed\n"),
                                        ("try again (1 more attempt)", ""), ("New passphrase", good + "\n"), ("Repeat it", good + "\n")],
                                passphraseFromFile: false)
        XCTAssertEqual(r.status, 0, r.stdout)
        XCTAssertTrue(r.stdout.contains("the passphrase is too short"), r.stdout)
        XCTAssertTrue(r.stdout.contains("the two passphrases do not match; try again"), r.stdout)
        XCTAssertTrue(r.stdout.contains("created an empty vault"), r.stdout)
        XCTAssertFalse(r.stdout.contains(good), "never echoed")
    }

    func testAWrongPassphraseIsAskedAgainThreeTimesAtMost() throws {
        let s = try Sandbox(inProcess: true, keyring: false)
        s.initVault()
        let second = s.runOnTerminal(["list"], steps: [("Passphrase for", "not it\n"),
                                                       ("wrong passphrase; try again (2 more attempts)", ""),
                                                       ("Passphrase for", Sandbox.passphrase + "\n")], passphraseFromFile: false)
        XCTAssertEqual(second.status, 0, second.stdout)
        XCTAssertTrue(second.stdout.contains("the vault is empty"), second.stdout)
        let never = s.runOnTerminal(["list"], steps: [("Passphrase for", "one\n"), ("Passphrase for", "two\n"), ("Passphrase for", "three\n")],
                                    passphraseFromFile: false)
        XCTAssertEqual(never.status, 3, never.stdout)
        XCTAssertEqual(never.stdout.components(separatedBy: "Passphrase for").count - 1, 3, never.stdout)
        XCTAssertTrue(never.stdout.contains("error: wrong passphrase"), never.stdout)
        // A passphrase from a file is not retried: the same line would only be read again.
        let file = s.run(["list"], env: ["PWNVAULT_PASSPHRASE_FILE": s.writeFile("wrong", "nope\n")])
        XCTAssertEqual(file.status, 3, file.all)
        XCTAssertFalse(file.stderr.contains("try again"), file.stderr)
    }

    func testTheAPIKeyIsTriedOnceBeforeItIsStored() throws {
        let s = try Sandbox(inProcess: true)
        let server = try FakeHIBP()
        s.environment["PWNVAULT_API_URL"] = server.apiURL
        let refused = s.run(["config", "api-key"], input: "33333333333333333333333333333333\n")
        XCTAssertEqual(refused.status, 7, refused.all)
        XCTAssertTrue(refused.stderr.contains("refused that key (401: Access denied due to invalid hibp-api-key.); nothing was stored"),
                      "HIBP's cause, in its words: \(refused.stderr)")
        let removed = s.run(["config", "api-key", "--remove"])
        XCTAssertTrue(removed.stdout.contains("no HIBP API key was stored"), removed.all)

        let stored = s.run(["config", "api-key"], input: FakeHIBP.key + "\n")
        XCTAssertEqual(stored.status, 0, stored.all)
        XCTAssertTrue(stored.stdout.contains("stored the HIBP API key in the keyring: plan"), stored.stdout)
        XCTAssertTrue(stored.stdout.contains("6000 requests a minute"), stored.stdout)
        XCTAssertEqual(server.log().filter { ($0["path"] as? String)?.contains("subscription/status") == true }.count, 2)

        // Offline: only --no-verify stores it.
        let offline = ["PWNVAULT_API_URL": "http://127.0.0.1:9/api/v3"]
        let unreachable = s.run(["config", "api-key"], input: FakeHIBP.key + "\n", env: offline)
        XCTAssertEqual(unreachable.status, 6, unreachable.all)
        XCTAssertTrue(unreachable.stderr.contains("--no-verify"), unreachable.stderr)
        let noVerify = s.run(["config", "api-key", "--no-verify"], input: FakeHIBP.key + "\n", env: offline)
        XCTAssertEqual(noVerify.status, 0, noVerify.all)
        XCTAssertTrue(noVerify.stdout.contains("without trying it"), noVerify.stdout)

        // On a terminal a malformed or refused key is asked for again.
        let typed = s.runOnTerminal(["config", "api-key"], steps: [("HIBP API key", "not a key\n"),
                                                                   ("try again (2 more attempts)", ""),
                                                                   ("HIBP API key", "33333333333333333333333333333333\n"),
                                                                   ("try again (1 more attempt)", ""),
                                                                   ("HIBP API key", FakeHIBP.key + "\n")])
        XCTAssertEqual(typed.status, 0, typed.stdout)
        XCTAssertTrue(typed.stdout.contains("6000 requests a minute"), typed.stdout)
    }

    func testRemoveShowsWhatGoesAndAsksFirst() throws {
        let s = try Sandbox(inProcess: true, keyring: false)
        s.initVault()
        XCTAssertEqual(s.run(["add", "kim@example.com", "--label", "Kim (work)"]).status, 0)
        XCTAssertEqual(s.run(["add", "lee@example.com", "--label", "Lee"]).status, 0)
        let script = s.run(["remove", "1"])
        XCTAssertEqual(script.status, 2, script.all)
        XCTAssertTrue(script.stderr.contains("add --yes"), script.stderr)

        let no = s.runOnTerminal(["remove", "1", "--no-share"], steps: [("[y/N]", "n\n")])
        XCTAssertEqual(no.status, 0, no.stdout)
        XCTAssertTrue(no.stdout.contains("#1  k•••@e•••.com  Kim (work)"), no.stdout)
        XCTAssertTrue(no.stdout.contains("nothing was removed"), no.stdout)
        let shared = s.runOnTerminal(["remove", "1", "--share"], steps: [("[y/N]", "\n")])
        XCTAssertTrue(shared.stdout.contains("#1  Kim (work)") && !shared.stdout.contains("k•••m"), "share mode: label only: \(shared.stdout)")
        XCTAssertEqual(s.run(["list", "--json"]).stdout.components(separatedBy: "\"id\"").count - 1, 2)

        let yes = s.runOnTerminal(["remove", "%1", "--no-share"], steps: [("[y/N]", "y\n")])
        XCTAssertEqual(yes.status, 0, yes.stdout)
        XCTAssertTrue(yes.stdout.contains("removed #1  k•••@e•••.com  Kim (work)"), yes.stdout)
        let piped = s.run(["remove", "2", "--yes"])
        XCTAssertEqual(piped.stdout, "removed #2  Lee\n", "piped: id and label, never the account")
        let rows = try JSONSerialization.jsonObject(with: Data(s.run(["list", "--json"]).stdout.utf8)) as? [Any]
        XCTAssertEqual(rows?.count, 0)
    }

    func testCompletionsOfferIdsWithLabelsAndBreachNamesWithoutAsking() throws {
        let s = try Sandbox(inProcess: true)
        let server = try FakeHIBP()
        s.environment["PWNVAULT_API_URL"] = server.apiURL
        s.initVault()
        XCTAssertEqual(s.run(["add", "kim@example.com", "--label", "Kim (work)"]).status, 0)
        XCTAssertEqual(s.run(["add", "lee@example.com"]).status, 0)
        XCTAssertEqual(s.run(["breaches"]).status, 0)   // the catalog is cached; completion never fetches it
        let ids = s.run(["completions", "--list", "ids"], passphraseFromFile: false)
        XCTAssertEqual(ids.stdout, "#1\tKim (work)\n#2\n", "labels as descriptions, never an account")
        XCTAssertFalse(ids.all.contains("kim@") || ids.all.contains("lee@"), ids.all)
        let requests = server.log().count
        XCTAssertTrue(s.run(["completions", "--list", "breaches"]).stdout.contains("Adobe\n"))
        XCTAssertEqual(server.log().count, requests, "from the cache only")
        // Without the keyring there is nothing to offer, and nothing is asked (not even the file is read).
        let locked = s.run(["completions", "--list", "ids"], env: ["PWNVAULT_KEYRING": "none"])
        XCTAssertEqual(locked.status, 0, locked.all)
        XCTAssertEqual(locked.stdout, "")

        // bash, for real: ids bare or after an escaped #, breach names.
        let script = s.run(["completions", "bash"]).stdout
        func complete(_ words: [String]) -> [String] {
            let quoted = words.map { "'" + $0.replacingOccurrences(of: "'", with: #"'\''"#) + "'" }.joined(separator: " ")
            let r = Sandbox.exec("/bin/bash", ["--norc", "--noprofile", "-c",
                                               script + "\nCOMP_WORDS=(\(quoted)); COMP_CWORD=\(words.count - 1); _pwnvault; printf '%s\\n' \"${COMPREPLY[@]}\""],
                                 input: nil, environment: s.environment)
            return r.stdout.split(separator: "\n").map(String.init)
        }
        XCTAssertEqual(complete([Paths.binary, "show", ""]), ["1", "2"])
        XCTAssertEqual(complete([Paths.binary, "remove", "\\#"]), ["\\#1", "\\#2"])
        XCTAssertEqual(complete([Paths.binary, "breach", "Ado"]), ["Adobe"])
        XCTAssertEqual(complete([Paths.binary, "list", "--status", "br"]), ["breached"])
    }

    /// `ack ID <Tab>` offers the breaches that account was found in (issue 23), never a sensitive one,
    /// from the vault opened by the keyring and the cached catalog: nothing asked, nothing fetched.
    func testAckCompletesTheAccountsOwnBreachesNeverSensitiveOnes() throws {
        let server = try FakeHIBP(fixtures: """
        {"accounts": {"kim@example.com": {"breaches": ["Adobe", "Brightmere", "HushClinic"], "ownerVerified": true},
                      "lee@example.com": {"breaches": ["CopperKettle"], "ownerVerified": true}}}
        """)
        let s = try Sandbox(inProcess: true)
        s.use(server)
        s.initVault()
        XCTAssertEqual(s.run(["add", "kim@example.com"]).status, 0)
        XCTAssertEqual(s.run(["add", "lee@example.com"]).status, 0)
        XCTAssertEqual(s.run(["check", "--all"]).status, 1)
        let requests = server.log().count
        let listed = s.run(["completions", "--list", "breaches", "#1"], passphraseFromFile: false)
        XCTAssertEqual(listed.status, 0, listed.all)
        XCTAssertEqual(Set(listed.stdout.split(separator: "\n").map(String.init)), ["Adobe", "Brightmere"], "never HushClinic")
        XCTAssertEqual(s.run(["completions", "--list", "breaches", "#9"], passphraseFromFile: false).stdout, "", "no such id: nothing")
        XCTAssertEqual(server.log().count, requests, "nothing fetched")

        let script = s.run(["completions", "bash"]).stdout
        func complete(_ words: [String]) -> [String] {
            let quoted = words.map { "'" + $0.replacingOccurrences(of: "'", with: #"'\''"#) + "'" }.joined(separator: " ")
            let r = Sandbox.exec("/bin/bash", ["--norc", "--noprofile", "-c",
                                               script + "\nCOMP_WORDS=(\(quoted)); COMP_CWORD=\(words.count - 1); _pwnvault; printf '%s\\n' \"${COMPREPLY[@]}\""],
                                 input: nil, environment: s.environment)
            return r.stdout.split(separator: "\n").map(String.init).sorted()
        }
        XCTAssertEqual(complete([Paths.binary, "ack", ""]), ["1", "2"], "the account first")
        XCTAssertEqual(complete([Paths.binary, "ack", "\\#1", ""]), ["Adobe", "Brightmere"])
        XCTAssertEqual(complete([Paths.binary, "ack", "'#1'", "Bri"]), ["Brightmere"])
        XCTAssertEqual(complete([Paths.binary, "ack", "2", "Adobe", ""]), ["CopperKettle"])
        XCTAssertEqual(complete([Paths.binary, "--vault", s.vault, "ack", "1", "Hus"]), [], "never a sensitive name")
    }
}
