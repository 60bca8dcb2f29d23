import Foundation
import TestSupport
import XCTest

/// Issue 31, "meaning in types": a decision (which hint, which exit status) is made on a case, never by
/// comparing a message, so a translation cannot change it. Each path that used to compare text runs here
/// under LANG=C and under LANG=zh_CN.UTF-8 (the same catalogs and LOCPATH) and must decide the same.
final class DecisionsInEveryLanguageEndToEndTests: XCTestCase {
    /// watch on a vault whose key is not in the keyring: the keyring works but lacks the key, so the hint
    /// says how to put it there (a locked keyring would get the provider's advice alone). This choice
    /// compared the keyring layer's reason with its English and translated wording before.
    func testWatchWithoutTheVaultKeyGetsTheSameHintInEveryLanguage() throws {
        let languages = [("C", try ChineseLocale.english(), "run 'pwnvault list' once on a terminal"),
                         ("zh_CN", try ChineseLocale.chinese(), "在终端上运行一次 'pwnvault list'")]
        for (name, environment, hint) in languages {
            let s = try Sandbox(inProcess: true, keyring: true)
            let created = s.run(["init", "--kdf", "interactive", "--weak-passphrase-ok"], env: ["PWNVAULT_KEYRING": "none"].merging(environment) { $1 })
            XCTAssertEqual(created.status, 0, created.all)
            let watch = s.run(["watch"], env: environment, passphraseFromFile: false)
            XCTAssertEqual(watch.status, 5, "\(name): \(watch.all)")
            let hints = watch.stderr.split(separator: "\n").filter { $0.contains("hint:") || $0.contains("提示：") }
            XCTAssertEqual(hints.count, 1, "\(name): \(watch.stderr)")
            XCTAssertTrue(hints.first?.contains(hint) == true, "\(name): the hint for a keyring without the key: \(watch.stderr)")
        }
    }
}
