import PCRE2

/// A generalized message as a row of typed tokens (amount, date, time, number, identifier,
/// name, word, mark), for telling whether two messages of one sender are one format and, if
/// they are, where they differ.
///
/// Two messages are one shape when a weighted edit distance between their rows is small: a
/// changed name ("TESCO" for "SPAR", "John" for "Mary") costs little, a changed number or code
/// little too, a changed ordinary word one, and a changed verb of money ("debited" for
/// "credited", "spent" for "received") so much that the two never share a draft.
struct MessageShape {
    /// What a token is.
    enum Kind: Hashable {
        case amount, date, time, number, identifier, name, word, mark
    }

    /// One token of the message.
    struct Token {
        let kind: Kind
        /// The text, lower-cased for words; the slot's text for slots.
        let text: String
        /// UTF-8 byte offsets in the message text.
        let range: Range<Int>
        /// A slot of the generalization (an amount, a date, the merchant), not literal text.
        let isSlot: Bool
        /// A word that says which way money moved ("debited", "received").
        let isVerb: Bool
    }

    /// The tokens from the pattern's start to a few words after its last slot.
    let tokens: [Token]

    /// The shape of a generalized message: slots as typed tokens, the literal text between
    /// them as words, numbers, identifiers and marks; three tokens of the tail after the last slot.
    init(_ generalized: GeneralizedMessage) {
        let bytes = Array(generalized.text.utf8)
        var tokens: [Token] = []
        var cursor = generalized.start
        for slot in generalized.slots where slot.range.lowerBound >= cursor {
            tokens += Self.literalTokens(bytes, cursor..<slot.range.lowerBound)
            tokens.append(Token(kind: Self.kind(of: slot), text: slot.raw, range: slot.range, isSlot: true, isVerb: false))
            cursor = slot.range.upperBound
        }
        tokens += Self.literalTokens(bytes, cursor..<bytes.count).prefix(3)
        self.tokens = tokens
    }

    /// The kind of token a slot is.
    static func kind(of slot: GeneralizedMessage.Slot) -> Kind {
        switch slot.form {
        case .amountThenCurrency: return .amount
        case .freeText, .word: return .name
        case .grammar(let name):
            if name.hasPrefix("DATE") { return .date }
            if name == "TIME" { return .time }
            if name.hasPrefix("MONEY") || name.hasPrefix("AMOUNT") { return .amount }
            return slot.field == .merchant ? .name : .identifier
        }
    }

    /// Literal text as tokens: words (a capitalized one a name), digit runs, words with digits
    /// (identifiers), and single marks; spaces separate.
    static func literalTokens(_ bytes: [UInt8], _ range: Range<Int>) -> [Token] {
        var tokens: [Token] = []
        var index = range.lowerBound
        while index < range.upperBound {
            let byte = bytes[index]
            if PatternLiteral.isSpace(byte) {
                index += 1
            } else if PatternLiteral.isWordByte(byte) {
                var end = index
                while end < range.upperBound && (PatternLiteral.isWordByte(bytes[end])
                    || (bytes[end] == UInt8(ascii: "'") && end + 1 < range.upperBound && PatternLiteral.isWordByte(bytes[end + 1]))) {
                    end += 1
                }
                let run = bytes[index..<end]
                let text = String(decoding: run, as: UTF8.self)
                let kind: Kind
                if run.allSatisfy(PatternLiteral.isDigit) {
                    kind = .number
                } else if run.contains(where: PatternLiteral.isDigit) {
                    kind = .identifier
                } else if let first = text.unicodeScalars.first, first.properties.isUppercase {
                    kind = .name
                } else {
                    kind = .word
                }
                tokens.append(Token(kind: kind, text: text.lowercased(), range: index..<end, isSlot: false,
                                    isVerb: kind != .number && TransactionWordGuess.isDirectionWord(text)))
                index = end
            } else {
                let length = min(PatternLiteral.scalarLength(byte), range.upperBound - index)
                tokens.append(Token(kind: .mark, text: String(decoding: bytes[index..<(index + length)], as: UTF8.self),
                                    range: index..<(index + length), isSlot: false, isVerb: false))
                index += length
            }
        }
        return tokens
    }

    // MARK: - Distance

    /// The cost of putting `b` where `a` is.
    static func substitutionCost(_ a: Token, _ b: Token) -> Double {
        if a.isVerb || b.isVerb { return a.text == b.text ? 0 : 4 }
        if a.isSlot && b.isSlot { return a.kind == b.kind ? 0 : 2 }
        if a.text == b.text && a.kind == b.kind { return 0 }
        switch (a.kind, b.kind) {
        case (.name, .name): return 0.25
        case (.number, .number), (.identifier, .identifier), (.number, .identifier), (.identifier, .number): return 0.25
        case (.word, .word), (.name, .word), (.word, .name): return 1
        case (.mark, .mark): return 1
        default: return 2
        }
    }

    /// The cost of a token only one of the two messages has: a name little, a verb much.
    static func gapCost(_ token: Token) -> Double {
        if token.isVerb { return 4 }
        return token.kind == .name ? 0.5 : 1
    }

    /// One step of an alignment: a pair of token indices, either nil for a gap.
    typealias Step = (mine: Int?, theirs: Int?)

    /// The weighted edit distance to `other` and the alignment that achieves it, in order.
    func alignment(with other: MessageShape) -> (distance: Double, steps: [Step]) {
        let a = tokens, b = other.tokens
        var cost = Array(repeating: Array(repeating: 0.0, count: b.count + 1), count: a.count + 1)
        for i in 0...a.count where i > 0 { cost[i][0] = cost[i - 1][0] + Self.gapCost(a[i - 1]) }
        for j in 0...b.count where j > 0 { cost[0][j] = cost[0][j - 1] + Self.gapCost(b[j - 1]) }
        for i in 0...a.count where i > 0 {
            for j in 0...b.count where j > 0 {
                cost[i][j] = min(cost[i - 1][j - 1] + Self.substitutionCost(a[i - 1], b[j - 1]),
                                 cost[i - 1][j] + Self.gapCost(a[i - 1]),
                                 cost[i][j - 1] + Self.gapCost(b[j - 1]))
            }
        }
        var steps: [Step] = []
        var i = a.count, j = b.count
        while i > 0 || j > 0 {
            if i > 0 && j > 0 && cost[i][j] == cost[i - 1][j - 1] + Self.substitutionCost(a[i - 1], b[j - 1]) {
                steps.append((i - 1, j - 1)); i -= 1; j -= 1
            } else if i > 0 && cost[i][j] == cost[i - 1][j] + Self.gapCost(a[i - 1]) {
                steps.append((i - 1, nil)); i -= 1
            } else {
                steps.append((nil, j - 1)); j -= 1
            }
        }
        return (cost[a.count][b.count], steps.reversed())
    }

    /// The distance divided by the longer row's length: 0 for one format, 1 and more for unrelated texts.
    func normalizedDistance(to other: MessageShape) -> Double {
        let longest = max(tokens.count, other.tokens.count)
        guard longest > 0 else { return 0 }
        return alignment(with: other).distance / Double(longest)
    }

    /// The most a normalized distance may be for two messages to be one shape.
    static let sameShapeLimit = 0.25

    /// Whether `other` is the same format: close, and no verb of money changed.
    func isSameShape(as other: MessageShape) -> Bool {
        normalizedDistance(to: other) <= Self.sameShapeLimit
    }

    /// Where this message's literal text varies against `other`'s: runs of this message's
    /// literal tokens that `other` writes differently, each with whether it reads as a name
    /// (capitalized words, or words the other message has more or fewer of). Slots, marks and
    /// identical tokens are constant.
    func varyingRuns(against other: MessageShape) -> [(range: Range<Int>, isName: Bool)] {
        var runs: [(range: Range<Int>, isName: Bool)] = []
        var current: (start: Int, end: Int, names: Int, words: Int, gaps: Int)?
        func close() {
            if let run = current {
                runs.append((run.start..<run.end, run.names > 0 && run.names + run.gaps >= run.words))
            }
            current = nil
        }
        for step in alignment(with: other).steps {
            switch step {
            case let (mine?, theirs?):
                let a = tokens[mine], b = other.tokens[theirs]
                let varies = !a.isSlot && !b.isSlot && a.kind != .mark && (a.text != b.text || a.kind != b.kind)
                guard varies else { close(); continue }
                let isName = a.kind == .name || b.kind == .name
                if var run = current {
                    run.end = a.range.upperBound
                    run.names += isName ? 1 : 0
                    run.words += 1
                    current = run
                } else {
                    current = (a.range.lowerBound, a.range.upperBound, isName ? 1 : 0, 1, 0)
                }
            case let (mine?, nil):
                let a = tokens[mine]
                guard !a.isSlot, a.kind == .name || a.kind == .word else { close(); continue }
                let isName = a.kind == .name ? 1 : 0
                if var run = current {
                    run.end = a.range.upperBound
                    run.names += isName
                    run.gaps += 1
                    run.words += 1
                    current = run
                } else {
                    current = (a.range.lowerBound, a.range.upperBound, isName, 1, 1)
                }
            case let (nil, theirs?):
                // A name only the other message has: the run here is longer there.
                if other.tokens[theirs].kind == .name { current?.gaps += 1 }
            case (nil, nil):
                continue
            }
        }
        close()
        return runs
    }
}
