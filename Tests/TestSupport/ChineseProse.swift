import Foundation

/// Whether a program's output "comes out in Chinese" (issue 24): a check that fails on English output.
///
/// Each line is read as a person reads it, after what is not prose is taken out: escape sequences,
/// commands (`pwnvault check --all`, and anything in quotes: 'pwnvault help', “Adobe”), options
/// (`--all`, `-x`), URLs, e-mail addresses and masked accounts, paths, domains, `#3`, and the data
/// the caller names (labels, breach titles: vault and HIBP data is not translated). Then:
///
/// - no line holds a run of 4 or more lowercase English words not broken by punctuation or a number
///   ("close the private screen after"): an English sentence that survived translation;
/// - a line is prose when it holds an ideograph or at least 2 words of letters; more than half of the
///   prose lines must hold CJK ideographs (an English table header or status word counts against it).
///
/// Values the reader types (`never, clean, breached`) are broken by their commas; product names are
/// capitalised; UPPERCASE placeholders and environment variables are no lowercase words.
public enum ChineseProse {
    public struct Report: CustomStringConvertible {
        /// Lines with a run of 4+ lowercase English words.
        public var englishRuns: [String] = []
        /// Prose lines with no CJK ideograph.
        public var withoutChinese: [String] = []
        /// Prose lines (with an ideograph, or 2+ words of letters).
        public var proseLines = 0
        public var chineseLines = 0

        /// No English sentence, and more than half of the prose lines in Chinese (at least one).
        public var isChinese: Bool { englishRuns.isEmpty && chineseLines > 0 && chineseLines * 2 > proseLines }

        public var description: String {
            "\(chineseLines) of \(proseLines) prose lines hold Chinese; English runs in: "
                + (englishRuns.isEmpty ? "none" : englishRuns.map { "[\($0)]" }.joined(separator: " "))
                + "; no Chinese in: " + (withoutChinese.isEmpty ? "none" : withoutChinese.map { "[\($0)]" }.joined(separator: " "))
        }
    }

    /// Reads `text` (`data`: strings printed as they are in every language, taken out first).
    public static func report(_ text: String, data: [String] = []) -> Report {
        var report = Report()
        for raw in lines(of: text) {
            var line = raw
            for d in data.sorted(by: { $0.count > $1.count }) where !d.isEmpty { line = line.replacingOccurrences(of: d, with: mark) }
            let chinese = containsIdeograph(line)
            let prose = withoutNonProse(line)
            let run = longestLowercaseRun(prose)
            if run >= 4 { report.englishRuns.append(raw.trimmingCharacters(in: .whitespaces)) }
            let words = prose.split(whereSeparator: { !$0.isLetter || $0.isIdeograph })
                .filter { w in w.count >= 2 || w == "a" || w == "I" }
            guard chinese || words.count >= 2 else { continue }
            report.proseLines += 1
            if chinese { report.chineseLines += 1 } else { report.withoutChinese.append(raw.trimmingCharacters(in: .whitespaces)) }
        }
        return report
    }

    /// The lines of a transcript: escape sequences out, split at new lines and carriage returns (a
    /// progress line redrawn in place is one line per drawing).
    public static func lines(of text: String) -> [String] {
        let plain = text.replacingOccurrences(of: "\u{1B}\\[[0-9;?<=>!$ ]*[@-~]", with: "", options: .regularExpression)
            .replacingOccurrences(of: "\u{1B}\\][^\u{07}\u{1B}]*(\u{07}|\u{1B}\\\\)", with: "", options: .regularExpression)
            .replacingOccurrences(of: "\u{1B}[()][0-9A-Za-z]", with: "", options: .regularExpression)
            .replacingOccurrences(of: "\u{1B}[=>78]", with: "", options: .regularExpression)
        return plain.components(separatedBy: CharacterSet(charactersIn: "\n\r"))
            .filter { !$0.trimmingCharacters(in: .whitespaces).isEmpty }
    }

    /// What replaces a part taken out: a token that is no word, so the words on either side never
    /// join into one run.
    static let mark = " ¶ "

    public static func containsIdeograph<S: StringProtocol>(_ s: S) -> Bool { s.contains { $0.isIdeograph } }

    /// The line with what is not prose replaced by spaces (see the type's comment).
    static func withoutNonProse(_ line: String) -> String {
        // A line that is one command (an example in help, `pwnvault check --all && echo …`) is code.
        if line.trimmingCharacters(in: .whitespaces).hasPrefix("pwnvault "), !containsIdeograph(line) { return mark }
        var s = line
        let patterns = [
            // The program's own prefix: "pwnvault: error: ", "pwnvault: hint: " (kept ASCII for scripts).
            #"^\s*pwnvault:(\s+[a-z]+:)?"#,
            // Quoted: commands typed ('pwnvault help'), names (“Adobe”), `code`, "values".
            #"(?<![A-Za-z])'[^'\n]*'(?![A-Za-z])"#, "“[^”]*”", "‘[^’]*’", "`[^`]*`", #""[^"\n]*""#,
            // URLs, e-mail addresses and masked accounts, paths, domains and file names.
            #"[a-z][a-z0-9+.-]*://\S+"#, #"\S*@\S*"#, #"(?<!\w)[~.]?/\S*"#, #"\S+\.[A-Za-z0-9]\S*"#,
            // A command line: pwnvault, at most two words (command, subcommand), then options, values,
            // placeholders, quoted or numbered things — never a plain word after an option.
            #"\bpwnvault(\s+[a-z][a-z-]*){0,2}(\s+(-\S+|[A-Z#\[<(|'0-9>]\S*|\.\.\.))*"#,
            // Options, ids, placeholders like ACCOUNT|#ID.
            #"(?<!\S)--?[A-Za-z0-9][\w=,.-]*"#, #"#\d+"#,
        ]
        for p in patterns { s = s.replacingOccurrences(of: p, with: mark, options: .regularExpression) }
        return s
    }

    /// The longest run of lowercase English words (a-z, inner ' or -) one after another, separated by
    /// spaces only: any other character (punctuation, a digit, an ideograph, a capitalised word) ends it.
    static func longestLowercaseRun(_ s: String) -> Int {
        var longest = 0, run = 0
        for token in s.split(whereSeparator: { $0 == " " || $0 == "\t" }) {
            var word = Substring(token)
            var endsRun = false
            while let last = word.last, ",;:.!?)]}…".contains(last) { word.removeLast(); endsRun = true }
            var opensRun = false
            while let first = word.first, "([{".contains(first) { word.removeFirst(); opensRun = true }
            let isWord = !word.isEmpty && word.first!.isASCII && word.first!.isLowercase
                && word.allSatisfy { ($0.isASCII && $0.isLowercase) || $0 == "'" || $0 == "-" || $0 == "’" }
            if opensRun { run = 0 }
            if isWord { run += 1; longest = max(longest, run) } else { run = 0 }
            if endsRun { run = 0 }
        }
        return longest
    }
}

extension Character {
    /// A CJK unified ideograph (the basic block, extension A, B and on, the compatibility block).
    var isIdeograph: Bool {
        unicodeScalars.contains { s in
            switch s.value {
            case 0x4E00...0x9FFF, 0x3400...0x4DBF, 0x20000...0x2FA1F, 0xF900...0xFAFF: return true
            default: return false
            }
        }
    }
}
