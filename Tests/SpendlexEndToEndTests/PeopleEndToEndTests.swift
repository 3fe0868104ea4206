import Foundation
import GRDB
import Testing
import SpendlexTestSupport

extension EndToEnd {
    /// `spendlex people` on a household's folder through the real binary: add (password on stdin),
    /// list, export, remove; and what `serve --people` refuses.
    @Suite("spendlex people, end to end")
    struct PeopleEndToEndTests {
        @Test("add, list, export and remove a person: the export holds their ledger and entry, removal leaves nothing")
        func lifecycle() throws {
            let folder = TestScratch.root.appendingPathComponent("spendlex-people-\(UUID().uuidString)")
            defer { try? FileManager.default.removeItem(at: folder) }
            let household = folder.appendingPathComponent("household").path
            let added = try spendlex(["people", "add", "ana@example.com", "--people", household, "--device", "phone"],
                                     stdin: "a long enough password\n")
            #expect(added.status == 0, "\(added.stderr)")
            #expect(added.stdout.hasPrefix("slx_") && added.stdout.split(separator: "\n").count == 1)
            // A short password, and a taken address, are refused with a reason.
            let short = try spendlex(["people", "add", "bo@example.com", "--people", household], stdin: "short\n")
            #expect(short.status == 65 && short.stderr.contains("at least 8 characters"), "\(short.stderr)")
            let taken = try spendlex(["people", "add", "ANA@example.com", "--people", household], stdin: "another password\n")
            #expect(taken.status == 65 && taken.stderr.contains("already"), "\(taken.stderr)")
            let listed = try spendlex(["people", "list", "--people", household])
            let rows = listed.stdout.split(separator: "\n").dropFirst().map { $0.split(separator: "\t") }
            #expect(rows.count == 1 && rows.first?[1] == "ana@example.com" && rows.first?[3] == "1", "\(listed.stdout)")
            let id = String(try #require(rows.first?.first))

            // Her ledger, as the service would make it on her first request, with one transaction.
            let ledger = folder.appendingPathComponent("household/people/\(id)/ledger.sqlite")
            let parsed = try spendlex(["parse", "--store", ledger.path, "--quiet", "--text",
                                       "Rs 2,450.00 debited from A/c XX5521 to VPA swiggy@icici on 14-11-26. Ref 631845220913.",
                                       "--sender", "AX-ICICIB"])
            #expect(parsed.status == 0, "\(parsed.stderr)")
            let export = folder.appendingPathComponent("export")
            let exported = try spendlex(["people", "export", "ana@example.com", "--people", household, "-o", export.path])
            #expect(exported.status == 0, "\(exported.stderr)")
            let entry = try JSONSerialization.jsonObject(with: Data(contentsOf: export.appendingPathComponent("person.json"))) as? [String: Any]
            #expect(entry?["email"] as? String == "ana@example.com")
            #expect((entry?["keys"] as? [[String: Any]])?.first?["name"] as? String == "phone")
            #expect(!(try String(contentsOf: export.appendingPathComponent("person.json"), encoding: .utf8)).contains("argon2"))
            let copy = try DatabaseQueue(path: export.appendingPathComponent("ledger.sqlite").path)
            #expect(try copy.read { try Int.fetchOne($0, sql: "SELECT count(*) FROM transactions") } == 1)

            let removed = try spendlex(["people", "remove", id, "--people", household])
            #expect(removed.status == 0, "\(removed.stderr)")
            #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("household/people/\(id)").path))
            #expect(try spendlex(["people", "list", "--people", household]).stdout.split(separator: "\n").count == 1)
            #expect(try spendlex(["people", "remove", id, "--people", household]).status == 65)
        }

        @Test("serve --people refuses what belongs to one ledger, and an unknown registration mode")
        func refusals() throws {
            for extra in [["--store", "x.sqlite"], ["--webhook", "http://127.0.0.1:9/"], ["--wallet", "examples/wallet.yaml"],
                          ["--registration", "sometimes"]] {
                let result = try spendlex(["serve", "--people", "/nonexistent/household"] + extra)
                #expect(result.status == 64, "\(extra): \(result.stderr)")
            }
        }
    }
}
