import Foundation
import SpendlexEngine
import SpendlexRules

/// One message per parser, taken from the parser's first example, with a sender that routes
/// it to the parser's bank as a real alert would be: what the matching benchmarks parse.
public struct ParserSample: Sendable {
    /// The parser whose example this is.
    public let parserID: String
    public let message: Message
}

public enum ParserSamples {
    /// A sample for every enabled parser with an example, checked: each must parse, through
    /// sender routing, into a transaction from its own parser.
    public static func all(_ engine: RuleEngine) -> [ParserSample] {
        let worker = engine.makeWorker()
        var samples: [ParserSample] = []
        for bank in engine.rules.banks {
            for parser in bank.parsers {
                guard let example = parser.rule.examples.first else { continue }
                let message = Message(
                    id: parser.id, text: example.text.value, sender: example.sender ?? sender(for: bank.rules),
                    subject: example.subject, receivedAt: example.receivedAt.flatMap { parseTimestamp($0.value) },
                    channel: example.subject == nil ? .sms : .email)
                let rule = worker.parse(message).transaction?.rule
                guard rule == parser.id else {
                    FileHandle.standardError.write(Data("benchmark fixtures: the example of \(parser.id) gave \(rule ?? "no transaction")\n".utf8))
                    exit(70)
                }
                samples.append(ParserSample(parserID: parser.id, message: message))
            }
        }
        return samples
    }

    /// A concrete sender the bank's `senders` list accepts: an address as written, a domain
    /// with a mailbox in front, an SMS id pattern with its wildcards filled ("*-HDFCBK" → "VM-HDFCBK").
    public static func sender(for bank: BankRules) -> String? {
        let patterns = bank.senders.map(\.value)
        if let address = patterns.first(where: { $0.contains("@") && !$0.hasPrefix("@") && !$0.contains("*") }) {
            return address
        }
        if let pattern = patterns.first(where: { !$0.contains("@") }) {
            return pattern.replacingOccurrences(of: "*", with: "VM").replacingOccurrences(of: "?", with: "S")
        }
        return patterns.first.map { "alerts" + $0 }
    }
}
