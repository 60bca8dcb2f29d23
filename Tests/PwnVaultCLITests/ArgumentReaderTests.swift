@testable import PwnVaultCLI
import XCTest

final class ArgumentReaderTests: XCTestCase {
    static let label = OptionSpec("label", value: "TEXT", help: "h")
    static let all = OptionSpec("all", help: "h")
    static let tag = OptionSpec("tag", value: "T", help: "h", repeatable: true)
    let spec = CommandSpec(name: "demo", summary: "s", usage: ["X..."],
                           options: [ArgumentReaderTests.label, ArgumentReaderTests.all, ArgumentReaderTests.tag],
                           positionals: 0...3, examples: [])

    func read(_ a: [String]) throws -> ParsedArguments { try ArgumentReader.read(a, spec: spec) }

    func testTheParsedArgumentsKnowWhichOptionsTheCommandAccepts() throws {
        // What the debug assertion in has/value/allValues checks a lookup against.
        XCTAssertEqual(try read([]).accepted, Set(["label", "all", "tag"] + GlobalOptions.all.map(\.name)))
        XCTAssertEqual(ParsedArguments().accepted, [], "arguments made by hand accept any lookup")
    }

    func testValuesInBothFormsFlagsAndPositionals() throws {
        let p = try read(["a", "--label", "Mum", "--all", "b", "--tag=x", "--tag", "y"])
        XCTAssertEqual(p.positionals, ["a", "b"])
        XCTAssertEqual(p.value(Self.label), "Mum")
        XCTAssertTrue(p.has(Self.all))
        XCTAssertEqual(p.allValues(Self.tag), ["x", "y"])
        XCTAssertEqual(try read(["--label=a=b"]).value(Self.label), "a=b", "only the first = splits")
        XCTAssertEqual(try read(["--label="]).value(Self.label), "", "an explicit empty value is a value")
    }

    func testDoubleDashEndsOptionsAndDashIsPositional() throws {
        XCTAssertEqual(try read(["--", "--all", "-x"]).positionals, ["--all", "-x"])
        XCTAssertFalse(try read(["--", "--all"]).has(Self.all))
        XCTAssertEqual(try read(["-"]).positionals, ["-"])
    }

    func testGlobalOptionsAreAcceptedByEveryCommand() throws {
        let p = try read(["--vault", "/tmp/v", "--json", "--passphrase-fd=3"])
        XCTAssertEqual(p.value(GlobalOptions.vault), "/tmp/v")
        XCTAssertEqual(p.value(GlobalOptions.passphraseFD), "3")
        XCTAssertTrue(p.has(GlobalOptions.json))
        XCTAssertTrue(try read(["-h"]).has(GlobalOptions.help))
    }

    func testErrors() {
        XCTAssertThrowsError(try read(["--lable", "x"])) { e in
            XCTAssertEqual(e as? UsageError, .unknownOption(command: "demo", option: "--lable", suggestion: "--label"))
            XCTAssertEqual((e as? UsageError)?.hint?.hasPrefix("did you mean '--label'?"), true)
        }
        XCTAssertThrowsError(try read(["--label"])) { XCTAssertEqual(($0 as? UsageError)?.message, "option '--label' needs a value (TEXT)") }
        XCTAssertThrowsError(try read(["--all=yes"])) { XCTAssertEqual(($0 as? UsageError)?.message, "option '--all' takes no value") }
        XCTAssertThrowsError(try read(["--label", "a", "--label", "b"])) {
            XCTAssertEqual(($0 as? UsageError)?.message, "option '--label' given more than once")
        }
        XCTAssertThrowsError(try read(["a", "b", "c", "d"])) { XCTAssertEqual(($0 as? UsageError)?.message, "too many arguments (at most 3)") }
        XCTAssertThrowsError(try read(["-q"])) { XCTAssertNotNil($0 as? UsageError) }
        XCTAssertThrowsError(try read(["--zzzzzzzz"])) { e in
            if case let .unknownOption(_, _, suggestion)? = e as? UsageError { XCTAssertNil(suggestion) } else { XCTFail() }
        }
    }

    func testHelpWinsOverArity() throws {
        let needsOne = CommandSpec(name: "one", summary: "s", usage: [], positionals: 1...1, examples: [])
        XCTAssertTrue(try ArgumentReader.read(["--help"], spec: needsOne).has(GlobalOptions.help))
        XCTAssertThrowsError(try ArgumentReader.read([], spec: needsOne)) { XCTAssertEqual(($0 as? UsageError)?.message, "missing argument") }
    }

    func testSuggestions() {
        XCTAssertEqual(Suggest.closest(to: "lsit", in: ["list", "init", "add"]), "list")
        XCTAssertEqual(Suggest.closest(to: "stauts", in: ["status", "list"]), "status")
        XCTAssertNil(Suggest.closest(to: "frobnicate", in: ["status", "list"]))
        XCTAssertEqual(Suggest.closest(to: "--pass", in: ["--passphrase-file", "--json"]), "--passphrase-file")
        XCTAssertEqual(Suggest.distance("kitten", "sitting"), 3)
        XCTAssertEqual(Suggest.distance("", "abc"), 3)
        XCTAssertEqual(Suggest.distance("lsit", "list"), 1, "a swap is one edit")
        XCTAssertEqual(Suggest.closest(to: "lsit", in: ["init", "list"]), "list")
    }

    func testEveryCommandHasHelpWithUsageAndAnExample() {
        for command in Commands.all {
            let spec = command.spec
            let help = HelpText.command(spec)
            XCTAssertTrue(help.contains("USAGE: pwnvault \(spec.name)"), spec.name)
            XCTAssertFalse(spec.examples.isEmpty, "\(spec.name) needs an example")
            XCTAssertTrue(HelpText.overview().contains("  \(spec.name) "), spec.name)
            for o in spec.options { XCTAssertTrue(help.contains("--\(o.name)"), "\(spec.name) --\(o.name)") }
        }
    }
}

final class LeadingGlobalOptionsTests: XCTestCase {
    func testGlobalOptionsBeforeTheCommandAreTakenWithTheirValues() throws {
        let l = try ArgumentReader.leadingGlobalOptions(["--vault", "/v", "--json", "--passphrase-fd=3", "-h", "list", "--all"])
        XCTAssertEqual(l.options, ["--vault", "/v", "--json", "--passphrase-fd=3", "-h"])
        XCTAssertEqual(l.stop, .command("list"))
        XCTAssertEqual(try ArgumentReader.leadingGlobalOptions(["--share", "--version"]).stop, .version)
        XCTAssertEqual(try ArgumentReader.leadingGlobalOptions(["--share"]).stop, .end)
    }

    func testUnknownLeadingOptionsAreNamedWhenTheyArePlainWords() {
        XCTAssertThrowsError(try ArgumentReader.leadingGlobalOptions(["-x", "list"])) {
            XCTAssertEqual(($0 as? UsageError)?.message, "unknown option '-x'")
            XCTAssertEqual(($0 as? UsageError)?.hint, "see 'pwnvault help' for the global options")
        }
        XCTAssertThrowsError(try ArgumentReader.leadingGlobalOptions(["--jsn", "list"])) {
            XCTAssertEqual(($0 as? UsageError)?.hint, "did you mean '--json'? (see 'pwnvault help' for the global options)")
        }
        XCTAssertThrowsError(try ArgumentReader.leadingGlobalOptions(["-alice@example.com"])) {
            XCTAssertEqual(($0 as? UsageError)?.message, "unknown option", "a long single-dash word may be an account")
        }
        XCTAssertThrowsError(try ArgumentReader.leadingGlobalOptions(["--vault"])) {
            XCTAssertEqual(($0 as? UsageError)?.message, "option '--vault' needs a value (PATH)")
        }
    }
}
