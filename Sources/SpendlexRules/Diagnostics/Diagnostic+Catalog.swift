// Every diagnostic Spendlex reports is declared here, so that ids stay stable and
// wording stays consistent. Tests assert ids and locations, not messages.

extension DiagnosticID {
    public static let fileUnreadable = DiagnosticID("file", "unreadable")
    public static let yamlSyntax = DiagnosticID("yaml", "syntax")
    public static let yamlDuplicateKey = DiagnosticID("yaml", "duplicateKey")
    public static let ruleUnknownFileKind = DiagnosticID("rule", "unknownFileKind")
    public static let ruleUnknownKey = DiagnosticID("rule", "unknownKey")
    public static let ruleMissingKey = DiagnosticID("rule", "missingKey")
    public static let ruleWrongType = DiagnosticID("rule", "wrongType")
    public static let ruleInvalidValue = DiagnosticID("rule", "invalidValue")
    public static let ruleDuplicateID = DiagnosticID("rule", "duplicateID")
    public static let ruleUnknownField = DiagnosticID("rule", "unknownField")
    public static let grammarUnknown = DiagnosticID("grammar", "unknown")
    public static let grammarCycle = DiagnosticID("grammar", "cycle")
    public static let grammarDuplicate = DiagnosticID("grammar", "duplicate")
    public static let grammarInvalidName = DiagnosticID("grammar", "invalidName")
    public static let grammarCaptureInFragment = DiagnosticID("grammar", "captureInFragment")
    public static let patternSyntax = DiagnosticID("pattern", "syntax")
    public static let patternNoAmount = DiagnosticID("pattern", "noAmount")
    public static let patternFieldNotCaptured = DiagnosticID("pattern", "fieldNotCaptured")
    public static let parserNoExamples = DiagnosticID("parser", "noExamples")
    public static let exampleShadowed = DiagnosticID("example", "shadowed")
    public static let exampleAmbiguous = DiagnosticID("example", "ambiguous")
    public static let testFailed = DiagnosticID("test", "failed")
    public static let testCounterExampleMatched = DiagnosticID("test", "counterExampleMatched")
    public static let categoryUnknown = DiagnosticID("category", "unknown")
    public static let tableOverlap = DiagnosticID("table", "overlap")
    public static let tableMasked = DiagnosticID("table", "masked")
    public static let tableNoCatchAll = DiagnosticID("table", "noCatchAll")
    public static let cardNoBaseRate = DiagnosticID("card", "noBaseRate")
    public static let cardAmbiguousGroups = DiagnosticID("card", "ambiguousGroups")
    public static let cardUnknownCategory = DiagnosticID("card", "unknownCategory")
    public static let cardUnknownProgram = DiagnosticID("card", "unknownProgram")
    public static let cardDuplicateGroup = DiagnosticID("card", "duplicateGroup")
    public static let cardInvalidWindow = DiagnosticID("card", "invalidWindow")
    public static let walletUnknownCard = DiagnosticID("wallet", "unknownCard")
    public static let walletEmpty = DiagnosticID("wallet", "empty")
    public static let walletUnknownGroup = DiagnosticID("wallet", "unknownGroup")
    public static let walletUnknownProgram = DiagnosticID("wallet", "unknownProgram")
}

extension Diagnostic {
    static func unreadable(_ path: String, reason: String) -> Diagnostic {
        Diagnostic(.fileUnreadable, .error, at: SourceLocation(file: path, line: 1, column: 1),
                   "cannot read rule file: \(reason)")
    }

    static func yamlSyntax(_ problem: String, at location: SourceLocation, note: Note? = nil) -> Diagnostic {
        Diagnostic(.yamlSyntax, .error, at: location, "invalid YAML: \(problem)", notes: note.map { [$0] } ?? [])
    }

    static func duplicateKey(_ key: String, at location: SourceLocation, first: SourceLocation) -> Diagnostic {
        Diagnostic(.yamlDuplicateKey, .error, at: location, "duplicate key '\(key)'",
                   notes: [Note("first written here", at: first)])
    }

    static func unknownFileKind(at location: SourceLocation) -> Diagnostic {
        Diagnostic(.ruleUnknownFileKind, .error, at: location,
                   "not a rule file: expected a bank file (with 'parsers'), a grammar file (with 'fragments') "
                   + "or a categories file (with 'categories' or 'tables')")
    }

    static func unknownKey(_ key: String, in context: String, allowed: [String], at location: SourceLocation) -> Diagnostic {
        var notes: [Note] = []
        if let guess = closestMatch(to: key, among: allowed) {
            notes.append(Note("did you mean '\(guess)'?"))
        }
        return Diagnostic(.ruleUnknownKey, .error, at: location, "unknown key '\(key)' in \(context)", notes: notes)
    }

    static func missingKey(_ key: String, in context: String, at location: SourceLocation) -> Diagnostic {
        Diagnostic(.ruleMissingKey, .error, at: location, "\(context) needs '\(key)'")
    }

    static func wrongType(_ key: String, expected: String, at location: SourceLocation) -> Diagnostic {
        Diagnostic(.ruleWrongType, .error, at: location, "'\(key)' must be \(expected)")
    }

    static func invalidValue(_ value: String, for key: String, allowed: String, at location: SourceLocation) -> Diagnostic {
        Diagnostic(.ruleInvalidValue, .error, at: location, "invalid \(key) '\(value)': expected \(allowed)")
    }

    /// An id (bank, parser, ignore rule) used twice.
    public static func duplicateID(_ id: String, at location: SourceLocation, first: SourceLocation) -> Diagnostic {
        Diagnostic(.ruleDuplicateID, .error, at: location, "duplicate id '\(id)'",
                   notes: [Note("first used here", at: first)])
    }

    /// A capture or field option naming a field Spendlex does not know.
    public static func unknownField(_ name: String, at location: SourceLocation) -> Diagnostic {
        let allowed = FieldName.allCases.map(\.rawValue)
        var notes = [Note("known fields: \(allowed.joined(separator: ", "))")]
        if let guess = closestMatch(to: name, among: allowed) {
            notes.insert(Note("did you mean '\(guess)'?"), at: 0)
        }
        return Diagnostic(.ruleUnknownField, .error, at: location, "unknown field '\(name)'", notes: notes)
    }

    /// `%{NAME}` naming no fragment.
    public static func unknownGrammar(_ name: String, known: [String], at location: SourceLocation) -> Diagnostic {
        var notes: [Note] = []
        if let guess = closestMatch(to: name, among: known) {
            notes.append(Note("did you mean '\(guess)'?"))
        }
        return Diagnostic(.grammarUnknown, .error, at: location, "unknown grammar '\(name)'", notes: notes)
    }

    /// Fragments that reference each other in a loop.
    public static func grammarCycle(_ path: [String], at location: SourceLocation) -> Diagnostic {
        Diagnostic(.grammarCycle, .error, at: location,
                   "grammar fragments reference each other in a cycle: \(path.joined(separator: " -> "))")
    }

    /// Two fragments with one name.
    public static func duplicateGrammar(_ name: String, at location: SourceLocation, first: SourceLocation) -> Diagnostic {
        Diagnostic(.grammarDuplicate, .error, at: location, "grammar '\(name)' is defined twice",
                   notes: [Note("first defined here", at: first)])
    }

    static func invalidGrammarName(_ name: String, at location: SourceLocation) -> Diagnostic {
        Diagnostic(.grammarInvalidName, .error, at: location,
                   "invalid grammar name '\(name)': use upper case letters, digits and underscores, starting with a letter")
    }

    /// `%{NAME:field}` inside a fragment: captures belong to parsers.
    public static func captureInFragment(_ reference: String, at location: SourceLocation) -> Diagnostic {
        Diagnostic(.grammarCaptureInFragment, .error, at: location,
                   "a grammar fragment cannot capture a field ('\(reference)'): write %{NAME} and capture in the parser")
    }

    /// PCRE2 refused a pattern.
    public static func patternSyntax(_ message: String, at location: SourceLocation, notes: [Note] = []) -> Diagnostic {
        Diagnostic(.patternSyntax, .error, at: location, "invalid pattern: \(message)", notes: notes)
    }

    /// A parser whose pattern captures no amount.
    public static func patternNoAmount(_ parser: String, at location: SourceLocation) -> Diagnostic {
        Diagnostic(.patternNoAmount, .warning, at: location, "parser '\(parser)' captures no amount")
    }

    /// A field option for a field the pattern never captures.
    public static func fieldNotCaptured(_ field: String, at location: SourceLocation) -> Diagnostic {
        Diagnostic(.patternFieldNotCaptured, .warning, at: location,
                   "field '\(field)' has options but the pattern does not capture it")
    }

    /// A parser without examples: nothing tests it.
    public static func parserNoExamples(_ parser: String, at location: SourceLocation) -> Diagnostic {
        Diagnostic(.parserNoExamples, .warning, at: location, "parser '\(parser)' has no examples")
    }

    /// An example that an earlier parser of the same bank takes.
    public static func exampleShadowed(_ parser: String, by other: String, at location: SourceLocation,
                                       other otherLocation: SourceLocation) -> Diagnostic {
        Diagnostic(.exampleShadowed, .warning, at: location,
                   "this example of '\(parser)' is matched first by '\(other)'",
                   notes: [Note("'\(other)' is here", at: otherLocation)])
    }

    /// An example that two parsers both match.
    public static func exampleAmbiguous(_ parser: String, also other: String, at location: SourceLocation,
                                        other otherLocation: SourceLocation) -> Diagnostic {
        Diagnostic(.exampleAmbiguous, .warning, at: location,
                   "this example of '\(parser)' is also matched by '\(other)'",
                   notes: [Note("'\(other)' is here", at: otherLocation)])
    }

    /// An example whose result differs from what it expects.
    public static func testFailed(_ parser: String, _ problem: String, at location: SourceLocation) -> Diagnostic {
        Diagnostic(.testFailed, .error, at: location, "example of '\(parser)' failed: \(problem)")
    }

    /// A counter-example that produced a transaction.
    public static func counterExampleMatched(_ parser: String, by other: String, at location: SourceLocation) -> Diagnostic {
        Diagnostic(.testCounterExampleMatched, .error, at: location,
                   "counter-example of '\(parser)' produced a transaction (parser '\(other)')")
    }
}

extension Diagnostic {
    /// A row naming a category that is not declared, or a subcategory its category does not have.
    public static func unknownCategory(_ name: String, under parent: String? = nil, known: [String],
                                       at location: SourceLocation) -> Diagnostic {
        var notes: [Note] = []
        if let guess = closestMatch(to: name, among: known) {
            notes.append(Note("did you mean '\(guess)'?"))
        }
        if let parent {
            notes.append(Note(known.isEmpty ? "'\(parent)' declares no subcategories"
                : "'\(parent)' has: \(known.joined(separator: ", "))"))
            return Diagnostic(.categoryUnknown, .error, at: location, "unknown subcategory '\(name)' of '\(parent)'",
                              notes: notes)
        }
        if known.isEmpty { notes.append(Note("no categories are declared: list them under 'categories'")) }
        return Diagnostic(.categoryUnknown, .error, at: location, "unknown category '\(name)'", notes: notes)
    }

    /// Two rows of a `unique` table that can both match one transaction.
    public static func tableOverlap(_ row: String, with other: String, evidence: String, at location: SourceLocation,
                                    other otherLocation: SourceLocation) -> Diagnostic {
        Diagnostic(.tableOverlap, .error, at: location,
                   "rows '\(other)' and '\(row)' of a unique table can both match: \(evidence)",
                   notes: [Note("'\(other)' is here", at: otherLocation)])
    }

    /// A row (or one of its keywords) that an earlier row always takes first.
    public static func tableMasked(_ what: String, by other: String, reason: String, at location: SourceLocation,
                                   other otherLocation: SourceLocation) -> Diagnostic {
        Diagnostic(.tableMasked, .warning, at: location, "\(what) can never decide: \(reason)",
                   notes: [Note("'\(other)' is here", at: otherLocation)])
    }

    /// A table whose last row has conditions: some transactions get no category from it.
    public static func tableNoCatchAll(_ table: String, at location: SourceLocation,
                                       catchAll: (id: String, location: SourceLocation)?) -> Diagnostic {
        var notes = [Note("end the table with a row without conditions, e.g. {id: \(table).other, category: Uncategorized}")]
        if let catchAll {
            notes = [Note("'\(catchAll.id)' has no conditions but is not the last row", at: catchAll.location)]
        }
        return Diagnostic(.tableNoCatchAll, .warning, at: location, "table '\(table)' does not end with a catch-all row",
                          notes: notes)
    }

    /// A row example that the table does not decide by its row.
    public static func categoryExampleFailed(_ row: String, _ problem: String, at location: SourceLocation) -> Diagnostic {
        Diagnostic(.testFailed, .error, at: location, "example of row '\(row)' failed: \(problem)")
    }
}

// MARK: - Cards and wallets

extension Diagnostic {
    /// A card whose reward table has no catch-all row: some purchases would earn nothing known.
    public static func cardNoBaseRate(_ card: String, at location: SourceLocation) -> Diagnostic {
        Diagnostic(.cardNoBaseRate, .error, at: location,
                   "card '\(card)' has no base rate row: add a reward group without categories, merchants or MCCs",
                   notes: [Note("for example: - {id: base, multiplier: 1}")])
    }

    /// Two reward groups of one card cover the same thing and nothing says which wins.
    public static func cardAmbiguousGroups(_ card: String, _ group: String, _ other: String, overlap: String,
                                           at location: SourceLocation, other otherLocation: SourceLocation) -> Diagnostic {
        Diagnostic(.cardAmbiguousGroups, .error, at: location,
                   "reward groups '\(other)' and '\(group)' of card '\(card)' both cover \(overlap), with no priority to choose",
                   notes: [Note("'\(other)' is here", at: otherLocation),
                           Note("give one of them a higher 'priority', or exclude the overlap from one")])
    }

    /// A category or subcategory the declared list does not have.
    public static func cardUnknownCategory(_ name: String, known: [String], at location: SourceLocation) -> Diagnostic {
        var notes: [Note] = []
        if let guess = closestMatch(to: name, among: known) { notes.append(Note("did you mean '\(guess)'?")) }
        return Diagnostic(.cardUnknownCategory, .error, at: location, "unknown category '\(name)'", notes: notes)
    }

    /// A card naming a reward program that no points file values.
    public static func cardUnknownProgram(_ program: String, known: [String], at location: SourceLocation) -> Diagnostic {
        var notes: [Note] = []
        if let guess = closestMatch(to: program, among: known) { notes.append(Note("did you mean '\(guess)'?")) }
        return Diagnostic(.cardUnknownProgram, .warning, at: location,
                          "reward program '\(program)' has no valuation in a points file; points count at 1 cent",
                          notes: notes)
    }

    /// A reward group id used twice in one card.
    public static func cardDuplicateGroup(_ id: String, at location: SourceLocation, first: SourceLocation) -> Diagnostic {
        Diagnostic(.cardDuplicateGroup, .error, at: location, "duplicate reward group id '\(id)'",
                   notes: [Note("first used here", at: first)])
    }

    /// An active window that ends before it starts.
    public static func cardInvalidWindow(_ group: String, at location: SourceLocation) -> Diagnostic {
        Diagnostic(.cardInvalidWindow, .error, at: location, "reward group '\(group)' ends before it starts")
    }

    /// A wallet card naming no loaded card file.
    public static func walletUnknownCard(_ card: String, known: [String], at location: SourceLocation) -> Diagnostic {
        var notes: [Note] = []
        if let guess = closestMatch(to: card, among: known) { notes.append(Note("did you mean '\(guess)'?")) }
        return Diagnostic(.walletUnknownCard, .error, at: location, "unknown card '\(card)'", notes: notes)
    }

    /// A wallet with no cards.
    public static func walletEmpty(at location: SourceLocation) -> Diagnostic {
        Diagnostic(.walletEmpty, .error, at: location, "the wallet has no cards: add at least one under 'cards'")
    }

    /// Wallet spending for a reward group the card does not have.
    public static func walletUnknownGroup(_ group: String, card: String, known: [String],
                                          at location: SourceLocation) -> Diagnostic {
        var notes: [Note] = []
        if let guess = closestMatch(to: group, among: known) { notes.append(Note("did you mean '\(guess)'?")) }
        return Diagnostic(.walletUnknownGroup, .error, at: location,
                          "card '\(card)' has no reward group '\(group)'", notes: notes)
    }

    /// A wallet preference naming an unknown reward program.
    public static func walletUnknownProgram(_ program: String, known: [String], at location: SourceLocation) -> Diagnostic {
        var notes: [Note] = []
        if let guess = closestMatch(to: program, among: known) { notes.append(Note("did you mean '\(guess)'?")) }
        return Diagnostic(.walletUnknownProgram, .error, at: location, "unknown reward program '\(program)'", notes: notes)
    }
}

/// The candidate closest to `word` by edit distance, when it is close enough to be a likely typo.
func closestMatch(to word: String, among candidates: [String]) -> String? {
    let limit = max(2, word.count / 3)
    var best: (String, Int)?
    for candidate in candidates {
        let distance = editDistance(word.lowercased(), candidate.lowercased())
        if distance <= limit, best.map({ distance < $0.1 }) ?? true {
            best = (candidate, distance)
        }
    }
    return best?.0
}

/// Levenshtein distance over characters.
func editDistance(_ a: String, _ b: String) -> Int {
    let a = Array(a), b = Array(b)
    if a.isEmpty { return b.count }
    if b.isEmpty { return a.count }
    var previous = Array(0...b.count)
    var current = [Int](repeating: 0, count: b.count + 1)
    for i in 1...a.count {
        current[0] = i
        for j in 1...b.count {
            current[j] = min(previous[j] + 1, current[j - 1] + 1,
                             previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
        }
        swap(&previous, &current)
    }
    return previous[b.count]
}
