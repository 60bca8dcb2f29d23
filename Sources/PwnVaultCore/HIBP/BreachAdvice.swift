/// What to do about a breach, one short line per exposed data class: the one table of advice that
/// `show`, `breach` and `watch` print for breaches nobody acknowledged yet.
///
/// Keys are HIBP's data-class names, compared case-insensitively; classes without advice of their own
/// (IP addresses, genders, …) add nothing. Order is the table's, most urgent first, whatever order the
/// breach lists them in.
public enum BreachAdvice {
    /// Whom a line of advice is about: the account at the breached site (change the password there),
    /// or the person whatever the site (expect phishing): the latter is said once per account.
    public enum Scope: Sendable { case site, person }

    /// `(data classes it applies to, advice)`, most urgent first.
    static var table: [(classes: [String], advice: String)] { scoped.map { ($0.classes, $0.advice) } }

    /// The table with each row's scope.
    static var scoped: [(classes: [String], advice: String, scope: Scope)] { [
        (["Passwords"], msg("change the password there and wherever you reused it; turn on two-factor authentication"), .site),
        (["Password hints"], msg("a hint can give the password away: change the password and the hint"), .site),
        (["Auth tokens", "Session tokens"], msg("sign out of every session there, so stolen sessions end"), .site),
        (["Security questions and answers"], msg("change the security answers there and wherever the same questions are asked"), .site),
        (["Credit cards", "Partial credit card data", "Bank account numbers", "Payment histories", "Credit status information"],
         msg("tell your bank or card issuer and watch your statements; ask for a new card"), .person),
        (["Government issued IDs", "Social security numbers", "Passport numbers", "Driver's licenses", "Tax file numbers"],
         msg("consider a credit freeze; an identity document may need replacing"), .person),
        (["Phone numbers"], msg("expect text-message phishing; ask your carrier for a SIM-swap (port-out) PIN"), .person),
        (["Physical addresses"], msg("expect letters and parcels that pretend to know you; scams may quote your address"), .person),
        (["Dates of birth"], msg("never use your birth date as a password or to prove who you are"), .person),
        (["Email addresses"], msg("expect phishing e-mails that quote this breach; never follow their links"), .person),
        (["Private messages", "Chat logs"], msg("what you wrote there may be read by others: warn the people concerned"), .site),
    ] }

    /// The advice lines for `dataClasses`, one per table row that any of them matches, table order.
    public static func lines(for dataClasses: [String]) -> [String] {
        let have = Set(dataClasses.map { $0.lowercased() })
        return table.filter { row in row.classes.contains { have.contains($0.lowercased()) } }.map(\.advice)
    }

    /// The advice for a breach.
    public static func lines(for breach: Breach) -> [String] { lines(for: breach.dataClasses) }

    /// The advice of one scope for a breach, table order.
    public static func lines(for breach: Breach, scope: Scope) -> [String] {
        let have = Set(breach.dataClasses.map { $0.lowercased() })
        return scoped.filter { row in row.scope == scope && row.classes.contains { have.contains($0.lowercased()) } }.map(\.advice)
    }

    /// The advice about the person for all of `breaches`, each line once, table order.
    public static func accountWide(for breaches: [Breach]) -> [String] {
        let have = Set(breaches.flatMap(\.dataClasses).map { $0.lowercased() })
        let phishing = breaches.filter { $0.dataClasses.contains { $0.lowercased() == "email addresses" } }.count
        return scoped.filter { row in row.scope == .person && row.classes.contains { have.contains($0.lowercased()) } }.map { row in
            // Said once for several breaches: the phishing line names them all.
            row.classes == ["Email addresses"] && phishing > 1
                ? msg("expect phishing e-mails that quote these breaches; never follow their links") : row.advice
        }
    }
}
