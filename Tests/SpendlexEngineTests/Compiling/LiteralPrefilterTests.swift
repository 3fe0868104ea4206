import Foundation
import PCRE2
import Testing
@testable import SpendlexEngine
import SpendlexRules

@Suite("Literal prefilter")
struct LiteralPrefilterTests {
    @Test(arguments: [
        (#"(?i)\bref(?:erence)?\b"#, ["ref"]),
        // Small optional parts are multiplied out: "av(ai)?l" needs "avl" or "avail", not "av".
        (#"(?i:av(?:ai)?l(?:able)?\.?\s+bal)"#, ["bal"]),
        (#"(?i:\bav(?:ai)?l(?:able)?\b)"#, ["avail", "avl"]),
        // An alternative outside ASCII cannot match an ASCII text.
        (#"(?i:balance|баланс|잔액)"#, ["balance"]),
        // "Rs" is too short a needle to be worth a pass.
        (#"(?i:Rs\.?|INR|₹)\s*\d+"#, []),
        // Extended mode: white space and comments are not part of the pattern.
        ("(?x: t x n # a comment\n  \\s* id)", ["txn"]),
        (#"(?:UPI|IMPS)\s*Ref"#, ["ref"]),
        (#"[Dd]ebited\b"#, ["debited"]),
        (#"\QA+B\E=C"#, ["a+b=c"]),
        (#"(?<amount>\d+) (?:USD|EUR)"#, [" eur", " usd"]),
        (#"card (?:ending|no\.?) \d{4}"#, ["card ending ", "card no ", "card no. "]),
    ])
    func needles(pattern: String, expected: [String]) throws {
        if expected.isEmpty {
            #expect(LiteralPrefilter(pattern: pattern) == nil)
        } else {
            let prefilter = try #require(LiteralPrefilter(pattern: pattern))
            #expect(prefilter.needles.sorted() == expected.sorted())
        }
    }

    @Test(arguments: [
        #"\d+"#, #"[A-Z]{3}"#, #"(?i)\b(?:id|no)\b"#, #"x(?R)?"#, #"(?(1)a|b)"#, #"\w+\s+\w+"#, #"a\qb"#,
        #"(?i:\bid\b)|TXN"#,
    ])
    func noPrefilterWhereNothingLongIsRequiredOrTheSyntaxIsNotFollowed(pattern: String) {
        #expect(LiteralPrefilter(pattern: pattern) == nil)
    }

    @Test func theScannerFindsWhereEachPatternsLastNeedleStarts() throws {
        let balance = try #require(LiteralPrefilter(pattern: #"(?i)\b(?:avl\.?\s*bal|balance)\b"#))
        let reference = try #require(LiteralPrefilter(pattern: #"(?i)\bref(?:erence)?\s*no\b"#))
        let scanner = try #require(LiteralScanner([balance, nil, reference]))
        let text = "Ref no 1. Spent Rs 5 (ref no 2). Avl Bal 10, BALANCE 10"
        var found: [Int] = []
        text.withUTF8Bytes { scanner.lastStarts(in: $0, 0..<$0.count, into: &found) }
        #expect(found == [text.utf8.count - 10, -1, 22])
        text.withUTF8Bytes { scanner.lastStarts(in: $0, 0..<21, into: &found) }
        #expect(found == [-1, -1, 0])
        #expect(LiteralScanner([nil, nil]) == nil)
    }

    @Test func aPatternThatNeedsAScalarOutsideASCIIMatchesNoASCIIText() throws {
        let prefilter = try #require(LiteralPrefilter(pattern: "(?:остаток|баланс):\\s*\\d+"))
        #expect(prefilter.needles.isEmpty)
        #expect(!Self.mayMatch(prefilter, "Balance: 100"))
        #expect(Self.mayMatch(prefilter, "Баланс: 100"))
    }

    @Test func searchesTheWindowIgnoringASCIICase() throws {
        let prefilter = try #require(LiteralPrefilter(pattern: #"(?i)\b(?:avl\.?\s*bal|ref\s*no)\b"#))
        #expect(Self.mayMatch(prefilter, "Spent Rs 500. AVL BAL Rs 1,000"))
        #expect(Self.mayMatch(prefilter, "UPI Ref No 123"))
        #expect(!Self.mayMatch(prefilter, "Spent Rs 500 at AMAZON on 12-11-26"))
        // Only the window is searched; a byte outside ASCII anywhere in it lets PCRE2 decide.
        let text = "Avl Bal 1,000 then nothing"
        #expect(!Self.mayMatch(prefilter, text, from: 8))
        #expect(Self.mayMatch(prefilter, text))
        #expect(Self.mayMatch(prefilter, "Spent ₹500"))
    }

    /// The promise the engine relies on: wherever a bundled pattern matches an ASCII text, its
    /// prefilter lets it through. Every pattern of the bundled rules (parsers, detect, ignore,
    /// subjects, the field layer) against every example of the rules and every development case
    /// of the world corpus.
    @Test func neverHidesAMatchOfABundledPattern() throws {
        let (compiled, _) = RuleCompiler.load(paths: [repositoryRoot + "/rules", repositoryRoot + "/grammars"])
        var patterns: [Pattern] = []
        for bank in compiled.banks {
            patterns += bank.subjects + bank.detect + bank.personalSenders + bank.ignore.map(\.pattern)
            for parser in bank.parsers {
                switch parser.matcher {
                case .single(let pattern, _): patterns.append(pattern)
                case .perField(let gate, let fields): patterns += (gate.map { [$0] } ?? []) + fields.map(\.pattern)
                }
            }
        }
        if let layer = compiled.fieldLayer {
            patterns += layer.finders.flatMap { $0.patterns.map(\.pattern) } + layer.roles.map(\.pattern)
            patterns += [layer.channels?.pattern, layer.kinds?.pattern].compactMap { $0 }
        }
        var texts = compiled.rules.banks.flatMap { bank in
            bank.parsers.flatMap { $0.examples.map(\.text.value) + $0.counterExamples.map(\.text.value) }
        }
        let world = try String(contentsOfFile: repositoryRoot + "/Tests/Conformance/world/dev.jsonl", encoding: .utf8)
        for line in world.split(separator: "\n") {
            if let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
               let text = object["text"] as? String { texts.append(text) }
        }
        texts = texts.filter { text in text.utf8.allSatisfy { $0 < 0x80 } }
        #expect(patterns.count > 200 && texts.count > 300)
        let scratch = MatchScratch()
        var filtered = 0
        var checked = 0
        var hidden: [String] = []
        for pattern in patterns {
            guard let prefilter = LiteralPrefilter(pattern: pattern.source) else { continue }
            filtered += 1
            for text in texts where (try? pattern.firstMatch(in: text, scratch: scratch)) != nil {
                checked += 1
                if !Self.mayMatch(prefilter, text) { hidden.append("\(pattern.source) on \(text)") }
            }
        }
        #expect(filtered > patterns.count / 2, "\(filtered) of \(patterns.count) patterns have a prefilter")
        #expect(checked > 1000, "\(checked) matches checked")
        #expect(hidden.isEmpty, "\(hidden.prefix(5))")
    }

    @Test func aPositiveLookaheadRequiresWhatItLooksFor() throws {
        let gate = try #require(LiteralPrefilter(pattern: #"(?is)\A(?=.*\b(?:merchant|comercio)\b)(?=.*\bamount\b)(?!.*\bdebited\b)"#))
        #expect(gate.needles.sorted() == ["comercio", "merchant"])
        // What the sequence itself requires is kept: a lookahead's words are often commoner.
        let recharge = try #require(LiteralPrefilter(pattern: #"(?i)recharge\s+of(?=[^\n]{0,40}\bfor\b)"#))
        #expect(recharge.needles == ["recharge"])
        // A lookbehind's text may lie before where a search starts: it requires nothing.
        #expect(LiteralPrefilter(pattern: #"(?<=\bbalance )\d+"#) == nil)
    }

    @Test func aPatternAsWrittenReadsItsGrammarReferences() throws {
        let literals = FragmentLiterals(fragments: ["DEBIT": #"(?i:\b(?:debited|spent)\b)"#, "LOCAL": "X"],
                                        opaque: ["LOCAL"])
        let debit = try #require(LiteralPrefilter(pattern: #"%{DEBIT} (?:at|on) %{LOCAL}"#, references: literals))
        #expect(debit.needles.sorted() == ["debited at ", "debited on ", "spent at ", "spent on "])
        // A fragment that varies (a country's currency forms), or an unknown one, is anything.
        #expect(LiteralPrefilter(pattern: "%{LOCAL}%{UNKNOWN:amount}", references: literals) == nil)
        // Read in the extended mode of the place it is used at: "(?x) %{WORDS}" ignores its spaces.
        let extended = FragmentLiterals(fragments: ["WORDS": "avl bal"])
        let spaced = try #require(LiteralPrefilter(pattern: "(?x) %{WORDS}", references: extended))
        #expect(spaced.needles == ["avlbal"])
    }

    /// The promise of the banks' screens (`CompiledBank.screen`, read from the patterns as written
    /// with their grammar references): an ignore rule or a parser that matches a text is never
    /// screened out of it. Every bank, and every country's copy of the fallback, against every
    /// example and every development case of the world corpus, ASCII or not.
    @Test func aBanksScreenNeverHidesAMatch() throws {
        let (compiled, _) = RuleCompiler.load(paths: [repositoryRoot + "/rules", repositoryRoot + "/grammars"])
        var texts = compiled.rules.banks.flatMap { bank in
            bank.parsers.flatMap { $0.examples.map(\.text.value) + $0.counterExamples.map(\.text.value) }
        }
        let world = try String(contentsOfFile: repositoryRoot + "/Tests/Conformance/world/dev.jsonl", encoding: .utf8)
        for line in world.split(separator: "\n") {
            if let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
               let text = object["text"] as? String { texts.append(NormalizingText.composed(text)) }
        }
        let banks = compiled.banks + compiled.countries.flatMap(\.fallbacks)
        let scratch = MatchScratch()
        var screenedOut = 0
        var hidden: [String] = []
        for bank in banks {
            var gates: [Pattern?] = bank.ignore.map(\.pattern)
            for parser in bank.parsers {
                switch parser.matcher {
                case .single(let pattern, _): gates.append(pattern)
                case .perField(let gate, _): gates.append(gate)
                }
            }
            #expect(gates.count == bank.screen.count)
            var found: [Int] = []
            for text in texts {
                bank.screen.screen(text, into: &found)
                for (index, gate) in gates.enumerated() {
                    guard let gate else { continue }
                    if found[index] < 0 { screenedOut += 1 } else { continue }
                    if (try? gate.firstMatch(in: text, scratch: scratch)) != nil {
                        hidden.append("\(bank.id) \(gate.source.prefix(60)) on \(text.prefix(80))")
                    }
                }
            }
        }
        #expect(screenedOut > 100_000, "\(screenedOut) tries spared")
        #expect(hidden.isEmpty, "\(hidden.count): \(hidden.prefix(5))")
    }

    /// Whether an engine would try the pattern on `text`: a text outside ASCII always, an
    /// ASCII one where the scanner finds a needle.
    static func mayMatch(_ prefilter: LiteralPrefilter, _ text: String, from start: Int = 0) -> Bool {
        text.withUTF8Bytes { bytes in
            let window = UnsafeBufferPointer(rebasing: bytes[start...])
            guard NormalizingText.firstByte(in: window, atLeast: 0x80, from: 0) == nil else { return true }
            var found: [Int] = []
            LiteralScanner([prefilter])!.lastStarts(in: bytes, start..<bytes.count, into: &found)
            return found[0] >= start
        }
    }
}

@Suite("Currency forms as a trie")
struct CurrencyTrieTests {
    static let forms = ["US", "US$", "USD", "A$", "AED", "ALL", "₹", "Rs", "Rs.", "د.إ", "S/."]

    @Test func matchesExactlyTheForms() throws {
        let whole = try Pattern("^" + RuleCompiler.trieAlternation(Self.forms) + "$")
        let scratch = MatchScratch()
        for form in Self.forms { #expect(try whole.matches(form, scratch: scratch), "\(form)") }
        for other in ["U", "USD$", "AE", "R", "Rs..", "", "S/", "د"] { #expect(try !whole.matches(other, scratch: scratch), "\(other)") }
        #expect(RuleCompiler.trieAlternation([]) == "(?!)")
    }

    @Test func triesTheLongerOfTwoFormsFirstAsASortedListDoes() throws {
        let trie = try Pattern(RuleCompiler.trieAlternation(Self.forms))
        let scratch = MatchScratch()
        for (text, expected) in [("US$5", "US$"), ("USD 5", "USD"), ("US 5", "US"), ("Rs.50", "Rs."), ("Rs 50", "Rs")] {
            let match = try #require(try trie.firstMatch(in: text, scratch: scratch))
            #expect(text.utf8Slice(match.range) == expected)
        }
        // White space in a form is written so that an extended pattern keeps it.
        let extended = try Pattern("(?x)^" + RuleCompiler.trieAlternation(["Bs F", "Bs"]) + "$")
        #expect(try extended.matches("Bs F", scratch: scratch))
    }
}
