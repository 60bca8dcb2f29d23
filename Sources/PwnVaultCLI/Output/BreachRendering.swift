import FoundationEssentials
import PwnVaultCore

/// The one rendering of breaches, for every command that shows them (`check`, `show`, `breach`,
/// `breaches`): data classes in the reader's language (`DataClassNames`), dates as HIBP gives them (UTC, whatever `TZ`
/// says), the flags a reader must know (fabricated, spam list, unverified, retired, malware, …),
/// descriptions as plain text (never raw HTML), wrapped to the console's width with a hanging indent
/// on a terminal and unwrapped elsewhere. Which breaches may be named is not decided here: that is
/// the disclosure gate's answer (`Disclosure.breaches`), already newest first.
///
/// What the vault remembers about an account's breaches (issue 9) is shown from the gate's answer:
/// `(acknowledged)` after one the user dealt with, and advice per data class under every breach not
/// acknowledged yet (what concerns the person rather than the site, once per account). `NEW` is a
/// run's word: `check`'s lines only.
struct BreachRendering {
    let console: Console

    init(_ console: Console) { self.console = console }

    // MARK: one line, one entry

    /// A breach in one line: its title (the name when only the name is known), then its flags in
    /// brackets: `River City Media Spam List [spam list]`.
    func title(_ b: Breach) -> String {
        let flags = Self.flags(b)
        let name = Sanitizer.singleLine(b.hasDetails ? b.title : b.name)
        return flags.isEmpty ? name : Self.flagged(name, flags)
    }

    /// Titles for a one-line list (`check`, `domain`): breaches in the gate's order (newest first), each
    /// new one followed by `newMark` (nil: no marks), then what is only counted.
    func titles(_ disclosed: DisclosedBreaches, newMark: String? = msg("NEW"), inVault: Bool = true) -> [String] {
        named(disclosed, newMark: newMark) + disclosed.countedNotes(newMark: newMark, inVault: inVault)
    }

    /// The named breaches only, each new one followed by `newMark`, and one HIBP no longer lists by that.
    func named(_ disclosed: DisclosedBreaches, newMark: String?) -> [String] {
        disclosed.shown.map { b in
            title(b) + (newMark.map { disclosed.isNew(b) ? " " + $0 : "" } ?? "")
                + (disclosed.unlistedSince(b) == nil ? "" : " " + (disclosed.isRetired(b) ? msg("(retired by HIBP)") : msg("(no longer listed)")))
        }
    }

    /// One breach in an account's list (`show`): `2013-10-04  Adobe [unverified]  NEW`, what was
    /// exposed, and (unless acknowledged) what to do, each under a hanging indent.
    func entry(_ b: Breach, in disclosed: DisclosedBreaches? = nil) -> [String] {
        let date = b.breachDate.map { "\($0)" } ?? TerminalCells.pad(msg("unknown"), to: 10)
        // A stored view: no NEW (that is a run's word); what is dealt with says so, the rest waits.
        var mark = disclosed.map { d in d.isAcknowledged(b) ? "  " + console.styled(msg("(acknowledged)"), .dim) : "" } ?? ""
        if let d = disclosed, let since = d.unlistedSince(b) {
            mark += "  " + console.styled(d.isRetired(b) ? msg("(retired by HIBP, no longer listed since {1})", Self.day(since))
                                                       : msg("(no longer listed by HIBP since {1})", Self.day(since)), .yellow)
        }
        var lines = console.hanging(date + "  ", styledTitle(b) + mark)
        if !b.dataClasses.isEmpty {
            lines += console.hanging("            " + msg("exposed: "), dataClasses(b))
        }
        if let disclosed, !disclosed.isAcknowledged(b) {
            // What to do at this site; what concerns the person (phishing, …) comes once after the list.
            for advice in BreachAdvice.lines(for: b, scope: .site) { lines += console.hanging("            → ", advice) }
        }
        return lines
    }

    /// Everything the catalog says about one breach (`breach NAME`), and what to do if one's
    /// account is in it.
    func details(_ b: Breach) -> [String] {
        let flags = Self.allFlags(b).map(Messages.shown)
        var lines = console.wrapped(console.styled(Sanitizer.singleLine(b.title), .bold)
                                    + (b.domain.isEmpty ? "" : "  (\(Sanitizer.singleLine(b.domain)))")) + [""]
        // The labels padded to the widest and two cells more, in terminal cells (a translation may be wider).
        let fields = [(msg("breach date:"), b.breachDate.map { "\($0)" } ?? msg("unknown")),
                      (msg("added to HIBP:"), b.addedDate.map(Self.day) ?? "-"),
                      (msg("accounts affected:"), thousands(b.pwnCount)),
                      (msg("exposed:"), b.dataClasses.isEmpty ? "-" : dataClasses(b)),
                      (msg("flags:"), flags.isEmpty ? "-" : flags.joined(separator: msg(", ")))]
        let labelWidth = fields.map { TerminalCells.width($0.0) }.max()! + 2
        for (label, value) in fields { lines += console.hanging(TerminalCells.pad(label, to: labelWidth), value) }
        let (text, links) = HTMLText.render(b.descriptionHTML, width: console.width ?? 0)
        if !text.isEmpty { lines += [""] + text.components(separatedBy: "\n") }
        if !links.isEmpty {
            lines.append("")
            for (i, link) in links.enumerated() { lines += console.hanging("[\(i + 1)] ", Sanitizer.singleLine(link)) }
        }
        let advice = BreachAdvice.lines(for: b)
        if !advice.isEmpty {
            lines += ["", msg("if one of your accounts is in it:")]
            for line in advice { lines += console.hanging("  → ", line) }
        }
        return lines
    }

    /// The catalog table (`breaches`): date, title with flags, domain, size, name; fitted to the width.
    func table(_ breaches: [Breach]) -> [String] {
        // The name is what 'pwnvault breach NAME' and 'ack' take: the date shortens first (2019-07,
        // then 2019), the domain gives way, then the title down to 12 cells; a name still too wide
        // for its column moves whole onto the row below rather than being cut.
        var table = Table(header: [msg("DATE"), msg("TITLE"), msg("DOMAIN"), msg("ACCOUNTS"), msg("NAME")], keep: [0, 3],
                          giveWay: [(2, 3), (1, 12), (4, 16), (1, 8), (4, 3)], spills: 4)
        var dates: [[String]] = []
        for b in breaches {
            let date = b.breachDate.map { "\($0)" } ?? "-"
            dates.append(date.count == 10 ? [String(date.prefix(7)), String(date.prefix(4))] : [])
            table.rows.append([date, title(b),
                               b.domain.isEmpty ? "-" : Sanitizer.singleLine(b.domain),
                               thousands(b.pwnCount), Sanitizer.singleLine(b.name)])
        }
        table.forms = [0: dates]
        // Where even that cuts a name, the domain column is left out altogether (`breach NAME` shows it).
        if !table.keepsWhole(4, at: console.width) { table = table.removing(column: 2) }
        return console.lines(of: table)
    }

    // MARK: parts

    /// The data classes in the reader's language (`Email addresses, IP addresses`; 电子邮件地址、IP 地址),
    /// a class the table does not know as HIBP wrote it, cleaned for one line (`DataClassNames`).
    func dataClasses(_ b: Breach) -> String { DataClassNames.list(b.dataClasses) }

    private func styledTitle(_ b: Breach) -> String {
        let flags = Self.flags(b)
        let name = console.styled(Sanitizer.singleLine(b.hasDetails ? b.title : b.name), .bold)
        return flags.isEmpty ? name : Self.flagged(name, flags)
    }

    /// `Adobe [unverified, spam list]`; in Chinese with its own brackets and list mark (Adobe【未验证、垃圾邮件列表】).
    static func flagged(_ name: String, _ flags: [String]) -> String { msg("{1} [{2}]", name, flags.joined(separator: msg(", "))) }

    /// The flags a reader must know, most serious first. `verified` is the normal case and not shown;
    /// a breach known only by name has no flags to show.
    static func flags(_ b: Breach) -> [String] {
        guard b.hasDetails else { return [] }
        var f: [String] = []
        if b.isFabricated { f.append(msg("fabricated")) }
        if b.isSpamList { f.append(msg("spam list")) }
        if !b.isVerified { f.append(msg("unverified")) }
        if b.isRetired { f.append(msg("retired")) }
        if b.isMalware { f.append(msg("malware")) }
        if b.isStealerLog { f.append(msg("stealer log")) }
        if b.isSensitive { f.append(msg("sensitive")) }
        return f
    }

    /// Every flag that is set, for `--json` and `breach` (there through `Messages.shown`): the same
    /// words, `verified` included, as English phrases: the JSON's values stay English.
    static func allFlags(_ b: Breach) -> [String] {
        var f = [b.isVerified ? phrase("verified") : phrase("unverified")]
        if b.isSensitive { f.append(phrase("sensitive")) }
        if b.isFabricated { f.append(phrase("fabricated")) }
        if b.isSpamList { f.append(phrase("spam list")) }
        if b.isMalware { f.append(phrase("malware")) }
        if b.isStealerLog { f.append(phrase("stealer log")) }
        if b.isRetired { f.append(phrase("retired")) }
        if b.isSubscriptionFree { f.append(phrase("subscription-free")) }
        return f
    }

    /// A day of HIBP's timestamps as HIBP shows it: in UTC, whatever the local time zone.
    static func day(_ date: Date) -> String {
        let parts = utc.dateComponents([.year, .month, .day], from: date)
        return (parts.year ?? 0).padded(width: 4) + "-" + (parts.month ?? 0).padded(width: 2) + "-" + (parts.day ?? 0).padded(width: 2)
    }

    private static let utc: Calendar = {
        var c = Calendar(identifier: .gregorian)
        c.timeZone = .gmt   // FoundationEssentials knows no "UTC" identifier (no ICU time-zone data)
        return c
    }()

    // MARK: JSON

    /// A whole breach in `--json` (`breach`, `breaches`, `show`): every flag, HIBP's data classes and the
    /// description as plain text, paragraphs separated by blank lines, never hard-wrapped.
    struct JSON: Encodable {
        let name: String
        let title: String?
        let domain: String?
        let breachDate: String?
        let addedDate: Date?
        let modifiedDate: Date?
        let pwnCount: Int64?
        let dataClasses: [String]
        let flags: [String]
        let isVerified, isFabricated, isSensitive, isRetired, isSpamList, isMalware, isStealerLog, isSubscriptionFree: Bool
        let description: String?
        let links: [String]
        let attribution: String?
        let disclosureUrl: String?
        /// For an account's breach (`show`): first seen by the latest check and not acknowledged.
        let new: Bool?
        /// For an account's breach: the user said it was dealt with (`ack`).
        let acknowledged: Bool?
        /// What to do when one's account is in it, one line per kind of data exposed (none once acknowledged).
        let advice: [String]?
        /// For an account's breach: whether HIBP's latest answer lists it (false: found earlier, no longer listed).
        let listed: Bool?
        /// For an account's breach no longer listed: when HIBP stopped listing it.
        let unlistedSince: Date?

        /// An account's breach, as the gate disclosed it: with its new and acknowledged marks and advice.
        init(_ b: Breach, in disclosed: DisclosedBreaches) {
            let acknowledged = disclosed.isAcknowledged(b)
            let since = disclosed.unlistedSince(b)
            self.init(b, advice: !acknowledged, new: disclosed.isNew(b), acknowledged: acknowledged, listed: since == nil, unlistedSince: since)
        }

        /// A catalog entry; `advice` adds what to do when one's account is in it.
        init(_ b: Breach, advice: Bool = false, new: Bool? = nil, acknowledged: Bool? = nil, listed: Bool? = nil, unlistedSince: Date? = nil) {
            self.new = new
            self.listed = listed; self.unlistedSince = unlistedSince
            self.acknowledged = acknowledged
            // The JSON's advice stays English whatever the reader's language (a script reads it).
            self.advice = advice ? Messages.english { BreachAdvice.lines(for: b) } : (acknowledged == true ? [] : nil)
            let known = b.hasDetails
            let (text, links) = HTMLText.render(b.descriptionHTML, width: 0)
            name = Sanitizer.singleLine(b.name)
            title = known ? Sanitizer.singleLine(b.title) : nil
            domain = known ? Sanitizer.singleLine(b.domain) : nil
            breachDate = b.breachDate.map { "\($0)" }
            addedDate = b.addedDate; modifiedDate = b.modifiedDate
            pwnCount = known ? b.pwnCount : nil
            dataClasses = b.dataClasses.map(Sanitizer.singleLine)
            flags = known ? BreachRendering.allFlags(b) : []
            isVerified = b.isVerified; isFabricated = b.isFabricated; isSensitive = b.isSensitive; isRetired = b.isRetired
            isSpamList = b.isSpamList; isMalware = b.isMalware; isStealerLog = b.isStealerLog; isSubscriptionFree = b.isSubscriptionFree
            description = known ? text : nil
            self.links = links.map(Sanitizer.singleLine)
            attribution = b.attribution.map(Sanitizer.singleLine)
            disclosureUrl = b.disclosureURL.map(Sanitizer.singleLine)
        }
    }
}
