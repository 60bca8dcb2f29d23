import FoundationEssentials

/// The unattended watch as the schedule runs it: which program, which vault, how often; and the
/// systemd user units (or the crontab line) that say so.
///
/// The units hold no secret: the program's and the vault's paths and the period. The service runs
/// `PROGRAM watch --notify --vault VAULT`, so it watches the same vault whatever the manager's
/// environment holds. Both files start with `marker`, by which `disable` knows them for its own.
public struct ScheduledWatch: Sendable, Equatable {
    /// The unit names, in `$XDG_CONFIG_HOME/systemd/user/`.
    public static let serviceName = "pwnvault-watch.service"
    public static let timerName = "pwnvault-watch.timer"
    /// The first line of every file `enable` writes, followed by ` every=PERIOD`.
    public static let marker = "# pwnvault-schedule"

    /// The absolute path of the pwnvault program to run.
    public let program: String
    /// The absolute path of the vault to watch.
    public let vault: String
    public let interval: ScheduleInterval

    public init(program: String, vault: String, interval: ScheduleInterval) throws {
        for (what, path) in [("program", program), ("vault path", vault)]
        where path.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F || (0x80...0x9F).contains($0.value) }) {
            throw ScheduleError.unwritablePath(what: what, path: SettingsError.shown(path, limit: nil))
        }
        self.program = program
        self.vault = vault
        self.interval = interval
    }

    /// The command the service runs, one argument each.
    public var arguments: [String] { [program, "watch", "--notify", "--vault", vault] }

    /// The first line of both files.
    public var markerLine: String { "\(Self.marker) every=\(interval)" }

    /// `pwnvault-watch.service`: a oneshot run of `watch --notify`, with the hardening that still lets
    /// it reach the session bus (keyring, notifications), the network (HIBP) and the vault.
    public var serviceUnit: String {
        """
        \(markerLine)
        # Written by 'pwnvault schedule enable'; 'pwnvault schedule disable' removes it. Holds no secret.
        [Unit]
        Description=pwnvault: look for new breaches of the watched accounts
        
        [Service]
        Type=oneshot
        ExecStart=\(arguments.map(Self.systemdQuoted).joined(separator: " "))
        # Status 1 means "something new was found" (and said in a notification): a run that did its job.
        SuccessExitStatus=1
        # A run that hangs must end so that the next one can start.
        TimeoutStartSec=\(max(interval.hours, 6))h
        # A background job: low CPU and I/O priority.
        Nice=10
        IOSchedulingClass=idle
        # Hardening that needs no mount or user namespace, so it works under every user manager and
        # leaves the session bus (keyring, notifications), the network and the vault reachable.
        # No privilege can be gained (setuid programs, file capabilities):
        NoNewPrivileges=yes
        # Files the run creates are private to the user:
        UMask=0077
        # Forbidden system calls: setuid/setgid files, realtime scheduling, new namespaces,
        # changing the execution domain, and calls of other architectures.
        RestrictSUIDSGID=yes
        RestrictRealtime=yes
        RestrictNamespaces=yes
        LockPersonality=yes
        SystemCallArchitectures=native

        """
    }

    /// `pwnvault-watch.timer`: the period as a calendar time, caught up after the computer was off,
    /// with a random delay.
    public var timerUnit: String {
        """
        \(markerLine)
        # Written by 'pwnvault schedule enable'; 'pwnvault schedule disable' removes it. Holds no secret.
        [Unit]
        Description=pwnvault: run the breach watch every \(interval)
        
        [Timer]
        OnCalendar=\(interval.onCalendar)
        # A run missed while the computer was off happens at the next start.
        Persistent=true
        RandomizedDelaySec=\(interval.randomizedDelay)
        Unit=\(Self.serviceName)

        [Install]
        WantedBy=timers.target

        """
    }

    /// A crontab line that runs the same command, for machines without a systemd user manager.
    /// `busAddress`, when given, is set for the command: cron jobs start outside the desktop
    /// session and would not find the session bus (and so the keyring) otherwise.
    public func crontabLine(busAddress: String? = nil, random: (Int) -> Int = { Int.random(in: 0..<$0) }) -> String {
        var command = arguments.map(Self.shellQuoted).joined(separator: " ")
        if let busAddress { command = "DBUS_SESSION_BUS_ADDRESS=" + Self.shellQuoted(busAddress) + " " + command }
        // cron turns an unescaped % into a line break.
        return interval.cronFields(random: random) + " " + command.replacingPercent
    }

    // MARK: quoting

    /// Characters that never need quoting, in a systemd command line or for /bin/sh.
    private static func isPlain(_ word: String) -> Bool {
        !word.isEmpty && word.unicodeScalars.allSatisfy {
            ("a"..."z").contains($0) || ("A"..."Z").contains($0) || ("0"..."9").contains($0) || "/._+,:=@-".unicodeScalars.contains($0)
        }
    }

    /// One argument of a systemd command line: as it is when plain, else in double quotes with `\`
    /// and `"` escaped, `%` doubled (specifiers) and `$` doubled (variable expansion). Control
    /// characters are refused earlier.
    public static func systemdQuoted(_ argument: String) -> String {
        if isPlain(argument) { return argument }
        var out = "\""
        for c in argument.unicodeScalars {
            switch c {
            case "\\": out += "\\\\"
            case "\"": out += "\\\""
            case "%": out += "%%"
            case "$": out += "$$"
            default: out.unicodeScalars.append(c)
            }
        }
        return out + "\""
    }

    /// One word for /bin/sh: as it is when plain, else in single quotes, a single quote as `'\''`.
    public static func shellQuoted(_ word: String) -> String {
        isPlain(word) ? word : "'" + word.split(separator: "'", omittingEmptySubsequences: false).joined(separator: "'\\''") + "'"
    }
}

private extension String {
    var replacingPercent: String {
        split(separator: "%", omittingEmptySubsequences: false).joined(separator: "\\%")
    }
}

extension ScheduledWatch {
    /// The absolute path of the running pwnvault program (`/proc/self/exe`), which the service runs.
    public static func runningProgram() throws -> String {
        guard let path = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"),
              path.hasPrefix("/"), !path.hasSuffix(" (deleted)") else { throw ScheduleError.unknownProgramPath }
        return path
    }
}
