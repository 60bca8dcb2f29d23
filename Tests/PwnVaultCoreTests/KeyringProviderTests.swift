import Foundation
import XCTest
@testable import PwnVaultCore

/// Who serves the keyring, and the words each provider gets.
final class KeyringProviderTests: XCTestCase {
    func testProvidersAreNamedFromTheirProgramNames() {
        // What /proc shows for each daemon (comm is cut to 15 bytes; exe is the file's name).
        XCTAssertEqual(KeyringProvider.named("gnome-keyring-daemon"), .gnomeKeyring)
        XCTAssertEqual(KeyringProvider.named("gnome-keyring-d"), .gnomeKeyring)
        XCTAssertEqual(KeyringProvider.named("keepassxc"), .keePassXC)
        XCTAssertEqual(KeyringProvider.named("KeePassXC"), .keePassXC)
        XCTAssertEqual(KeyringProvider.named("kwalletd5"), .kWallet)
        XCTAssertEqual(KeyringProvider.named("kwalletd6"), .kWallet)
        XCTAssertEqual(KeyringProvider.named("ksecretd"), .kWallet)
        XCTAssertEqual(KeyringProvider.named("python3.11"), .other("python3.11"))
        // A name is shown in messages: nothing but printable ASCII, at most 32 characters.
        XCTAssertEqual(KeyringProvider.named("evil\u{1b}[31m\nname"), .other("evil[31mname"))
        XCTAssertEqual(KeyringProvider.named(String(repeating: "x", count: 100)), .other(String(repeating: "x", count: 32)))
        XCTAssertEqual(KeyringProvider.named("\u{1b}\n"), .unknown)
    }

    func testThisProcessIsNamedFromProc() {
        // The test runner is no keyring: read from /proc like any provider's pid.
        guard case let .other(name) = KeyringProvider.running(pid: UInt32(getpid())) else {
            return XCTFail("\(KeyringProvider.running(pid: UInt32(getpid())))")
        }
        XCTAssertFalse(name.isEmpty)
        XCTAssertEqual(KeyringProvider.running(pid: UInt32(Int32.max)), .unknown, "no such process")
    }

    func testEveryErrorSaysItInTheProvidersWordsWithAHintThatFitsIt() {
        XCTAssertEqual(KeyringError.locked(.keePassXC).reason, "KeePassXC's database is locked")
        XCTAssertEqual(KeyringError.locked(.kWallet).reason, "KWallet's wallet is closed")
        XCTAssertEqual(KeyringError.locked(.gnomeKeyring).reason, "the GNOME keyring is locked")
        XCTAssertTrue(KeyringError.locked(.gnomeKeyring).hint!.contains("Seahorse"))
        XCTAssertFalse(KeyringError.locked(.keePassXC).hint!.contains("Seahorse"), "no GNOME advice for KeePassXC users")
        XCTAssertTrue(KeyringError.locked(.keePassXC).hint!.contains("unlock the database in KeePassXC"))
        XCTAssertTrue(KeyringError.needsApproval(.keePassXC).hint!.contains("Confirm when passwords are retrieved by clients"))
        XCTAssertTrue(KeyringError.noCollection(.keePassXC).hint!.contains("expose a group"))
        XCTAssertTrue(KeyringError.noCollection(.kWallet).hint!.contains("apiEnabled=true"))
        XCTAssertEqual(KeyringError.unanswered(.keePassXC, milliseconds: 60_000).reason, "nobody answered KeePassXC's dialog within 60 s")
        XCTAssertTrue(KeyringError.unanswered(.keePassXC, milliseconds: 1_500).hint!.contains("PWNVAULT_KEYRING_PROMPT_TIMEOUT_MS"))
        XCTAssertTrue(KeyringError.timedOut(.keePassXC).hint!.contains("is KeePassXC showing a dialog?"))
        for error in [KeyringError.locked(.other("odd")), .needsApproval(.unknown), .timedOut(.other("odd")), .refused(.unknown)] {
            XCTAssertFalse(error.reason.isEmpty)
            XCTAssertEqual(error.exitStatus, .keyring)
            XCTAssertFalse(error.hint!.contains("Seahorse"), "\(error)")
        }
        // Every tested provider has its set-up said (help environment, the README).
        for provider in KeyringProvider.tested { XCTAssertNotNil(provider.setUp, "\(provider)") }
    }

    func testItemLabelsHoldNoPathAndNoSlash() {
        let item = KeyringItem.vaultKey(vaultID: "0123456789abcdef0123456789abcdef")
        XCTAssertEqual(item.label, "pwnvault vault key 0123456789abcdef")
        XCTAssertFalse(KeyringItem.apiKey.label.contains("/"))
        XCTAssertEqual(item.attributes.map(\.0), ["application", "type", "vault-id"])
    }

    func testTheUnattendedInteractionNeverAllowsADialog() {
        XCTAssertFalse(KeyringInteraction.unattended.allowsDialogs)
    }
}
