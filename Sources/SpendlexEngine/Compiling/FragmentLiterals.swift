/// What the grammar fragments of a rule set require, for reading patterns as written
/// (`LiteralPrefilter(pattern:references:)`): each fragment is read once for each mode it is met
/// in, not once in every pattern that expands it (the currency and amount alternations in most
/// patterns made reading expanded patterns cost a fifth of a second of every start). Also keeps
/// the prefilters of written patterns, which repeat (each fallback file is compiled once more for
/// every country). Used while rules compile, each instance on one thread (`copy` for another).
final class FragmentLiterals {
    private let fragments: [String: String]
    private let opaque: Set<String>
    private struct Key: Hashable {
        let name: String
        let extended: Bool
        let asciiTexts: Bool
    }
    private var known: [Key: LiteralFacts] = [:]
    private var reading: Set<String> = []
    private struct PrefilterKey: Hashable {
        let pattern: GrammarExpander.ExpandedText
        let ascii: Bool
        let minimumNeedle: Int
    }
    private var prefilters: [PrefilterKey: LiteralPrefilter?] = [:]

    /// `fragments`: each fragment's pattern as written, by name. A name in `opaque` (a fragment
    /// whose text changes from country to country) stands for anything, as does an unknown one.
    init(fragments: [String: String], opaque: Set<String> = []) {
        self.fragments = fragments
        self.opaque = opaque
    }

    /// Another instance holding what this one has read so far, for another thread.
    func copy() -> FragmentLiterals {
        let copy = FragmentLiterals(fragments: fragments, opaque: opaque)
        copy.known = known
        copy.prefilters = prefilters
        return copy
    }

    func facts(of name: String, extended: Bool, asciiTexts: Bool) -> LiteralFacts {
        let key = Key(name: name, extended: extended, asciiTexts: asciiTexts)
        if let done = known[key] { return done }
        // A cycle is a broken rule set, reported by the expander: anything here.
        guard !opaque.contains(name), let text = fragments[name], !reading.contains(name) else { return .anything }
        reading.insert(name)
        defer { reading.remove(name) }
        var reader = PatternReader(Array(text.unicodeScalars), extended: extended, asciiTexts: asciiTexts, references: self)
        let facts = (try? reader.readAll()) ?? .anything
        known[key] = facts
        return facts
    }

    /// The prefilter of a pattern as written, once per text.
    func prefilter(_ pattern: String, texts: LiteralPrefilter.Texts, minimumNeedle: Int) -> LiteralPrefilter? {
        let key = PrefilterKey(pattern: .init(pattern), ascii: texts == .ascii, minimumNeedle: minimumNeedle)
        if let done = prefilters[key] { return done }
        let made = LiteralPrefilter(pattern: pattern, texts: texts, minimumNeedle: minimumNeedle, references: self)
        prefilters[key] = made
        return made
    }
}
