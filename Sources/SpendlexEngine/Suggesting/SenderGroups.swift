import Foundation

/// Unmatched messages grouped by sender, before any grouping by shape: each sender is one
/// bank to draft. An e-mail sender is keyed by its domain's name (`alerts@mybank.co.uk` and
/// `noreply@mail.mybank.co.uk` are `mybank`), an SMS sender id by its name without the
/// operator prefix (`VM-HDFCBK` and `AD-HDFCBK` are `hdfcbk`), a phone number by itself;
/// messages without a sender form one group of their own.
public struct SenderGroups: Sendable {
    /// One sender's messages.
    public struct Group: Sendable {
        /// The sender key (`mybank`, `hdfcbk`, `+447700900123`); nil for messages without a sender.
        public var key: String?
        /// The messages, in input order.
        public var messages: [Message]
    }

    /// The groups, in the order their first message came.
    public private(set) var groups: [Group] = []

    /// Groups `messages` by sender.
    public init(_ messages: [Message]) {
        var index: [String?: Int] = [:]
        for message in messages {
            let key = Self.key(forSender: message.sender)
            if let at = index[key] {
                groups[at].messages.append(message)
            } else {
                index[key] = groups.count
                groups.append(Group(key: key, messages: [message]))
            }
        }
    }

    /// The key of a sender: the bank id it suggests, else the sender as written (trimmed); nil
    /// for no sender or an empty one.
    public static func key(forSender sender: String?) -> String? {
        guard let sender = sender?.trimmingCharacters(in: .whitespaces), !sender.isEmpty else { return nil }
        return DraftBankGuess.bankID(fromSender: sender) ?? sender
    }
}

extension RuleSuggester {
    /// Drafts one bank file per sender (`SenderGroups`); with `options.bankID` set, the
    /// messages are taken as one bank's and drafted together. Every draft passes its own test
    /// and changes no result of the loaded rules' examples. Drafts come in the senders' order;
    /// senders with nothing to draft (every message refused, skipped or undrafted) have none.
    public func suggestBanks(_ messages: [Message]) -> [RuleSuggestion] {
        let baseline = RuleTestRunner.run(engine)
        guard options.bankID == nil else { return [suggest(messages, baseline: baseline)] }
        var suggestions: [RuleSuggestion] = []
        var ids: Set<String> = []
        for group in SenderGroups(messages).groups {
            var suggestion = suggest(group.messages, baseline: baseline)
            // Two senders whose keys differ can still suggest one id ("HDFCBK" and "hdfcbk@…").
            if suggestion.yaml != nil, ids.contains(suggestion.bank.id) {
                var number = 2
                while ids.contains("\(suggestion.bank.id)\(number)") { number += 1 }
                let id = "\(suggestion.bank.id)\(number)"
                suggestion = RuleSuggester(engine: engine, options: SuggestOptions(
                    bankID: id, bankName: options.bankName, country: options.country,
                    examplesPerDraft: options.examplesPerDraft)).suggest(group.messages, baseline: baseline)
            }
            ids.insert(suggestion.bank.id)
            suggestions.append(suggestion)
        }
        return suggestions
    }
}
