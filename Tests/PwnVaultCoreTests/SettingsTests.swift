import Foundation
import XCTest
import PwnVaultCore

/// `Settings` from made-up environments, and `APIURLPolicy` against addresses meant to slip past it.
final class SettingsTests: XCTestCase {
    // MARK: Defaults and parsing

    func testAnEmptyEnvironmentGivesTheDocumentedDefaults() throws {
        let s = try Settings(environment: [:])
        XCTAssertNil(s.vaultPath)
        XCTAssertEqual(s.keyring, .auto)
        XCTAssertEqual(s.keyringTimeoutMilliseconds, 2000)
        XCTAssertNil(s.passphraseFile)
        XCTAssertEqual(s.apiBaseURL.absoluteString, "https://haveibeenpwned.com/api/v3")
        XCTAssertEqual(s.passwordsBaseURL.absoluteString, "https://api.pwnedpasswords.com")
        XCTAssertFalse(s.hasAPIKeyInEnvironment)
        XCTAssertFalse(s.shareMode)
        XCTAssertFalse(s.noColor)
        XCTAssertNil(s.term)
        XCTAssertNil(s.pager)
        XCTAssertNil(s.home)
        XCTAssertNil(s.dataHome)
        XCTAssertNil(s.cacheHome)
        XCTAssertNil(s.configHome)
    }

    func testEveryVariableIsRead() throws {
        let s = try Settings(environment: [
            "PWNVAULT_VAULT": "~/v", "PWNVAULT_KEYRING": "none", "PWNVAULT_KEYRING_TIMEOUT_MS": "150",
            "PWNVAULT_PASSPHRASE_FILE": "/run/secret", "PWNVAULT_API_URL": "http://127.0.0.1:8080/api/v3/",
            "PWNVAULT_PASSWORDS_URL": "http://localhost:8081", "HIBP_API_KEY": "0123abcd", "PWNVAULT_SHARE": "1",
            "NO_COLOR": "1", "TERM": "xterm-256color", "PAGER": "less -R", "HOME": "/home/al",
            "XDG_DATA_HOME": "/d", "XDG_CACHE_HOME": "/c", "XDG_CONFIG_HOME": "/f",
        ])
        XCTAssertEqual(s.vaultPath, "~/v")
        XCTAssertEqual(s.keyring, Settings.KeyringMode.none)
        XCTAssertEqual(s.keyringTimeoutMilliseconds, 150)
        XCTAssertEqual(s.passphraseFile, "/run/secret")
        XCTAssertEqual(s.apiBaseURL.absoluteString, "http://127.0.0.1:8080/api/v3")
        XCTAssertEqual(s.passwordsBaseURL.absoluteString, "http://localhost:8081")
        XCTAssertTrue(s.hasAPIKeyInEnvironment)
        XCTAssertTrue(s.shareMode)
        XCTAssertTrue(s.noColor)
        XCTAssertEqual(s.term, "xterm-256color")
        XCTAssertEqual(s.pager, "less -R")
        XCTAssertEqual(s.home, "/home/al")
        XCTAssertEqual(s.dataHome, "/d")
        XCTAssertEqual(s.cacheHome, "/c")
        XCTAssertEqual(s.configHome, "/f")
    }

    func testXDGFoldersDefaultUnderHomeAndCountOnlyWhenAbsolute() throws {
        let s = try Settings(environment: ["HOME": "/home/al", "XDG_DATA_HOME": "relative/data",
                                           "XDG_CACHE_HOME": "", "XDG_CONFIG_HOME": "~/.config"])
        XCTAssertEqual(s.dataHome, "/home/al/.local/share")
        XCTAssertEqual(s.cacheHome, "/home/al/.cache")
        XCTAssertEqual(s.configHome, "/home/al/.config")
        XCTAssertNil(try Settings(environment: ["HOME": "relative"]).home)
    }

    func testTheAPIKeyValueIsNotKept() throws {
        let key = "f00dfeedcafe4242deadbeef01234567"
        let s = try Settings(environment: ["HIBP_API_KEY": key])
        XCTAssertTrue(s.hasAPIKeyInEnvironment)
        XCTAssertFalse(String(describing: s).contains(key))
        XCTAssertFalse(String(reflecting: s).contains(key))
        for child in Mirror(reflecting: s).children {
            XCTAssertFalse(String(describing: child.value).contains(key), "\(child.label ?? "?") holds the key")
        }
        XCTAssertFalse(try Settings(environment: ["HIBP_API_KEY": ""]).hasAPIKeyInEnvironment)
        // Read here once, handed out only as secret bytes.
        XCTAssertEqual(s.environmentAPIKey?.secret().withUnsafeBytes { String(decoding: $0, as: UTF8.self) }, key)
        var dumped = ""
        dump(s.environmentAPIKey, to: &dumped)
        XCTAssertFalse(dumped.contains(key) || "\(String(describing: s.environmentAPIKey))".contains(key), dumped)
        XCTAssertEqual(s.environmentAPIKey, try Settings(environment: ["HIBP_API_KEY": key]).environmentAPIKey)
        XCTAssertNotEqual(s.environmentAPIKey, try Settings(environment: ["HIBP_API_KEY": key + "0"]).environmentAPIKey)
    }

    func testVariablesSetNamesOnlyDocumentedNonEmptyOnes() throws {
        let s = try Settings(environment: ["PWNVAULT_API_URL": "http://127.0.0.1:9/api", "PWNVAULT_PASSWORDS_URL": "",
                                           "UNRELATED": "x"])
        XCTAssertEqual(s.variablesSet, ["PWNVAULT_API_URL"])
        XCTAssertEqual(try Settings(environment: [:]).variablesSet, [])
    }

    func testEmptyVariablesCountAsUnset() throws {
        let s = try Settings(environment: ["PWNVAULT_VAULT": "", "PWNVAULT_KEYRING": "", "PWNVAULT_KEYRING_TIMEOUT_MS": "",
                                           "PWNVAULT_API_URL": "", "NO_COLOR": "", "PWNVAULT_SHARE": "", "PAGER": ""])
        XCTAssertEqual(s, try Settings(environment: [:]))
    }

    func testShareModeIsOnForAnyValueButTheUsualNos() throws {
        for on in ["1", "yes", "true", "on", "anything"] {
            XCTAssertTrue(try Settings(environment: ["PWNVAULT_SHARE": on]).shareMode, on)
        }
        for off in ["0", "no", "false", "off", "OFF", "No"] {
            XCTAssertFalse(try Settings(environment: ["PWNVAULT_SHARE": off]).shareMode, off)
        }
    }

    func testAnUnknownKeyringModeIsRefusedRatherThanGuessed() {
        for value in ["off", "NONE", "yes", "secret-service"] {
            XCTAssertThrowsError(try Settings(environment: ["PWNVAULT_KEYRING": value])) { error in
                XCTAssertEqual(error as? SettingsError,
                               .invalidValue(variable: "PWNVAULT_KEYRING", value: value, expected: "none or auto"))
            }
        }
        let error = SettingsError.invalidValue(variable: "PWNVAULT_KEYRING", value: "off", expected: "none or auto")
        XCTAssertEqual(error.message, "PWNVAULT_KEYRING is set to 'off', which is not none or auto")
        XCTAssertEqual(error.hint, "fix PWNVAULT_KEYRING or unset it to use the default")
        XCTAssertEqual(error.exitStatus, .usage)
    }

    func testTheLongestWaitIsAPlainNumberOfSecondsInRange() throws {
        XCTAssertEqual(try Settings(environment: [:]).maxWaitSeconds, 60)
        XCTAssertEqual(try Settings(environment: ["PWNVAULT_MAX_WAIT": "5"]).maxWaitSeconds, 5)
        XCTAssertEqual(try Settings(environment: ["PWNVAULT_MAX_WAIT": "86400"]).maxWaitSeconds, 86_400)
        for bad in ["0", "-1", "86401", "1.5", " 5", "ten"] {
            XCTAssertThrowsError(try Settings(environment: ["PWNVAULT_MAX_WAIT": bad]), bad)
        }
    }

    func testTheKeyringTimeoutMustBeAPlainNumberInRange() throws {
        XCTAssertEqual(try Settings(environment: ["PWNVAULT_KEYRING_TIMEOUT_MS": "1"]).keyringTimeoutMilliseconds, 1)
        XCTAssertEqual(try Settings(environment: ["PWNVAULT_KEYRING_TIMEOUT_MS": "600000"]).keyringTimeoutMilliseconds, 600_000)
        for bad in ["0", "-5", "+5", "1e3", "1.5", "abc", " 100", "600001", "99999999999999999999"] {
            XCTAssertThrowsError(try Settings(environment: ["PWNVAULT_KEYRING_TIMEOUT_MS": bad]), bad) { error in
                guard case let .invalidValue(variable, value, _)? = error as? SettingsError else {
                    return XCTFail("\(bad): \(error)")
                }
                XCTAssertEqual(variable, "PWNVAULT_KEYRING_TIMEOUT_MS")
                XCTAssertEqual(value, bad)
            }
        }
    }

    /// Safe by the policy, and libcurl reaches an IPv6 literal (URLSession could not: the address
    /// used to be refused when read).
    func testAnIPv6LiteralIsAccepted() {
        for (variable, address) in [("PWNVAULT_API_URL", "http://[::1]:8080/api/v3"), ("PWNVAULT_PASSWORDS_URL", "https://[2001:db8::1]")] {
            XCTAssertNoThrow(try Settings(environment: [variable: address]), address)
        }
        XCTAssertNoThrow(try Settings(environment: ["PWNVAULT_API_URL": "http://localhost:8080/api/v3"]))
    }

    func testAnUnsafeAPIAddressInTheEnvironmentIsRefusedNamingTheVariable() {
        XCTAssertThrowsError(try Settings(environment: ["PWNVAULT_API_URL": "http://192.168.1.10/api"])) { error in
            let e = error as? SettingsError
            XCTAssertEqual(e?.message, "refusing the API address 'http://192.168.1.10/api' in PWNVAULT_API_URL: "
                                     + "plain http is allowed only to this machine (127.0.0.1, ::1, localhost)")
            XCTAssertEqual(e?.hint, "use an https:// address, or http://127.0.0.1:PORT for a test server on this machine")
            XCTAssertEqual(e?.exitStatus, .usage)
        }
        XCTAssertThrowsError(try Settings(environment: ["PWNVAULT_PASSWORDS_URL": "ftp://127.0.0.1/"])) { error in
            guard case let .unsafeAPIURL(variable, _, _)? = error as? SettingsError else { return XCTFail("\(error)") }
            XCTAssertEqual(variable, "PWNVAULT_PASSWORDS_URL")
        }
    }

    func testKAnonymityIsAutoUnlessSetAndRefusesOtherValues() throws {
        XCTAssertEqual(try Settings(environment: [:]).kAnonymity, .auto)
        XCTAssertEqual(try Settings(environment: ["PWNVAULT_K_ANONYMITY": ""]).kAnonymity, .auto)
        XCTAssertEqual(try Settings(environment: ["PWNVAULT_K_ANONYMITY": "require"]).kAnonymity, .require)
        XCTAssertEqual(try Settings(environment: ["PWNVAULT_K_ANONYMITY": "off"]).kAnonymity, .off)
        XCTAssertThrowsError(try Settings(environment: ["PWNVAULT_K_ANONYMITY": "yes"]))
    }

    func testTheLocaleOfCharacterTypesFollowsPOSIXOrder() throws {
        XCTAssertNil(try Settings(environment: [:]).ctypeLocale)
        XCTAssertEqual(try Settings(environment: ["LANG": "ru_RU.KOI8-R"]).ctypeLocale, "ru_RU.KOI8-R")
        XCTAssertEqual(try Settings(environment: ["LANG": "ru_RU.KOI8-R", "LC_CTYPE": "pl_PL.ISO-8859-2"]).ctypeLocale, "pl_PL.ISO-8859-2")
        XCTAssertEqual(try Settings(environment: ["LANG": "a", "LC_CTYPE": "b", "LC_ALL": "ja_JP.SJIS"]).ctypeLocale, "ja_JP.SJIS")
        XCTAssertEqual(try Settings(environment: ["LANG": "ru_RU.KOI8-R", "LC_ALL": ""]).ctypeLocale, "ru_RU.KOI8-R", "empty counts as unset")
    }

    // MARK: Documentation

    func testTheDocumentationListsEveryVariableOnceWithADefaultAndOneLine() {
        let names = Settings.documentation.map(\.name)
        XCTAssertEqual(names.sorted(), [
            "HIBP_API_KEY", "HOME", "LANG", "LANGUAGE", "LC_ALL", "LC_CTYPE", "LC_MESSAGES", "LC_TELEPHONE", "NO_COLOR", "PAGER", "PWNVAULT_API_URL", "PWNVAULT_HTTP_TIMEOUT", "PWNVAULT_KEYRING",
            "PWNVAULT_KEYRING_PROMPT_TIMEOUT_MS", "PWNVAULT_KEYRING_TIMEOUT_MS", "PWNVAULT_K_ANONYMITY", "PWNVAULT_MAX_WAIT", "PWNVAULT_PASSPHRASE_FILE", "PWNVAULT_PASSWORDS_URL", "PWNVAULT_SHARE",
            "PWNVAULT_VAULT", "TERM", "TEXTDOMAINDIR", "XDG_CACHE_HOME", "XDG_CONFIG_HOME", "XDG_DATA_HOME",
        ])
        for entry in Settings.documentation {
            XCTAssertFalse(entry.defaultValue.isEmpty, entry.name)
            XCTAssertFalse(entry.meaning.isEmpty, entry.name)
            XCTAssertFalse(entry.meaning.contains("\n"), entry.name)
            XCTAssertTrue(entry.meaning.first!.isLowercase, entry.name)
        }
        let documented = Dictionary(uniqueKeysWithValues: Settings.documentation.map { ($0.name, $0.defaultValue) })
        XCTAssertEqual(documented["PWNVAULT_KEYRING_TIMEOUT_MS"], String(Settings.defaultKeyringTimeoutMilliseconds))
        XCTAssertEqual(documented["PWNVAULT_API_URL"], try Settings(environment: [:]).apiBaseURL.absoluteString)
        XCTAssertEqual(documented["PWNVAULT_PASSWORDS_URL"], try Settings(environment: [:]).passwordsBaseURL.absoluteString)
        XCTAssertEqual(documented["PWNVAULT_KEYRING"], try Settings(environment: [:]).keyring.rawValue)
    }

    // MARK: APIURLPolicy

    func testAcceptsHTTPSAnywhereAndHTTPToThisMachine() throws {
        let accepted: [(String, String)] = [
            ("https://haveibeenpwned.com/api/v3", "https://haveibeenpwned.com/api/v3"),
            ("https://haveibeenpwned.com/api/v3/", "https://haveibeenpwned.com/api/v3"),
            ("HTTPS://HaveIBeenPwned.COM/api/v3", "https://haveibeenpwned.com/api/v3"),
            ("https://api.pwnedpasswords.com", "https://api.pwnedpasswords.com"),
            ("https://example.com:8443/x", "https://example.com:8443/x"),
            ("https://93.184.216.34/api", "https://93.184.216.34/api"),
            ("https://[2001:db8::1]/api", "https://[2001:db8::1]/api"),
            ("https://127.0.0.1.example.com/api", "https://127.0.0.1.example.com/api"),
            ("http://127.0.0.1:8080", "http://127.0.0.1:8080"),
            ("http://127.0.0.1:8080/api/v3/", "http://127.0.0.1:8080/api/v3"),
            ("http://127.255.255.254/", "http://127.255.255.254"),
            ("http://127.0.0.0", "http://127.0.0.0"),
            ("http://localhost:3000/api/v3", "http://localhost:3000/api/v3"),
            ("http://LOCALHOST:3000", "http://localhost:3000"),
            ("http://[::1]:9999/api", "http://[::1]:9999/api"),
            ("http://[0:0:0:0:0:0:0:1]/", "http://[0:0:0:0:0:0:0:1]"),
            ("http://[::0:1]", "http://[::0:1]"),
        ]
        for (given, expected) in accepted {
            XCTAssertEqual(try APIURLPolicy.validateAPIBase(given).absoluteString, expected, given)
        }
        let base = try APIURLPolicy.validateAPIBase("http://127.0.0.1:8080/api/v3/")
        XCTAssertEqual(base.appendingPathComponent("breachedaccount").absoluteString,
                       "http://127.0.0.1:8080/api/v3/breachedaccount")
    }

    func testRefusesPlainHTTPToAnyOtherHost() {
        for address in ["http://10.0.0.1/", "http://192.168.1.10/api", "http://172.16.0.1", "http://8.8.8.8/",
                        "http://example.com/", "http://haveibeenpwned.com/api/v3", "http://128.0.0.1/",
                        "http://126.255.255.255/", "http://0.0.0.0/", "http://[::]/", "http://[::2]/",
                        "http://[fe80::1]/", "http://[::ffff:7f00:1]/"] {
            assertRefused(address, because: "plain http is allowed only to this machine (127.0.0.1, ::1, localhost)")
        }
    }

    func testRefusesHostsThatOnlyLookLikeLoopback() {
        assertRefused("http://127.0.0.1.evil.com/", because: "plain http is allowed only to this machine (127.0.0.1, ::1, localhost)")
        assertRefused("http://localhost.evil.com/", because: "plain http is allowed only to this machine (127.0.0.1, ::1, localhost)")
        assertRefused("http://evil-localhost/", because: "plain http is allowed only to this machine (127.0.0.1, ::1, localhost)")
        assertRefused("http://127.0.0.1evil.com/", because: "plain http is allowed only to this machine (127.0.0.1, ::1, localhost)")
        for odd in ["http://127.1/", "http://2130706433/", "http://0x7f000001/", "http://0x7f.0.0.1/", "http://0177.0.0.1/",
                    "http://127.0.0.01/", "http://127.0.0.1.1/", "http://127.0.0.256/", "http://127.0.0.1./",
                    "https://1.2.3/", "http://evil.com.127.0.0.1/"] {
            assertRefused(odd, because: "write an IPv4 address as four decimal numbers (like 127.0.0.1)")
        }
    }

    func testRefusesUserInfoWithoutEchoingIt() {
        for address in ["https://user:hunter2secret@haveibeenpwned.com/api/v3", "http://127.0.0.1@evil.com/",
                        "http://evil.com@127.0.0.1/", "http://hunter2secret@localhost/", "https://:hunter2secret@example.com/"] {
            assertRefused(address, because: "addresses with a user name or password are not accepted")
            do {
                _ = try APIURLPolicy.validateAPIBase(address)
            } catch let error as SettingsError {
                XCTAssertFalse(error.message.contains("hunter2secret"), error.message)
                XCTAssertFalse(error.message.contains("user:"), error.message)
            } catch {
                XCTFail("\(error)")
            }
        }
    }

    func testRefusesOtherSchemesAndMalformedAddresses() {
        let cases: [(String, String)] = [
            ("", "it is empty"),
            ("ftp://127.0.0.1/", "only https:// is allowed (and http:// to this machine)"),
            ("file:///etc/passwd", "only https:// is allowed (and http:// to this machine)"),
            ("ws://localhost/", "only https:// is allowed (and http:// to this machine)"),
            ("javascript:alert(1)", "it does not start with https://"),
            ("haveibeenpwned.com/api/v3", "it does not start with https://"),
            ("http:/127.0.0.1/", "it does not start with https://"),
            ("http://", "it has no host"),
            ("https:///api", "it has no host"),
            ("https://:443/", "it has no host"),
            ("https://haveibeenpwned.com/api?x=1", "a base address cannot have a query or fragment"),
            ("https://haveibeenpwned.com/api#frag", "a base address cannot have a query or fragment"),
            ("https://evil.com#@127.0.0.1/", "a base address cannot have a query or fragment"),
            ("https://haveibeenpwned.com/%2e%2e/x", "percent-encoded characters are not accepted in a base address"),
            ("https://%65vil.com/", "percent-encoded characters are not accepted in a base address"),
            ("https://-evil.com/", "the host name is malformed"),
            ("https://evil_host.com/", "the host name is malformed"),
            (" https://haveibeenpwned.com", "it contains spaces, control characters or non-ASCII characters"),
            ("https://haveibeenpwned.com/api v3", "it contains spaces, control characters or non-ASCII characters"),
            ("https://haveibeenpwned.com\n", "it contains spaces, control characters or non-ASCII characters"),
            ("https://hаveibeenpwned.com/", "it contains spaces, control characters or non-ASCII characters"),  // Cyrillic а
            ("http://127.0.0.1\\@evil.com/", "it contains a backslash"),
            ("http://127.0.0.1:0/", "the port must be a number from 1 to 65535"),
            ("http://127.0.0.1:65536/", "the port must be a number from 1 to 65535"),
            ("http://127.0.0.1:080/", "the port must be a number from 1 to 65535"),
            ("http://127.0.0.1:/", "the port must be a number from 1 to 65535"),
            ("http://127.0.0.1:http/", "the port must be a number from 1 to 65535"),
            ("http://127.0.0.1:80:80/", "the host has more than one ':'"),
            ("http://[::1/", "the IPv6 address is not closed with ']'"),
            ("http://[::1]x/", "unexpected characters after the IPv6 address"),
            ("http://[::1::]/", "the IPv6 address is malformed"),
            ("http://[::1%25lo]/", "percent-encoded characters are not accepted in a base address"),
            ("http://[1:2:3:4:5:6:7:8:9]/", "the IPv6 address is malformed"),
            ("http://[::ffff:127.0.0.1]/", "the IPv6 address is malformed"),   // embedded IPv4 is not accepted
        ]
        for (address, reason) in cases { assertRefused(address, because: reason) }
        assertRefused(String(repeating: "a", count: 3000), because: "it is longer than 2048 characters")
    }

    func testRefusalMessagesEscapeControlCharacters() {
        do {
            _ = try APIURLPolicy.validateAPIBase("https://x.com/\u{1B}[2J")
            XCTFail("accepted an escape sequence")
        } catch let error as SettingsError {
            XCTAssertFalse(error.message.contains("\u{1B}"))
            XCTAssertTrue(error.message.contains("\\u{1b}[2J"), error.message)
        } catch {
            XCTFail("\(error)")
        }
    }

    private func assertRefused(_ address: String, because reason: String, file: StaticString = #filePath, line: UInt = #line) {
        do {
            let url = try APIURLPolicy.validateAPIBase(address)
            XCTFail("accepted \(address) as \(url)", file: file, line: line)
        } catch let SettingsError.unsafeAPIURL(variable, _, given) {
            XCTAssertNil(variable, file: file, line: line)
            XCTAssertEqual(given, reason, address, file: file, line: line)
        } catch {
            XCTFail("\(address): unexpected \(error)", file: file, line: line)
        }
    }
}
