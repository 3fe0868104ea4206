/// Long alternations rewritten by their branches' first characters, so that PCRE2 tries at each
/// position only the branches that can start with the character there: "debited|spent|debit|sent"
/// is written "d(?:ebited|ebit)|s(?:pent|ent)". PCRE2 tries an alternation's branches one by one at
/// every place a match could start (its JIT builds no tree of them); the fallback's debit-word
/// gate, some 400 branches in fifty languages, cost 6 µs a message on texts that hold one of its
/// literals and none of its words: the largest part of what PCRE2 spent on SMS from unknown senders.
///
/// The rewrite keeps what the pattern matches, and which branch matches where several could:
/// - Each branch's first characters are read where they are certain: a plain character, a class
///   of plain characters, a group's branches' first characters, past lookarounds, `\b` and
///   anchors, and past what may match nothing (`(?:money\s+)?transfer` starts with "m" or "t").
///   Two branches that cannot start with the same character never match at the same place, so
///   only the order of branches that share a first character matters, and it is kept: for each
///   character, its branches in their written order, "c(?:rest|rest)" where they all start with
///   the plain character, else "(?=c)(?:branch|branch)" (a branch with several first characters
///   is written under each).
/// - A branch whose first characters are not certain (it starts with `\d`, `.`, a negated class,
///   or may match nothing) keeps its place, and no branch is moved across it.
/// - Under caseless matching (`(?i)`), letters are grouped without their case: ASCII letters,
///   and Latin and Cyrillic letters whose case PCRE2 folds one to one; others with a case, and
///   the letters PCRE2 folds across scripts (the long s, the Kelvin sign, the micro sign, dotted
///   and dotless i, sharp s, Greek), make a branch's first characters uncertain. Characters
///   without case (Thai, Chinese, Arabic) are grouped as they are.
/// - An alternation whose branches capture (reordering would renumber groups), or set options for
///   the branches after them, or that is a branch-reset group or inside a lookbehind (whose
///   branches PCRE2 measures), is left as written; so is a whole pattern this reader does not
///   follow (`\Q…\E`, conditionals, named references, subroutine calls, callouts, verbs, `(?xx)`).
/// The rewritten text is compiled in place of the written one; where PCRE2 refuses it, the written
/// one is compiled (and its errors reported at the written offsets).
enum AlternationFactoring {
    /// The fewest branches with certain first characters worth a rewrite: below it, PCRE2's own
    /// first-character checks are as fast.
    static let minimumBranches = 6

    /// `pattern` rewritten, or nil when nothing was worth rewriting or the pattern is not followed.
    /// Read as UTF-8 bytes and written into one buffer: a first version over `String`s, a copy per
    /// branch, added a quarter to the rule pack's start-up (one message: 0.365 → 0.45 s); this one
    /// adds about a tenth (0.40 s).
    static func factored(_ pattern: String) -> String? {
        var bars = 0
        for byte in pattern.utf8 where byte == UInt8(ascii: "|") { bars += 1 }
        guard bars >= minimumBranches - 1 else { return nil }
        var reader = Reader(Array(pattern.utf8))
        guard let rewritten = try? reader.readAll(), reader.changed else { return nil }
        return String(decoding: rewritten, as: UTF8.self)
    }

    struct Unsupported: Error {}

    /// Options in force where the reader is.
    struct Options: Equatable {
        var caseless = false
        var extended = false
    }

    /// What can start a match of a part of a pattern: certain first characters (grouping keys:
    /// scalar values, ASCII letters in lower case under caseless matching), and whether it may
    /// match nothing (then what follows it starts the match too).
    struct Start {
        /// nil: not certain.
        var keys: [UInt32]?
        var mayBeEmpty: Bool

        static let empty = Start(keys: [], mayBeEmpty: true)
        static let unknown = Start(keys: nil, mayBeEmpty: false)

        /// This part followed by `next`.
        func then(_ next: Start) -> Start {
            mayBeEmpty ? Start(keys: Self.union(keys, next.keys), mayBeEmpty: next.mayBeEmpty) : self
        }

        /// Either of two branches.
        static func either(_ a: Start, _ b: Start) -> Start {
            Start(keys: union(a.keys, b.keys), mayBeEmpty: a.mayBeEmpty || b.mayBeEmpty)
        }

        /// Both key lists, in order, without repeats; nil when either is not certain.
        private static func union(_ a: [UInt32]?, _ b: [UInt32]?) -> [UInt32]? {
            guard let a, let b else { return nil }
            return a + b.filter { !a.contains($0) }
        }
    }

    /// One branch of an alternation as written out: where it is in the output, where its first
    /// character is when it starts with a plain one, what can start it.
    struct Branch {
        var range: Range<Int> = 0..<0
        var lead: Range<Int>?
        var start = Start.empty
        var captures = false
        var setsOptions = false

        /// Its certain first characters; nil when a match may start with others or with nothing.
        var keys: [UInt32]? { start.mayBeEmpty ? nil : start.keys }
    }

    /// Reads the pattern once, writing it out as it goes; an alternation worth a rewrite is
    /// rewritten in place at the output's end when its last branch has been read (its groups'
    /// alternations were, before it). Branches are ranges of the output, not copies: the rule
    /// pack's gates hold the currency fragment's trie of some 600 forms in every profile's copy.
    struct Reader {
        let bytes: [UInt8]
        var index = 0
        var out: [UInt8] = []
        var changed = false

        init(_ bytes: [UInt8]) {
            self.bytes = bytes
            out.reserveCapacity(bytes.count + bytes.count / 4)
        }

        mutating func readAll() throws -> [UInt8] {
            var options = Options()
            _ = try alternation(&options, mayGroup: true, inLookbehind: false)
            guard index == bytes.count else { throw Unsupported() }
            return out
        }

        private func peek(_ offset: Int = 0) -> UInt8? {
            index + offset < bytes.count ? bytes[index + offset] : nil
        }

        /// Writes out the pattern's bytes in `range`, one by one (no slice of the array, retained
        /// and released, per item).
        private mutating func emit(_ range: Range<Int>) {
            for position in range { out.append(bytes[position]) }
        }

        /// Branches up to `)` or the end, written out (rewritten when worth it); what can start
        /// them; whether any captures.
        /// `needsStart`: whether what can start the alternation is needed (it is the first item of a
        /// branch, or follows only what may match nothing).
        private mutating func alternation(_ options: inout Options, mayGroup: Bool, inLookbehind: Bool,
                                          needsStart: Bool = true) throws -> (start: Start, captures: Bool) {
            let base = out.count
            var branches = [try branch(&options, inLookbehind: inLookbehind)]
            while peek() == UInt8(ascii: "|") {
                index += 1
                out.append(UInt8(ascii: "|"))
                branches.append(try branch(&options, inLookbehind: inLookbehind))
            }
            // Counted in loops: closures over the branches copied each (and retained its keys).
            var captures = false
            var setsOptions = false
            var certain = 0
            for position in branches.indices {
                if branches[position].captures { captures = true }
                if branches[position].setsOptions { setsOptions = true }
                if branches[position].keys != nil { certain += 1 }
            }
            // Options set in a branch change how later branches' characters read: no start is certain.
            var start = branches[0].start
            if setsOptions {
                start = .unknown
            } else if needsStart {
                for position in branches.indices.dropFirst() { start = Start.either(start, branches[position].start) }
            }
            guard mayGroup, !inLookbehind, !captures, !setsOptions,
                  certain >= AlternationFactoring.minimumBranches else {
                return (start, captures)
            }
            var written: [UInt8] = []
            written.reserveCapacity(out.count - base + 64)
            var first = true
            func separate() {
                if !first { written.append(UInt8(ascii: "|")) }
                first = false
            }
            var run: [Branch] = []
            func flush() {
                var keys: [UInt32] = []
                var byKey: [UInt32: [Int]] = [:]
                for (position, branch) in run.enumerated() {
                    for key in branch.keys! {
                        if byKey[key] == nil { keys.append(key) }
                        byKey[key, default: []].append(position)
                    }
                }
                for key in keys {
                    let members = byKey[key]!.map { run[$0] }
                    separate()
                    if members.count == 1, members[0].keys!.count == 1 {
                        written += out[members[0].range]
                    } else if members.allSatisfy({ $0.lead != nil && $0.keys! == [key] }) {
                        changed = true
                        written += out[members[0].lead!]
                        written += "(?:".utf8
                        for (position, member) in members.enumerated() {
                            if position > 0 { written.append(UInt8(ascii: "|")) }
                            written += out[member.lead!.upperBound..<member.range.upperBound]
                        }
                        written.append(UInt8(ascii: ")"))
                    } else {
                        changed = true
                        written += "(?=".utf8
                        written += String(Unicode.Scalar(key)!).utf8
                        written += ")(?:".utf8
                        for (position, member) in members.enumerated() {
                            if position > 0 { written.append(UInt8(ascii: "|")) }
                            written += out[member.range]
                        }
                        written.append(UInt8(ascii: ")"))
                    }
                }
                run.removeAll()
            }
            for branch in branches {
                if branch.keys != nil {
                    run.append(branch)
                } else {
                    flush()
                    separate()
                    written += out[branch.range]
                }
            }
            flush()
            out.replaceSubrange(base..<out.count, with: written)
            return (start, captures)
        }

        /// The length of the UTF-8 sequence `lead` starts.
        private static func length(_ lead: UInt8) -> Int {
            lead < 0xC0 ? 1 : lead < 0xE0 ? 2 : lead < 0xF0 ? 3 : 4
        }

        /// The scalar at `position`, and its length in bytes.
        private func scalar(at position: Int) -> (Unicode.Scalar, Int)? {
            let count = Self.length(bytes[position])
            guard position + count <= bytes.count else { return nil }
            var value = count == 1 ? UInt32(bytes[position]) : UInt32(bytes[position]) & (0xFF >> (count + 1))
            for offset in 1..<max(count, 1) where count > 1 { value = value << 6 | UInt32(bytes[position + offset] & 0x3F) }
            return Unicode.Scalar(value).map { ($0, count) }
        }

        /// White space in extended mode at `position`: its length, or nil.
        private func whiteSpace(at position: Int) -> Int? {
            let byte = bytes[position]
            if byte < 0x80 { return byte == 0x20 || (0x09...0x0D).contains(byte) ? 1 : nil }
            // Pattern_White_Space outside ASCII: U+0085, U+200E, U+200F, U+2028, U+2029 (looked up by
            // value: a property look-up per scalar of the gates' other scripts cost more than the rest).
            guard byte == 0xC2 || byte == 0xE2, let (scalar, count) = scalar(at: position),
                  [0x85, 0x200E, 0x200F, 0x2028, 0x2029].contains(scalar.value) else { return nil }
            return count
        }

        /// One branch, up to `|`, `)` or the end, written out.
        private mutating func branch(_ options: inout Options, inLookbehind: Bool) throws -> Branch {
            var branch = Branch()
            let from = out.count
            var sawItem = false
            while let byte = peek(), byte != UInt8(ascii: "|"), byte != UInt8(ascii: ")") {
                if options.extended, let count = whiteSpace(at: index) {
                    emit(index..<(index + count))
                    index += count
                    continue
                }
                if options.extended, byte == UInt8(ascii: "#") {
                    // A comment, dropped: kept, it would run on over a `|` written after it.
                    while let next = peek(), next != UInt8(ascii: "\n") { index += 1 }
                    continue
                }
                let before = options
                let needsStart = branch.start.mayBeEmpty
                var item = try self.item(&options, inLookbehind: inLookbehind, branch: &branch, needsStart: needsStart)
                let quantifier = self.quantifier(options)
                if let quantifier {
                    emit(quantifier.text)
                    if quantifier.minimum == 0 { item.start.mayBeEmpty = true }
                }
                if options != before { item.start = .unknown }
                if needsStart { branch.start = branch.start.then(item.start) }
                if !sawItem {
                    sawItem = true
                    if let character = item.character, quantifier == nil, item.start.keys != nil {
                        branch.lead = character
                    }
                }
            }
            branch.range = from..<out.count
            return branch
        }

        /// The key a character is grouped by, or nil when it cannot be (see the type's comment).
        static func key(_ scalar: Unicode.Scalar, caseless: Bool) -> UInt32? {
            if scalar.isASCII {
                let byte = UInt8(scalar.value)
                let isDigit = (0x30...0x39).contains(byte)
                let isLetter = (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte)
                guard isDigit || isLetter else { return nil }
                return caseless && isLetter ? UInt32(byte | 0x20) : UInt32(byte)
            }
            let properties = scalar.properties
            guard properties.isAlphabetic else { return nil }
            if !caseless || !properties.changesWhenCaseMapped { return scalar.value }
            // Latin-1, Latin Extended-A and Cyrillic letters fold one to one, but for these.
            let foldsAcross: Set<UInt32> = [0xB5, 0xDF, 0x130, 0x131, 0x17F, 0x1E9E]
            guard (0xC0...0x17F).contains(scalar.value) || (0x400...0x4FF).contains(scalar.value),
                  !foldsAcross.contains(scalar.value) else { return nil }
            let lower = properties.lowercaseMapping.unicodeScalars
            guard lower.count == 1 else { return nil }
            return lower.first!.value
        }

        /// A quantifier after an item (past white space and comments in extended mode), as written,
        /// with its lower bound; nil when none follows. A `{` that starts no quantifier is not one.
        private mutating func quantifier(_ options: Options) -> (text: Range<Int>, minimum: Int)? {
            var probe = index
            while probe < bytes.count, options.extended {
                if let count = whiteSpace(at: probe) {
                    probe += count
                } else if bytes[probe] == UInt8(ascii: "#") {
                    while probe < bytes.count, bytes[probe] != UInt8(ascii: "\n") { probe += 1 }
                } else {
                    break
                }
            }
            guard probe < bytes.count else { return nil }
            var minimum: Int
            switch bytes[probe] {
            case UInt8(ascii: "?"), UInt8(ascii: "*"):
                minimum = 0
                probe += 1
            case UInt8(ascii: "+"):
                minimum = 1
                probe += 1
            case UInt8(ascii: "{"):
                var end = probe + 1
                var low = 0
                var digits = 0
                var sawComma = false
                while end < bytes.count, bytes[end] != UInt8(ascii: "}") {
                    let byte = bytes[end]
                    if byte == UInt8(ascii: ",") {
                        sawComma = true
                    } else if (0x30...0x39).contains(byte) {
                        if !sawComma { low = low * 10 + Int(byte - 0x30); digits += 1 }
                    } else if !(options.extended && whiteSpace(at: end) != nil) {
                        return nil
                    }
                    end += 1
                }
                guard end < bytes.count, digits > 0 || sawComma else { return nil }
                minimum = low
                probe = end + 1
            default:
                return nil
            }
            // A lazy or possessive mark.
            if probe < bytes.count, bytes[probe] == UInt8(ascii: "?") || bytes[probe] == UInt8(ascii: "+") { probe += 1 }
            // White space skipped before it is written back with it.
            let text = index..<probe
            index = probe
            return (text, minimum)
        }

        /// One item, written out (rewritten inside when a group); what can start it (when
        /// `needsStart`), and where its character is in the output when it is a plain one.
        private mutating func item(_ options: inout Options, inLookbehind: Bool, branch: inout Branch, needsStart: Bool)
            throws -> (start: Start, character: Range<Int>?) {
            let byte = bytes[index]
            let from = index
            switch byte {
            case UInt8(ascii: "\\"):
                index += 1
                try escape()
                emit(from..<index)
                // Assertions match nothing; any other escape is a class or a character not grouped.
                let zeroWidth = index - from == 2 && [UInt8(ascii: "b"), UInt8(ascii: "B"), UInt8(ascii: "A"),
                                                      UInt8(ascii: "z"), UInt8(ascii: "Z"), UInt8(ascii: "G")].contains(bytes[from + 1])
                return (zeroWidth ? .empty : .unknown, nil)
            case UInt8(ascii: "["):
                index += 1
                let members = try characterClass(listing: needsStart)
                emit(from..<index)
                guard needsStart, let members else { return (.unknown, nil) }
                var keys: [UInt32] = []
                for member in members {
                    guard let key = Self.key(member, caseless: options.caseless) else { return (.unknown, nil) }
                    if !keys.contains(key) { keys.append(key) }
                }
                return (Start(keys: keys, mayBeEmpty: false), nil)
            case UInt8(ascii: "("):
                index += 1
                let start = try group(&options, inLookbehind: inLookbehind, branch: &branch, needsStart: needsStart)
                return (start, nil)
            case UInt8(ascii: "^"), UInt8(ascii: "$"):
                index += 1
                out.append(byte)
                return (.empty, nil)
            case UInt8(ascii: "."), UInt8(ascii: "?"), UInt8(ascii: "*"), UInt8(ascii: "+"), UInt8(ascii: "{"),
                 UInt8(ascii: "}"), UInt8(ascii: "]"):
                index += 1
                out.append(byte)
                return (.unknown, nil)
            default:
                let at = out.count
                if byte < 0x80 {
                    index += 1
                    out.append(byte)
                    let key = needsStart ? Self.key(Unicode.Scalar(byte), caseless: options.caseless) : nil
                    return (key.map { Start(keys: [$0], mayBeEmpty: false) } ?? .unknown, at..<out.count)
                }
                guard let (scalar, count) = scalar(at: index) else { throw Unsupported() }
                index += count
                emit(from..<index)
                let key = needsStart ? Self.key(scalar, caseless: options.caseless) : nil
                return (key.map { Start(keys: [$0], mayBeEmpty: false) } ?? .unknown, at..<out.count)
            }
        }

        /// Passes over an escape after its backslash.
        private mutating func escape() throws {
            guard let byte = peek() else { throw Unsupported() }
            index += 1
            switch byte {
            case UInt8(ascii: "Q"), UInt8(ascii: "E"), UInt8(ascii: "g"), UInt8(ascii: "k"):
                throw Unsupported()
            case UInt8(ascii: "x"), UInt8(ascii: "o"), UInt8(ascii: "p"), UInt8(ascii: "P"), UInt8(ascii: "N"):
                if peek() == UInt8(ascii: "{") {
                    while let next = peek(), next != UInt8(ascii: "}") { index += 1 }
                    guard peek() == UInt8(ascii: "}") else { throw Unsupported() }
                    index += 1
                } else if byte == UInt8(ascii: "x") {
                    // \xhh: up to two hex digits.
                    var digits = 0
                    while digits < 2, let next = peek(), Unicode.Scalar(next).properties.isASCIIHexDigit {
                        index += 1
                        digits += 1
                    }
                } else if byte == UInt8(ascii: "p") || byte == UInt8(ascii: "P") {
                    // \pL: one letter.
                    guard peek() != nil else { throw Unsupported() }
                    index += 1
                }
            case UInt8(ascii: "c"):
                guard peek() != nil else { throw Unsupported() }
                index += 1
            default:
                // An escaped character of more than one byte.
                index += Self.length(byte) - 1
            }
            guard index <= bytes.count else { throw Unsupported() }
        }

        /// Passes over a class after its `[`; with `listing`, its members when it is a list of plain
        /// characters (no negation, range, escape or POSIX class), else nil.
        private mutating func characterClass(listing: Bool) throws -> [Unicode.Scalar]? {
            var members: [Unicode.Scalar]? = listing ? [] : nil
            if peek() == UInt8(ascii: "^") { index += 1; members = nil }
            if peek() == UInt8(ascii: "]") { index += 1; members?.append("]") }
            while let byte = peek() {
                if byte == UInt8(ascii: "]") {
                    index += 1
                    return members
                }
                if byte == UInt8(ascii: "\\") {
                    index += 1
                    try escape()
                    members = nil
                    continue
                }
                if byte == UInt8(ascii: "["), let next = peek(1),
                   next == UInt8(ascii: ":") || next == UInt8(ascii: ".") || next == UInt8(ascii: "=") {
                    // A POSIX class: "[:alpha:]".
                    index += 2
                    while let inner = peek() {
                        index += 1
                        if inner == next, peek() == UInt8(ascii: "]") {
                            index += 1
                            break
                        }
                    }
                    members = nil
                    continue
                }
                if byte == UInt8(ascii: "-") { members = nil }
                if members != nil {
                    guard let (scalar, count) = scalar(at: index) else { throw Unsupported() }
                    members!.append(scalar)
                    index += count
                } else {
                    index += 1
                }
            }
            throw Unsupported()
        }

        /// A group after its `(`, written out (rewritten inside) with its `)`; what can start it.
        private mutating func group(_ options: inout Options, inLookbehind: Bool,
                                    branch: inout Branch, needsStart: Bool) throws -> Start {
            let start = index - 1
            var inner = options
            var mayGroup = true
            var lookbehind = inLookbehind
            var zeroWidth = false
            if peek() == UInt8(ascii: "*") { throw Unsupported() }
            if peek() == UInt8(ascii: "?") {
                index += 1
                guard let next = peek() else { throw Unsupported() }
                switch next {
                case UInt8(ascii: ":"), UInt8(ascii: ">"):
                    index += 1
                case UInt8(ascii: "|"):
                    index += 1
                    mayGroup = false
                case UInt8(ascii: "="), UInt8(ascii: "!"):
                    index += 1
                    zeroWidth = true
                case UInt8(ascii: "<") where peek(1) == UInt8(ascii: "=") || peek(1) == UInt8(ascii: "!"):
                    index += 2
                    lookbehind = true
                    zeroWidth = true
                case UInt8(ascii: "#"):
                    while let byte = peek(), byte != UInt8(ascii: ")") { index += 1 }
                    guard peek() == UInt8(ascii: ")") else { throw Unsupported() }
                    index += 1
                    emit(start..<index)
                    return .empty
                case UInt8(ascii: "<"), UInt8(ascii: "'"), UInt8(ascii: "P"):
                    // A named group: "(?<name>", "(?'name'", "(?P<name>"; other (?P forms refer to groups.
                    if next == UInt8(ascii: "P") {
                        guard peek(1) == UInt8(ascii: "<") else { throw Unsupported() }
                        index += 1
                    }
                    let close = peek() == UInt8(ascii: "'") ? UInt8(ascii: "'") : UInt8(ascii: ">")
                    index += 1
                    while let byte = peek(), byte != close { index += 1 }
                    guard peek() == close else { throw Unsupported() }
                    index += 1
                    branch.captures = true
                default:
                    // Option letters: "(?i)", "(?x-i:", "(?^)".
                    var setting = options
                    var on = true
                    while let byte = peek(), byte != UInt8(ascii: ")"), byte != UInt8(ascii: ":") {
                        switch byte {
                        case UInt8(ascii: "-"): on = false
                        case UInt8(ascii: "^"): setting.caseless = false; setting.extended = false
                        case UInt8(ascii: "i"): setting.caseless = on
                        case UInt8(ascii: "x"):
                            if peek(1) == UInt8(ascii: "x") { throw Unsupported() }
                            setting.extended = on
                        case UInt8(ascii: "m"), UInt8(ascii: "s"), UInt8(ascii: "n"), UInt8(ascii: "U"), UInt8(ascii: "J"): break
                        default: throw Unsupported()
                        }
                        index += 1
                    }
                    guard let end = peek() else { throw Unsupported() }
                    index += 1
                    if end == UInt8(ascii: ")") {
                        // The options hold to the end of the enclosing group, in its later branches too.
                        options = setting
                        branch.setsOptions = true
                        emit(start..<index)
                        return .empty
                    }
                    inner = setting
                }
            } else {
                branch.captures = true
            }
            emit(start..<index)
            let body = try alternation(&inner, mayGroup: mayGroup, inLookbehind: lookbehind, needsStart: needsStart)
            if body.captures { branch.captures = true }
            guard peek() == UInt8(ascii: ")") else { throw Unsupported() }
            index += 1
            out.append(UInt8(ascii: ")"))
            // A group read with other caseless matching than its place keys its characters otherwise.
            return zeroWidth ? Start.empty : inner.caseless == options.caseless ? body.start : .unknown
        }
    }
}
