import XCTest
@testable import PwnVaultCore

final class HTMLTextTests: XCTestCase {
    func testLinksKeepTheirTextAndGetNumberedReferences() {
        let (text, links) = HTMLText.render(
            #"Read <a href="https://a.example/1" target="_blank">the report</a> and <a href='https://b.example/2'>this</a>; again <a href="https://a.example/1">here</a>."#,
            width: 0)
        XCTAssertEqual(text, "Read the report [1] and this [2]; again here [1].")
        XCTAssertEqual(links, ["https://a.example/1", "https://b.example/2"])
    }

    /// Found by fuzzing (Fuzz/corpus/html-text/regression-line-separator-entity): `&#x2028;` became a
    /// line break only in the last pass, after blank lines were tidied, so the text began with one.
    func testLineSeparatorEntitiesAreSpaces() {
        XCTAssertEqual(HTMLText.render("&#x2028;Hello&#x2029;&#8232;&#x2028;world&#x2029;", width: 0).text, "Hello world")
        XCTAssertEqual(HTMLText.render("<p>a</p>&#x2028;&#x2028;<p>b</p>", width: 0).text, "a\n\nb")
    }

    /// Found by fuzzing (Fuzz/corpus/html-text/regression-nbsp-at-line-end): a no-break space ending a
    /// wrapped line became a trailing space once no-break spaces turned into plain ones.
    func testANoBreakSpaceNeverEndsALine() {
        XCTAssertEqual(HTMLText.render("<&nbsp; x", width: 1).text, "<\nx")
        XCTAssertEqual(HTMLText.render("end&nbsp;", width: 0).text, "end")
        XCTAssertEqual(HTMLText.render("a&nbsp;b c", width: 3).text, "a b\nc")
        XCTAssertEqual(HTMLText.render("&nbsp; x", width: 1).text, "x")
    }

    func testEntitiesAreDecoded() {
        let (text, _) = HTMLText.render("&quot;Caf&eacute;&quot; &amp; &lt;b&gt; &#39;x&#39; &#233;&#xE9;&#XE9; a&nbsp;b &hellip; &unknown; & alone", width: 0)
        XCTAssertEqual(text, "\"Café\" & <b> 'x' ééé a b … &unknown; & alone")
    }

    func testDecodedAnglesAreNotTags() {
        XCTAssertEqual(HTMLText.render("&lt;script&gt;alert(1)&lt;/script&gt;", width: 0).text, "<script>alert(1)</script>")
    }

    func testTagsAreRemovedAndBreaksKept() {
        let html = "<p>First <em>paragraph</em>.</p><p>Second<br>line two<br/>line three</p><ul><li>one</li><li>two</li></ul>"
        XCTAssertEqual(HTMLText.render(html, width: 0).text,
                       "First paragraph.\n\nSecond\nline two\nline three\n\n- one\n- two")
    }

    func testWhitespaceCollapses() {
        XCTAssertEqual(HTMLText.render("  a \n\n  b\t\tc   ", width: 0).text, "a b c")
    }

    func testScriptStyleAndCommentsAreDropped() {
        let html = "a<script>var x = '<b>';</script>b<style>p{color:red}</style>c<!-- hidden <a href=x>y</a> -->d"
        XCTAssertEqual(HTMLText.render(html, width: 0).text, "abcd")
    }

    func testALoneLessThanIsText() {
        XCTAssertEqual(HTMLText.render("1 < 2 and 3 <4", width: 0).text, "1 < 2 and 3 <4")
    }

    func testControlCharactersAndEscapeSequencesAreStripped() {
        let html = "safe\u{1B}[31mred\u{1B}[0m \u{1B}]0;title\u{07}bell\u{07} &#27;[2J clear \u{202E}evil\u{0000}\u{9B}"
        let (text, _) = HTMLText.render(html, width: 0)
        XCTAssertEqual(text, "safered bell [2J clear evil")
        XCTAssertFalse(text.unicodeScalars.contains { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) })
        let (_, links) = HTMLText.render("<a href=\"https://x.example/\u{1B}[31m\">x</a>", width: 0)
        XCTAssertEqual(links, ["https://x.example/"])
    }

    func testWrapsWithoutSplittingWords() {
        let (text, _) = HTMLText.render("the quick brown fox jumps over the lazy dog", width: 10)
        XCTAssertEqual(text, "the quick\nbrown fox\njumps over\nthe lazy\ndog")
        for line in text.split(separator: "\n") { XCTAssertLessThanOrEqual(line.count, 10) }
    }

    func testALongWordGetsItsOwnLine() {
        let (text, _) = HTMLText.render("see https://example.com/a/very/long/path now", width: 12)
        XCTAssertEqual(text, "see\nhttps://example.com/a/very/long/path\nnow")
    }

    func testReferenceStaysWithItsLinkText() {
        let (text, _) = HTMLText.render(#"aaaa bbbb <a href="u">cccc</a> dd"#, width: 12)
        XCTAssertEqual(text, "aaaa bbbb\ncccc [1] dd")
    }

    func testRealHIBPDescription() throws {
        let breach = try JSONDecoder().decode(Breach.self, from: Data(BreachDecodingTests.adobeJSON.utf8))
        let (text, links) = HTMLText.render(breach.descriptionHTML, width: 40)
        XCTAssertEqual(links, ["https://krebsonsecurity.com/2013/10/adobe-to-announce-source-code-customer-data-breach/"])
        XCTAssertFalse(text.contains("<") || text.contains("&quot;"))
        XCTAssertTrue(text.replacingOccurrences(of: "\n", with: " ").contains("according to Krebs [1]. \"Password hints\" were in the clear."))
        for line in text.split(separator: "\n") { XCTAssertLessThanOrEqual(line.count, 40) }
    }

    func testEmptyAndTagOnlyInput() {
        XCTAssertEqual(HTMLText.render("", width: 20).text, "")
        XCTAssertEqual(HTMLText.render("<p></p><br><br>", width: 20).text, "")
        XCTAssertEqual(HTMLText.render("<a href=\"\">x</a>", width: 20).links, [])
    }
}
