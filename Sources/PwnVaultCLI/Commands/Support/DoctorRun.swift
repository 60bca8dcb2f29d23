import FoundationEssentials
import PwnVaultCore

/// The checks of one `doctor` run, in the order they are shown. Network answers are fetched once.
struct DoctorRun {
    let context: Context
    let transport: any HTTPTransport
    let userAgent = "pwnvault/\(CLI.version)"
    /// The longest any network check may take (`doctor`'s help says 10 seconds).
    static let networkTimeoutSeconds = 10
    /// Each network check's deadline: the run's, at most `networkTimeoutSeconds`.
    let timeout: Duration

    init(_ context: Context) {
        self.context = context
        transport = context.transport
        timeout = .seconds(min(context.settings.httpTimeoutSeconds, Self.networkTimeoutSeconds))
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
        let api = reach(context.settings.apiBaseURL, path: "latestbreach", name: phrase("api"), variable: Settings.apiURLVariable)
        checks.append(apiKey(probe, apiReachable: api.outcome == .ok))
        checks.append(api)
        checks.append(reach(context.settings.passwordsBaseURL, path: "range/00000", name: "Pwned Passwords",
                            variable: Settings.passwordsURLVariable))
        checks.append(lookup(try? probe.get()))
        checks.append(shareMode())
        checks.append(coreDumps())
        checks += trustOnDisk()
        return checks
    }

    // MARK: keyring

    private func keyring(_ probe: Result<Void, Error>, provider: KeyringProvider) -> DoctorCheck {
        switch probe {
        case .success:
            guard KeyringProvider.tested.contains(provider) else {
                return .warning(phrase("keyring"), msg("{1} answers (Secret Service) and is unlocked, but it is not one pwnvault is tested with (the name is that of the program holding the Secret Service: not a proof of who it is)", provider.capitalizedName),
                                fix: msg("GNOME Keyring, KeePassXC and KWallet are ('pwnvault help environment' says how each is set up)"))
            }
            return .ok(phrase("keyring"), msg("{1} answers (Secret Service) and is unlocked (the name is that of the program holding the Secret Service: not a proof of who it is)", provider.capitalizedName))
        case let .failure(error as KeyringError):
            switch error {
            case .disabled:
                return .warning(phrase("keyring"), msg("turned off ({1}=none): every command that opens the vault asks for the passphrase", Settings.keyringVariable),
                                fix: msg("unset {1} to keep the vault key in the desktop keyring", Settings.keyringVariable))
            case .unavailable:
                return .warning(phrase("keyring"), msg("{1}: every command that opens the vault asks for the passphrase", error.reason),
                                fix: msg("start a Secret Service (GNOME Keyring, KeePassXC with Secret Service integration, KWallet with apiEnabled) in this session"))
            case .locked, .noCollection, .needsApproval, .needsDeletionConfirmed, .refused, .unanswered:
                return .problem(phrase("keyring"), error, fix: error.hint)
            case .timedOut:
                return .problem(phrase("keyring"), msg("{1} did not answer within {2} ms", provider.name, context.settings.keyringTimeoutMilliseconds),
                                fix: error.hint ?? msg("restart the keyring"), status: .keyring)
            case .failed:
                return .problem(phrase("keyring"), error)
            }
        case let .failure(error):
            return .problem(phrase("keyring"), msg("the keyring failed ({1})", Sanitizer.singleLine(String(describing: error))),
                            fix: msg("restart the keyring daemon"), status: .keyring)
        }
    }

    // MARK: vault

    private func vault(keyringUsable: Bool) -> [DoctorCheck] {
        let location: VaultLocation
        do { location = try context.vaultLocation() } catch {
            return [userError(phrase("vault"), error, status: .vault)]
        }
        let store = VaultStore(location: location)
        guard store.exists else {
            if store.backupExists {
                return [.problem(phrase("vault"), VaultStoreError.notFoundButBackup(path: location.displayPath,
                                                                            backup: location.display(store.backupPath)))]
            }
            return [.problem(phrase("vault"), location.source == .commandLine || location.source == .environment
                                ? msg("no vault at {1} (from {2})", location.displayPath, location.source.rawValue)
                                : msg("no vault at {1} (the default place)", location.displayPath),
                             fix: msg("create one with 'pwnvault init', or point --vault or {1} at yours", Settings.vaultVariable),
                             status: .vault)]
        }
        var checks = [permissions(location)]
        let bytes: [UInt8]
        let header: VaultHeader
        do {
            bytes = try store.read()
        } catch {
            checks.insert(userError(phrase("vault"), error, status: .vault), at: 0)
            return checks
        }
        do {
            header = try VaultFile.readHeader(bytes)
        } catch let error as VaultFormatError {
            checks.insert(.problem(phrase("vault"), msg("{1}: {2}", location.displayPath, error.message),
                                   fix: error.hint ?? msg("restore the backup {1} if it opens", location.display(store.backupPath)),
                                   status: .vault), at: 0)
            return checks
        } catch {
            checks.insert(userError(phrase("vault"), error, status: .vault), at: 0)
            return checks
        }
        checks.insert(.ok(phrase("vault"), msg("{1}: format version {2}, {3} bytes", location.displayPath, header.version, bytes.count)), at: 0)
        var kinds = Set<AccountKind>()
        checks.insert(unlock(location: location, store: store, bytes: bytes, header: header, keyringUsable: keyringUsable,
                             kinds: &kinds), at: 1)
        // Said once for a vault that holds phone numbers or usernames: what their "no breach found" covers.
        if let coverage = CoverageText.line(for: kinds) { checks.append(.ok(phrase("coverage"), coverage)) }
        let kdf = header.kdf
        checks.insert(kdf.isWithinBounds
            ? .ok(phrase("key derivation"), "Argon2id, \(kdf.summary)" + (kdf.name.map { " (\($0))" } ?? ""))
            : .problem(phrase("key derivation"), msg("Argon2id limits out of bounds ({1})", kdf.summary),
                       fix: msg("set a new passphrase with 'pwnvault passwd --kdf moderate'"), status: .vault), at: 2)
        return checks
    }

    /// Whether the vault opens without a prompt: the keyring's key must authenticate the whole file.
    private func unlock(location: VaultLocation, store: VaultStore, bytes: [UInt8], header: VaultHeader,
                        keyringUsable: Bool, kinds: inout Set<AccountKind>) -> DoctorCheck {
        guard keyringUsable else {
            if context.settings.keyring == .none {
                return .ok(phrase("unlock"), msg("with the passphrase only ({1}=none)", Settings.keyringVariable))
            }
            return .warning(phrase("unlock"), msg("needs the passphrase while the keyring cannot be used"))
        }
        let relearn = msg("open it once with the passphrase (e.g. 'pwnvault status'); pwnvault then stores the right key")
        let item = KeyringItem.vaultKey(vaultID: header.vaultIDHex)
        let key: SecretBytes?
        do {
            // Read only where a new process could read it without a dialog.
            switch try context.keyring.probe(item) {
            case .readable: key = try context.keyring.lookup(item)
            case .absent: key = nil
            case .needsApproval:
                let provider = context.keyring.provider()
                return .warning(phrase("unlock"), msg("the key is in {1}, which asks you to allow each run: commands on a terminal show its dialog, unattended runs (watch, the timer) stop", provider.name),
                                fix: provider.unattendedAdvice)
            }
        } catch {
            return .warning(phrase("unlock"), msg("needs the passphrase ({1})", (error as? KeyringError)?.reason ?? msg("the keyring failed")))
        }
        guard let key else {
            return .warning(phrase("unlock"), msg("the keyring holds no key for this vault: the next command asks for the passphrase"),
                            fix: relearn)
        }
        guard VaultFile.authenticates(header, key: key) else {
            return .warning(phrase("unlock"), msg("the keyring's key for this vault does not open it"), fix: relearn)
        }
        do {
            let payload = try VaultFile.open(bytes, key: key).payload
            let accounts = payload.accounts.count
            kinds = Set(payload.accounts.map(\.kind))
            return .ok(phrase("unlock"), msg(one: "opens with the keyring's key, no passphrase needed ({1} account)",
                                     many: "opens with the keyring's key, no passphrase needed ({1} accounts)", count: accounts, accounts))
        } catch let error as VaultFormatError {
            return .problem(phrase("unlock"), msg("{1}: {2}", location.displayPath, error.message),
                            fix: msg("restore the backup {1} if it opens, or recreate the vault", location.display(store.backupPath)),
                            status: .vault)
        } catch {
            return userError(phrase("unlock"), error, status: .vault)
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
            found.append(msg("folder {1}", octal(m)))
            if m & 0o022 != 0 {
                problems.append((msg("the folder {1} is writable by others ({2})", location.displayFolder, octal(m)), "chmod 700 " + shellWord(location, location.folder)))
            } else if m & 0o077 != 0 {
                warnings.append((msg("the folder {1} is readable by others ({2})", location.displayFolder, octal(m)), "chmod 700 " + shellWord(location, location.folder)))
            }
        }
        for (isVault, path) in [(true, location.path), (false, location.backupPath)] {
            guard let m = mode(path) else { continue }
            found.append(isVault ? msg("vault {1}", octal(m)) : msg("backup {1}", octal(m)))
            if m & 0o077 != 0 {
                problems.append((isVault ? msg("the vault {1} is accessible by others ({2})", location.display(path), octal(m))
                                         : msg("the backup {1} is accessible by others ({2})", location.display(path), octal(m)),
                                 "chmod 600 " + shellWord(location, path)))
            }
        }
        if !problems.isEmpty {
            return .problem(phrase("permissions"), problems.map(\.0).joined(separator: "; "),
                            fix: problems.map(\.1).joined(separator: "; "), status: .vault)
        }
        if !warnings.isEmpty {
            return .warning(phrase("permissions"), warnings.map(\.0).joined(separator: "; "), fix: warnings.map(\.1).joined(separator: "; "))
        }
        return .ok(phrase("permissions"), msg("private to you ({1})", found.joined(separator: ", ")))
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
                return .problem(phrase("API key"), APIKeyError.malformed(source: .environment),
                                fix: msg("set {1} to the key from https://haveibeenpwned.com/API/Key, or unset it and run 'pwnvault config api-key'", Settings.apiKeyVariable))
            }
        } else {
            switch probe {
            case let .success(stored?):
                key = stored
                source = msg("the keyring's key")
                guard APIKey.isWellFormed(key) else { return .problem(phrase("API key"), APIKeyError.malformed(source: .keyring)) }
            case .success(nil):
                return .warning(phrase("API key"), msg("none stored and {1} is unset: checking accounts needs one ({2} accounts work without)", Settings.apiKeyVariable, APIKey.testDomain),
                                fix: APIKeyError.none(keyringProblem: nil).hint)
            case let .failure(KeyringError.needsApproval(provider)):
                return .warning(phrase("API key"), msg("stored in {1}, which asks you to allow each run: not read here, and unattended runs (watch, the timer) cannot use it", provider.name),
                                fix: msg("{1}, or set {2} for scripts", provider.unattendedAdvice, Settings.apiKeyVariable))
            case let .failure(error):
                let reason = (error as? KeyringError)?.reason ?? msg("the keyring failed")
                return .warning(phrase("API key"), msg("{1} is unset and the keyring cannot be asked ({2})", Settings.apiKeyVariable, reason),
                                fix: msg("set {1}, or fix the keyring and run 'pwnvault config api-key'", Settings.apiKeyVariable))
            }
        }
        guard apiReachable else {
            return .warning(phrase("API key"), msg("{1} is well-formed; not verified because HIBP cannot be reached", source))
        }
        // Like every keyed request, through the run's check session: asked once, within doctor's deadline.
        let session = HIBPServices(context).checkSession(key: key, vault: nil, options: .init(requestTimeout: timeout, retries: false))
        do {
            let status = try blocking { try await session.one { try await $0.subscriptionStatus() } }
            let plan = Sanitizer.singleLine(status.subscriptionName)
            return .ok(phrase("API key"), status.rpm.map { msg("{1} is accepted by HIBP (subscription {2}, {3} requests a minute)", source, plan, $0) }
                ?? msg("{1} is accepted by HIBP (subscription {2})", source, plan))
        } catch let error as HIBPError {
            switch error {
            case .unauthorized, .forbidden, .missingAPIKey:
                return .problem(phrase("API key"), msg("HIBP refused {1}: {2}", source, error.message),
                                fix: msg("check the key at https://haveibeenpwned.com/API/Key and store it again with 'pwnvault config api-key'"),
                                status: .apiAuthorization)
            case let .waitTooLong(seconds, _), let .heldTooLong(seconds, _):
                // Doctor asks once and waits for nothing: a 429 is said as what it is, not as a wait too long.
                return .warning(phrase("API key"), msg("{1} is well-formed; HIBP could not confirm it ({2})", source,
                                                       HIBPError.rateLimited(retryAfter: Double(seconds)).message))
            default:
                return .warning(phrase("API key"), msg("{1} is well-formed; HIBP could not confirm it ({2})", source, error.message))
            }
        } catch {
            return .warning(phrase("API key"), msg("{1} is well-formed; HIBP could not confirm it", source))
        }
    }

    // MARK: network

    /// One GET of a public endpoint that needs no key and answers a small body.
    private func reach(_ base: URL, path: String, name: String, variable: String) -> DoctorCheck {
        var text = base.absoluteString
        if !text.hasSuffix("/") { text += "/" }
        let shown = Sanitizer.singleLine(text)
        guard let url = URL(string: text + path) else {
            return .problem(name, msg("{1} is not a valid address", shown), fix: msg("correct or unset {1}", variable), status: .network)
        }
        let request = HTTPRequest(url: url, headers: ["user-agent": userAgent, "accept": "application/json"], timeout: timeout)
        let transport = self.transport
        let local = !base.absoluteString.hasPrefix("https://"), set = context.settings.variablesSet.contains(variable)
        let fix = local && set ? msg("check the network connection and whether the server at {1} runs, or correct or unset {2}", shown, variable)
            : local ? msg("check the network connection and whether the server at {1} runs", shown)
            : set ? msg("check the network connection, or correct or unset {1}", variable)
            : msg("check the network connection")
        do {
            let response = try blocking { try await transport.send(request) }
            guard response.status == 200, !response.body.isEmpty else {
                return .problem(name, msg("{1} answered HTTP {2} to {3}", shown, response.status, path), fix: fix, status: .network)
            }
            return .ok(name, msg("{1} answers", shown))
        } catch let error as HTTPTransportError {
            return .problem(name, msg("cannot reach {1}: {2}", shown, HIBPError(error).message), fix: fix, status: .network)
        } catch {
            return .problem(name, msg("cannot reach {1}", shown), fix: fix, status: .network)
        }
    }

    // MARK: this process

    /// How `check` and `watch` will look e-mail addresses up: by k-anonymity, or whole (and why).
    private func lookup(_ key: SecretBytes?) -> DoctorCheck {
        // The key check and watch would use: the environment's before the keyring's.
        let env = context.settings.environmentAPIKey?.secret()
        return .ok(phrase("lookup"), LookupText.describe(context, key: env ?? key))
    }

    private func shareMode() -> DoctorCheck {
        if let reason = context.shareReason { return .ok(phrase("share mode"), msg("on ({1})", reason)) }
        if context.settings.shareMode { return .ok(phrase("share mode"), msg("on ({1} is set)", Settings.shareVariable)) }
        if context.arguments.has(GlobalOptions.noShare) { return .ok(phrase("share mode"), msg("off for this run (--no-share)")) }
        if let reason = ShareModeDetector().detect(environment: context.environment) {
            return .ok(phrase("share mode"), msg("on whenever accounts are shown on this terminal ({1})", reason))
        }
        return .ok(phrase("share mode"), msg("off: no screen share or terminal recorder detected (--share or {1}=1 turn it on)", Settings.shareVariable))
    }

    /// Reads this process's core-file limit, which `ProcessHygiene.harden` sets to 0 at start.
    private func coreDumps() -> DoctorCheck {
        guard let limits = try? String(contentsOfFile: "/proc/self/limits", encoding: .utf8),
              let line = limits.split(separator: "\n").first(where: { $0.hasPrefix("Max core file size") }) else {
            return .warning(phrase("core dumps"), msg("cannot tell (/proc/self/limits is unreadable)"))
        }
        let fields = line.dropFirst("Max core file size".count).split(separator: " ")
        guard fields.count >= 2 else { return .warning(phrase("core dumps"), msg("cannot tell (unexpected /proc/self/limits)")) }
        if fields[0] == "0" && fields[1] == "0" { return .ok(phrase("core dumps"), msg("disabled for pwnvault (core file size limit 0)")) }
        return .problem(phrase("core dumps"), msg("a crash could write memory to disk (core file size limit {1})", fields[0]),
                        fix: msg("please report this: pwnvault turns core dumps off when it starts"), status: .vault)
    }

    /// Files beside the binary that pwnvault would not load (`TrustedPath`'s rule): a line only when one
    /// is refused, so a sound installation's report is unchanged.
    private func trustOnDisk() -> [DoctorCheck] {
        var checks: [DoctorCheck] = []
        if let refusal = PhoneNumberLibrary.trustRefusal() {
            let error = PhoneLibraryError.untrusted(refusal)
            checks.append(.warning(phrase("phone numbers"), error.message, fix: error.hint))
        }
        for refusal in Gettext.loaded?.refused ?? [] {
            switch refusal {
            case let .untrusted(why):
                checks.append(.warning(phrase("messages"), msg("a message catalog beside pwnvault is not used, because {1}", why.reason),
                                       fix: msg("pwnvault reads catalogs beside itself only from files and folders that only root or you can change: correct that owner or mode, or set TEXTDOMAINDIR")))
            case let .dividingPluralForms(file, expression):
                checks.append(.warning(phrase("messages"),
                                       msg("the message catalog {1} is not used: its Plural-Forms divides by something other than a non-zero number ({2}); messages are in English",
                                           Sanitizer.singleLine(file), Sanitizer.singleLine(expression)),
                                       fix: msg("reinstall pwnvault's catalogs with 'make install', or correct the catalog's Plural-Forms")))
            }
        }
        return checks
    }

    private func userError(_ name: String, _ error: Error, status: ExitStatus) -> DoctorCheck {
        if let error = error as? UserFacingError { return .problem(name, error) }
        return .problem(name, Sanitizer.singleLine(String(describing: error)), fix: msg("see 'pwnvault help'"), status: status)
    }
}
