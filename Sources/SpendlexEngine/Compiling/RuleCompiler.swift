import Foundation
import PCRE2
import SpendlexRules

/// Compiles a loaded `RuleSet` into a `CompiledRuleSet`: expands grammar references,
/// compiles every pattern with PCRE2 (JIT), checks captures against known fields, compiles
/// and checks the categories' decision tables, and reports every problem as a diagnostic
/// located in the rule file.
public enum RuleCompiler {
    /// Compiles the rule set. The result is nil only when no bank could be compiled at
    /// all; otherwise broken parsers are left out and reported.
    /// `forChecking`: the result is for reporting problems and running a few examples
    /// (`spendlex check`), not for parsing many messages: no JIT, no literal screens (see
    /// `GrammarExpander.forChecking`). It finds the same problems.
    public static func compile(_ ruleSet: RuleSet, forChecking: Bool = false) -> (CompiledRuleSet, [Diagnostic]) {
        compile(ruleSet, forChecking: forChecking, lanes: nil)
    }

    /// `lanes`: how many threads compile the banks and the profiles' fallback copies (nil: as many as
    /// pay, see `compileBanks` and `compileCountries`).
    static func compile(_ ruleSet: RuleSet, forChecking: Bool, lanes: Int?) -> (CompiledRuleSet, [Diagnostic]) {
        var fragments = ruleSet.fragments
        if !fragments.contains(where: { $0.name.value == worldCurrencyName }) {
            fragments.append(worldCurrencyFragment(profiles: ruleSet.countries))
        }
        if !fragments.contains(where: { $0.name.value == localCurrencyName }) {
            fragments.append(localCurrencyFragment(forms: []))
        }
        var expander = GrammarExpander(fragments: fragments, varying: [localCurrencyName, worldCurrencyName])
        expander.forChecking = forChecking
        expander.expandAllFragments()
        var diagnostics: [Diagnostic] = []
        for fragment in ruleSet.fragments {
            guard let expanded = expander.expandForCheck(fragment) else { continue }
            do { _ = try Pattern(expanded.text, options: .duplicateNames, jit: false) } catch {
                diagnostics.append(patternDiagnostic(error, text: fragment.pattern, expanded: expanded))
            }
        }
        let fieldLayer = ruleSet.fieldLayer.flatMap { compileLayer($0, expander: &expander, diagnostics: &diagnostics) }
        let world = worldProfile(ruleSet.countries)
        let banks = compileBanks(ruleSet, world: world, layer: fieldLayer, lanes: lanes, expander: &expander,
                                 diagnostics: &diagnostics)
        let (countries, cues, textCues, likelyCues) = compileCountries(ruleSet, layer: fieldLayer, lanes: lanes, expander: &expander,
                                                           diagnostics: &diagnostics)
        diagnostics += expander.diagnostics
        var categorizer: Categorizer?
        if !ruleSet.categoryTables.isEmpty {
            let compiled = Categorizer(ruleSet: ruleSet, diagnostics: &diagnostics)
            diagnostics += DecisionTableChecker.check(compiled)
            categorizer = compiled
        }
        diagnostics += CardRuleChecker.check(ruleSet, categories: .of(ruleSet))
        // A statement profile's date layout must be one the date normalizer reads, and its
        // patterns must compile (a balance's with an `amount` group, a row's with a date and an amount).
        for profile in ruleSet.statementProfiles {
            if let format = profile.dateFormat {
                do { _ = try DateNormalizer(format: format.value) } catch {
                    diagnostics.append(Diagnostic(.ruleInvalidValue, .error, at: format.location, "invalid date format: \(error.message)"))
                }
            }
            enum Use { case line, balance, row }
            for (pattern, use) in profile.skip.map({ ($0, Use.line) }) + [profile.continuation].compactMap({ $0.map { ($0, Use.line) } })
                + [profile.openingBalance, profile.closingBalance].compactMap({ $0.map { ($0, Use.balance) } })
                + [profile.row].compactMap({ $0.map { ($0, Use.row) } }) {
                do {
                    let compiled = try Pattern(pattern.value, options: .multiline, jit: false)
                    let problem = switch use {
                    case .line: nil as String?
                    case .balance: compiled.groupNumber(named: "amount") == nil ? "a balance pattern needs a group named `amount`" : nil
                    case .row: StatementRowPattern.problem(compiled)
                    }
                    if let problem { diagnostics.append(Diagnostic(.ruleInvalidValue, .error, at: pattern.location, problem)) }
                } catch {
                    diagnostics.append(Diagnostic(.patternSyntax, .error, at: pattern.location,
                                                  "invalid pattern: \(error.message) (at offset \(error.offset))"))
                }
            }
        }
        let router = SenderRouter(banks: ruleSet.banks)
        return (CompiledRuleSet(banks: banks, router: router, rules: ruleSet, categorizer: categorizer, countries: countries,
                                countryCues: cues, countryTextCues: textCues, countryLikelyCues: likelyCues, fieldLayer: fieldLayer, literals: expander.literals),
                deduplicated(diagnostics))
    }

    /// The rule set's banks compiled, in order, on every core (`inLanes`). `spendlex check` of 1,000
    /// bank files compiled them on one core while the other waited: a third of its time.
    private static func compileBanks(_ ruleSet: RuleSet, world: CountryProfile, layer: CompiledFieldLayer?, lanes: Int?,
                                     expander: inout GrammarExpander, diagnostics: inout [Diagnostic]) -> [CompiledBank] {
        // A thread pays for itself from a few dozen files on (a bank compiles in about 0.1 ms to 1 ms).
        inLanes(ruleSet.banks, lanes: lanes ?? min(cores, ruleSet.banks.count / 32), expander: &expander,
                diagnostics: &diagnostics) {
            bank, expander, diagnostics in
            let profile = bank.isFallback && bank.country == nil ? world : ruleSet.profile(of: bank.country)
            return compile(bank, profile: profile, layer: layer, layerSource: ruleSet.fieldLayer,
                           elsewhere: world.symbols, expander: &expander, diagnostics: &diagnostics)
        }
    }

    /// `body` over `items`, in order, on `lanes` threads (one or none: on this thread), in contiguous
    /// shares, so that the lanes' results joined in order are the items' order. Each thread has its
    /// own copy of the expander (`GrammarExpander.forAnotherThread`); the copies' diagnostics are
    /// taken in in the items' order, so they come out as one thread would have found them, repeats
    /// removed by `deduplicated`.
    private static func inLanes<Item: Sendable, Result>(
        _ items: [Item], lanes: Int, expander: inout GrammarExpander, diagnostics: inout [Diagnostic],
        _ body: @escaping @Sendable (Item, inout GrammarExpander, inout [Diagnostic]) -> Result
    ) -> [Result] {
        let lanes = min(lanes, items.count)
        guard lanes > 1 else {
            return items.map { body($0, &expander, &diagnostics) }
        }
        let share = (items.count + lanes - 1) / lanes
        let results = LaneResults<Result>(count: lanes)
        let start = UncheckedBox(expander)
        let found = expander.diagnostics.count
        DispatchQueue.concurrentPerform(iterations: lanes) { lane in
            var own = start.value.forAnotherThread()
            var laneDiagnostics: [Diagnostic] = []
            let made = items[min(lane * share, items.count)..<min((lane + 1) * share, items.count)]
                .map { body($0, &own, &laneDiagnostics) }
            results.set(lane, (made, laneDiagnostics, own))
        }
        var made: [Result] = []
        for lane in 0..<lanes {
            let (laneMade, laneDiagnostics, laneExpander) = results.get(lane)
            made += laneMade
            diagnostics += laneDiagnostics
            expander.takeDiagnostics(of: laneExpander, since: found)
        }
        return made
    }

    /// How many threads compile at most, unless a caller asks for a number.
    private static var cores: Int { ProcessInfo.processInfo.activeProcessorCount }

    /// What each lane of `inLanes` made, each lane writing its own slot, read after all end.
    private final class LaneResults<Result>: @unchecked Sendable {
        private let lock = NSLock()
        private var slots: [([Result], [Diagnostic], GrammarExpander)?]
        init(count: Int) { slots = Array(repeating: nil, count: count) }
        func set(_ lane: Int, _ value: ([Result], [Diagnostic], GrammarExpander)) {
            lock.withLock { slots[lane] = value }
        }
        func get(_ lane: Int) -> ([Result], [Diagnostic], GrammarExpander) { lock.withLock { slots[lane]! } }
    }

    /// A value that lanes only read, handed to them.
    private struct UncheckedBox<Value>: @unchecked Sendable {
        let value: Value
        init(_ value: Value) { self.value = value }
    }

    /// The profile a fallback file is read with when no country is known: every profile's local
    /// currency forms that name one currency in all of them ("р" is the rouble wherever a profile
    /// lists it), and nothing else; no one-letter form.
    private static func worldProfile(_ profiles: [CountryProfile]) -> CountryProfile {
        var forms: [String: String] = [:]
        var shared: Set<String> = []
        for profile in profiles {
            for (written, code) in profile.symbols {
                let key = written.lowercased()
                if let known = forms[key], known != code { shared.insert(key) } else { forms[key] = code }
            }
        }
        var world = CountryProfile.unwritten("")
        // One-letter forms ("N", "P") mean money only once the country is known.
        world.symbols = forms.filter { !shared.contains($0.key) && $0.key.count > 1 }
            .sorted { $0.key < $1.key }.map { ($0.key, $0.value) }
        return world
    }

    /// Each fallback file once more per country, with the country's conventions: how a message
    /// from an unknown sender is read once its country is known. Countries are the profiles, and
    /// the countries of bank files that have none (CLDR's conventions, no cues). The copies'
    /// diagnostics are the fallback's own, already reported.
    private static func compileCountries(_ ruleSet: RuleSet, layer: CompiledFieldLayer?, lanes: Int?,
                                         expander: inout GrammarExpander,
                                         diagnostics: inout [Diagnostic]) -> ([CompiledCountry], [String?], [String?], [String?]) {
        let fallbacks = ruleSet.banks.filter(\.isFallback)
        guard !fallbacks.isEmpty else { return ([], [], [], []) }
        let withoutProfile = Set(ruleSet.banks.compactMap { $0.country?.uppercased() })
            .subtracting(ruleSet.countries.map(\.country.value)).sorted()
        let profiles = ruleSet.countries + withoutProfile.map(CountryProfile.unwritten)
        let world = worldProfile(ruleSet.countries)
        // A currency several profiles use (EUR; USD, which Cambodia's profile also writes) says
        // nothing about which of them a text is from.
        var currencyUsers: [String: Int] = [:]
        for profile in profiles {
            var codes = Set(profile.symbols.map(\.code))
            if let code = profile.currency ?? CurrencyNormalizer.defaultCode(forCountry: profile.country.value) { codes.insert(code) }
            for code in codes { currencyUsers[code, default: 0] += 1 }
        }
        let sharedCurrencies = Set(currencyUsers.filter { $0.value > 1 }.keys)
        // On every core: the 55 profiles' copies were a sixth of start-up; on two cores, a single
        // message's `parse` with the bundled pack takes 0.96 of the wall time it took (cpu 1.08).
        let compiled = inLanes(profiles, lanes: lanes ?? min(cores, profiles.count / 8), expander: &expander,
                               diagnostics: &diagnostics) { profile, expander, diagnostics in
            var repeated: [Diagnostic] = []
            let copies = fallbacks.map { fallback in
                var asCountry = fallback
                asCountry.country = profile.country.value
                return compile(asCountry, profile: profile, layer: layer, layerSource: ruleSet.fieldLayer,
                               elsewhere: world.symbols, expander: &expander, diagnostics: &repeated)
            }
            return compileCountry(profile, fallbacks: copies, sharedCurrencies: sharedCurrencies,
                                  expander: &expander, diagnostics: &diagnostics)
        }
        return (compiled.map(\.country), compiled.map(\.cues), compiled.map(\.textCues), compiled.map(\.likelyCues))
    }

    /// The field layer's finders: each pattern's value is its capture named like the field,
    /// else the whole match.
    private static func compileLayer(_ layer: FieldLayer, expander: inout GrammarExpander,
                                     diagnostics: inout [Diagnostic]) -> CompiledFieldLayer {
        var finders: [(field: FieldName, patterns: [CompiledFieldLayer.Finder])] = []
        for (field, written) in layer.finders {
            let patterns = written.compactMap { finder -> CompiledFieldLayer.Finder? in
                guard let (pattern, _) = compilePattern(finder.pattern, expander: &expander, diagnostics: &diagnostics) else { return nil }
                return .init(pattern: pattern, group: pattern.groupNumber(named: field.value.rawValue) ?? 0,
                             countries: Set(finder.countries.map(\.value)))
            }
            finders.append((field.value, patterns))
        }
        func expanded(_ text: PatternText) -> String? {
            compilePattern(text, expander: &expander, diagnostics: &diagnostics)?.expanded.text
        }
        let channels = NamedAlternation(layer.channels.compactMap { channel in expanded(channel.pattern).map { (channel.name, $0) } })
        let kinds = NamedAlternation(layer.kinds.compactMap { kind, text in expanded(text).map { (kind.value, $0) } })
        // Patterns of the Latin script and of others apart: together, the alternation's possible
        // first bytes were nearly every byte, and PCRE2 tried it at every position (it tripled the
        // cost of parsing the reference corpus); apart, each skips ahead, and the other scripts'
        // one runs only on a text that has a byte outside ASCII.
        let cardKinds = NamedAlternation(layer.cardKinds.filter { !$0.otherScripts }.compactMap { entry in
            expanded(entry.pattern).map { (entry.kind.value, $0) }
        })
        let cardKindsOtherScripts = NamedAlternation(layer.cardKinds.filter(\.otherScripts).compactMap { entry in
            expanded(entry.pattern).map { (entry.kind.value, $0) }
        })
        let roles = layer.roles.compactMap { role -> (name: String, pattern: Pattern)? in
            compilePattern(role.pattern, expander: &expander, diagnostics: &diagnostics).map { (role.name, $0.pattern) }
        }
        let advice = layer.advice.compactMap { compilePattern($0, expander: &expander, diagnostics: &diagnostics)?.pattern }
        return CompiledFieldLayer(finders: finders, channels: channels, roles: roles, kinds: kinds, cardKinds: cardKinds,
                                  cardKindsOtherScripts: cardKindsOtherScripts, advice: advice)
    }

    /// A country profile's cues: sender shapes and dialling prefixes, and the pattern text of what in a
    /// text names the country (its banks' names, its currency's code and local forms).
    private static func compileCountry(_ profile: CountryProfile, fallbacks: [CompiledBank], sharedCurrencies: Set<String>,
                                       expander: inout GrammarExpander, diagnostics: inout [Diagnostic])
        -> (country: CompiledCountry, cues: String?, textCues: String?, likelyCues: String?) {
        func compilePlain(_ text: PatternText) -> Pattern? {
            compilePattern(text, expander: &expander, diagnostics: &diagnostics)?.pattern
        }
        let code = profile.country.value
        let currency = profile.currency ?? CurrencyNormalizer.defaultCode(forCountry: code)
        // Forms of two characters or more: "N" (naira) alone is no cue, "Tk" and "KES" are.
        // Only forms of the country's own currency count (Cambodia writes dollars too), and not
        // forms shared with other currencies ("Rs") or currencies other profiles use (EUR).
        var forms = profile.symbols.filter {
            $0.written.count >= 2 && $0.code == currency && !sharedCurrencies.contains($0.code)
                && CurrencyNormalizer.reading(of: $0.written, country: nil)?.certain != false
        }.map(\.written)
        if let currency, !sharedCurrencies.contains(currency) { forms.append(currency) }
        let alternation = forms.sorted { $0.count > $1.count }.map(regexEscaped).joined(separator: "|")
        var cues = profile.bankNames.compactMap { compilePattern($0, expander: &expander, diagnostics: &diagnostics)?.expanded.text }
        if !alternation.isEmpty {
            // Before a figure, but not before an account ("TK 19031234567", "TK 0123xxx456": tài
            // khoản, an account in Vietnamese, is no taka): nine digits in a row, or digits then a mask.
            cues.append("(?i)(?<![\\p{L}])(?:\(alternation))(?=\\s?\\d)(?!\\s?(?:\\d{9}|\\d+[x*•]))|(?<=\\d)\\s?(?:\(alternation))(?![\\p{L}])")
        }
        let country = CompiledCountry(code: code, phonePrefixes: profile.phonePrefixes.map { String($0.dropFirst()) },
                                      senders: profile.senders.compactMap(compilePlain), fallbacks: fallbacks)
        let textCues = profile.textCues.compactMap { compilePattern($0, expander: &expander, diagnostics: &diagnostics)?.expanded.text }
        let likelyCues = profile.likelyCues.compactMap { compilePattern($0, expander: &expander, diagnostics: &diagnostics)?.expanded.text }
        func oneOf(_ patterns: [String]) -> String? {
            patterns.isEmpty ? nil : patterns.map { "(?:\($0))" }.joined(separator: "|")
        }
        return (country, oneOf(cues), oneOf(textCues), oneOf(likelyCues))
    }

    static let worldCurrencyName = "WORLD_CURRENCY"

    /// The built-in fragment `%{WORLD_CURRENCY}`: every ISO 4217 code, every symbol and one-word
    /// local name in CLDR's data, and every form the country profiles add, as written (case
    /// matters: "ALL" is the lek, "all" a word). Latin forms are whole words; a one-letter Latin
    /// symbol ("R", "K", a profile's "N") is left out, too common to mean money on its own.
    static func worldCurrencyFragment(profiles: [CountryProfile]) -> GrammarFragment {
        var forms = tableCurrencyForms
        for profile in profiles {
            for (written, _) in profile.symbols where written.count >= 2 || !written.unicodeScalars.allSatisfy(\.isASCII) {
                forms.insert(written)
            }
        }
        // Longest first, so that an alternation tries "US$" before "$". The lengths are counted once
        // (counting characters in each comparison, and looking each form up in an array, cost
        // several milliseconds of every start).
        let sorted = forms.filter { !$0.contains(where: \.isNumber) }
            .map { (form: $0, length: $0.count) }
            .sorted { ($0.length, $0.form) > ($1.length, $1.form) }
            .map(\.form)
        // Latin-script forms are whole words ("ALL" is no lek in "ALLOWED"); other scripts' forms
        // follow the figure directly (98,700원, 28.50元, 223р) or sit in scripts without spaces.
        var latin: [String] = []
        var other: [String] = []
        for form in sorted {
            if form.unicodeScalars.allSatisfy(\.isASCII) && form.first?.isLetter == true { latin.append(form) } else { other.append(form) }
            // A dollar form of two or more letters is also written with a space before its sign:
            // "RD $925.00", "US $ 40" (an e-mail table's currency cell before the amount's).
            if form.count >= 3, form.hasSuffix("$"), form.dropLast().allSatisfy({ $0.isASCII && $0.isLetter }) {
                latin.append(form.dropLast() + " $")
            }
        }
        // A Latin form glued to a figure before it ("6.50BYN") is money; glued to digits on both
        // sides ("XJ42KD1L0P", a transaction code) it is not.
        // The forms as a trie ("A(?:ED|FN|LL|…)|B(?:…)"), not a list: PCRE2 tries a list's every
        // alternative at each place a form could start, and the list of some 600 forms cost 6.5 µs
        // per SMS in the fallback's amount patterns, more than the rest of its parse.
        let latinForms = trieAlternation(latin)
        // (Written once: MONEY_ANY holds this fragment three times, and a pattern holding it thrice
        // more is too large for PCRE2.)
        // Glued to a word of a script that writes spaces between words ("ALLOWED", "ÉTATS") a Latin
        // form is part of it; glued to Arabic it is not: Saudi banks write "بـSR 1000" (bi-, "of",
        // and a tatweel before the riyal's code).
        let pattern = "(?:(?<![\\p{Latin}\\p{Cyrillic}\\p{Greek}])(?!(?<=\\p{N})[^\\s\\d]{1,8}\\d)" + latinForms + "(?![\\p{L}])|"
            + trieAlternation(other) + ")"
        let source = SourceText(path: "<built-in \(worldCurrencyName)>", text: pattern)
        let start = SourceLocation(file: source.path, line: 1, column: 1)
        return GrammarFragment(name: Located(worldCurrencyName, at: start),
                               pattern: PatternText(value: pattern, origin: ScalarOrigin(source: source, start: start, style: .plain)),
                               summary: "any currency: ISO 4217 codes, CLDR symbols and names, the profiles' local forms")
    }

    /// The currency forms of CLDR's table that WORLD_CURRENCY matches: ISO codes, symbols, names in
    /// scripts other than Latin. Computed once per process (`load` starts it on another thread
    /// while the rule files are read: parsing the table and collecting its forms were 2 ms of every
    /// start, before any message is read).
    static let tableCurrencyForms: Set<String> = {
        let table = CurrencyTable.standard
        var forms = Set(table.currencies.keys)
        for currency in table.currencies.values {
            for form in currency.symbols + currency.names where !form.contains(" ") {
                let isASCII = form.unicodeScalars.allSatisfy(\.isASCII)
                // ASCII names ("real", "won", "mark") are ordinary words; ASCII symbols of two or more
                // characters ("Ksh", "R$", "Rp") are not.
                if isASCII ? (form.count >= 2 && currency.symbols.contains(form)) : true { forms.insert(form) }
            }
        }
        return forms
    }()

    static let localCurrencyName = "LOCAL_CURRENCY"

    /// The built-in fragment `%{LOCAL_CURRENCY}`: a country profile's one-letter Latin forms ("N" for
    /// the naira, "P" for the Philippine peso), which WORLD_CURRENCY leaves out. It matches only
    /// while a bank of that country (or the fallback read as that country) compiles, and only right
    /// before a figure shaped like money ("P500.00", "N2,000", not "P12345" or "N1A"); elsewhere,
    /// and with no forms, it never matches.
    static func localCurrencyFragment(forms: [String]) -> GrammarFragment {
        let pattern = forms.isEmpty ? "(?!)"
            : "(?<![\\p{L}\\p{N}])" + trieAlternation(forms)
                + "(?=[.:]?\\s?(?:\\d{1,3}(?:,\\d{3})+(?:\\.\\d{1,2})?|\\d{1,6}(?:\\.\\d{1,2})?)(?![\\p{L}\\p{N}]|[.,]\\d))"
        let source = SourceText(path: "<built-in \(localCurrencyName)>", text: pattern)
        let start = SourceLocation(file: source.path, line: 1, column: 1)
        return GrammarFragment(name: Located(localCurrencyName, at: start),
                               pattern: PatternText(value: pattern, origin: ScalarOrigin(source: source, start: start, style: .plain)),
                               summary: "the country's one-letter currency forms, before a figure")
    }

    /// A profile's one-letter Latin currency forms, if any.
    static func oneLetterForms(_ profile: CountryProfile?) -> [String] {
        (profile?.symbols ?? []).map(\.written).filter {
            $0.count == 1 && $0.unicodeScalars.allSatisfy { $0.isASCII && $0.properties.isAlphabetic }
        }.sorted()
    }

    /// A group matching exactly `forms`, written as a prefix tree of their scalars (`RegexTrie`):
    /// "(?:A(?:ED|LL)|B(?:AM|DT))" for AED, ALL, BAM, BDT. Where one form continues another ("US",
    /// "US$"), the longer is tried first, as in a list sorted longest first. "(?!)" (no match) for
    /// no forms. White space is written \x{…}: the fragment may be expanded inside a (?x) pattern.
    static func trieAlternation(_ forms: [String]) -> String {
        let trie = RegexTrie()
        for form in forms where !form.isEmpty {
            trie.insert(form.unicodeScalars.map { scalar in
                scalar.properties.isPatternWhitespace ? String(format: "\\x{%X}", scalar.value) : regexEscaped(String(scalar))
            })
        }
        return trie.isEmpty ? "(?!)" : "(?:" + trie.regex() + ")"
    }

    /// `text` with PCRE2's special characters escaped.
    static func regexEscaped(_ text: String) -> String {
        var escaped = ""
        for character in text {
            if "\\^$.|?*+()[]{}/#-".contains(character) { escaped.append("\\") }
            escaped.append(character)
        }
        return escaped
    }

    /// Loads and compiles rule files in one step; with `findingGrammars`, the `grammars`
    /// folder beside the rule files is loaded too when no path names it.
    public static func load(paths: [String], findingGrammars: Bool = false,
                            forChecking: Bool = false) -> (CompiledRuleSet, [Diagnostic]) {
        // The currency table's forms are needed once the rules are read: made meanwhile.
        DispatchQueue.global(qos: .userInitiated).async { _ = tableCurrencyForms }
        let (ruleSet, loadDiagnostics) = RuleLoader.load(paths: paths, findingGrammars: findingGrammars)
        let (compiled, compileDiagnostics) = compile(ruleSet, forChecking: forChecking)
        return (compiled, loadDiagnostics + compileDiagnostics)
    }

    /// A bank's settings are its own, else its country profile's, else CLDR's for the country.
    private static func compile(_ bank: BankRules, profile: CountryProfile?, layer: CompiledFieldLayer?,
                                layerSource: FieldLayer?, elsewhere: [(written: String, code: String)] = [],
                                expander: inout GrammarExpander,
                                diagnostics: inout [Diagnostic]) -> CompiledBank {
        // The country's one-letter currency forms, for this bank's patterns only.
        let local = oneLetterForms(profile)
        var replaced: GrammarFragment?
        var layer = layer
        if !local.isEmpty {
            replaced = expander.replace(localCurrencyFragment(forms: local))
            // The field layer's finders (a balance in "Bal:N2,000.00") read them too. Its diagnostics
            // were reported when it first compiled.
            var repeated: [Diagnostic] = []
            layer = layerSource.map { compileLayer($0, expander: &expander, diagnostics: &repeated) }
        }
        defer { if let replaced { expander.replace(replaced) } }
        let country = bank.country?.uppercased()
        let defaults = BankDefaults(
            country: country,
            currency: bank.currency ?? profile?.currency ?? country.flatMap { CurrencyNormalizer.defaultCode(forCountry: $0) },
            decimalMark: decimalMark((bank.decimalMark ?? profile?.decimalMark)?.value) ?? .auto,
            dateOrder: (bank.dateOrder ?? profile?.dateOrder).flatMap { DateOrder(rawValue: $0.value) }
                ?? DateOrder.forCountry(country),
            timeZone: (bank.timeZone ?? profile?.timeZone).flatMap { TimeZone(identifier: $0.value) }
                ?? TimeZone(identifier: "UTC")!,
            currencies: CurrencyScope(country: country, local: Dictionary(
                (profile?.symbols ?? []).map { ($0.written, $0.code) }, uniquingKeysWith: { first, _ in first }),
                elsewhere: Dictionary(elsewhere.map { ($0.written, $0.code) }, uniquingKeysWith: { first, _ in first }))
        )
        // Searched in every message the bank (or the fallback) is tried on: worth a rewrite of their
        // long alternations (`AlternationFactoring`).
        func compilePlain(_ text: PatternText) -> Pattern? {
            compilePattern(text, expander: &expander, diagnostics: &diagnostics, factoring: true)?.pattern
        }
        let subjects = bank.subjects.compactMap(compilePlain)
        let detect = bank.detect.compactMap(compilePlain)
        let personalSenders = bank.personalSenders.compactMap(compilePlain)
        // The bank's own ignore rules, then its country's non-transaction phrases.
        var written: [String?] = []
        let ignore = (bank.ignore + (profile?.nonTransactions ?? [])).compactMap { rule -> CompiledIgnore? in
            guard let pattern = compilePlain(rule.pattern) else { return nil }
            var unless: Pattern?
            if let text = rule.unless {
                guard let compiled = compilePlain(text) else { return nil }
                unless = compiled
            }
            written.append(rule.pattern.value)
            return CompiledIgnore(id: rule.id, pattern: pattern, unless: unless)
        }
        var parsers: [CompiledParser] = []
        for parser in bank.parsers where parser.enabled {
            if let compiled = compile(parser, bank: bank, defaults: defaults, layer: layer, expander: &expander,
                                      diagnostics: &diagnostics) {
                parsers.append(compiled)
                // A per-field parser without `when` matches when its fields do: never screened out.
                written.append((parser.pattern ?? parser.when)?.value)
            }
        }
        // The pass pays where it spares several searches of the whole text: a fallback file's (dozens
        // of ignore rules, gates of long alternations) and a bank's of four patterns or more (most
        // bundled banks: their ignore rules search every message for OTPs, offers, KYC, limits). A
        // bank of a parser or two and an ignore rule is searched faster without it: a pass over
        // each of its messages cost 10% of a batch run over the reference corpus's e-mails.
        // Two-letter needles too: "dr" and "cr" ("Dr. with", "CR THB 900") are words of the
        // fallback's gates, and a text without them is spared the gates' long alternations.
        let screen = !expander.forChecking && (bank.isFallback || written.count >= 4)
            ? LiteralScreen(written, minimumNeedle: 2, references: expander.literals) : nil
        return CompiledBank(id: bank.id.value, rules: bank, subjects: subjects, detect: detect,
                            personalSenders: personalSenders, ignore: ignore, parsers: parsers, defaults: defaults,
                            screen: screen)
    }

    private static func compile(_ parser: ParserRule, bank: BankRules, defaults: BankDefaults, layer: CompiledFieldLayer?,
                                expander: inout GrammarExpander, diagnostics: inout [Diagnostic]) -> CompiledParser? {
        let id = parser.id.value
        var matcher: FieldMatcher?
        if let pattern = parser.pattern {
            if let (compiled, _) = compilePattern(pattern, expander: &expander, diagnostics: &diagnostics) {
                var groups: [FieldName: [Int]] = [:]
                for (number, name) in compiled.groupNames.sorted(by: { $0.key < $1.key }) {
                    if let field = FieldName(rawValue: name) {
                        groups[field, default: []].append(number)
                    } else {
                        diagnostics.append(.unknownField(name, at: locateGroup(named: name, in: pattern)))
                    }
                }
                matcher = .single(compiled, groups: groups)
            }
        } else {
            var gate: Pattern?
            var ok = true
            if let when = parser.when {
                gate = compilePattern(when, expander: &expander, diagnostics: &diagnostics, factoring: true)?.pattern
                ok = gate != nil
            }
            var fields: [(FieldName, Pattern, [Int])] = []
            for field in parser.fields {
                guard let text = field.pattern else { continue }
                guard let (compiled, _) = compilePattern(text, expander: &expander, diagnostics: &diagnostics) else {
                    ok = false
                    continue
                }
                let named = compiled.groupNames.filter { $0.value == field.name.value.rawValue }.keys.sorted()
                fields.append((field.name.value, compiled, named.isEmpty ? [compiled.captureCount >= 1 ? 1 : 0] : named))
            }
            if ok { matcher = .perField(when: gate, fields: fields) }
        }
        guard let matcher else { return nil }

        if !matcher.captures(.amount) && parser.field(.amount)?.value == nil {
            diagnostics.append(.patternNoAmount(id, at: parser.pattern?.location ?? parser.id.location))
        }
        var constants: [FieldName: String] = [:]
        for field in parser.fields {
            if let value = field.value { constants[field.name.value] = value.value }
            if field.pattern == nil, field.value == nil, !matcher.captures(field.name.value) {
                diagnostics.append(.fieldNotCaptured(field.name.value.rawValue, at: field.name.location))
            }
        }
        if parser.examples.isEmpty {
            diagnostics.append(.parserNoExamples(id, at: parser.id.location))
        }

        let amountMark = decimalMark(parser.field(.amount)?.decimalMark?.value) ?? defaults.decimalMark
        let amount = AmountNormalizer(decimalMark: amountMark, currencies: defaults.currencies)
        let date: DateNormalizer
        do {
            date = try DateNormalizer(format: parser.field(.date)?.format?.value, order: defaults.dateOrder)
        } catch {
            let location = parser.field(.date)?.format?.location ?? parser.id.location
            diagnostics.append(Diagnostic(.ruleInvalidValue, .error, at: location, "invalid date format: \(error.message)"))
            return nil
        }
        // The fields the layer finds for this parser, in field order.
        let accountLike: [FieldName] = [.account, .card, .last4]
        let capturesAccount = accountLike.contains { matcher.captures($0) || constants[$0] != nil }
        let fromLayer = FieldName.allCases.filter { field in
            layer?.fields.contains(field) == true && !matcher.captures(field) && constants[field] == nil
                && !(accountLike.contains(field) && capturesAccount)
                && !parser.layerOff.contains(field) && (field != .channel || parser.channel == nil)
        }
        // Each field's finders that read this bank's country's messages, chosen once here, not per
        // message (a search of the layer's fields, and a set look-up per finder, for every transaction).
        let finders = fromLayer.map { field in
            (layer?.finders.first { $0.field == field }?.patterns ?? []).filter { $0.reads(country: defaults.country) }
        }
        var unless: Pattern?
        if let text = parser.unless {
            guard let compiled = compilePattern(text, expander: &expander, diagnostics: &diagnostics)?.pattern else { return nil }
            unless = compiled
        }
        var unlessAmount: Pattern?
        if let text = parser.unlessAmount {
            guard let compiled = compilePattern(text, expander: &expander, diagnostics: &diagnostics)?.pattern else { return nil }
            unlessAmount = compiled
        }
        return CompiledParser(id: id, bankID: bank.id.value, rule: parser, matcher: matcher,
                              amount: amount, date: date, constants: constants, isFallback: bank.isFallback,
                              layerFields: fromLayer, layerFinders: finders, unless: unless, unlessAmount: unlessAmount)
    }

    /// Expands and compiles one pattern; a PCRE2 error is reported inside the written pattern.
    /// With `factoring`, for matching, its long alternations are grouped by their first characters
    /// (`AlternationFactoring`): for the patterns searched in every message a bank is tried on (its
    /// gates, ignore rules, detect patterns). The rewrite reads the whole expanded text, and a
    /// field's patterns, run only once a gate has matched, hold the currency fragment's thousands
    /// of forms: rewriting them all doubled the rule pack's start-up.
    /// A check compiles what was written, and so does a rewrite PCRE2 refuses. For matching, the
    /// machine code is made before a pattern's first match (`JITCompilation.onFirstMatch`): a run
    /// tries few of a large pack's patterns (the fallback's copies for countries its messages do
    /// not come from are never tried).
    static func compilePattern(_ text: PatternText, expander: inout GrammarExpander,
                               diagnostics: inout [Diagnostic],
                               factoring: Bool = false) -> (pattern: Pattern, expanded: ExpandedPattern)? {
        guard let expanded = expander.expand(text) else { return nil }
        if let known = expander.compiled[.init(expanded.text)] { return (known, expanded) }
        if factoring, !expander.forChecking, let factored = AlternationFactoring.factored(expanded.text),
           let pattern = try? Pattern(factored, options: .duplicateNames, jit: .onFirstMatch) {
            expander.compiled[.init(expanded.text)] = pattern
            return (pattern, expanded)
        }
        do {
            // Alternatives may capture the same field: `(?:spent %{MONEY:amount}|%{MONEY:amount} paid)`.
            let pattern = try Pattern(expanded.text, options: .duplicateNames,
                                      jit: expander.forChecking ? .never : .onFirstMatch)
            expander.compiled[.init(expanded.text)] = pattern
            return (pattern, expanded)
        } catch {
            diagnostics.append(patternDiagnostic(error, text: text, expanded: expanded))
            return nil
        }
    }

    /// PCRE2's compile error mapped back to the rule file. For a missing `)`, PCRE2
    /// stops at the end of the pattern; the unclosed `(` is the useful place to point at.
    static func patternDiagnostic(_ error: PatternError, text: PatternText, expanded: ExpandedPattern) -> Diagnostic {
        let missingClosingParenthesis: Int32 = 114
        if error.code == missingClosingParenthesis, let open = unclosedParenthesis(in: text.value) {
            return .patternSyntax("\(error.message): this '(' is never closed",
                                  at: text.location(ofUTF8Offset: open))
        }
        let (offset, fragment) = expanded.writtenOffset(ofExpanded: error.offset)
        var notes: [Diagnostic.Note] = []
        if let fragment {
            notes.append(Diagnostic.Note("in the expansion of grammar '\(fragment)'"))
        }
        return .patternSyntax(error.message, at: text.location(ofUTF8Offset: offset), notes: notes)
    }

    /// The UTF-8 offset of the last `(` that is never closed, skipping escapes and
    /// character classes.
    static func unclosedParenthesis(in pattern: String) -> Int? {
        let bytes = Array(pattern.utf8)
        var open: [Int] = []
        var index = 0
        var inClass = false
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\\") {
                index += 2
                continue
            }
            if inClass {
                if byte == UInt8(ascii: "]") { inClass = false }
            } else if byte == UInt8(ascii: "[") {
                inClass = true
                // A `]` right after `[` or `[^` is a literal.
                if index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: "^") { index += 1 }
                if index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: "]") { index += 1 }
            } else if byte == UInt8(ascii: "(") {
                open.append(index)
            } else if byte == UInt8(ascii: ")") {
                _ = open.popLast()
            }
            index += 1
        }
        return open.last
    }

    /// Where a named group `(?<name>`, `(?P<name>` or `(?'name'` is written.
    private static func locateGroup(named name: String, in pattern: PatternText) -> SourceLocation {
        for opener in ["(?<\(name)>", "(?P<\(name)>", "(?'\(name)'"] {
            if let range = pattern.value.range(of: opener) {
                let offset = pattern.value.utf8.distance(from: pattern.value.startIndex, to: range.lowerBound)
                return pattern.location(ofUTF8Offset: offset + opener.utf8.count - name.utf8.count - 1)
            }
        }
        return pattern.location
    }

    private static func decimalMark(_ text: String?) -> AmountNormalizer.DecimalMark? {
        switch text {
        case ".": .point
        case ",": .comma
        default: nil
        }
    }

    /// The same diagnostic reached twice (a broken fragment used by two parsers) is reported once.
    private static func deduplicated(_ diagnostics: [Diagnostic]) -> [Diagnostic] {
        var seen: Set<Diagnostic> = []
        return diagnostics.filter { seen.insert($0).inserted }
    }
}
