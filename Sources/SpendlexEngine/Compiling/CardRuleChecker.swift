import SpendlexRules

/// Static checks of card reward tables, run when a rule set is compiled: a catch-all base
/// rate row in every card, no two groups of a card covering the same category, merchant or
/// MCC without a priority to choose, categories from the declared list, known programs.
public enum CardRuleChecker {
    /// Every problem of the rule set's cards, located in their files.
    public static func check(_ ruleSet: RuleSet, categories: CategoryList = .standard) -> [Diagnostic] {
        var diagnostics: [Diagnostic] = []
        var seen: [String: SourceLocation] = [:]
        let programs = ruleSet.pointPrograms.map(\.id.value)
        for card in ruleSet.cards {
            if let first = seen[card.id.value] {
                diagnostics.append(.duplicateID(card.id.value, at: card.id.location, first: first))
            } else {
                seen[card.id.value] = card.id.location
            }
            if let program = card.program, !programs.isEmpty, !programs.contains(program.value) {
                diagnostics.append(.cardUnknownProgram(program.value, known: programs, at: program.location))
            }
            diagnostics += check(card, categories: categories)
        }
        return diagnostics
    }

    static func check(_ card: CardRules, categories: CategoryList) -> [Diagnostic] {
        var diagnostics: [Diagnostic] = []
        var groupIDs: [String: SourceLocation] = [:]
        for group in card.rewards {
            if let first = groupIDs[group.id.value] {
                diagnostics.append(.cardDuplicateGroup(group.id.value, at: group.id.location, first: first))
            } else {
                groupIDs[group.id.value] = group.id.location
            }
            let named = group.categories + group.excludeCategories + group.quarters.flatMap(\.categories)
            for name in named where categories.resolve(name.value) == nil {
                diagnostics.append(.cardUnknownCategory(name.value, known: categories.allNames, at: name.location))
            }
            if let from = group.activeFrom, let until = group.activeUntil, until.value < from.value {
                diagnostics.append(.cardInvalidWindow(group.id.value, at: until.location))
            }
        }
        if card.baseGroups.isEmpty {
            diagnostics.append(.cardNoBaseRate(card.id.value, at: card.rewardsLocation ?? card.location))
        }
        for (index, group) in card.rewards.enumerated() {
            for earlier in card.rewards[..<index] {
                if let overlap = overlap(earlier, group, categories: categories) {
                    diagnostics.append(.cardAmbiguousGroups(card.id.value, group.id.value, earlier.id.value,
                                                            overlap: overlap.what, at: overlap.location,
                                                            other: earlier.id.location))
                }
            }
        }
        return diagnostics
    }

    /// What two groups both cover with nothing to choose between them, and where the later one says so.
    static func overlap(_ a: RewardGroup, _ b: RewardGroup, categories: CategoryList) -> (what: String, location: SourceLocation)? {
        if (a.priority ?? 0) != (b.priority ?? 0) { return nil }
        if let aFrom = a.activeFrom?.value, let bUntil = b.activeUntil?.value, bUntil < aFrom { return nil }
        if let bFrom = b.activeFrom?.value, let aUntil = a.activeUntil?.value, aUntil < bFrom { return nil }
        if a.isCatchAll && b.isCatchAll { return ("every purchase", b.id.location) }
        if a.isCatchAll || b.isCatchAll { return nil }
        // Compare each fixed set, and each rotating quarter against the other group's fixed set
        // and its own quarter of the same name.
        for (aCategories, aMerchants, aQuarter) in coverage(a) {
            for (bCategories, bMerchants, bQuarter) in coverage(b) {
                if let aQuarter, let bQuarter, aQuarter != bQuarter { continue }
                for name in bCategories {
                    guard let bName = categories.resolve(name.value),
                          !a.excludeCategories.contains(where: { categories.resolve($0.value) == bName }) else { continue }
                    for other in aCategories {
                        guard let aName = categories.resolve(other.value) else { continue }
                        let related = aName == bName || categories.parent(of: aName) == bName || categories.parent(of: bName) == aName
                        if related, !b.excludeCategories.contains(where: { categories.resolve($0.value) == aName }) {
                            return ("the category '\(bName)'" + (aName == bName ? "" : " ('\(aName)')"), name.location)
                        }
                    }
                }
                for merchant in bMerchants where aMerchants.contains(where: { $0.value.lowercased() == merchant.value.lowercased() }) {
                    return ("the merchant '\(merchant.value)'", merchant.location)
                }
            }
        }
        for mcc in b.mccs where a.mccs.contains(where: { $0.value == mcc.value }) {
            return ("the MCC \(mcc.value)", mcc.location)
        }
        return nil
    }

    private static func coverage(_ group: RewardGroup) -> [([Located<String>], [Located<String>], String?)] {
        var result: [([Located<String>], [Located<String>], String?)] = []
        if !group.categories.isEmpty || !group.merchants.isEmpty { result.append((group.categories, group.merchants, nil)) }
        for quarter in group.quarters { result.append((quarter.categories, quarter.merchants, quarter.quarter.value)) }
        return result
    }
}
