import ArgumentParser
import Foundation
import SpendlexServer
import SpendlexStore

struct Keys: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "keys",
        abstract: "Create, list and revoke the API keys of `spendlex serve`.",
        discussion: "Keys are stored in the ledger as SHA-256 hashes: a key is shown once, when it is created.",
        subcommands: [Create.self, List.self, Revoke.self]
    )

    /// `--store DB`, shared by the three.
    struct StoreOption: ParsableArguments {
        @Option(name: .customLong("store"), help: ArgumentHelp("The SQLite ledger the service uses (created if needed) (default: $SPENDLEX_STORE).", valueName: "file"))
        var storeOption: String?

        /// `--store`, else `SPENDLEX_STORE`; "" when neither (refused by `validate`).
        var store: String { storeOption ?? ProcessInfo.processInfo.environment["SPENDLEX_STORE"] ?? "" }

        func validate() throws {
            if store.isEmpty { throw ValidationError("no ledger given: pass --store FILE or set SPENDLEX_STORE") }
        }

        func keys() throws -> APIKeys {
            do { return APIKeys(ledger: try Ledger(path: store)) } catch {
                Stderr.write("error: cannot open the ledger \(store): \(error)\n")
                throw ExitStatus.internalError
            }
        }
    }

    struct Create: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "create", abstract: "Make a new key and print it (once).")
        @OptionGroup var options: StoreOption
        @Option(name: .long, help: "What the key is for (\"iPhone shortcut\").")
        var name = "default"

        func run() throws {
            let (record, key) = try options.keys().create(name: name)
            // The key alone on stdout, for scripts; what it is on stderr.
            print(key)
            Stderr.write("key \(record.id) '\(record.name)' created; it is shown only now. Send it as X-API-Key.\n")
        }
    }

    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "list", abstract: "List the keys: id, name, created, revoked (never the key).")
        @OptionGroup var options: StoreOption

        func run() throws {
            print(["id", "name", "created", "revoked"].joined(separator: "\t"))
            for record in try options.keys().list() {
                print([String(record.id), record.name, Self.time(record.createdAt),
                       record.revokedAt.map(Self.time) ?? "-"].joined(separator: "\t"))
            }
        }

        static func time(_ date: Date) -> String { date.formatted(.iso8601) }
    }

    struct Revoke: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "revoke", abstract: "Revoke a key by its id: requests with it get 403.")
        @OptionGroup var options: StoreOption
        @Argument(help: "The key's id, from `spendlex keys list`.")
        var id: Int64

        func run() throws {
            guard try options.keys().revoke(id: id) else {
                Stderr.write("error: no key \(id)\n")
                throw ExitStatus.badInput
            }
            print("key \(id) revoked")
        }
    }
}
