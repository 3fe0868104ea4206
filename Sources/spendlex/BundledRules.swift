import ArgumentParser
import Foundation

/// Where the rules are when no `--rules` (or path argument) names them: `SPENDLEX_RULES` (paths
/// separated by `:`), else `rules` and `grammars` in the working folder (the repository), else
/// those installed beside the binary (`PREFIX/share/spendlex`, where `scripts/dev install PREFIX`
/// puts them for `PREFIX/bin/spendlex`), else the data folder (`$XDG_DATA_HOME/spendlex`, by
/// default `~/.local/share/spendlex`). So `spendlex` works from any folder, with `--rules` once.
enum BundledRules {
    /// The rule paths to load: `given` when there are any, else the first place above that has them.
    static func paths(given: [String]) throws -> [String] {
        if !given.isEmpty { return given }
        let environment = ProcessInfo.processInfo.environment
        if let listed = environment["SPENDLEX_RULES"], !listed.isEmpty {
            return listed.split(separator: ":").map(String.init)
        }
        for folder in candidates(environment) {
            let rules = folder.isEmpty ? "rules" : folder + "/rules"
            let grammars = folder.isEmpty ? "grammars" : folder + "/grammars"
            if isDirectory(rules) && isDirectory(grammars) { return [rules, grammars] }
        }
        throw ValidationError("""
            no rules found: not in ./rules and ./grammars, not installed beside the binary or in the data folder \
            (\(candidates(environment).dropFirst().joined(separator: ", "))); pass --rules PATH, set SPENDLEX_RULES, \
            or install them with: scripts/dev install PREFIX
            """)
    }

    /// The rule playground's page (`playground/index.html` and its assets): in the first of the
    /// same places that has it.
    static func playgroundFolder() throws -> String {
        for folder in candidates(ProcessInfo.processInfo.environment) {
            let page = folder.isEmpty ? "playground" : folder + "/playground"
            if FileManager.default.fileExists(atPath: page + "/index.html") { return page }
        }
        throw ValidationError("the playground's page is not in ./playground nor installed beside the binary: run from the repository, or scripts/dev install PREFIX")
    }

    /// The folders searched, in order ("" is the working folder).
    static func candidates(_ environment: [String: String]) -> [String] {
        var folders = [""]
        if let binary = Bundle.main.executableURL?.resolvingSymlinksInPath() {
            folders.append(binary.deletingLastPathComponent().deletingLastPathComponent()
                .appendingPathComponent("share/spendlex").path)
        }
        let data = environment["XDG_DATA_HOME"].flatMap { $0.isEmpty ? nil : $0 }
            ?? (environment["HOME"].map { $0 + "/.local/share" } ?? NSHomeDirectory() + "/.local/share")
        folders.append(data + "/spendlex")
        return folders
    }

    private static func isDirectory(_ path: String) -> Bool {
        var directory: ObjCBool = false
        return FileManager.default.fileExists(atPath: path, isDirectory: &directory) && directory.boolValue
    }
}
