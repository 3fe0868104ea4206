import Foundation
import Testing
import SpendlexTestSupport

extension EndToEnd {
    /// `spendlex` run outside the repository: the rules installed beside the binary (the layout
    /// `scripts/dev install PREFIX` makes: PREFIX/bin/spendlex, PREFIX/share/spendlex/{rules,grammars}),
    /// `SPENDLEX_RULES`, `SPENDLEX_STORE`, a clear error when no rules are anywhere, and the note that
    /// the rules changed since the ledger's messages were parsed.
    @Suite("spendlex from any folder, end to end", .serialized)
    struct AnywhereEndToEndTests {
        let folder: URL
        let prefix: URL
        let work: URL

        init() throws {
            let letters = String(UUID().uuidString.map { $0.wholeNumberValue.map { Character(UnicodeScalar(UInt8(ascii: "g") + UInt8($0))) } ?? $0 })
            folder = TestScratch.root.appendingPathComponent("spendlex-anywhere-\(letters)")
            prefix = folder.appendingPathComponent("prefix")
            work = folder.appendingPathComponent("work")
            let share = prefix.appendingPathComponent("share/spendlex")
            for made in [prefix.appendingPathComponent("bin"), share, work] {
                try FileManager.default.createDirectory(at: made, withIntermediateDirectories: true)
            }
            try FileManager.default.copyItem(at: spendlexBinary, to: prefix.appendingPathComponent("bin/spendlex"))
            for name in ["rules", "grammars"] {
                try FileManager.default.copyItem(at: repositoryRoot.appendingPathComponent(name), to: share.appendingPathComponent(name))
            }
            try FileManager.default.copyItem(at: repositoryRoot.appendingPathComponent("examples/messages.jsonl"),
                                             to: work.appendingPathComponent("messages.jsonl"))
        }

        /// The installed binary, run in the work folder (no rules there), with no HOME rules either.
        func installed(_ arguments: [String], environment: [String: String] = [:]) throws -> RunResult {
            try run(prefix.appendingPathComponent("bin/spendlex"), arguments, in: work,
                    environment: ["HOME": work.path, "XDG_DATA_HOME": "", "SPENDLEX_RULES": "", "SPENDLEX_STORE": ""]
                        .merging(environment) { $1 })
        }

        @Test("the installed binary finds its rules from any folder; SPENDLEX_RULES and SPENDLEX_STORE are honoured")
        func findsItsRules() throws {
            defer { try? FileManager.default.removeItem(at: folder) }
            let checked = try installed(["check"])
            #expect(checked.status == 0, "\(checked.stderr)")
            #expect(checked.stdout.hasPrefix("ok: "))
            let parsed = try installed(["parse", "messages.jsonl", "--format", "jsonl"])
            #expect(parsed.stdout.split(separator: "\n").count == 6, "\(parsed.stderr)")

            let store = work.appendingPathComponent("ledger.sqlite").path
            #expect(try installed(["parse", "messages.jsonl", "--store", store, "--quiet"]).status == 0)  // its two errors are said, not fatal
            let listed = try installed(["transactions", "--format", "jsonl"], environment: ["SPENDLEX_STORE": store])
            #expect(listed.status == 0, "\(listed.stderr)")
            #expect(listed.stdout.split(separator: "\n").count == 6)

            // Other rules by SPENDLEX_RULES (one bank file and the grammars): only that bank reads.
            let hdfc = prefix.appendingPathComponent("share/spendlex/rules/banks/in/hdfc.yaml").path
            let grammars = prefix.appendingPathComponent("share/spendlex/grammars").path
            let narrow = try installed(["parse", "messages.jsonl", "--format", "jsonl"], environment: ["SPENDLEX_RULES": "\(hdfc):\(grammars)"])
            let banks = Set(narrow.stdout.split(separator: "\n").compactMap { line in
                (try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])?["bank"] as? String
            })
            #expect(banks == ["hdfc"], "\(narrow.stderr)")

            // The same messages read again with those rules: the ledger says they were parsed with others.
            let rerun = try installed(["parse", "messages.jsonl", "--store", store], environment: ["SPENDLEX_RULES": "\(hdfc):\(grammars)"])
            #expect(rerun.stderr.contains("note: the rules changed since 10 of the ledger's messages were parsed"), "\(rerun.stderr)")
            #expect(rerun.stderr.contains("--reprocess"))
        }

        @Test("commands that read the ledger say when the rule files that parsed it changed since, and name --reprocess")
        func ledgerCommandsSayTheRulesChanged() throws {
            defer { try? FileManager.default.removeItem(at: folder) }
            let store = work.appendingPathComponent("ledger.sqlite").path
            #expect(try installed(["parse", "messages.jsonl", "--store", store, "--quiet"]).status == 0)
            let commands = [["transactions"], ["balances"], ["report"], ["export", "--format", "csv"], ["search", "amazon"]]
            for command in commands {
                let quiet = try installed(command + ["--store", store])
                #expect(!quiet.stderr.contains("rule files changed"), "\(command): \(quiet.stderr)")
            }
            // An edit to one installed rule file (a comment is enough: the rules are hashed as written).
            let hdfc = prefix.appendingPathComponent("share/spendlex/rules/banks/in/hdfc.yaml")
            let handle = try FileHandle(forWritingTo: hdfc)
            handle.seekToEndOfFile()
            handle.write(Data("# edited\n".utf8))
            try handle.close()
            for command in commands {
                let noted = try installed(command + ["--store", store])
                #expect(noted.status == 0, "\(command): \(noted.stderr)")
                #expect(noted.stderr.contains("note: the rule files changed since 10 of the ledger's messages were parsed"), "\(command): \(noted.stderr)")
                #expect(noted.stderr.contains("--store \(store) --reprocess"))
                // Said once (search, with no embedding model in this HOME, also says it ranks by words).
                #expect(noted.stderr.components(separatedBy: "note: the rule files changed").count == 2, "said once: \(noted.stderr)")
            }
            // Read again with the edited rules: nothing to say.
            #expect(try installed(["parse", "messages.jsonl", "--store", store, "--reprocess", "--quiet"]).status == 0)
            #expect(!(try installed(["transactions", "--store", store])).stderr.contains("rule files changed"))
        }

        @Test("with no rules anywhere, a clear error that names the places looked at and what to do")
        func noRulesAnywhere() throws {
            defer { try? FileManager.default.removeItem(at: folder) }
            try FileManager.default.removeItem(at: prefix.appendingPathComponent("share"))
            let result = try installed(["parse", "messages.jsonl"])
            #expect(result.status == 64)
            #expect(result.stderr.contains("no rules found"))
            #expect(result.stderr.contains(prefix.appendingPathComponent("share/spendlex").path))
            #expect(result.stderr.contains("SPENDLEX_RULES"))
            let noStore = try installed(["balances"])
            #expect(noStore.status == 64)
            #expect(noStore.stderr.contains("pass --store FILE or set SPENDLEX_STORE"))
        }
    }
}
