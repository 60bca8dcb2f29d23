import PwnVaultCore

/// One line of `pwnvault doctor`'s report: what was checked, how it went, and what to do about it.
/// Details never contain a secret or an account (they may end up in a bug report).
struct DoctorCheck: Encodable {
    enum Outcome: String, Encodable { case ok, warning, problem }

    /// The area checked: `keyring`, `vault`, `unlock`, `key derivation`, `permissions`, `api key`,
    /// `api`, `pwned passwords`, `lookup` (k-anonymity or whole address), `share mode`, `core dumps`,
    /// `coverage` (what "no breach found" covers, for a vault holding phone numbers or usernames); and,
    /// only when something beside the binary is refused, `phone numbers` and `messages`.
    let name: String
    let outcome: Outcome
    let detail: String
    /// What to do; always present for a problem, sometimes for a warning.
    let fix: String?
    /// The exit status a problem here stands for (not in the JSON: the run's status says it).
    let failureStatus: ExitStatus

    enum CodingKeys: String, CodingKey { case name, outcome, detail, fix }

    /// The name (a `phrase`) in the reader's language, for the text report (the JSON keeps it in English).
    var shownName: String { Messages.shown(name) }

    static func ok(_ name: String, _ detail: String) -> DoctorCheck {
        DoctorCheck(name: name, outcome: .ok, detail: detail, fix: nil, failureStatus: .success)
    }

    static func warning(_ name: String, _ detail: String, fix: String? = nil) -> DoctorCheck {
        DoctorCheck(name: name, outcome: .warning, detail: detail, fix: fix, failureStatus: .success)
    }

    static func problem(_ name: String, _ detail: String, fix: String, status: ExitStatus) -> DoctorCheck {
        DoctorCheck(name: name, outcome: .problem, detail: detail, fix: fix, failureStatus: status)
    }

    /// A problem from an error that already knows its message, hint and status.
    static func problem(_ name: String, _ error: UserFacingError, fix: String? = nil) -> DoctorCheck {
        problem(name, error.message, fix: fix ?? error.hint ?? msg("see 'pwnvault help'"), status: error.exitStatus)
    }
}
