/// The orders `pwnvault breaches --sort` offers.
public enum BreachSort: String, Sendable, CaseIterable {
    /// Newest breach first (by `BreachDate`; undated last).
    case date
    /// Largest first (by `PwnCount`).
    case size
    /// By title, A to Z, ignoring case and accents.
    case name
}
