import FoundationEssentials
import PwnVaultCore

/// The checks of one `doctor` run, in the order they are shown. Network answers are fetched once.
struct DoctorRun {
    let context: Context
    let transport: CurlTransport
    let userAgent = "pwnvault/\(CLI.version)"

    init(_ context: Context) {
        self.context = context
        let seconds = min(context.settings.httpTimeoutSeconds, DoctorCommand.networkTimeoutSeconds)
        transport = CurlTransport(timeout: .seconds(seconds))
    }

    func checks() -> [DoctorCheck] {
        var checks: [DoctorCheck] = []
        // What a new process would get, asked without any dialog (a fresh connection: KeePassXC
        // approves each one); the stored API key is read only where no dialog is needed to read it.
        let provider = context.keyring.provider()
        let state = Result { try context.keyring.probe(.apiKey) }
        let probe: Result<SecretBytes?, Error>
        switch state {
        case .success(.readable): probe = Result { try context.keyring.lookup(.apiKey) }
        case .success(.needsApproval): probe = .failure(KeyringError.needsApproval(provider))
        case .success(.absent): probe = .success(nil)
        case let .failure(error): probe = .failure(error)
        }
        checks.append(keyring(state.map { _ in () }, provider: provider))
        let keyringUsable: Bool
        if case .success = state { keyringUsable = true } else { keyringUsable = false }
        checks += vault(keyringUsable: keyringUsable)
        let api = reach(context.settings.apiBaseURL, path: "latestbreach", name: "api", variable: Settings.apiURLVariable)
        checks.append(apiKey(probe, apiReachable: api.outcome == .ok))
        checks.append(api)
        checks.append(reach(context.settings.passwordsBaseURL, path: "range/00000", name: "Pwned Passwords",
                            variable: Settings.passwordsURLVariable))
        checks.append(lookup(try? probe.get()))
        checks.append(shareMode())
        checks.append(coreDumps())
        return checks
    }

    // MARK: keyring

    private func keyring(_ probe: Result<Void, Error>, provider: KeyringProvider) -> DoctorCheck {
        switch probe {
        case .success:
            guard KeyringProvider.tested.contains(provider) else {
                return .warning("keyring", "\(provider.capitalizedName) answers (Secret Service) and is unlocked, but it is not one pwnvault is tested with",
                                fix: "GNOME Keyring, KeePassXC and KWallet are ('pwnvault help environment' says how each is set up)")
            }
            return .ok("keyring", "\(provider.capitalizedName) answers (Secret Service) and is unlocked")
        case let .failure(error as KeyringError):
            switch error {
            case .disabled:
                return .warning("keyring", "turned off (\(Settings.keyringVariable)=none): every command that opens the vault asks for the passphrase",
                                fix: "unset \(Settings.keyringVariable) to keep the vault key in the desktop keyring")
            case .unavailable:
                return .warning("keyring", error.reason + ": every command that opens the vault asks for the passphrase",
                                fix: "start a Secret Service (GNOME Keyring, KeePassXC with Secret Service integration, KWallet with apiEnabled) in this session")
            case .locked, .noCollection, .needsApproval, .needsDeletionConfirmed, .refused, .unanswered:
                return .problem("keyring", error, fix: error.hint)
            case .timedOut:
                return .problem("keyring", "\(provider.name) did not answer within \(context.settings.keyringTimeoutMilliseconds) ms",
                                fix: error.hint ?? "restart the keyring", status: .keyring)
            case .failed:
                return .problem("keyring", error)
            }
        case let .failure(error):
            return .problem("keyring", "the keyring failed (\(Sanitizer.singleLine(String(describing: error))))",
                            fix: "restart the keyring daemon", status: .keyring)
        }
    }

    // MARK: vault

    private func vault(keyringUsable: Bool) -> [DoctorCheck] {
        let location: VaultLocation
        do { location = try context.vaultLocation() } catch {
            return [userError("vault", error, status: .vault)]
        }
        let store = VaultStore(location: location)
        guard store.exists else {
            if store.backupExists {
                return [.problem("vault", VaultStoreError.notFoundButBackup(path: location.displayPath,
                                                                            backup: location.display(store.backupPath)))]
            }
            return [.problem("vault", "no vault at \(location.displayPath) (" + (location.source == .commandLine || location.source == .environment ? "from \(location.source.rawValue))" : "the default place)"),
                             fix: "create one with 'pwnvault init', or point --vault or \(Settings.vaultVariable) at yours",
                             status: .vault)]
        }
        var checks = [permissions(location)]
        let bytes: [UInt8]
        let header: VaultHeader
        do {
            bytes = try store.read()
        } catch {
            checks.insert(userError("vault", error, status: .vault), at: 0)
            return checks
        }
        do {
            header = try VaultFile.readHeader(bytes)
        } catch let error as VaultFormatError {
            checks.insert(.problem("vault", "\(location.displayPath): \(error.message)",
                                   fix: error.hint ?? "restore the backup \(location.display(store.backupPath)) if it opens",
                                   status: .vault), at: 0)
            return checks
        } catch {
            checks.insert(userError("vault", error, status: .vault), at: 0)
            return checks
        }
        checks.insert(.ok("vault", "\(location.displayPath): format version \(header.version), \(bytes.count) bytes"), at: 0)
        checks.insert(unlock(location: location, store: store, bytes: bytes, header: header, keyringUsable: keyringUsable), at: 1)
        let kdf = header.kdf
        checks.insert(kdf.isWithinBounds
            ? .ok("key derivation", "Argon2id, \(kdf.summary)" + (kdf.name.map { " (\($0))" } ?? ""))
            : .problem("key derivation", "Argon2id limits out of bounds (\(kdf.summary))",
                       fix: "set a new passphrase with 'pwnvault passwd --kdf moderate'", status: .vault), at: 2)
        return checks
    }

    /// Whether the vault opens without a prompt: the keyring's key must authenticate the whole file.
    private func unlock(location: VaultLocation, store: VaultStore, bytes: [UInt8], header: VaultHeader,
                        keyringUsable: Bool) -> DoctorCheck {
        guard keyringUsable else {
            if context.settings.keyring == .none {
                return .ok("unlock", "with the passphrase only (\(Settings.keyringVariable)=none)")
            }
            return .warning("unlock", "needs the passphrase while the keyring cannot be used")
        }
        let relearn = "open it once with the passphrase (e.g. 'pwnvault status'); pwnvault then stores the right key"
        let item = KeyringItem.vaultKey(vaultID: header.vaultIDHex)
        let key: SecretBytes?
        do {
            // Read only where a new process could read it without a dialog.
            switch try context.keyring.probe(item) {
            case .readable: key = try context.keyring.lookup(item)
            case .absent: key = nil
            case .needsApproval:
                let provider = context.keyring.provider()
                return .warning("unlock", "the key is in \(provider.name), which asks you to allow each run: commands on a terminal show its dialog, unattended runs (watch, the timer) stop",
                                fix: provider.unattendedAdvice)
            }
        } catch {
            return .warning("unlock", "needs the passphrase (\((error as? KeyringError)?.reason ?? "the keyring failed"))")
        }
        guard let key else {
            return .warning("unlock", "the keyring holds no key for this vault: the next command asks for the passphrase",
                            fix: relearn)
        }
        guard VaultFile.authenticates(header, key: key) else {
            return .warning("unlock", "the keyring's key for this vault does not open it", fix: relearn)
        }
        do {
            let accounts = try VaultFile.open(bytes, key: key).payload.accounts.count
            return .ok("unlock", "opens with the keyring's key, no passphrase needed (\(accounts) account\(accounts == 1 ? "" : "s"))")
        } catch let error as VaultFormatError {
            return .problem("unlock", "\(location.displayPath): \(error.message)",
                            fix: "restore the backup \(location.display(store.backupPath)) if it opens, or recreate the vault",
                            status: .vault)
        } catch {
            return userError("unlock", error, status: .vault)
        }
    }

    /// Modes of the folder, the vault and its backup: nobody else may write the folder or read the files.
    private func permissions(_ location: VaultLocation) -> DoctorCheck {
        var found: [String] = []
        var problems: [(String, String)] = []   // what is wrong, the command that fixes it
        var warnings: [(String, String)] = []
        func mode(_ path: String) -> UInt32? {
            ((try? FileManager.default.attributesOfItem(atPath: path))?[.posixPermissions] as? any BinaryInteger).map { UInt32(truncatingIfNeeded: $0) }
        }
        if let m = mode(location.folder) {
            found.append("folder " + octal(m))
            if m & 0o022 != 0 {
                problems.append(("the folder \(location.displayFolder) is writable by others (\(octal(m)))", "chmod 700 " + shellWord(location, location.folder)))
            } else if m & 0o077 != 0 {
                warnings.append(("the folder \(location.displayFolder) is readable by others (\(octal(m)))", "chmod 700 " + shellWord(location, location.folder)))
            }
        }
        for (what, path) in [("vault", location.path), ("backup", location.backupPath)] {
            guard let m = mode(path) else { continue }
            found.append("\(what) " + octal(m))
            if m & 0o077 != 0 {
                problems.append(("the \(what) \(location.display(path)) is accessible by others (\(octal(m)))", "chmod 600 " + shellWord(location, path)))
            }
        }
        if !problems.isEmpty {
            return .problem("permissions", problems.map(\.0).joined(separator: "; "),
                            fix: problems.map(\.1).joined(separator: "; "), status: .vault)
        }
        if !warnings.isEmpty {
            return .warning("permissions", warnings.map(\.0).joined(separator: "; "), fix: warnings.map(\.1).joined(separator: "; "))
        }
        return .ok("permissions", "private to you (" + found.joined(separator: ", ") + ")")
    }

    private func octal(_ mode: UInt32) -> String {
        let digits = String(mode & 0o7777, radix: 8)
        return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
    }

    /// A path as a shell word for a fix line: `~/…` when it needs no quoting, else single-quoted in full.
    private func shellWord(_ location: VaultLocation, _ path: String) -> String {
        let shown = location.display(path)
        let safe = shown.unicodeScalars.allSatisfy { $0.isFoundationAlphanumeric || "~/._-+,@%=".unicodeScalars.contains($0) }
        return safe ? shown : "'" + Sanitizer.singleLine(path).replacingLiterally("'", with: #"'\''"#) + "'"
    }

    // MARK: API key

    private func apiKey(_ probe: Result<SecretBytes?, Error>, apiReachable: Bool) -> DoctorCheck {
        let key: SecretBytes
        let source: String
        if let environmentKey = context.settings.environmentAPIKey {
            key = environmentKey.secret()
            source = Settings.apiKeyVariable
            guard APIKey.isWellFormed(key) else {
                return .problem("API key", APIKeyError.malformed(source: .environment),
                                fix: "set \(Settings.apiKeyVariable) to the key from https://haveibeenpwned.com/API/Key, or unset it and run 'pwnvault config api-key'")
            }
        } else {
            switch probe {
            case let .success(stored?):
                key = stored
                source = "the keyring's key"
                guard APIKey.isWellFormed(key) else { return .problem("API key", APIKeyError.malformed(source: .keyring)) }
            case .success(nil):
                return .warning("API key", "none stored and \(Settings.apiKeyVariable) is unset: checking accounts needs one (\(APIKey.testDomain) accounts work without)",
                                fix: APIKeyError.none(keyringProblem: nil).hint)
            case let .failure(KeyringError.needsApproval(provider)):
                return .warning("API key", "stored in \(provider.name), which asks you to allow each run: not read here, and unattended runs (watch, the timer) cannot use it",
                                fix: "\(provider.unattendedAdvice), or set \(Settings.apiKeyVariable) for scripts")
            case let .failure(error):
                let reason = (error as? KeyringError)?.reason ?? "the keyring failed"
                return .warning("API key", "\(Settings.apiKeyVariable) is unset and the keyring cannot be asked (\(reason))",
                                fix: "set \(Settings.apiKeyVariable), or fix the keyring and run 'pwnvault config api-key'")
            }
        }
        guard apiReachable else {
            return .warning("API key", "\(source) is well-formed; not verified because HIBP cannot be reached")
        }
        let client = HIBPClient(baseURL: HIBPServices(context).baseURL, apiKey: key, version: CLI.version, transport: transport)
        do {
            let status = try blocking { try await client.subscriptionStatus() }
            let plan = Sanitizer.singleLine(status.subscriptionName)
            return .ok("API key", "\(source) is accepted by HIBP (subscription \(plan)" + (status.rpm.map { ", \($0) requests a minute" } ?? "") + ")")
        } catch let error as HIBPError {
            switch error {
            case .unauthorized, .forbidden, .missingAPIKey:
                return .problem("API key", "HIBP refused \(source): \(error.message)",
                                fix: "check the key at https://haveibeenpwned.com/API/Key and store it again with 'pwnvault config api-key'",
                                status: .apiAuthorization)
            default:
                return .warning("API key", "\(source) is well-formed; HIBP could not confirm it (\(error.message))")
            }
        } catch {
            return .warning("API key", "\(source) is well-formed; HIBP could not confirm it")
        }
    }

    // MARK: network

    /// One GET of a public endpoint that needs no key and answers a small body.
    private func reach(_ base: URL, path: String, name: String, variable: String) -> DoctorCheck {
        var text = base.absoluteString
        if !text.hasSuffix("/") { text += "/" }
        let shown = Sanitizer.singleLine(text)
        guard let url = URL(string: text + path) else {
            return .problem(name, "\(shown) is not a valid address", fix: "correct or unset \(variable)", status: .network)
        }
        let request = HTTPRequest(url: url, headers: ["user-agent": userAgent, "accept": "application/json"])
        let transport = self.transport
        let fix = "check the network connection" + (base.absoluteString.hasPrefix("https://") ? "" : " and whether the server at \(shown) runs")
            + (context.settings.variablesSet.contains(variable) ? ", or correct or unset \(variable)" : "")
        do {
            let response = try blocking { try await transport.send(request) }
            guard response.status == 200, !response.body.isEmpty else {
                return .problem(name, "\(shown) answered HTTP \(response.status) to \(path)", fix: fix, status: .network)
            }
            return .ok(name, "\(shown) answers")
        } catch let error as HTTPTransportError {
            return .problem(name, "cannot reach \(shown): \(HIBPError(error).message)", fix: fix, status: .network)
        } catch {
            return .problem(name, "cannot reach \(shown)", fix: fix, status: .network)
        }
    }

    // MARK: this process

    /// How `check` and `watch` will look e-mail addresses up: by k-anonymity, or whole.
    private func lookup(_ key: SecretBytes?) -> DoctorCheck {
        let range = "\(KAnonymityMode.rangeLabel): only the first 6 hex characters of each e-mail address's SHA-1 are sent"
        switch context.settings.kAnonymity {
        case .off:
            return .ok("lookup", "\(KAnonymityMode.wholeLabel): e-mail addresses are sent whole (\(Settings.kAnonymityVariable)=off)")
        case .require:
            return .ok("lookup", range + " (\(Settings.kAnonymityVariable)=require: a key whose plan lacks it ends the check, status 7)")
        case .auto:
            // The key check and watch would use: the environment's before the keyring's.
            let env = context.settings.environmentAPIKey?.secret()
            if let key = env ?? key, let folder = try? HIBPServices(context).cacheDirectory(),
               KAnonymityCache(directory: folder).isRefused(key, now: context.now()) {
                return .ok("lookup", "\(KAnonymityMode.wholeLabel): HIBP refused this key the k-anonymity search within the last day, so e-mail addresses are sent whole (a plan with it: HIBP's Pro or High RPM)")
            }
            return .ok("lookup", range + ", while the key's plan allows it (else whole, after one refused request)")
        }
    }

    private func shareMode() -> DoctorCheck {
        if let reason = context.shareReason { return .ok("share mode", "on (\(reason))") }
        if context.settings.shareMode { return .ok("share mode", "on (\(Settings.shareVariable) is set)") }
        if context.arguments.has(GlobalOptions.noShare) { return .ok("share mode", "off for this run (--no-share)") }
        if let reason = ShareModeDetector().detect(environment: context.environment) {
            return .ok("share mode", "on whenever accounts are shown on this terminal (\(reason))")
        }
        return .ok("share mode", "off: no screen share or terminal recorder detected (--share or \(Settings.shareVariable)=1 turn it on)")
    }

    /// Reads this process's core-file limit, which `ProcessHygiene.harden` sets to 0 at start.
    private func coreDumps() -> DoctorCheck {
        guard let limits = try? String(contentsOfFile: "/proc/self/limits", encoding: .utf8),
              let line = limits.split(separator: "\n").first(where: { $0.hasPrefix("Max core file size") }) else {
            return .warning("core dumps", "cannot tell (/proc/self/limits is unreadable)")
        }
        let fields = line.dropFirst("Max core file size".count).split(separator: " ")
        guard fields.count >= 2 else { return .warning("core dumps", "cannot tell (unexpected /proc/self/limits)") }
        if fields[0] == "0" && fields[1] == "0" { return .ok("core dumps", "disabled for pwnvault (core file size limit 0)") }
        return .problem("core dumps", "a crash could write memory to disk (core file size limit \(fields[0]))",
                        fix: "please report this: pwnvault turns core dumps off when it starts", status: .vault)
    }

    private func userError(_ name: String, _ error: Error, status: ExitStatus) -> DoctorCheck {
        if let error = error as? UserFacingError { return .problem(name, error) }
        return .problem(name, Sanitizer.singleLine(String(describing: error)), fix: "see 'pwnvault help'", status: status)
    }
}
