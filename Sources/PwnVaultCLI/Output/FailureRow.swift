import FoundationEssentials
import PwnVaultCore

/// A failed latest attempt in `--json` output (`"lastFailure": {"at": …, "error": …}`), next to the
/// last good answer that it did not erase.
struct FailureRow: Encodable {
    let at: Date
    let error: String

    init?(_ failure: CheckFailure?) {
        guard let failure else { return nil }
        at = failure.at
        error = failure.message
    }
}
