import Dispatch
import Foundation
import Synchronization
import Yams

/// Reads rule files (bank files, grammar files, categories files) into a `RuleSet`, with a diagnostic
/// for every problem found: YAML syntax, unknown or missing keys, wrong types, invalid
/// values, duplicate ids. Patterns are not compiled here; the engine does that.
public enum RuleLoader {
    /// Loads every `.yaml`/`.yml` file under the given files and folders, in path order.
    /// A path that does not exist is an error diagnostic, not a thrown error.
    ///
    /// With `findingGrammars`, when the paths hold bank files but no grammar file, the
    /// `grammars` folder beside them is loaded too (see `grammarFolder(near:)`), so that
    /// `spendlex test rules` or `spendlex test my-bank.yaml` finds the shared fragments.
    public static func load(paths: [String], findingGrammars: Bool = false) -> (RuleSet, [Diagnostic]) {
        var ruleSet = RuleSet()
        var diagnostics: [Diagnostic] = []
        var files = ruleFiles(under: paths, diagnostics: &diagnostics)
        if findingGrammars, let folder = grammarFolder(near: paths) {
            let grammarFiles = ruleFiles(under: [folder], diagnostics: &diagnostics)
            let given = Set(files.map { URL(fileURLWithPath: $0).standardizedFileURL.path })
            if !grammarFiles.contains(where: { given.contains(URL(fileURLWithPath: $0).standardizedFileURL.path) }) {
                files += grammarFiles
            }
        }
        func loadFiles(_ files: [String]) {
            // Each file is read (YAML parsed, its rules built) on its own, on every core, into a rule
            // set of its own; they are merged in the files' order, so that the result and its
            // diagnostics are the same as reading them one after the other. Reading 1,000 bank
            // files one at a time was half of `spendlex check` on them.
            let loaded = Self.loadEach(files)
            for (file, diagnosticsOfFile) in zip(loaded.sets, loaded.diagnostics) {
                ruleSet.merge(file, diagnostics: &diagnostics)
                diagnostics += diagnosticsOfFile
            }
        }
        loadFiles(files)
        // Bank files inherit their country profiles: `rules/countries` of the pack they lie in.
        if findingGrammars, !ruleSet.banks.isEmpty, let folder = countryFolder(near: paths) {
            let given = Set(files.map { URL(fileURLWithPath: $0).standardizedFileURL.path })
            loadFiles(ruleFiles(under: [folder], diagnostics: &diagnostics)
                .filter { !given.contains(URL(fileURLWithPath: $0).standardizedFileURL.path) })
        }
        diagnostics += validate(ruleSet)
        return (ruleSet, diagnostics)
    }

    /// Each file read into a rule set of its own, several at a time; the results in the files' order.
    private static func loadEach(_ files: [String]) -> (sets: [RuleSet], diagnostics: [[Diagnostic]]) {
        let results = Mutex([(RuleSet, [Diagnostic])?](repeating: nil, count: files.count))
        DispatchQueue.concurrentPerform(iterations: files.count) { index in
            var set = RuleSet()
            var found: [Diagnostic] = []
            do {
                let text = try String(contentsOfFile: files[index], encoding: .utf8)
                load(text: text, path: files[index], into: &set, diagnostics: &found)
            } catch {
                found.append(.unreadable(files[index], reason: "\(error.localizedDescription)"))
            }
            results.withLock { $0[index] = (set, found) }
        }
        let all = results.withLock { $0 }.map { $0 ?? (RuleSet(), []) }
        return (all.map(\.0), all.map(\.1))
    }

    /// Loads one file's text. Cross-file checks (duplicate ids) run in `load(paths:)`
    /// or `validate(_:)`.
    public static func load(text: String, path: String, into ruleSet: inout RuleSet, diagnostics: inout [Diagnostic]) {
        let source = SourceText(path: path, text: text)
        ruleSet.sources[path] = source
        let root: Node?
        do {
            // The basic resolver: every plain scalar stays a string, which the readers interpret
            // themselves (`NodeReader.bool`, `isNull`). Yams' default resolver tried seven
            // NSRegularExpressions on every scalar to guess bool, int, float, null, timestamp:
            // three quarters of `spendlex check` on 1,000 bank files.
            root = try Yams.compose(yaml: text, .basic)
        } catch let error as YamlError {
            if case let .duplicatedKeysInMapping(keys, context) = error {
                diagnostics += keys.sorted().map { duplicateKeyDiagnostic($0, mappingAt: context.mark, source: source) }
            } else {
                diagnostics.append(yamlDiagnostic(error, source: source))
            }
            return
        } catch {
            diagnostics.append(.yamlSyntax("\(error)", at: source.location(line: 1, column: 1)))
            return
        }
        guard let root else {
            diagnostics.append(.unknownFileKind(at: source.location(line: 1, column: 1)))
            return
        }
        var reader = NodeReader(source: source)
        let keys = Set(root.mapping?.keys.compactMap(\.scalar?.string) ?? [])
        if FieldLayerFileReader.isFieldLayer(keys) {
            if let layer = FieldLayerFileReader.read(root, with: &reader) {
                if let first = ruleSet.fieldLayer {
                    reader.report(.duplicateID(layer.name.value, at: layer.name.location, first: first.name.location))
                } else {
                    ruleSet.fieldLayer = layer
                }
            }
        } else if keys.contains("statement") {
            if let profile = StatementProfileFileReader.read(root, with: &reader) { ruleSet.statementProfiles.append(profile) }
        } else if CountryFileReader.isProfile(keys) {
            if let profile = CountryFileReader.read(root, with: &reader) { ruleSet.countries.append(profile) }
        } else if keys.contains("fragments") {
            ruleSet.fragments += GrammarFileReader.read(root, with: &reader)
        } else if CardFileReader.isCardFile(keys) {
            if let card = CardFileReader.read(root, with: &reader) { ruleSet.cards.append(card) }
        } else if CardFileReader.isPointsFile(keys) {
            ruleSet.pointPrograms += CardFileReader.readPoints(root, with: &reader)
        } else if keys.contains("parsers") || keys.contains("bank") {
            if let bank = BankFileReader.read(root, with: &reader) {
                ruleSet.banks.append(bank)
            }
        } else if keys.contains("categories") || keys.contains("tables") {
            CategoryFileReader.read(root, with: &reader, into: &ruleSet)
        } else {
            reader.report(.unknownFileKind(at: reader.location(of: root)))
        }
        diagnostics += reader.diagnostics
    }

    /// Checks that span files: unique bank ids, parser ids, fragment names, categories,
    /// table ids and row ids.
    public static func validate(_ ruleSet: RuleSet) -> [Diagnostic] {
        var diagnostics: [Diagnostic] = []
        func unique(_ id: Located<String>, in seen: inout [String: SourceLocation],
                    else report: (String, SourceLocation, SourceLocation) -> Diagnostic = Diagnostic.duplicateID) {
            if let first = seen[id.value] {
                diagnostics.append(report(id.value, id.location, first))
            } else {
                seen[id.value] = id.location
            }
        }
        var banks: [String: SourceLocation] = [:]
        var rules: [String: SourceLocation] = [:]
        for bank in ruleSet.banks {
            unique(bank.id, in: &banks)
            for id in bank.parsers.map(\.id) + bank.ignore.map({ Located($0.id, at: $0.pattern.location) }) {
                unique(id, in: &rules)
            }
        }
        // Country profiles are unique by country; their non-transaction ids share the rules' space.
        var profiles: [String: SourceLocation] = [:]
        for profile in ruleSet.countries {
            unique(profile.country, in: &profiles)
            for rule in profile.nonTransactions { unique(Located(rule.id, at: rule.pattern.location), in: &rules) }
        }
        var statements: [String: SourceLocation] = [:]
        for profile in ruleSet.statementProfiles { unique(profile.id, in: &statements) }
        var fragments: [String: SourceLocation] = [:]
        for fragment in ruleSet.fragments { unique(fragment.name, in: &fragments, else: Diagnostic.duplicateGrammar) }
        var categories: [String: SourceLocation] = [:]
        for category in ruleSet.categories { unique(category.name, in: &categories) }
        // Table ids are unique among tables, row ids among the rows of every table.
        var tables: [String: SourceLocation] = [:]
        var rows: [String: SourceLocation] = [:]
        for table in ruleSet.categoryTables {
            unique(table.id, in: &tables)
            for row in table.rows { unique(row.id, in: &rows) }
        }
        return diagnostics
    }

    /// The `grammars` folder nearest the given rule paths: looked for in each path's folder and
    /// its parents (`rules/banks/in/hdfc.yaml` finds `./grammars` beside `rules/`), then in the
    /// current directory. nil when there is none.
    public static func grammarFolder(near paths: [String]) -> String? {
        let fileManager = FileManager.default
        func grammars(in directory: URL) -> String? {
            let candidate = directory.appendingPathComponent("grammars")
            var isDirectory: ObjCBool = false
            return fileManager.fileExists(atPath: candidate.path, isDirectory: &isDirectory) && isDirectory.boolValue
                ? candidate.path : nil
        }
        for path in paths {
            var directory = URL(fileURLWithPath: path).standardizedFileURL
            while directory.path != "/" {
                if directory.lastPathComponent == "grammars" { return directory.path }
                if let found = grammars(in: directory) { return found }
                directory.deleteLastPathComponent()
            }
        }
        return grammars(in: URL(fileURLWithPath: fileManager.currentDirectoryPath))
    }

    /// The `countries` folder of the rule pack a path lies in: looked for in each path's folder and
    /// its parents (`rules/banks/in/hdfc.yaml` finds `rules/countries`). nil when there is none.
    public static func countryFolder(near paths: [String]) -> String? {
        let fileManager = FileManager.default
        for path in paths {
            var directory = URL(fileURLWithPath: path).standardizedFileURL
            while directory.path != "/" {
                if directory.lastPathComponent == "countries" { return directory.path }
                let candidate = directory.appendingPathComponent("countries")
                var isDirectory: ObjCBool = false
                if fileManager.fileExists(atPath: candidate.path, isDirectory: &isDirectory), isDirectory.boolValue {
                    return candidate.path
                }
                directory.deleteLastPathComponent()
            }
        }
        return nil
    }

    /// The YAML files under the given paths, sorted, so that every run sees the same order.
    static func ruleFiles(under paths: [String], diagnostics: inout [Diagnostic]) -> [String] {
        let fileManager = FileManager.default
        var files: [String] = []
        for path in paths {
            var isDirectory: ObjCBool = false
            guard fileManager.fileExists(atPath: path, isDirectory: &isDirectory) else {
                diagnostics.append(.unreadable(path, reason: "no such file or directory"))
                continue
            }
            guard isDirectory.boolValue else {
                files.append(path)
                continue
            }
            let base = path.hasSuffix("/") ? String(path.dropLast()) : path
            let found = (fileManager.enumerator(atPath: path)?.allObjects as? [String] ?? [])
                .filter { $0.hasSuffix(".yaml") || $0.hasSuffix(".yml") }
                .sorted()
                .map { "\(base)/\($0)" }
            files += found
        }
        return files
    }

    /// Yams reports duplicate keys with the mapping's start only; find the key's lines,
    /// written at the mapping's column, to point at the repeat and the first use.
    private static func duplicateKeyDiagnostic(_ key: String, mappingAt mark: Mark, source: SourceText) -> Diagnostic {
        var found: [SourceLocation] = []
        var line = mark.line
        while let text = source.line(line), found.count < 2 {
            let indent = text.prefix { $0 == " " }.count
            if indent + 1 < mark.column, line > mark.line, !text.allSatisfy(\.isWhitespace) { break }
            let body = text.dropFirst(indent).drop { $0 == "-" || $0 == " " }
            let column = text.count - body.count + 1
            if column == mark.column || indent + 1 == mark.column,
               body.hasPrefix(key + ":") || body.hasPrefix("\"\(key)\":") || body.hasPrefix("'\(key)':") {
                found.append(source.location(line: line, column: column))
            }
            line += 1
        }
        let start = source.location(line: mark.line, column: mark.column)
        return .duplicateKey(key, at: found.count == 2 ? found[1] : start, first: found.first ?? start)
    }

    private static func yamlDiagnostic(_ error: YamlError, source: SourceText) -> Diagnostic {
        switch error {
        case let .scanner(context, problem, mark, _), let .parser(context, problem, mark, _),
             let .composer(context, problem, mark, _):
            let text = context.map { "\($0.text): \(problem)" } ?? problem
            let location = source.location(line: mark.line, column: mark.column)
            guard let context else { return .yamlSyntax(text, at: location) }
            let contextLocation = source.location(line: context.mark.line, column: context.mark.column)
            // At the end of the file, the construct that was left open is the useful place.
            if source.line(mark.line).map({ $0.allSatisfy(\.isWhitespace) }) ?? true {
                return .yamlSyntax(text, at: contextLocation, note: Diagnostic.Note("the file ends here", at: location))
            }
            return .yamlSyntax(text, at: location, note: Diagnostic.Note("\(context.text) here", at: contextLocation))
        case let .reader(problem, _, _, _):
            return .yamlSyntax(problem, at: source.location(line: 1, column: 1))
        default:
            return .yamlSyntax("\(error)", at: source.location(line: 1, column: 1))
        }
    }
}

/// Reads a grammar file: `fragments:` mapping names to patterns.
enum GrammarFileReader {
    static func read(_ root: Node, with reader: inout NodeReader) -> [GrammarFragment] {
        guard let entries = reader.entries(of: root, context: "a grammar file",
                                           allowed: ["grammar", "description", "fragments"]) else { return [] }
        var fragments: [GrammarFragment] = []
        for (key, value) in entries where key.value == "fragments" {
            guard let items = reader.entries(of: value, context: "fragments", allowed: value.mapping?.keys.compactMap(\.scalar?.string) ?? []) else { continue }
            for (name, body) in items {
                guard isGrammarName(name.value) else {
                    reader.report(.invalidGrammarName(name.value, at: name.location))
                    continue
                }
                if body.mapping != nil {
                    guard let fields = reader.entries(of: body, context: "fragment '\(name.value)'",
                                                      allowed: ["pattern", "description"]) else { continue }
                    var pattern: PatternText?
                    var summary: String?
                    for (field, node) in fields {
                        if field.value == "pattern" { pattern = reader.pattern(node, key: "pattern") }
                        if field.value == "description" { summary = reader.string(node, key: "description")?.value }
                    }
                    guard let pattern else {
                        reader.report(.missingKey("pattern", in: "fragment '\(name.value)'", at: name.location))
                        continue
                    }
                    fragments.append(GrammarFragment(name: name, pattern: pattern, summary: summary))
                } else if let pattern = reader.pattern(body, key: name.value) {
                    fragments.append(GrammarFragment(name: name, pattern: pattern, summary: nil))
                }
            }
        }
        return fragments
    }

    /// `[A-Z][A-Z0-9_]*`.
    static func isGrammarName(_ name: String) -> Bool {
        guard let first = name.unicodeScalars.first, ("A"..."Z").contains(first) else { return false }
        return name.unicodeScalars.allSatisfy { ("A"..."Z").contains($0) || ("0"..."9").contains($0) || $0 == "_" }
    }
}
