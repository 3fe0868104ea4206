import Foundation
import PCRE2
import Testing
@testable import SpendlexEngine
import SpendlexRules

@Suite("Alternation factoring")
struct AlternationFactoringTests {
    @Test(arguments: [
        // Branches of one first character grouped, in their order; a lone one left as it is.
        ("debited|spent|debit|sent|deducted|paid|xyz", "d(?:ebited|ebit|educted)|s(?:pent|ent)|paid|xyz"),
        // Caseless: letters grouped without their case; a branch with several first characters
        // ("[Tt]" is one key under caseless matching, "(?:money\\s+)?transfer" two) under a guard.
        ("(?i:Debit|debited|Sent|send|(?:money\\s+)?transfer|top|tax|[çc]ash)",
         "(?i:D(?:ebit|ebited)|S(?:ent|end)|(?=m)(?:(?:money\\s+)?transfer)|(?=t)(?:(?:money\\s+)?transfer|top|tax)|(?=ç)(?:[çc]ash)|(?=c)(?:[çc]ash))"),
        // Scripts without case, and past what matches nothing (\b, lookarounds).
        ("จ่าย|จ่ายบิล|ชำระ|โอนออก|โอนเงิน|\\bx|(?<!a)xy", "จ(?:่าย|่ายบิล)|ชำระ|โ(?:อนออก|อนเงิน)|(?=x)(?:\\bx|(?<!a)xy)"),
    ])
    func rewrites(pattern: String, expected: String) throws {
        let rewritten = try #require(AlternationFactoring.factored(pattern))
        #expect(rewritten == expected)
    }

    @Test(arguments: [
        // Too few branches; a branch that captures (groups would be renumbered); options set
        // inside a branch; a branch-reset group; a lookbehind's branches; syntax not followed.
        "da|db|dc|dd|de",
        "da|db|dc|dd|de|(df)",
        "da|db|dc|dd|de|(?i)df",
        "(?|da|db|dc|dd|de|df)",
        "(?<!da|db|dc|dd|de|df)x",
        "\\Qda\\E|db|dc|dd|de|df",
        "(?(1)da|db)|dc|dd|de|df|dg",
        "da|db|dc|dd|de|df|\\g{-1}",
        // Every branch with a first character of its own: nothing to group.
        "a1|b1|c1|d1|e1|f1|g1",
        // A branch whose first characters are not certain (\d, any character) keeps its place, and
        // nothing moves across it: here no run holds two branches of one character.
        "da|\\dx|db|\\dy|dc|\\dz|dd|.|de|.|df",
    ])
    func leftAsWritten(pattern: String) {
        #expect(AlternationFactoring.factored(pattern) == nil)
    }

    /// The rewrite matches what the written pattern matches, at the same places, over texts in
    /// several scripts: for made-up patterns with the constructs the rules use, and for the
    /// bundled grammar's debit and credit words over the world corpus's texts.
    @Test func rewrittenPatternsMatchAsWritten() throws {
        var patterns = [
            "(?i)\\b(?:debited|debit(?:ed)?|spent|paid(?!\\s+you\\b)|sent|send\\s+money|(?:money\\s+)?transfer|transferred|(?<!received\\s)payment\\s+of|dr(?=\\.?\\s+(?:with|from))|Dr)\\b",
            "(?x:(?i:\\b(?:debited | spent\n |dr(?=\\s) # a comment | not a branch\n |débité|[çc]ekildi|cash\\s+out|cargo|compra|pago)\\b)|จ่าย|ชำระ|付款|支付(?!宝)|支出|\\d+\\s?TL)",
            "(?:alpha|alps|beta|bet|be|b|alp|al|a|gamma|ga|g)+x?",
            "(?i:ÇEK|çekim|cek|Straße|STRASSE|kelvin|Kilo|ſun|sun|[sS]un)",
        ]
        let (grammar, _) = RuleLoader.load(paths: [repositoryRoot + "/grammars/generic.yaml"])
        for name in ["DEBIT_WORD", "CREDIT_WORD"] {
            patterns.append(try #require(grammar.fragments.first { $0.name.value == name }?.pattern.value))
        }
        var texts = [
            "Rs 500 debited from A/c", "DEBITED", "paid you", "money transfer of 5", "Dr. with INR", "Dr from",
            "hesabınızdan çekildi", "ÇEKİLDİ", "cekim", "จ่ายเงิน 500 บาท", "付款成功", "支付宝", "STRASSE", "ſun",
            "alphabet soup betting game galore", "100 TL", "sent you", "received payment of", "Payment of 5",
        ]
        let corpus = try String(contentsOfFile: repositoryRoot + "/Tests/Conformance/world/dev.jsonl", encoding: .utf8)
        for line in corpus.split(separator: "\n").prefix(400) {
            let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
            if let text = object?["text"] as? String { texts.append(text) }
        }
        let scratch = MatchScratch()
        for pattern in patterns {
            let rewritten = try #require(AlternationFactoring.factored(pattern), "not rewritten: \(pattern.prefix(60))")
            let written = try Pattern(pattern, options: [], jit: true)
            let factored = try Pattern(rewritten, options: [], jit: true)
            for text in texts {
                #expect(try Self.allMatches(written, text, scratch) == Self.allMatches(factored, text, scratch),
                        "\(pattern.prefix(40)) on \(text.prefix(60))")
            }
        }
    }

    /// Every match from every offset, as ranges: where a match may start and what it takes.
    static func allMatches(_ pattern: Pattern, _ text: String, _ scratch: MatchScratch) throws -> [Range<Int>] {
        var found: [Range<Int>] = []
        let bytes = Array(text.utf8)
        var offset = 0
        while offset <= bytes.count {
            guard let match = try pattern.firstMatch(in: text, from: offset, scratch: scratch),
                  let range = match.groups[0] else { break }
            found.append(range)
            offset = range.lowerBound + 1
            // Past the rest of a multi-byte character.
            while offset < bytes.count, (bytes[offset] & 0xC0) == 0x80 { offset += 1 }
        }
        return found
    }
}
