import Foundation
import Hummingbird
import HummingbirdTesting
import SpendlexServer
import SpendlexStore
import Testing

@Suite("API keys")
struct APIKeyTests {
    @Test("keys are stored only as their SHA-256 hash, and checked by it")
    func storedHashed() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let ledger = try Ledger(path: folder.path("ledger.sqlite"))
        let keys = APIKeys(ledger: ledger)
        let (record, key) = try keys.create(name: "phone")
        #expect(key.hasPrefix("slx_") && key.count == 68)
        #expect(try keys.check(key) == .valid(record))
        #expect(try keys.check(key + "x") == .unknown)
        // The ledger file never holds the key.
        let bytes = try Data(contentsOf: URL(fileURLWithPath: folder.path("ledger.sqlite")))
            + ((try? Data(contentsOf: URL(fileURLWithPath: folder.path("ledger.sqlite-wal")))) ?? Data())
        #expect(bytes.range(of: Data(key.utf8)) == nil)
        #expect(bytes.range(of: Data(APIKeys.hash(key).utf8)) != nil)
        #expect(try keys.list().map(\.name) == ["phone"])
        #expect(try keys.revoke(id: record.id))
        guard case .revoked = try keys.check(key) else { Issue.record("a revoked key passed"); return }
        #expect(try !keys.revoke(id: 999))
    }

    @Test("/health is open; other routes need a key: 401 without or unknown, 403 revoked")
    func routesNeedKeys() async throws {
        let test = try TestService()
        let key = test.key
        let revoked = try test.service.keys!.create(name: "old")
        #expect(try test.service.keys!.revoke(id: revoked.record.id))
        try await test.live { client in
            let health = try await client.call(.get, "/health", key: nil)
            #expect(health.status == .ok)
            #expect(health["status"] as? String == "ok")
            #expect(try await client.call(.get, "/", key: nil).status == .unauthorized)
            let unknown = try await client.call(.get, "/", key: "slx_nope")
            #expect(unknown.status == .unauthorized)
            #expect(unknown.errorCode == "unauthorized")
            let forbidden = try await client.call(.get, "/", key: revoked.key)
            #expect(forbidden.status == .forbidden)
            #expect(forbidden.errorCode == "key_revoked")
            let info = try await client.call(.get, "/", key: key)
            #expect(info.status == .ok)
            #expect(info["version"] as? String == "0.1.0")
            #expect((info.at("rules", "banks") as? [String])?.contains("hdfc") == true)
            #expect((info.at("rules", "parsers") as? Int ?? 0) > 10)
        }
    }
}
