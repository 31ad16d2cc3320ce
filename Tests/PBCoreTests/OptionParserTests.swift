import Testing
@testable import PBCore

@Suite struct OptionParserTests {
    let spec = CommandSpec(name: "pb-test", summary: "test", operands: "[FILE ...]", options: [
        OptionSpec("library", short: "l", value: "NAME", help: "library"),
        OptionSpec("k", short: "j", value: "N", help: "hits"),
        OptionSpec("explain", help: "explain"),
        OptionSpec("tag", value: "T", repeats: true, help: "tags"),
    ])

    func run(_ args: [String]) throws -> ParsedOptions {
        guard case .run(let o) = try OptionParser(spec).parse(args) else { throw ToolFailure(.usage, "not run") }
        return o
    }

    @Test func longShortAndInlineValues() throws {
        let o = try run(["--library", "a", "-j5", "--explain", "file", "--tag=x", "--tag", "y", "-"])
        #expect(o.value("library") == "a")
        #expect(try o.int("k", default: 1) == 5)
        #expect(o.flag("explain"))
        #expect(o.all("tag") == ["x", "y"])
        #expect(o.operands == ["file", "-"])
    }

    @Test func doubleDashEndsOptions() throws {
        #expect(try run(["--", "--explain"]).operands == ["--explain"])
    }

    @Test func usageErrorsExit64() {
        for args in [["--nope"], ["-z"], ["--library"], ["--explain=yes"], ["-l", "a", "--library", "b"]] {
            do {
                _ = try OptionParser(spec).parse(args)
                Issue.record("\(args) parsed")
            } catch let f as ToolFailure {
                #expect(f.code == .usage)
            } catch {
                Issue.record("\(error)")
            }
        }
    }

    @Test func badNumbersAreUsageErrors() throws {
        let o = try run(["-j", "ten"])
        #expect(throws: (any Error).self) { try o.int("k", default: 1) }
    }

    @Test func helpAndVersion() throws {
        if case .help = try OptionParser(spec).parse(["-l", "x", "--help"]) {} else { Issue.record("no help") }
        if case .version = try OptionParser(spec).parse(["--version"]) {} else { Issue.record("no version") }
        #expect(spec.helpText.contains("--library NAME"))
        #expect(spec.helpText.contains("usage: pb-test [options] [FILE ...]"))
    }
}

/// One option vocabulary: a shared long name takes its short flag and value from SharedOptions,
/// whichever program declares it (issue 17).
@Suite struct SharedOptionsTests {
    @Test func sharedNamesTakeTheirShortFlagEverywhere() {
        #expect(OptionSpec("keep-going", help: "x").short == "k")
        #expect(OptionSpec("library", help: "x").short == "l")
        #expect(OptionSpec("library", help: "x").value == "NAME")
        #expect(OptionSpec("exit-status", help: "x").short == "e")
        #expect(OptionSpec("dry-run", help: "x").short == "n")
        #expect(OptionSpec("k", help: "x").short == nil)
        #expect(OptionSpec("endpoint", help: "x").short == nil)
    }

    @Test func everySharedLetterBelongsToOneName() {
        let letters = SharedOptions.entries.compactMap(\.short)
        #expect(Set(letters).count == letters.count)
        #expect(SharedOptions.byShort["k"]?.long == "keep-going")
    }

    @Test func theParserReadsTheSharedShortFlag() throws {
        let spec = CommandSpec(name: "t", summary: "s", options: [OptionSpec("keep-going", help: "go on"), OptionSpec("k", help: "hits")])
        guard case .run(let o) = try OptionParser(spec).parse(["-k", "--k", "5"]) else { Issue.record("expected options"); return }
        #expect(o.flag("keep-going"))
        #expect(o.value("k") == "5")
    }
}

@Suite struct ModeTests {
    @Test func oneClosedSetForOptionAndRecord() throws {
        let spec = CommandSpec(name: "t", summary: "s", options: [OptionSpec("mode", help: "m")])
        guard case .run(let none) = try OptionParser(spec).parse([]), case .run(let deep) = try OptionParser(spec).parse(["-m", "deep"]),
              case .run(let bad) = try OptionParser(spec).parse(["--mode", "turbo"]) else { Issue.record("expected options"); return }
        #expect(try Mode.option(none) == .standard)
        #expect(try Mode.option(deep) == .deep)
        #expect(throws: ToolFailure.self) { try Mode.option(bad) }
        #expect(try Mode.of(record: nil, else: .fast) == .fast)
        #expect(try Mode.of(record: "deep", else: .fast) == .deep)
        do {
            _ = try Mode.of(record: "turbo", else: .fast)
            Issue.record("expected bad input")
        } catch let f as ToolFailure {
            #expect(f.code == .badInput)
            #expect(f.message == "mode: expected fast, standard or deep, got 'turbo'")
        }
    }
}
