import Foundation
import XCTest

/// `pwnvault schedule` run by the real binary in a throw-away HOME and XDG_CONFIG_HOME: the units it
/// writes are checked by systemd's own `systemd-analyze verify`, the service's command line is read
/// back by systemd's quoting rules and run by hand, and `disable` is held to removing exactly what
/// `enable` wrote. There is no systemd user manager in the test session (nor in CI, and none can be
/// started in a container): a stand-in `systemctl` on PATH (`FakeSystemctl`) answers as a running
/// manager would, records what it was asked, and says what systemctl says when none runs. The units
/// are still checked by systemd's own `systemd-analyze verify`, and one test meets the real systemctl.
final class ScheduleEndToEndTests: XCTestCase {
    var s: Sandbox!
    /// A vault path with everything systemd and the shell treat specially: spaces, %, $, quotes, a backslash.
    var vault: String!
    var systemctl: FakeSystemctl!

    override func setUpWithError() throws {
        s = try Sandbox(inProcess: true)
        systemctl = try FakeSystemctl(in: s.dir.appendingPathComponent("fake-systemd"))
        s.environment["PATH"] = systemctl.bin + ":" + (s.environment["PATH"] ?? "/usr/bin:/bin")
        let folder = s.dir.appendingPathComponent("My Vaults/100% \"family\" $HOME's \\ stuff")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        vault = folder.appendingPathComponent("family vault").path
        let made = s.run(["init", "--weak-passphrase-ok", "--kdf", "interactive", "--vault", vault])
        XCTAssertEqual(made.status, 0, made.all)
        // The per-user bus that outlives logins, which the crontab route needs: a socket at $XDG_RUNTIME_DIR/bus.
        let runtime = s.dir.appendingPathComponent("run")
        try FileManager.default.createDirectory(at: runtime, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        try Self.makeSocket(runtime.appendingPathComponent("bus").path)
        s.environment["XDG_RUNTIME_DIR"] = runtime.path
    }

    /// A Unix socket bound at `path` (nothing listens: only its existence matters here).
    static func makeSocket(_ path: String) throws {
        let made = Sandbox.exec("/usr/bin/python3", ["-c", "import socket, sys; socket.socket(socket.AF_UNIX).bind(sys.argv[1])", path],
                                input: nil, environment: ["PATH": "/usr/bin:/bin"])
        XCTAssertEqual(made.status, 0, made.all)
    }

    override func tearDown() { s = nil; systemctl = nil }

    var unitFolder: String { s.home.appendingPathComponent(".config/systemd/user").path }
    var servicePath: String { unitFolder + "/pwnvault-watch.service" }
    var timerPath: String { unitFolder + "/pwnvault-watch.timer" }
    /// The binary the service must run: the built one, symbolic links resolved (as /proc/self/exe has it).
    var binary: String { URL(fileURLWithPath: Paths.binary).resolvingSymlinksInPath().path }

    private func read(_ path: String) -> String { (try? String(contentsOfFile: path, encoding: .utf8)) ?? "" }
    private func mode(_ path: String) -> Int {
        ((try? FileManager.default.attributesOfItem(atPath: path)[.posixPermissions]) as? NSNumber)?.intValue ?? -1
    }
    private func files(in folder: String) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).sorted()
    }

    /// `ExecStart=`'s words, read by systemd's rules for command lines (systemd.service(5), "Command
    /// lines"): words split at spaces, double-quoted words with C escapes, `%%` for `%`, `$$` for `$`.
    /// Written here apart from pwnvault's own quoting, so the two can disagree.
    static func execStartWords(_ unit: String) throws -> [String] {
        let line = try XCTUnwrap(unit.split(separator: "\n").first { $0.hasPrefix("ExecStart=") }, "no ExecStart= in\n\(unit)")
        var words: [String] = [], word = "", inWord = false, quoted = false
        var chars = Array(line.dropFirst("ExecStart=".count))
        chars.append(" ")
        var i = 0
        while i < chars.count {
            let c = chars[i]
            if quoted {
                if c == "\\" { i += 1; word.append(chars[i]) } else if c == "\"" { quoted = false } else { word.append(c) }
            } else if c == " " {
                if inWord { words.append(word); word = ""; inWord = false }
            } else if c == "\"" {
                quoted = true; inWord = true
            } else {
                word.append(c); inWord = true
            }
            i += 1
        }
        XCTAssertFalse(quoted, "an unterminated quote in \(line)")
        // Specifiers and variables are expanded after splitting: %% and $$ stand for themselves.
        return words.map { $0.replacingOccurrences(of: "%%", with: "%").replacingOccurrences(of: "$$", with: "$") }
    }

    private func systemdAnalyze() throws -> String {
        guard let path = ["/usr/bin/systemd-analyze", "/bin/systemd-analyze"].first(where: FileManager.default.isExecutableFile) else {
            throw XCTSkip("systemd-analyze is not installed (Debian's systemd package; scripts/setup.sh installs it)")
        }
        return path
    }

    // MARK: enable

    func testEnableWritesTwoUnitsThatSystemdAcceptsAndThatRunThisBinaryOnThisVault() throws {
        XCTAssertFalse(FileManager.default.fileExists(atPath: s.home.appendingPathComponent(".config").path))
        let r = s.run(["schedule", "enable", "--every", "6h", "--vault", vault])
        XCTAssertEqual(r.status, 0, r.all)
        XCTAssertTrue(r.stdout.hasPrefix("wrote ~/.config/systemd/user/pwnvault-watch.service\nwrote ~/.config/systemd/user/pwnvault-watch.timer\n"),
                      r.stdout)
        XCTAssertEqual(files(in: unitFolder), ["pwnvault-watch.service", "pwnvault-watch.timer"])
        XCTAssertEqual(mode(servicePath), 0o644)
        XCTAssertEqual(mode(timerPath), 0o644)
        for folder in [".config", ".config/systemd", ".config/systemd/user"] {
            XCTAssertEqual(mode(s.home.appendingPathComponent(folder).path), 0o700, folder)
        }

        let service = read(servicePath), timer = read(timerPath)
        XCTAssertEqual(try Self.execStartWords(service), [binary, "watch", "--notify", "--vault", vault])
        XCTAssertTrue(service.hasPrefix("# pwnvault-schedule every=6h\n"), service)
        XCTAssertTrue(timer.hasPrefix("# pwnvault-schedule every=6h\n"), timer)
        for line in ["Type=oneshot", "NoNewPrivileges=yes", "UMask=0077"] {
            XCTAssertTrue(service.contains("\n\(line)\n"), "no \(line) in\n\(service)")
        }
        for line in ["OnCalendar=*-*-* 00/6:00:00", "Persistent=true", "RandomizedDelaySec=1h", "Unit=pwnvault-watch.service",
                     "WantedBy=timers.target"] {
            XCTAssertTrue(timer.contains("\n\(line)\n"), "no \(line) in\n\(timer)")
        }
        // Nothing that could be a secret: only the program, the vault's path, the period.
        XCTAssertFalse(service.contains("HIBP_API_KEY") || service.contains("PASSPHRASE") || service.contains("Environment"), service)

        // systemd's own check of both units (it also checks that ExecStart's program exists and is executable).
        let runtime = s.dir.appendingPathComponent("runtime")
        try FileManager.default.createDirectory(at: runtime, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        let verified = Sandbox.exec(try systemdAnalyze(), ["--user", "verify", servicePath, timerPath], input: nil,
                                    environment: s.environment.merging(["XDG_RUNTIME_DIR": runtime.path]) { $1 })
        XCTAssertEqual(verified.status, 0, verified.all)
        XCTAssertEqual(verified.all, "", "systemd-analyze verify warned")
    }

    /// The check is honest: a unit systemd would reject makes `verify` fail.
    func testSystemdAnalyzeRejectsAServiceWhoseProgramIsMissing() throws {
        XCTAssertEqual(s.run(["schedule", "enable", "--vault", vault]).status, 0)
        let broken = read(servicePath).replacingOccurrences(of: "ExecStart=" + binary, with: "ExecStart=" + binary + "-missing")
        XCTAssertNotEqual(broken, read(servicePath))
        try broken.write(toFile: servicePath, atomically: true, encoding: .utf8)
        let runtime = s.dir.appendingPathComponent("runtime")
        try FileManager.default.createDirectory(at: runtime, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        let verified = Sandbox.exec(try systemdAnalyze(), ["--user", "verify", servicePath], input: nil,
                                    environment: s.environment.merging(["XDG_RUNTIME_DIR": runtime.path]) { $1 })
        XCTAssertNotEqual(verified.status, 0, verified.all)
    }

    func testEachPeriodBecomesACalendarTimeSystemdAccepts() throws {
        let expected = ["1h": ("*-*-* *:00:00", "15min", "1h"), "2h": ("*-*-* 00/2:00:00", "30min", "2h"),
                        "12h": ("*-*-* 00/12:00:00", "1h", "12h"), "24h": ("*-*-* 00:00:00", "1h", "1d"),
                        "1d": ("*-*-* 00:00:00", "1h", "1d"), "7d": ("Mon *-*-* 00:00:00", "1h", "7d"),
                        "1w": ("Mon *-*-* 00:00:00", "1h", "7d")]
        let analyze = try systemdAnalyze()
        for (every, (calendar, delay, normalized)) in expected.sorted(by: { $0.key < $1.key }) {
            let r = s.run(["schedule", "enable", "--every", every, "--vault", vault])
            XCTAssertEqual(r.status, 0, "\(every): \(r.all)")
            let timer = read(timerPath)
            XCTAssertTrue(timer.hasPrefix("# pwnvault-schedule every=\(normalized)\n"), "\(every):\n\(timer)")
            XCTAssertTrue(timer.contains("\nOnCalendar=\(calendar)\n"), "\(every):\n\(timer)")
            XCTAssertTrue(timer.contains("\nRandomizedDelaySec=\(delay)\n"), "\(every):\n\(timer)")
            let parsed = Sandbox.exec(analyze, ["calendar", calendar], input: nil, environment: s.environment)
            XCTAssertEqual(parsed.status, 0, parsed.all)
        }
        let status = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(s.run(["schedule", "status", "--json"]).stdout.utf8)) as? [String: Any])
        XCTAssertEqual(status["every"] as? String, "7d", "enable again replaces pwnvault's own units")
    }

    func testEveryIsValidatedWithOneLineAndAHint() throws {
        for bad in ["30m", "0h", "5h", "2d", "14d", "1.5h", "", "daily", "-1h", "h"] {
            let r = s.run(["schedule", "enable", "--every", bad, "--vault", vault])
            XCTAssertEqual(r.status, 2, "\(bad): \(r.all)")
            XCTAssertEqual(r.stdout, "", bad)
            let lines = r.stderr.split(separator: "\n")
            XCTAssertEqual(lines.count, 2, "\(bad): \(r.stderr)")
            XCTAssertTrue(lines.first?.hasPrefix("pwnvault: error: invalid value for '--every'") == true, r.stderr)
            XCTAssertEqual(lines.last.map(String.init),
                           "pwnvault: hint: use one of 1h, 2h, 3h, 4h, 6h, 8h, 12h, 1d or 7d, e.g. 'pwnvault schedule enable --every 6h'")
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: unitFolder), "nothing is written for a bad period")
        let misplaced = s.run(["schedule", "status", "--every", "1d"])
        XCTAssertEqual(misplaced.status, 2, misplaced.all)
        XCTAssertTrue(misplaced.stderr.hasPrefix("pwnvault: error: --every goes with 'schedule enable' only\npwnvault: hint: "), misplaced.stderr)
        let unknown = s.run(["schedule", "start"])
        XCTAssertEqual(unknown.status, 2, unknown.all)
        XCTAssertTrue(unknown.stderr.contains("it is enable, disable or status"), unknown.stderr)
    }

    func testEnableRefusesAVaultThatDoesNotExist() throws {
        let missing = s.dir.appendingPathComponent("nowhere/vault").path
        let r = s.run(["schedule", "enable", "--vault", missing])
        XCTAssertEqual(r.status, 4, r.all)
        XCTAssertTrue(r.stderr.hasPrefix("pwnvault: error: there is no vault at "), r.stderr)
        XCTAssertTrue(r.stderr.contains("pwnvault: hint: create it with 'pwnvault init'"), r.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: unitFolder))
    }

    // MARK: without a user manager

    /// Issue 32: after 'schedule enable' found no user manager, 'schedule status' does not send the user
    /// back to 'schedule enable' (which would install nothing again) but ends with the way that works:
    /// the crontab line, running the same command as the one enable printed.
    func testWithoutAUserManagerStatusEndsWithTheCrontabLineNotWithEnable() throws {
        systemctl.down("Failed to get properties: Process org.freedesktop.systemd1 exited with status 1")
        let enable = s.run(["schedule", "enable", "--vault", vault])
        XCTAssertEqual(enable.status, 8, enable.all)
        let status = s.run(["schedule", "status", "--vault", vault])
        XCTAssertEqual(status.status, 0, status.all)
        XCTAssertFalse(status.stderr.contains("install it with 'pwnvault schedule enable'"), status.all)
        XCTAssertTrue(status.stderr.contains("add this line with 'crontab -e'"), status.all)
        let command = { (line: String) in line.split(separator: " ", maxSplits: 5).last.map(String.init) ?? "" }
        let enabled = try XCTUnwrap(enable.stdout.split(separator: "\n").last.map(String.init))
        let shown = try XCTUnwrap(status.stdout.split(separator: "\n").last.map(String.init))
        XCTAssertEqual(command(shown), command(enabled), "the same command, every day: \(status.all)")
    }

    func testWithoutAUserManagerEnableInstallsNothingAndPrintsACrontabLineThatRunsTheSameCommand() throws {
        systemctl.down("Failed to get properties: Process org.freedesktop.systemd1 exited with status 1")
        let r = s.run(["schedule", "enable", "--every", "6h", "--vault", vault])
        XCTAssertEqual(r.status, 8, "not a success: nothing was installed; \(r.all)")
        XCTAssertEqual(files(in: unitFolder), [], "no unit that nothing would start")
        XCTAssertEqual(systemctl.calls(), ["--user --no-pager show --property=Version --value"], "only asked whether a manager runs")
        XCTAssertTrue(r.stderr.hasPrefix("""
            pwnvault: nothing was installed: the session bus has no systemd user manager behind it (the bus was started without systemd)
            pwnvault: hint: run 'loginctl enable-linger' once
            """), r.stderr)
        XCTAssertTrue(r.stderr.contains("add this line with 'crontab -e'"), r.stderr)
        XCTAssertFalse(r.all.contains("org.freedesktop") || r.all.contains("Process ") || r.all.contains("exited with status 1"),
                       "systemctl's words are translated: \(r.all)")
        let line = try XCTUnwrap(r.stdout.split(separator: "\n").last.map(String.init))
        XCTAssertEqual(r.stdout, line + "\n", "stdout holds the crontab line alone")
        let fields = line.split(separator: " ", maxSplits: 5).map(String.init)
        XCTAssertEqual(fields.count, 6, line)
        let minute = try XCTUnwrap(Int(fields[0]), line)
        XCTAssertTrue((0..<60).contains(minute), line)
        XCTAssertNotNil(fields[1].range(of: #"^[0-5]-23/6$"#, options: .regularExpression), line)
        XCTAssertEqual(Array(fields[2...4]), ["*", "*", "*"], line)

        // What cron would run: `\%` becomes `%`, then /bin/sh reads the rest. Have sh print the words.
        let command = fields[5].replacingOccurrences(of: "\\%", with: "%")
        let words = Sandbox.exec("/bin/sh", ["-c", "set -- \(command); printf '%s\\n' \"$@\""], input: nil, environment: ["PATH": "/usr/bin:/bin"])
        XCTAssertEqual(words.status, 0, words.all)
        var argv = words.stdout.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map(String.init)
        let bus = "unix:path=" + s.dir.appendingPathComponent("run/bus").path
        XCTAssertNotEqual(bus, s.environment["DBUS_SESSION_BUS_ADDRESS"], "not this login's bus: it goes stale")
        XCTAssertEqual(argv.first, "DBUS_SESSION_BUS_ADDRESS=" + bus, "cron gets the bus that outlives logins, or the keyring is out of reach")
        argv.removeFirst()
        XCTAssertEqual(argv, [binary, "watch", "--notify", "--vault", vault])

        let json = s.run(["schedule", "enable", "--every", "6h", "--vault", vault, "--json"])
        XCTAssertEqual(json.status, 8, json.all)
        let report = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        XCTAssertEqual(report["installed"] as? Bool, false)
        XCTAssertEqual(report["timerEnabled"] as? Bool, false)
        let jsonLine = try XCTUnwrap(report["crontab"] as? String)
        XCTAssertEqual(jsonLine.split(separator: " ", maxSplits: 5).last, line.split(separator: " ", maxSplits: 5).last,
                       "the same command (the minute and hour are drawn afresh)")
        XCTAssertNil(report["service"])
        XCTAssertTrue((report["manager"] as? String)?.hasPrefix("not running: the session bus has no systemd user manager") == true, "\(report)")
        XCTAssertTrue((report["managerHint"] as? String)?.contains("loginctl enable-linger") == true, "\(report)")
        XCTAssertFalse(json.all.contains("org.freedesktop"), json.all)
        XCTAssertEqual(files(in: unitFolder), [])

        // The crontab line and the service that a running manager gets run the same command.
        systemctl.up()
        XCTAssertEqual(s.run(["schedule", "enable", "--every", "6h", "--vault", vault]).status, 0)
        XCTAssertEqual(argv, try Self.execStartWords(read(servicePath)))
    }

    /// Whatever the real systemctl of this machine says without a user manager (the test session's bus
    /// has none; a machine without systemctl says that), none of its words reach the user.
    func testTheRealSystemctlsWordsAreTranslatedToo() throws {
        var path = s.environment["PATH"] ?? ""
        path = path.split(separator: ":").filter { $0 != Substring(systemctl.bin) }.joined(separator: ":")
        let r = s.run(["schedule", "enable", "--vault", vault], env: ["PATH": path])
        guard r.status == 8 else {
            XCTAssertNotEqual(r.status, 0, r.all)
            throw XCTSkip("a user manager answers here; this test needs a machine without one: \(r.all)")
        }
        XCTAssertEqual(files(in: unitFolder), [])
        let said = try XCTUnwrap(r.stderr.split(separator: "\n").first.map(String.init))
        XCTAssertTrue(said.hasPrefix("pwnvault: nothing was installed: "), r.stderr)
        XCTAssertTrue(r.stderr.contains("\npwnvault: hint: "), r.stderr)
        for raw in ["org.freedesktop", "Failed to", "No medium", ".service files", "systemctl --user:"] {
            XCTAssertFalse(r.stderr.contains(raw), "systemctl's words (\(raw)): \(r.stderr)")
        }
    }

    func testWithoutABusThatOutlivesTheLoginTheCrontabRouteIsRefusedWithTheReason() throws {
        systemctl.down("Failed to connect to bus: No medium found")
        let cases: [([String: String], String)] = [
            (["XDG_RUNTIME_DIR": s.dir.path], "there is no session bus socket at \(s.dir.path)/bus"),
            (["XDG_RUNTIME_DIR": ""], "XDG_RUNTIME_DIR is not set"),
        ]
        for (env, reason) in cases {
            let r = s.run(["schedule", "enable", "--vault", vault], env: env)
            XCTAssertEqual(r.status, 5, r.all)
            XCTAssertEqual(r.stdout, "", "no crontab line: \(r.all)")
            XCTAssertTrue(r.stderr.contains("pwnvault: error: no systemd user manager is running, and a cron job could not reach the keyring: \(reason)"), r.stderr)
            XCTAssertTrue(r.stderr.contains("pwnvault: hint: start a systemd user manager"), r.stderr)
            XCTAssertTrue(r.stderr.contains("$XDG_RUNTIME_DIR/bus"), r.stderr)
            XCTAssertEqual(files(in: unitFolder), [], "nothing written when the route is refused")
        }
    }

    /// The status rows with the padding after each key squeezed to one space: the key column widens
    /// with the longest key (`last full check`), which these tests do not need to know.
    static func squeezed(_ text: String) -> String {
        text.split(separator: "\n", omittingEmptySubsequences: false).map { line -> String in
            guard let colon = line.firstIndex(of: ":") else { return String(line) }
            let rest = line[line.index(after: colon)...].drop(while: { $0 == " " })
            return String(line[...colon]) + " " + rest
        }.joined(separator: "\n")
    }

    func testStatusTellsInstalledActiveAndTheLastScheduledRunApart() throws {
        let before = s.run(["schedule", "status"])
        XCTAssertEqual(before.status, 0, before.all)
        XCTAssertTrue(Self.squeezed(before.stdout).hasPrefix("schedule: not installed\nactive: no, nothing is installed\n"), before.stdout)
        XCTAssertTrue(before.stderr.contains("install it with 'pwnvault schedule enable'"), before.stderr)

        // Installed and active: the timer enabled in a running manager, whose record of the last run is shown.
        XCTAssertEqual(s.run(["schedule", "enable", "--every", "12h", "--vault", vault]).status, 0)
        XCTAssertEqual(systemctl.calls().filter { !$0.contains(" show ") },
                       ["--user --no-pager daemon-reload", "--user --no-pager enable --now pwnvault-watch.timer"])
        systemctl.lastRun(result: "exit-code", status: 5, at: 1_764_590_400)   // 2025-12-01 12:00 UTC
        let active = Self.squeezed(s.run(["schedule", "status", "--vault", vault]).stdout)
        XCTAssertTrue(active.hasPrefix("schedule: installed, every 12 hours\nactive: yes, the timer is enabled in the running user manager\n"), active)
        XCTAssertTrue(active.contains("user manager: running\n"), active)
        XCTAssertTrue(active.contains("timer state: active, enabled\n"), active)
        XCTAssertTrue(active.contains("\nlast scheduled run: 2025-12-01"), active)
        XCTAssertTrue(active.contains(", exit status 5 ("), active)
        var json = try statusJSON()
        XCTAssertEqual(json["installation"] as? String, "installed")
        XCTAssertEqual(json["active"] as? Bool, true)
        XCTAssertNil(json["inactiveReason"])
        XCTAssertEqual(json["manager"] as? String, "running")
        XCTAssertEqual((json["lastRun"] as? [String: Any])?["exitStatus"] as? Int, 5)
        XCTAssertEqual((json["lastRun"] as? [String: Any])?["result"] as? String, "exit-code")

        // Installed, but the timer was stopped by hand: not active, and why.
        systemctl.disableTimer()
        json = try statusJSON()
        XCTAssertEqual(json["installation"] as? String, "installed")
        XCTAssertEqual(json["active"] as? Bool, false)
        XCTAssertEqual(json["inactiveReason"] as? String, "the timer is not enabled and started (inactive, disabled)")

        // Installed, and the manager gone: the files alone run nothing, and status says so.
        systemctl.down("Failed to connect to bus: No medium found")
        let after = s.run(["schedule", "status", "--vault", vault])
        XCTAssertEqual(after.status, 0, after.all)
        let text = Self.squeezed(after.stdout)
        XCTAssertTrue(text.hasPrefix("schedule: installed, every 12 hours\nactive: no, the units are installed, but no systemd user manager runs for this login\n"), text)
        XCTAssertTrue(text.contains("service: ~/.config/systemd/user/pwnvault-watch.service\n"), text)
        XCTAssertTrue(text.contains("user manager: not running: no systemd user manager runs for this login\n"), text)
        XCTAssertTrue(text.contains("last scheduled run: unknown, no user manager to ask"), text)
        XCTAssertFalse(text.contains("next run"), "no run time is made up without a manager")
        XCTAssertTrue(text.contains("last full check: none yet\n"), text)
        XCTAssertTrue(after.stderr.contains("pwnvault: the units run nothing until a systemd user manager runs them\npwnvault: hint: run 'loginctl enable-linger'"), after.stderr)
        XCTAssertFalse(after.all.contains("No medium") || after.all.contains("Failed to"), after.all)

        json = try statusJSON()
        XCTAssertEqual(json["installation"] as? String, "installed")
        XCTAssertEqual(json["active"] as? Bool, false)
        XCTAssertEqual(json["inactiveReason"] as? String, "the units are installed, but no systemd user manager runs for this login")
        XCTAssertEqual(json["every"] as? String, "12h")
        XCTAssertEqual(json["service"] as? String, servicePath)
        XCTAssertEqual(json["timer"] as? String, timerPath)
        XCTAssertEqual(json["manager"] as? String, "not running: no systemd user manager runs for this login")
        XCTAssertTrue((json["managerHint"] as? String)?.contains("loginctl enable-linger") == true, "\(json)")
        XCTAssertNil(json["nextRun"])
        XCTAssertNil(json["lastRun"])
    }

    private func statusJSON(file: StaticString = #filePath, line: UInt = #line) throws -> [String: Any] {
        let r = s.run(["schedule", "status", "--json", "--vault", vault])
        XCTAssertEqual(r.status, 0, r.all, file: file, line: line)
        return try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any], file: file, line: line)
    }

    /// A tampered unit file (and a manager answering with escape sequences): nothing that a terminal
    /// would act on leaves `status`, in text or in JSON (where `jq -r` would hand it to the terminal).
    func testStatusSanitizesWhatItReadsFromTheUnitFileAndTheManagerInJSONToo() throws {
        XCTAssertEqual(s.run(["schedule", "enable", "--vault", vault]).status, 0)
        let hostile = "\u{1B}]0;owned\u{07}\u{1B}[2J\u{9B}31m\u{202E}evil\u{01}\u{7F}\u{1B}P+q\u{1B}\\"
        let tampered = read(servicePath).replacingOccurrences(of: "ExecStart=", with: "ExecStart=" + hostile + " ")
        XCTAssertNotEqual(tampered, read(servicePath))
        try tampered.write(toFile: servicePath, atomically: true, encoding: .utf8)
        systemctl.lastRun(result: "exit-code\u{1B}[31m\u{9B}1m", status: 1, at: 1_764_547_200)

        let json = s.run(["schedule", "status", "--json", "--vault", vault])
        XCTAssertEqual(json.status, 0, json.all)
        let text = s.run(["schedule", "status", "--vault", vault])
        for (mode, out) in [("JSON", json.stdout), ("text", text.stdout)] {
            XCTAssertFalse(out.unicodeScalars.contains { $0.value < 0x20 && $0 != "\n" || (0x7F...0x9F).contains($0.value) || $0 == "\u{202E}" },
                           "\(mode) holds a control character: \(out.debugDescription)")
            XCTAssertFalse(out.contains("owned") || out.contains("\\u001b") || out.contains("\\u001B"), "\(mode): \(out.debugDescription)")
        }
        let report = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        let command = try XCTUnwrap(report["command"] as? String)
        XCTAssertTrue(command.hasPrefix("evil "), command.debugDescription)
        XCTAssertTrue(command.contains(" watch --notify --vault "), command)
        XCTAssertEqual((report["lastRun"] as? [String: Any])?["result"] as? String, "exit-code")
    }

    /// The stale bus of issue 21 (item 7): every unattended run exits 5. status says so, and why,
    /// from the record the run left beside the vault (it could not open the vault).
    func testStatusSaysWhenTheLastWatchFailedAndWhy() throws {
        let before = Self.squeezed(s.run(["schedule", "status", "--vault", vault]).stdout)
        XCTAssertTrue(before.contains("last watch: none recorded\n"), before)
        XCTAssertFalse(before.contains("last failed watch"), before)

        let failed = s.run(["watch", "--vault", vault], env: ["DBUS_SESSION_BUS_ADDRESS": "unix:path=/tmp/dbus-gone-\(UUID().uuidString.prefix(8)),guid=00ff"])
        XCTAssertEqual(failed.status, 5, failed.all)
        let message = try XCTUnwrap(failed.stderr.split(separator: "\n").first { $0.hasPrefix("pwnvault: error: ") }?
            .dropFirst("pwnvault: error: ".count))
        let record = s.dir.appendingPathComponent("My Vaults/100% \"family\" $HOME's \\ stuff/family vault.watch").path
        XCTAssertEqual(mode(record), 0o600)
        XCTAssertFalse(read(record).contains("@"), read(record))

        let after = Self.squeezed(s.run(["schedule", "status", "--vault", vault]).stdout)
        XCTAssertTrue(after.contains("last watch: 20"), after)
        XCTAssertTrue(after.contains(", exit status 5 ("), after)
        let failedRow = try XCTUnwrap(after.split(separator: "\n").first { $0.hasPrefix("last failed watch: ") }, after)
        XCTAssertTrue(failedRow.hasSuffix(": " + message), "the reason, in one line: \(failedRow) vs \(message)")

        // The next run succeeds (an empty vault: nothing to check): the last failure is still shown.
        let ok = s.run(["watch", "--vault", vault])
        XCTAssertEqual(ok.status, 0, ok.all)
        let json = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(s.run(["schedule", "status", "--json", "--vault", vault]).stdout.utf8)) as? [String: Any])
        XCTAssertEqual((json["lastWatch"] as? [String: Any])?["exitStatus"] as? Int, 0, "\(json)")
        let lastFailed = try XCTUnwrap(json["lastFailedWatch"] as? [String: Any], "\(json)")
        XCTAssertEqual(lastFailed["exitStatus"] as? Int, 5)
        XCTAssertEqual(lastFailed["reason"] as? String, String(message))
        let text = Self.squeezed(s.run(["schedule", "status", "--vault", vault]).stdout)
        XCTAssertTrue(text.contains(", exit status 0 ("), text)
        XCTAssertTrue(text.contains("last failed watch: "), text)
    }

    /// A watch with no terminal (as cron and the timer start it) and one by hand in a terminal: status
    /// keeps the last unattended one apart, so a failing cron job is not hidden by a later run by hand.
    func testStatusKeepsTheLastUnattendedWatchApartFromARunByHand() throws {
        let stale = "unix:path=/tmp/dbus-gone-\(UUID().uuidString.prefix(8)),guid=00ff"
        let unattended = s.run(["watch", "--vault", vault], env: ["DBUS_SESSION_BUS_ADDRESS": stale])
        XCTAssertEqual(unattended.status, 5, unattended.all)
        let byHand = s.runOnTerminal(["watch", "--vault", vault])
        XCTAssertEqual(byHand.status, 0, byHand.all)

        let text = Self.squeezed(s.run(["schedule", "status", "--vault", vault]).stdout)
        XCTAssertTrue(text.contains(", exit status 0 ("), text)
        let row = try XCTUnwrap(text.split(separator: "\n").first { $0.hasPrefix("last unattended watch: ") }, text)
        XCTAssertTrue(row.contains(", exit status 5 ("), String(row))
        let json = try statusJSON()
        XCTAssertEqual((json["lastWatch"] as? [String: Any])?["exitStatus"] as? Int, 0, "\(json)")
        XCTAssertEqual((json["lastUnattendedWatch"] as? [String: Any])?["exitStatus"] as? Int, 5, "\(json)")
    }

    // MARK: disable

    func testDisableRemovesExactlyTheFilesEnableWrote() throws {
        try FileManager.default.createDirectory(atPath: unitFolder + "/timers.target.wants", withIntermediateDirectories: true)
        let own = "[Unit]\nDescription=mine\n[Service]\nExecStart=/bin/true\n"
        try own.write(toFile: unitFolder + "/backup.service", atomically: true, encoding: .utf8)
        try FileManager.default.createSymbolicLink(atPath: unitFolder + "/timers.target.wants/backup.timer", withDestinationPath: "/dev/null")

        XCTAssertEqual(s.run(["schedule", "enable", "--vault", vault]).status, 0)
        XCTAssertEqual(files(in: unitFolder), ["backup.service", "pwnvault-watch.service", "pwnvault-watch.timer", "timers.target.wants"])
        // As `systemctl --user enable` would have linked it before the manager went away.
        try FileManager.default.createSymbolicLink(atPath: unitFolder + "/timers.target.wants/pwnvault-watch.timer", withDestinationPath: timerPath)

        let r = s.run(["schedule", "disable"])
        XCTAssertEqual(r.status, 0, r.all)
        XCTAssertEqual(r.stdout, """
            removed ~/.config/systemd/user/timers.target.wants/pwnvault-watch.timer
            removed ~/.config/systemd/user/pwnvault-watch.service
            removed ~/.config/systemd/user/pwnvault-watch.timer

            """)
        XCTAssertEqual(files(in: unitFolder), ["backup.service", "timers.target.wants"])
        XCTAssertEqual(files(in: unitFolder + "/timers.target.wants"), ["backup.timer"])
        XCTAssertEqual(read(unitFolder + "/backup.service"), own)

        let again = s.run(["schedule", "disable"])
        XCTAssertEqual(again.status, 0, again.all)
        XCTAssertEqual(again.stdout, "no schedule is installed; nothing was removed\n")
    }

    func testAUnitOfTheSameNameThatPwnvaultDidNotWriteIsNeverTouched() throws {
        try FileManager.default.createDirectory(atPath: unitFolder, withIntermediateDirectories: true)
        let theirs = "[Unit]\nDescription=the user's own\n[Timer]\nOnCalendar=daily\n"
        try theirs.write(toFile: timerPath, atomically: true, encoding: .utf8)

        let enabled = s.run(["schedule", "enable", "--vault", vault])
        XCTAssertEqual(enabled.status, 4, enabled.all)
        XCTAssertEqual(enabled.stderr, """
            pwnvault: error: \(timerPath) exists and was not written by pwnvault; it was left as it is
            pwnvault: hint: rename or remove that unit yourself if pwnvault may use the name, then run it again

            """)
        XCTAssertEqual(files(in: unitFolder), ["pwnvault-watch.timer"], "not even the service is written")

        // With pwnvault's service beside it (an earlier enable), disable still removes nothing.
        try FileManager.default.removeItem(atPath: timerPath)
        XCTAssertEqual(s.run(["schedule", "enable", "--vault", vault]).status, 0)
        try theirs.write(toFile: timerPath, atomically: true, encoding: .utf8)
        let disabled = s.run(["schedule", "disable"])
        XCTAssertEqual(disabled.status, 4, disabled.all)
        XCTAssertTrue(disabled.stderr.hasPrefix("pwnvault: error: \(timerPath) exists and was not written by pwnvault"), disabled.stderr)
        XCTAssertEqual(read(timerPath), theirs)
        XCTAssertTrue(FileManager.default.fileExists(atPath: servicePath))

        let status = s.run(["schedule", "status"])
        XCTAssertTrue(Self.squeezed(status.stdout).hasPrefix("schedule: not pwnvault's"), status.stdout)
    }

    // MARK: the scheduled command, run by hand

    /// What the timer would start, run by hand in this private keyring session against the fake HIBP
    /// server: the vault is opened through the keyring only (no passphrase file, no PWNVAULT_VAULT:
    /// only the unit's --vault can find it), and a quiet vault makes a silent, successful run.
    func testTheServicesCommandRunsByHandInAKeyringSession() throws {
        let server = try FakeHIBP()
        s.environment["PWNVAULT_API_URL"] = server.apiURL
        XCTAssertEqual(s.run(["config", "api-key"], input: FakeHIBP.key + "\n").status, 0)
        let added = s.run(["add", "nobody.ever.breached@example.org", "--vault", vault])
        XCTAssertEqual(added.status, 0, added.all)
        let checked = s.run(["check", "--all", "--vault", vault])
        XCTAssertEqual(checked.status, 0, checked.all)

        XCTAssertEqual(s.run(["schedule", "enable", "--vault", vault]).status, 0)
        let argv = try Self.execStartWords(read(servicePath))
        var environment = s.environment
        environment["PWNVAULT_VAULT"] = nil
        environment["PWNVAULT_PASSPHRASE_FILE"] = nil
        let r = Sandbox.exec(argv[0], Array(argv.dropFirst()), input: nil, environment: environment)
        XCTAssertEqual(r.status, 0, r.all)
        XCTAssertEqual(r.all, "", "a quiet watch prints nothing")
        // The run was a full check (the first one): status says when, from the vault, without asking.
        let status = s.run(["schedule", "status", "--vault", vault], env: ["PWNVAULT_PASSPHRASE_FILE": "/nonexistent"])
        XCTAssertEqual(status.status, 0, status.all)
        XCTAssertTrue(Self.squeezed(status.stdout).contains("last full check: 20"), status.stdout)
        let json = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(s.run(["schedule", "status", "--json", "--vault", vault]).stdout.utf8)) as? [String: Any])
        XCTAssertNotNil(json["lastFullCheck"] as? String, "\(json)")
    }
}
