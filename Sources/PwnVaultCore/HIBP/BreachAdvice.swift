/// What to do about a breach, one short line per exposed data class: the one table of advice that
/// `show`, `breach` and `watch` print for breaches nobody acknowledged yet.
///
/// Keys are HIBP's data-class names, compared case-insensitively; classes without advice of their own
/// (IP addresses, genders, …) add nothing. Order is the table's, most urgent first, whatever order the
/// breach lists them in.
public enum BreachAdvice {
    /// `(data classes it applies to, advice)`, most urgent first.
    static var table: [(classes: [String], advice: String)] { [
        (["Passwords"], msg("change the password there and wherever you reused it; turn on two-factor authentication")),
        (["Password hints"], msg("a hint can give the password away: change the password and the hint")),
        (["Auth tokens", "Session tokens"], msg("sign out of every session there, so stolen sessions end")),
        (["Security questions and answers"], msg("change the security answers there and wherever the same questions are asked")),
        (["Credit cards", "Partial credit card data", "Bank account numbers", "Payment histories", "Credit status information"],
         msg("tell your bank or card issuer and watch your statements; ask for a new card")),
        (["Government issued IDs", "Social security numbers", "Passport numbers", "Driver's licenses", "Tax file numbers"],
         msg("consider a credit freeze; an identity document may need replacing")),
        (["Phone numbers"], msg("expect text-message phishing; ask your carrier for a SIM-swap (port-out) PIN")),
        (["Physical addresses"], msg("expect letters and parcels that pretend to know you; scams may quote your address")),
        (["Dates of birth"], msg("never use your birth date as a password or to prove who you are")),
        (["Email addresses"], msg("expect phishing e-mails that quote this breach; never follow their links")),
        (["Private messages", "Chat logs"], msg("what you wrote there may be read by others: warn the people concerned")),
    ] }

    /// The advice lines for `dataClasses`, one per table row that any of them matches, table order.
    public static func lines(for dataClasses: [String]) -> [String] {
        let have = Set(dataClasses.map { $0.lowercased() })
        return table.filter { row in row.classes.contains { have.contains($0.lowercased()) } }.map(\.advice)
    }

    /// The advice for a breach.
    public static func lines(for breach: Breach) -> [String] { lines(for: breach.dataClasses) }
}
