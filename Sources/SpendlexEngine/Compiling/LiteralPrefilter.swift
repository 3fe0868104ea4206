/// What every match of a pattern contains, found from the pattern's text the way ripgrep finds
/// required literals: a set of strings ("needles"), one of which is in every match the pattern
/// can make. A text that holds none of them (ignoring ASCII case) cannot match, and PCRE2 need
/// not be called: one pass over the bytes instead of a match attempt at every position where
/// the pattern could start.
///
/// Needles are ASCII, and case-insensitive matching is read as ASCII folding: with UCP, "K"
/// (U+212A) matches "k" and "ſ" matches "s", so those two scalars in a pattern are any character,
/// and a text holding them is not screened (`LiteralScreen`). For ASCII texts (`Texts.ascii`) an
/// alternative that needs a scalar outside ASCII cannot match at all, so "balance|баланс" needs
/// "balance"; for other texts (`Texts.any`) such a scalar is any character, and the pattern
/// needs what its ASCII parts need, if anything. A pattern whose text this reader does not follow
/// (recursion, conditionals, callouts, unknown escapes), or whose best needles are shorter than
/// `minimumNeedle`, gets no prefilter: nil, and PCRE2 is always called.
struct LiteralPrefilter: Sendable {
    /// The needles, lower case, none holding another (that one would be found first).
    let needles: [String]

    /// The shortest needle worth a pass: one- and two-letter needles are in most texts.
    static let minimumNeedle = 3

    /// The texts a prefilter is for.
    enum Texts {
        /// ASCII texts: an alternative that needs a scalar outside ASCII cannot match them.
        case ascii
        /// Any text without the two scalars that fold to ASCII letters (`LiteralScreen.foldsToASCII`):
        /// only ASCII literals are needles, the others are read as any character.
        case any
    }

    /// The prefilter of an expanded pattern (PCRE2 syntax, `options` as compiled) for `texts`; nil
    /// when none is worth having (no needle as long as `minimumNeedle`). A pattern that cannot
    /// match any ASCII text gets a prefilter for ASCII texts with no needles. `LiteralScanner`
    /// searches for the needles.
    /// With `references`, `pattern` is a pattern as written in a rule file: a grammar reference
    /// (`%{NAME}`, `%{NAME:field}`) stands for what its fragment requires.
    init?(pattern: String, extended: Bool = false, texts: Texts = .ascii, minimumNeedle: Int = LiteralPrefilter.minimumNeedle,
          references: FragmentLiterals? = nil) {
        precondition(minimumNeedle >= 2, "the scanner looks needles up by their first two bytes")
        var reader = PatternReader(Array(pattern.unicodeScalars), extended: extended, asciiTexts: texts == .ascii,
                                   references: references)
        guard let facts = try? reader.readAll() else { return nil }
        let needles: Set<[UInt8]>
        switch facts.required {
        case .nothing: return nil
        case .impossible: needles = []
        case .oneOf(let set): needles = set
        }
        if let shortest = needles.map(\.count).min(), shortest < minimumNeedle { return nil }
        self.needles = LiteralFacts.minimal(needles).map { String(decoding: $0, as: UTF8.self) }
    }
}

/// What a part of a pattern matches in ASCII texts, as far as literals go.
struct LiteralFacts {
    /// What every match of it contains.
    enum Required: Equatable {
        /// Nothing known.
        case nothing
        /// It cannot match an ASCII text.
        case impossible
        /// One of these lower-case ASCII strings (as bytes: hashing `String`s, which compares
        /// them in normalization form C, made reading the bundled rules' patterns cost 12 ms).
        case oneOf(Set<[UInt8]>)
    }

    /// Every string it can match, lower case, when they are few and short ("" when it can match
    /// nothing at all, as `\b` or `x?` can); nil otherwise.
    var exact: Set<[UInt8]>?
    var required: Required

    static let empty = LiteralFacts(exact: [[]], required: .nothing)
    static let anything = LiteralFacts(exact: nil, required: .nothing)
    static let impossible = LiteralFacts(exact: nil, required: .impossible)

    /// The most strings an exact set keeps, and the longest string in one.
    static let maxExact = 64
    static let maxLength = 24

    /// What it requires: its exact strings (unless one of them is empty), or what else it requires
    /// (a lookahead's words), whichever is better.
    var requirement: Required {
        guard let ofExact = requirementOfExact else { return required }
        return ofExact == .nothing ? required : LiteralFacts.better(ofExact, required)
    }

    /// What its exact strings require: themselves, unless one of them is empty.
    var requirementOfExact: Required? {
        guard let exact else { return nil }
        if exact.isEmpty { return .impossible }
        return exact.contains([]) ? .nothing : .oneOf(exact)
    }

    /// The better of two requirements: the one whose shortest needle is longest, then the one
    /// with fewer needles once a needle holding another is dropped ("avl" or "avail", where
    /// "available" is one of them, before "bal", "limit" or "credit"). An impossible part makes
    /// the whole impossible.
    static func better(_ a: Required, _ b: Required) -> Required {
        switch (a, b) {
        case (.impossible, _), (_, .impossible): return .impossible
        case (.nothing, _): return b
        case (_, .nothing): return a
        case (.oneOf(let x), .oneOf(let y)):
            let (shortestX, shortestY) = (x.map(\.count).min() ?? 0, y.map(\.count).min() ?? 0)
            if shortestX != shortestY { return shortestX > shortestY ? a : b }
            return minimal(x).count <= minimal(y).count ? a : b
        }
    }

    /// `needles` without those that hold another (the shorter is found whenever the longer is),
    /// shortest first.
    static func minimal(_ needles: Set<[UInt8]>) -> [[UInt8]] {
        var kept: [[UInt8]] = []
        for needle in needles.sorted(by: { $0.count != $1.count ? $0.count < $1.count : $0.lexicographicallyPrecedes($1) })
        where !kept.contains(where: { holds(needle, $0) }) {
            kept.append(needle)
        }
        return kept
    }

    /// Whether `bytes` holds `part`.
    static func holds(_ bytes: [UInt8], _ part: [UInt8]) -> Bool {
        guard part.count <= bytes.count else { return false }
        return (0...(bytes.count - part.count)).contains { start in bytes[start..<(start + part.count)].elementsEqual(part) }
    }

    /// Every string of `a` followed by one of `b`; nil when there would be too many or too long.
    static func product(_ a: Set<[UInt8]>, _ b: Set<[UInt8]>) -> Set<[UInt8]>? {
        guard a.count * b.count <= maxExact else { return nil }
        var result = Set<[UInt8]>()
        for x in a {
            for y in b {
                if x.count + y.count > maxLength { return nil }
                result.insert(x + y)
            }
        }
        return result
    }
}

/// Reads a pattern's text (PCRE2 syntax) into `LiteralFacts`. Throws where it does not follow
/// the syntax: the pattern then gets no prefilter.
struct PatternReader {
    struct Unsupported: Error {}

    let scalars: [Unicode.Scalar]
    var index = 0
    /// `(?x)`: white space and `#` comments outside classes are not part of the pattern.
    var extended: Bool
    /// Whether the texts are ASCII: a scalar outside ASCII then cannot match; else it is any character.
    let asciiTexts: Bool
    /// The grammar fragments `%{NAME}` refers to, for a pattern as written; nil for an expanded
    /// pattern, where `%` is itself.
    let references: FragmentLiterals?

    init(_ scalars: [Unicode.Scalar], extended: Bool, asciiTexts: Bool, references: FragmentLiterals? = nil) {
        self.scalars = scalars
        self.extended = extended
        self.asciiTexts = asciiTexts
        self.references = references
    }

    mutating func readAll() throws -> LiteralFacts {
        let facts = try alternation()
        guard index == scalars.count else { throw Unsupported() }
        return facts
    }

    private var atEnd: Bool { index >= scalars.count }
    private func peek(_ offset: Int = 0) -> Unicode.Scalar? {
        index + offset < scalars.count ? scalars[index + offset] : nil
    }

    /// Branches separated by `|`, up to `)` or the end. Options set inside a group (`(?i)`)
    /// last to its end, across branches, as in PCRE2.
    private mutating func alternation() throws -> LiteralFacts {
        let outer = extended
        defer { extended = outer }
        var branches = [try sequence()]
        while peek() == "|" {
            index += 1
            branches.append(try sequence())
        }
        return Self.union(branches)
    }

    private static func union(_ branches: [LiteralFacts]) -> LiteralFacts {
        var exact: Set<[UInt8]>? = []
        var needles = Set<[UInt8]>()
        var anyPossible = false
        var unknown = false
        for branch in branches {
            if let branchExact = branch.exact, let sofar = exact, sofar.count + branchExact.count <= LiteralFacts.maxExact {
                exact = sofar.union(branchExact)
            } else {
                exact = nil
            }
            switch branch.requirement {
            case .impossible: continue
            case .nothing: unknown = true
            case .oneOf(let set): needles.formUnion(set)
            }
            anyPossible = true
        }
        if !anyPossible { return LiteralFacts(exact: [], required: .impossible) }
        return LiteralFacts(exact: exact, required: unknown ? .nothing : .oneOf(needles))
    }

    /// Items up to `|`, `)` or the end: consecutive exact items are multiplied out into runs
    /// ("av(?:ai)?l" is "avl" or "avail"); the best run or item's requirement is the sequence's.
    private mutating func sequence() throws -> LiteralFacts {
        var whole: Set<[UInt8]>? = [[]]
        var run: Set<[UInt8]>? = [[]]
        var required = LiteralFacts.Required.nothing
        func flush() {
            if let run, !run.contains([]) { required = LiteralFacts.better(required, .oneOf(run)) }
            run = [[]]
        }
        // `bytes`, each an item of exactly itself, multiplied into `whole` and `run` as the loop
        // below does one item at a time.
        func append(_ bytes: [UInt8]) {
            if let sofar = whole {
                let longest = sofar.lazy.map(\.count).max() ?? 0
                whole = longest + bytes.count <= LiteralFacts.maxLength ? Set(sofar.map { $0 + bytes }) : nil
            }
            var rest = bytes[...]
            while let first = rest.first {
                if let sofar = run {
                    let room = LiteralFacts.maxLength - (sofar.lazy.map(\.count).max() ?? 0)
                    if room > 0 {
                        let taken = rest.prefix(room)
                        run = Set(sofar.map { $0 + taken })
                        rest = rest.dropFirst(taken.count)
                        continue
                    }
                }
                flush()
                run = [[first]]
                rest = rest.dropFirst()
            }
        }
        var impossible = false
        var lookedFor = LiteralFacts.Required.nothing
        while let scalar = peek(), scalar != "|", scalar != ")" {
            // Plain characters in a row, none quantified: taken together, with what multiplying
            // them in one by one would give (a run is cut every `maxLength` bytes, as it would be
            // there), without a set made and hashed per character: reading the bundled rules'
            // patterns spent most of its time so.
            let literals = plainLiterals()
            if !literals.isEmpty {
                if !impossible { append(literals) }
                continue
            }
            guard let item = try quantified() else { continue }
            // Read on to the sequence's end all the same: the text after it must be read.
            if item.required == .impossible || item.exact?.isEmpty == true { impossible = true }
            if impossible { continue }
            whole = whole.flatMap { sofar in item.exact.flatMap { LiteralFacts.product(sofar, $0) } }
            // An item with exact strings may require more than them: a lookahead matches "" and
            // requires what it looks for. Kept for when nothing else is required: a lookahead's
            // words ("for" in "recharge of(?=… for …)") are often commoner than the sequence's own.
            if item.exact != nil, case .oneOf = item.required { lookedFor = LiteralFacts.better(lookedFor, item.required) }
            if let exact = item.exact {
                if let sofar = run, let joined = LiteralFacts.product(sofar, exact) {
                    run = joined
                } else {
                    flush()
                    run = exact
                }
            } else {
                flush()
                required = LiteralFacts.better(required, item.required)
            }
        }
        if impossible { return .impossible }
        flush()
        if let whole, let requirement = LiteralFacts(exact: whole, required: .nothing).requirementOfExact {
            required = LiteralFacts.better(required, requirement)
        }
        if required == .nothing { required = lookedFor }
        return LiteralFacts(exact: whole, required: required)
    }

    /// The lower-cased bytes of the plain ASCII characters from here on (not syntax, not followed by
    /// a quantifier: the last character before one is left to `quantified`), which it passes over;
    /// empty when there are none. None in extended mode, where spaces and comments may come between.
    private mutating func plainLiterals() -> [UInt8] {
        guard !extended else { return [] }
        var bytes: [UInt8] = []
        while let scalar = peek(), Self.isPlain(scalar) {
            if let next = peek(1), next == "?" || next == "*" || next == "+" || next == "{" { break }
            bytes.append(Self.lower(UInt8(scalar.value)))
            index += 1
        }
        return bytes
    }

    private static func isPlain(_ scalar: Unicode.Scalar) -> Bool {
        guard scalar.isASCII else { return false }
        switch scalar {
        case "(", ")", "[", "]", "{", "}", ".", "^", "$", "\\", "|", "?", "*", "+", "%": return false
        default: return true
        }
    }

    /// An atom and its quantifier; nil for what is not part of the pattern (white space and
    /// comments in extended mode, an option setting such as `(?i)`).
    private mutating func quantified() throws -> LiteralFacts? {
        guard let atom = try atom() else { return nil }
        guard let (minimum, maximum) = try quantifier() else { return atom }
        if atom.required == .impossible || atom.exact?.isEmpty == true {
            return minimum == 0 ? .empty : .impossible
        }
        if minimum == 0 {
            if maximum == 1, let exact = atom.exact, exact.count < LiteralFacts.maxExact {
                return LiteralFacts(exact: exact.union([[]]), required: .nothing)
            }
            return .anything
        }
        if minimum == maximum, let exact = atom.exact {
            var power: Set<[UInt8]>? = [[]]
            for _ in 0..<minimum { power = power.flatMap { LiteralFacts.product($0, exact) } }
            if let power { return LiteralFacts(exact: power, required: .nothing) }
        }
        return LiteralFacts(exact: nil, required: atom.requirement)
    }

    /// `?`, `*`, `+` or `{n}`, `{n,}`, `{n,m}`, with a lazy or possessive mark: the bounds
    /// (nil: none). A `{` that starts no quantifier is a literal, left for `atom`.
    private mutating func quantifier() throws -> (Int, Int?)? {
        skipExtendedSpace()
        var bounds: (Int, Int?)?
        switch peek() {
        case "?": bounds = (0, 1)
        case "*": bounds = (0, nil)
        case "+": bounds = (1, nil)
        case "{":
            var probe = index + 1
            var numbers: [String] = [""]
            while probe < scalars.count, scalars[probe] != "}" {
                let scalar = scalars[probe]
                if scalar == "," { numbers.append("") } else if ("0"..."9").contains(scalar) {
                    numbers[numbers.count - 1].unicodeScalars.append(scalar)
                } else { return nil }
                probe += 1
            }
            guard probe < scalars.count, numbers.count <= 2, let low = Int(numbers[0]) else { return nil }
            let high = numbers.count == 1 ? low : numbers[1].isEmpty ? nil : Int(numbers[1])
            index = probe
            bounds = (low, high)
        default: return nil
        }
        index += 1
        if peek() == "?" || peek() == "+" { index += 1 }
        return bounds
    }

    private mutating func skipExtendedSpace() {
        guard extended else { return }
        while let scalar = peek() {
            if scalar.properties.isPatternWhitespace {
                index += 1
            } else if scalar == "#" {
                while let next = peek(), next != "\n" { index += 1 }
            } else {
                return
            }
        }
    }

    private mutating func atom() throws -> LiteralFacts? {
        if extended, let scalar = peek(), scalar.properties.isPatternWhitespace || scalar == "#" {
            skipExtendedSpace()
            return nil
        }
        guard let scalar = peek() else { throw Unsupported() }
        index += 1
        switch scalar {
        case "(": return try group()
        case "[": return try characterClass()
        case ".": return .anything
        case "^", "$": return .empty
        case "\\": return try escape()
        case "%" where references != nil && peek() == "{":
            // `%{NAME}` or `%{NAME:field}`: the fragment, in a group of its own, read with this
            // place's extended mode (the expansion puts it here).
            var name = ""
            index += 1
            while let next = peek(), next != "}", next != ":" {
                name.unicodeScalars.append(next)
                index += 1
            }
            while let next = peek(), next != "}" { index += 1 }
            guard peek() == "}" else { throw Unsupported() }
            index += 1
            return references!.facts(of: name, extended: extended, asciiTexts: asciiTexts)
        default: return literal(scalar)
        }
    }

    static func lower(_ byte: UInt8) -> UInt8 {
        byte &- 0x41 < 26 ? byte | 0x20 : byte
    }

    /// One character written as itself.
    private func literal(_ scalar: Unicode.Scalar) -> LiteralFacts {
        if scalar.isASCII { return LiteralFacts(exact: [[Self.lower(UInt8(scalar.value))]], required: .nothing) }
        // Under UCP case folding, the long s and the Kelvin sign match ASCII letters.
        if scalar.value == 0x17F || scalar.value == 0x212A || !asciiTexts { return .anything }
        return .impossible
    }

    private mutating func group() throws -> LiteralFacts? {
        if peek() == "*" {
            // A verb such as (*UCP) or (*SKIP): nothing to match, or a control this reader skips.
            while let scalar = peek(), scalar != ")" { index += 1 }
            guard peek() == ")" else { throw Unsupported() }
            index += 1
            return .empty
        }
        guard peek() == "?" else { return try closeGroup(alternation()) }
        index += 1
        switch peek() {
        case ":", "|", ">":
            index += 1
            return try closeGroup(alternation())
        case "=", "!":
            let positive = peek() == "="
            index += 1
            return Self.assertion(try closeGroup(alternation()), positive: positive)
        case "<" where peek(1) == "=" || peek(1) == "!":
            // A lookbehind's text may lie before where a search starts (the field layer searches
            // from an offset, the scanner's positions must be at or after it): it says nothing.
            index += 2
            _ = try closeGroup(alternation())
            return .empty
        case "<", "'", "P":
            // A named group: (?<name>…), (?'name'…), (?P<name>…). (?P=name) and (?P>name) refer.
            if peek() == "P" {
                guard peek(1) == "<" else { throw Unsupported() }
                index += 1
            }
            let close: Unicode.Scalar = peek() == "'" ? "'" : ">"
            index += 1
            while let scalar = peek(), scalar != close {
                guard scalar == "_" || scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) else { throw Unsupported() }
                index += 1
            }
            guard peek() == close else { throw Unsupported() }
            index += 1
            return try closeGroup(alternation())
        case "#":
            while let scalar = peek(), scalar != ")" { index += 1 }
            guard peek() == ")" else { throw Unsupported() }
            index += 1
            return nil
        default:
            // Options: (?i) (?x-s) (?^) for the rest of the group, or (?i:…) for a group.
            var turnOn = true
            var extendedHere = extended
            while let scalar = peek(), scalar != ")" && scalar != ":" {
                switch scalar {
                case "-": turnOn = false
                case "^": extendedHere = false
                case "x": extendedHere = turnOn
                case "i", "m", "s", "n", "U", "J", "a", "r", "u", "D", "E": break
                default: throw Unsupported()
                }
                index += 1
            }
            guard let end = peek() else { throw Unsupported() }
            index += 1
            if end == ")" {
                extended = extendedHere
                return nil
            }
            let outer = extended
            extended = extendedHere
            defer { extended = outer }
            return try closeGroup(alternation())
        }
    }

    /// A lookahead matches no text, but what a positive one requires is in the text wherever it
    /// holds, after the place it is tried at (`\A(?=.*\bmerchant\b)` needs "merchant"); a
    /// negative one says nothing.
    private static func assertion(_ inner: LiteralFacts, positive: Bool) -> LiteralFacts {
        guard positive else { return .empty }
        if inner.required == .impossible || inner.exact?.isEmpty == true { return .impossible }
        return LiteralFacts(exact: [[]], required: inner.requirement)
    }

    private mutating func closeGroup(_ facts: LiteralFacts) throws -> LiteralFacts {
        guard peek() == ")" else { throw Unsupported() }
        index += 1
        return facts
    }

    /// A class: the ASCII characters it lists when they are few (`[Xx*]`), any character when it
    /// has ranges, escapes or is negated; impossible when it lists only characters outside ASCII.
    private mutating func characterClass() throws -> LiteralFacts {
        var negated = false
        if peek() == "^" {
            negated = true
            index += 1
        }
        var members = Set<[UInt8]>()
        var broad = negated
        var first = true
        while let scalar = peek() {
            if scalar == "]" && !first { break }
            let isFirst = first
            first = false
            index += 1
            switch scalar {
            case "[" where peek() == ":":
                // A POSIX class, [:alpha:].
                while let next = peek(), next != "]" { index += 1 }
                index += 1
                broad = true
            case "\\":
                guard let escaped = peek() else { throw Unsupported() }
                index += 1
                if escaped.properties.isAlphabetic || ("0"..."9").contains(escaped) {
                    // \d \w \s \p{…} \x{…}: more than a few characters, or one this reader does not decode.
                    if escaped == "p" || escaped == "P" || escaped == "x" || escaped == "o" {
                        if peek() == "{" {
                            while let next = peek(), next != "}" { index += 1 }
                            index += 1
                        } else if escaped == "x" {
                            index += min(2, scalars.count - index)
                        } else if escaped != "o" {
                            index += 1
                        }
                    }
                    broad = true
                } else if escaped.isASCII {
                    members.insert([Self.lower(UInt8(escaped.value))])
                } else {
                    broad = broad || escaped.value == 0x17F || escaped.value == 0x212A || !asciiTexts
                }
            case "-" where peek() != "]" && !isFirst:
                // A range such as a-z: more than a few characters.
                broad = true
                index += 1
            default:
                if scalar.isASCII {
                    members.insert([Self.lower(UInt8(scalar.value))])
                } else if scalar.value == 0x17F || scalar.value == 0x212A || !asciiTexts {
                    broad = true
                }
            }
        }
        guard peek() == "]" else { throw Unsupported() }
        index += 1
        if broad { return .anything }
        if members.isEmpty { return .impossible }
        return members.count <= 8 ? LiteralFacts(exact: members, required: .nothing) : .anything
    }

    private mutating func escape() throws -> LiteralFacts {
        guard let scalar = peek() else { throw Unsupported() }
        index += 1
        switch scalar {
        case "d", "D", "w", "W", "s", "S", "h", "H", "v", "V", "R", "N", "X", "C":
            return .anything
        case "p", "P":
            if peek() == "{" {
                while let next = peek(), next != "}" { index += 1 }
                guard peek() == "}" else { throw Unsupported() }
                index += 1
            } else {
                index += 1
            }
            return .anything
        case "b", "B", "A", "z", "Z", "G", "K":
            return .empty
        case "Q":
            var text = ""
            while let next = peek(), !(next == "\\" && peek(1) == "E") {
                text.unicodeScalars.append(next)
                index += 1
            }
            if !atEnd { index += 2 }
            return text.unicodeScalars.map { literal($0) }.reduce(LiteralFacts.empty) { sofar, next in
                guard let a = sofar.exact, let b = next.exact, let joined = LiteralFacts.product(a, b) else {
                    return sofar.required == .impossible || next.required == .impossible ? .impossible : .anything
                }
                return LiteralFacts(exact: joined, required: .nothing)
            }
        case "x":
            var digits = ""
            if peek() == "{" {
                index += 1
                while let next = peek(), next != "}" {
                    digits.unicodeScalars.append(next)
                    index += 1
                }
                guard peek() == "}" else { throw Unsupported() }
                index += 1
            } else {
                while digits.count < 2, let next = peek(), next.properties.isASCIIHexDigit {
                    digits.unicodeScalars.append(next)
                    index += 1
                }
            }
            guard let value = UInt32(digits.isEmpty ? "0" : digits, radix: 16), let decoded = Unicode.Scalar(value) else {
                throw Unsupported()
            }
            return literal(decoded)
        case "n": return literal("\n")
        case "r": return literal("\r")
        case "t": return literal("\t")
        case "f": return literal("\u{0C}")
        case "e": return literal("\u{1B}")
        case "a": return literal("\u{07}")
        case "1"..."9", "g", "k":
            // A back reference: the text another group matched.
            if scalar == "g" || scalar == "k", let open = peek(), "{<'".unicodeScalars.contains(open) {
                let close: Unicode.Scalar = open == "{" ? "}" : open == "<" ? ">" : "'"
                while let next = peek(), next != close { index += 1 }
                index += 1
            } else {
                while let next = peek(), ("0"..."9").contains(next) { index += 1 }
            }
            return .anything
        default:
            // Escaped punctuation is itself; any other letter or digit is syntax this reader does not follow.
            if scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) { throw Unsupported() }
            return literal(scalar)
        }
    }
}

/// The prefilters of several patterns searched for together: one pass over a window tells, for
/// each pattern, where the last of its needles starts, so that a pattern is tried only where it
/// can match. It pays where it spares several PCRE2 searches of the same text (a bank's ignore
/// rules and gates, every bank's `detect` patterns); over the field layer's short windows, whose
/// finders are one or two searches each, it cost more than it spared (tried twice, taken out).
struct LiteralScanner: Sendable {
    /// How many patterns it was made for (a pattern without a prefilter is never skipped).
    let count: Int
    /// The shortest needle's length: a shorter text holds none.
    private let shortest: Int
    private let tables: Tables

    /// The needles and their indexes, in memory of their own: the loop over every byte of every
    /// screened text reads them through pointers, without bounds checks or nested closures
    /// lending six arrays' buffers (a first version through arrays cost more than the PCRE2
    /// searches it was to spare).
    private final class Tables: @unchecked Sendable {
        /// Every needle's bytes, one after the other; needle `n` is `bytes[starts[n]..<starts[n + 1]]`
        /// and belongs to pattern `owners[n]`.
        let bytes: UnsafeMutableBufferPointer<UInt8>
        let starts: UnsafeMutableBufferPointer<Int>
        let owners: UnsafeMutableBufferPointer<Int>
        /// For each lower-case first byte, its needles: `order[byFirst[b]..<byFirst[b + 1]]`.
        let byFirst: UnsafeMutableBufferPointer<Int>
        let order: UnsafeMutableBufferPointer<Int>
        /// One bit per pair of lower-case bytes that starts a needle: most positions of a window
        /// are passed over with one look-up.
        let pairs: UnsafeMutableBufferPointer<UInt64>

        init(bytes: [UInt8], starts: [Int], owners: [Int], byFirst: [Int], order: [Int], pairs: [UInt64]) {
            func copy<T>(_ array: [T]) -> UnsafeMutableBufferPointer<T> {
                let buffer = UnsafeMutableBufferPointer<T>.allocate(capacity: max(array.count, 1))
                _ = buffer.initialize(from: array)
                return buffer
            }
            (self.bytes, self.starts, self.owners) = (copy(bytes), copy(starts), copy(owners))
            (self.byFirst, self.order, self.pairs) = (copy(byFirst), copy(order), copy(pairs))
        }

        deinit {
            bytes.deallocate()
            starts.deallocate()
            owners.deallocate()
            byFirst.deallocate()
            order.deallocate()
            pairs.deallocate()
        }
    }

    /// nil when no pattern has a prefilter.
    init?(_ prefilters: [LiteralPrefilter?]) {
        guard prefilters.contains(where: { $0 != nil }) else { return nil }
        count = prefilters.count
        var bytes: [UInt8] = []
        var starts: [Int] = []
        var owners: [Int] = []
        var pairs = [UInt64](repeating: 0, count: 1024)
        for (owner, prefilter) in prefilters.enumerated() {
            for needle in prefilter?.needles ?? [] {
                let utf8 = Array(needle.utf8)
                starts.append(bytes.count)
                owners.append(owner)
                bytes += utf8
                let pair = Int(utf8[0]) << 8 | Int(utf8[1])
                pairs[pair >> 6] |= 1 << UInt64(pair & 63)
            }
        }
        starts.append(bytes.count)
        shortest = zip(starts, starts.dropFirst()).map { $1 - $0 }.min() ?? Int.max
        var byFirst = [Int](repeating: 0, count: 257)
        var order: [Int] = []
        for first in 0..<256 {
            byFirst[first] = order.count
            order += owners.indices.filter { bytes[starts[$0]] == UInt8(first) }
        }
        byFirst[256] = order.count
        tables = Tables(bytes: bytes, starts: starts, owners: owners, byFirst: byFirst, order: order, pairs: pairs)
    }

    /// For each pattern, the offset (in `text`) where the last of its needles in `range` starts,
    /// ignoring ASCII case, or -1 when none is there; `range` must be ASCII. A pattern can match
    /// from an offset on only where its needle starts at or after it.
    func lastStarts(in text: UnsafeBufferPointer<UInt8>, _ range: Range<Int>, into found: inout [Int]) {
        found.removeAll(keepingCapacity: true)
        found.append(contentsOf: repeatElement(-1, count: count))
        guard range.count >= shortest, let base = text.baseAddress else { return }
        let (bytes, starts, owners) = (tables.bytes.baseAddress!, tables.starts.baseAddress!, tables.owners.baseAddress!)
        let (byFirst, order, pairs) = (tables.byFirst.baseAddress!, tables.order.baseAddress!, tables.pairs.baseAddress!)
        found.withUnsafeMutableBufferPointer { found in
            let end = range.upperBound
            var index = range.lowerBound
            var next = Self.lower(base[index])
            while index + 1 < end {
                let first = next
                next = Self.lower(base[index + 1])
                let pair = Int(first) << 8 | Int(next)
                if pairs[pair >> 6] & (1 << UInt64(pair & 63)) != 0 {
                    for candidate in byFirst[Int(first)]..<byFirst[Int(first) + 1] {
                        let needle = order[candidate]
                        let start = starts[needle]
                        let length = starts[needle + 1] - start
                        guard index + length <= end else { continue }
                        var offset = 1
                        while offset < length, Self.lower(base[index + offset]) == bytes[start + offset] { offset += 1 }
                        if offset == length { found[owners[needle]] = index }
                    }
                }
                index += 1
            }
        }
    }

    @inline(__always)
    private static func lower(_ byte: UInt8) -> UInt8 {
        byte &- 0x41 < 26 ? byte | 0x20 : byte
    }
}

/// Patterns searched in the same text, their literals scanned for first in one pass: after
/// `screen`, a pattern whose literals the text lacks need not be tried. For ASCII texts the
/// patterns' ASCII prefilters; for other texts their prefilters for any text (an alternative
/// in another script is then any character, and fewer patterns are screened out).
struct LiteralScreen: Sendable {
    /// How many patterns.
    let count: Int
    private let ascii: LiteralScanner?
    private let asciiFiltered: [Bool]
    private let any: LiteralScanner?
    private let anyFiltered: [Bool]

    /// `patterns`: expanded pattern texts; with `references`, patterns as written (nil: a pattern
    /// never screened out).
    init(_ patterns: [String?], minimumNeedle: Int = LiteralPrefilter.minimumNeedle, references: FragmentLiterals? = nil) {
        count = patterns.count
        func prefilter(_ pattern: String?, _ texts: LiteralPrefilter.Texts) -> LiteralPrefilter? {
            guard let pattern else { return nil }
            if let references { return references.prefilter(pattern, texts: texts, minimumNeedle: minimumNeedle) }
            return LiteralPrefilter(pattern: pattern, texts: texts, minimumNeedle: minimumNeedle)
        }
        let forASCII = patterns.map { prefilter($0, .ascii) }
        let forAny = patterns.map { prefilter($0, .any) }
        ascii = LiteralScanner(forASCII)
        asciiFiltered = forASCII.map { $0 != nil }
        any = LiteralScanner(forAny)
        anyFiltered = forAny.map { $0 != nil }
    }

    /// Whether no pattern can be screened out on any text.
    var isEmpty: Bool { ascii == nil && any == nil }

    /// For each pattern, -1 when `text` lacks its literals (it cannot match), else where the last
    /// of them starts (`Int.max` for a pattern without a prefilter, or a text not screened).
    func screen(_ text: String, into found: inout [Int]) {
        text.withUTF8Bytes { bytes in
            let isASCII = NormalizingText.firstByte(in: bytes, atLeast: 0x80, from: 0) == nil
            guard let scanner = isASCII ? ascii : Self.foldsToASCII(bytes) ? nil : any else {
                found.removeAll(keepingCapacity: true)
                found.append(contentsOf: repeatElement(Int.max, count: count))
                return
            }
            scanner.lastStarts(in: bytes, 0..<bytes.count, into: &found)
            let filtered = isASCII ? asciiFiltered : anyFiltered
            for index in 0..<count where !filtered[index] { found[index] = Int.max }
        }
    }

    /// Whether `bytes` hold the long s (U+017F) or the Kelvin sign (U+212A), which case-insensitive
    /// patterns match as "s" and "k": a text with them is not screened.
    static func foldsToASCII(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        var index = 0
        while let lead = NormalizingText.firstByte(in: bytes, atLeast: 0xC5, from: index) {
            if bytes[lead] == 0xC5, lead + 1 < bytes.count, bytes[lead + 1] == 0xBF { return true }
            if bytes[lead] == 0xE2, lead + 2 < bytes.count, bytes[lead + 1] == 0x84, bytes[lead + 2] == 0xAA { return true }
            index = lead + 1
        }
        return false
    }
}
