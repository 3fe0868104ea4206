import Foundation
import PCRE2
import SpendlexRules

/// Static checks of compiled decision tables, each a located diagnostic:
///
/// - `category.unknown`: a row names a category that is not declared, or a subcategory its
///   category does not have.
/// - `table.overlap` (`unique` tables): two rows can both match. Found when one row's example
///   or keyword is matched by the other row, when a pattern is written in both, or when the
///   rows' other conditions intersect and one of them has no merchant condition (conditions
///   that are identical or one inside the other always intersect).
/// - `table.masked` (`first` and `priority` tables): a row that an earlier (or higher
///   priority) row always takes first: its conditions are a superset, condition by condition
///   (a catch-all that is not last, the same keywords); every one of the row's examples goes
///   to one earlier row; or one keyword of the row is taken by an earlier row.
/// - `table.noCatchAll`: the table does not end with a row without conditions.
enum DecisionTableChecker {
    static func check(_ categorizer: Categorizer) -> [Diagnostic] {
        var diagnostics = checkCategories(categorizer)
        let scratch = MatchScratch()
        for table in categorizer.tables {
            diagnostics += check(table, scratch: scratch)
        }
        return diagnostics
    }

    private static func checkCategories(_ categorizer: Categorizer) -> [Diagnostic] {
        var diagnostics: [Diagnostic] = []
        let declared = Dictionary(categorizer.categories.map { ($0.name.value, $0.subcategories.map(\.value)) },
                                  uniquingKeysWith: { first, _ in first })
        let names = categorizer.categories.map(\.name.value)
        for table in categorizer.tables {
            for row in table.rule.rows {
                guard let category = row.category else {
                    if table.policy != .collect {
                        diagnostics.append(Diagnostic(.ruleMissingKey, .error, at: row.id.location,
                                                      "row '\(row.id.value)' needs 'category' (only collect tables may leave it out)"))
                    }
                    continue
                }
                guard let subcategories = declared[category.value] else {
                    diagnostics.append(.unknownCategory(category.value, known: names, at: category.location))
                    continue
                }
                if let sub = row.subcategory, !subcategories.contains(sub.value) {
                    diagnostics.append(.unknownCategory(sub.value, under: category.value, known: subcategories,
                                                        at: sub.location))
                }
            }
        }
        return diagnostics
    }

    static func check(_ table: DecisionTable, scratch: MatchScratch) -> [Diagnostic] {
        var diagnostics: [Diagnostic] = []
        let rows = table.rows
        if let last = rows.last, !last.isCatchAll {
            let catchAll = table.catchAll.map { (rows[$0].id, rows[$0].rule.id.location) }
            diagnostics.append(.tableNoCatchAll(table.id, at: table.rule.id.location, catchAll: catchAll))
        }
        // Which rows each keyword, taken as a merchant name, is matched by.
        let keywordHits: [[Set<Int>]] = rows.map { row in
            (row.rule.conditions.merchant?.keywords ?? []).map { keyword in
                var hits: Set<Int> = []
                try? table.merchant.visitHits(in: keyword.value, scratch: scratch) { hit, _ in hits.insert(hit.row) }
                return hits
            }
        }
        // Which rows each example matches, and which row the table gives it to.
        let exampleRuns: [[(matching: [Int], decidedBy: [Int])]] = rows.map { row in
            row.rule.examples.map { example in
                let input = CategoryExampleRunner.input(for: example)
                var merchantRows: Set<Int> = []
                if let merchant = input.merchant {
                    try? table.merchant.visitHits(in: merchant, scratch: scratch) { hit, _ in merchantRows.insert(hit.row) }
                }
                let matching = rows.indices.filter { index in
                    !rows[index].isCatchAll && (!rows[index].hasMerchant || merchantRows.contains(index))
                        && rows[index].otherConditionsHold(input)
                }
                return (matching, table.evaluate(input, scratch: scratch).indices)
            }
        }

        switch table.policy {
        case .unique:
            for b in rows.indices where !rows[b].isCatchAll {
                for a in 0..<b where !rows[a].isCatchAll {
                    guard let evidence = overlap(a, b, rows: rows, keywordHits: keywordHits, exampleRuns: exampleRuns)
                    else { continue }
                    diagnostics.append(.tableOverlap(rows[b].id, with: rows[a].id, evidence: evidence,
                                                     at: rows[b].rule.id.location, other: rows[a].rule.id.location))
                }
            }
        case .first, .priority:
            for b in rows.indices {
                // Rows that win over b when both match.
                let winners = rows.indices.filter { a in
                    guard a != b else { return false }
                    if table.policy == .first { return a < b }
                    if rows[a].isCatchAll || rows[b].isCatchAll { return false }
                    return rows[a].priority > rows[b].priority || (rows[a].priority == rows[b].priority && a < b)
                }
                if let a = winners.first(where: { covers($0, b, rows: rows, keywordHits: keywordHits) }) {
                    let reason = rows[a].isCatchAll ? "'\(rows[a].id)' comes first and has no conditions"
                        : "'\(rows[a].id)' comes first and matches everything it matches"
                    diagnostics.append(.tableMasked("row '\(rows[b].id)'", by: rows[a].id, reason: reason,
                                                    at: rows[b].rule.id.location, other: rows[a].rule.id.location))
                    continue
                }
                let runs = exampleRuns[b]
                if !runs.isEmpty, let taker = runs[0].decidedBy.first, taker != b, winners.contains(taker),
                   runs.allSatisfy({ $0.decidedBy.first == taker }) {
                    diagnostics.append(.tableMasked("row '\(rows[b].id)'", by: rows[taker].id,
                                                    reason: "every example of it goes to '\(rows[taker].id)'",
                                                    at: rows[b].rule.id.location, other: rows[taker].rule.id.location))
                    continue
                }
                // One keyword taken first by a winner whose other conditions cover b's.
                let keywords = rows[b].rule.conditions.merchant?.keywords ?? []
                for (index, keyword) in keywords.enumerated() {
                    guard let a = winners.first(where: { keywordHits[b][index].contains($0)
                        && coversOtherConditions(rows[$0], rows[b]) }) else { continue }
                    diagnostics.append(.tableMasked("keyword '\(keyword.value)' of row '\(rows[b].id)'", by: rows[a].id,
                                                    reason: "'\(rows[a].id)' comes first and matches it",
                                                    at: keyword.location, other: rows[a].rule.id.location))
                }
            }
        case .collect:
            break
        }
        return diagnostics
    }

    /// Why rows a and b can both match, or nil when nothing shows they can.
    private static func overlap(_ a: Int, _ b: Int, rows: [CompiledRow], keywordHits: [[Set<Int>]],
                                exampleRuns: [[(matching: [Int], decidedBy: [Int])]]) -> String? {
        if let example = zip(rows[b].rule.examples, exampleRuns[b]).first(where: { $0.1.matching.contains(a) }) {
            return "its example \(describe(example.0)) matches both"
        }
        if let example = zip(rows[a].rule.examples, exampleRuns[a]).first(where: { $0.1.matching.contains(b) }) {
            return "the example \(describe(example.0)) of '\(rows[a].id)' matches both"
        }
        guard otherConditionsIntersect(rows[a], rows[b]) else { return nil }
        let (ma, mb) = (rows[a].rule.conditions.merchant, rows[b].rule.conditions.merchant)
        guard let ma, let mb else {
            return ma == nil && mb == nil ? "their conditions intersect" : "one has no merchant condition and the others intersect"
        }
        for (row, other, condition) in [(b, a, mb), (a, b, ma)] {
            if let index = keywordHits[row].firstIndex(where: { $0.contains(other) }) {
                return "keyword '\(condition.keywords[index].value)' of '\(rows[row].id)' is matched by both"
            }
        }
        if let pattern = mb.patterns.first(where: { p in ma.patterns.contains { $0.value == p.value } }) {
            return "both have the pattern '\(pattern.value)'"
        }
        return nil
    }

    /// Whether row a matches every transaction row b matches, judged condition by condition.
    private static func covers(_ a: Int, _ b: Int, rows: [CompiledRow], keywordHits: [[Set<Int>]]) -> Bool {
        guard coversOtherConditions(rows[a], rows[b]) else { return false }
        guard let ma = rows[a].rule.conditions.merchant else { return true }
        guard let mb = rows[b].rule.conditions.merchant else { return false }
        let keywordsCovered = keywordHits[b].allSatisfy { $0.contains(a) }
        let patternsCovered = mb.patterns.allSatisfy { p in ma.patterns.contains { $0.value == p.value } }
        return keywordsCovered && patternsCovered
    }

    /// Conditions other than the merchant's: a's hold wherever b's hold.
    static func coversOtherConditions(_ a: CompiledRow, _ b: CompiledRow) -> Bool {
        func superset<T: Equatable>(_ x: [T], _ y: [T]) -> Bool { x.isEmpty || (!y.isEmpty && y.allSatisfy(x.contains)) }
        func same<T: Equatable>(_ x: T?, _ y: T?) -> Bool { x == nil || x == y }
        let mccCovered = a.mcc.isEmpty || (!b.mcc.isEmpty && b.mcc.allSatisfy { range in
            range.allSatisfy { code in a.mcc.contains { $0.contains(code) } }
        })
        let (x, y) = (a.rule.conditions.amount, b.rule.conditions.amount)
        let amountCovered = x == nil || (y != nil
            && (x!.min.map { low in y!.min.map { $0.value >= low.value } ?? false } ?? true)
            && (x!.max.map { high in y!.max.map { $0.value <= high.value } ?? false } ?? true))
        return mccCovered && amountCovered && same(a.direction, b.direction) && superset(a.kinds, b.kinds)
            && superset(a.banks, b.banks) && superset(a.last4, b.last4) && same(a.accountType, b.accountType)
    }

    /// Conditions other than the merchant's: some transaction satisfies both rows'.
    static func otherConditionsIntersect(_ a: CompiledRow, _ b: CompiledRow) -> Bool {
        func meet<T: Equatable>(_ x: [T], _ y: [T]) -> Bool { x.isEmpty || y.isEmpty || x.contains(where: y.contains) }
        func meet<T: Equatable>(_ x: T?, _ y: T?) -> Bool { x == nil || y == nil || x == y }
        let mcc = a.mcc.isEmpty || b.mcc.isEmpty || a.mcc.contains { r in b.mcc.contains { r.overlaps($0) } }
        var amount = true
        if let x = a.rule.conditions.amount, let y = b.rule.conditions.amount {
            let low = [x.min?.value, y.min?.value].compactMap { $0 }.max()
            let high = [x.max?.value, y.max?.value].compactMap { $0 }.min()
            if let low, let high { amount = low < high }
        }
        return mcc && amount && meet(a.direction, b.direction) && meet(a.kinds, b.kinds) && meet(a.banks, b.banks)
            && meet(a.last4, b.last4) && meet(a.accountType, b.accountType)
    }

    static func describe(_ example: CategoryExample) -> String {
        var parts: [String] = []
        if let merchant = example.merchant { parts.append("\"\(merchant.value)\"") }
        if let mcc = example.mcc { parts.append("mcc \(String(format: "%04d", mcc))") }
        if let amount = example.amount { parts.append("amount \(amount)") }
        if let direction = example.direction { parts.append(direction.rawValue) }
        if let kind = example.kind { parts.append(kind.rawValue) }
        return parts.joined(separator: " ")
    }
}
