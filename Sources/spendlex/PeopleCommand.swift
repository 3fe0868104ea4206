import ArgumentParser
import Foundation
import SpendlexServer
import SpendlexStore

/// The operator's commands for a service that hosts several people (`spendlex serve --people FOLDER`).
struct People: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "people",
        abstract: "Add, list, remove and export the people a household service hosts; invitations and keys.",
        discussion: """
            A household service (`spendlex serve --people FOLDER`) keeps a directory of people in \
            FOLDER/people.sqlite (e-mail, Argon2id password hash, keys as SHA-256 hashes) and a ledger \
            each in FOLDER/people/<id>/. These commands work on that folder directly; run them on the \
            service's machine. Passwords are read from stdin (one line), never from the command line.
            """,
        subcommands: [Add.self, List.self, Remove.self, Export.self, Invite.self, OperatorKey.self]
    )

    /// `--people FOLDER`, shared by every subcommand.
    struct FolderOption: ParsableArguments {
        @Option(name: .customLong("people"), help: ArgumentHelp(
            "The household's data folder (default: $SPENDLEX_PEOPLE).", valueName: "folder"))
        var folderOption: String?

        var folder: String { folderOption ?? ProcessInfo.processInfo.environment["SPENDLEX_PEOPLE"] ?? "" }

        func validate() throws {
            if folder.isEmpty { throw ValidationError("no household folder given: pass --people FOLDER or set SPENDLEX_PEOPLE") }
        }

        func household() throws -> Household {
            do { return try Household(folder: URL(fileURLWithPath: folder), rules: nil) } catch {
                Stderr.write("error: cannot open the household \(folder): \(error)\n")
                throw ExitStatus.internalError
            }
        }
    }

    /// A person by id or e-mail address.
    static func find(_ given: String, in household: Household) throws -> Person {
        let people = try household.directory.people()
        guard let person = people.first(where: { $0.id == given || $0.email.caseInsensitiveCompare(given) == .orderedSame }) else {
            Stderr.write("error: no person \(given)\n")
            throw ExitStatus.badInput
        }
        return person
    }

    struct Add: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "add", abstract: "Add a person (password on stdin) and print a key for their first device.")
        @OptionGroup var options: FolderOption
        @Argument(help: "Their e-mail address: what they log in with.")
        var email: String
        @Option(name: .long, help: "What the first key is for.")
        var device = "first device"

        func run() throws {
            let household = try options.household()
            guard let password = readLine(strippingNewline: true) else {
                Stderr.write("error: no password on stdin (one line)\n")
                throw ExitStatus.badInput
            }
            let person: Person
            do { person = try household.add(email: email, password: password) } catch let refusal as Household.Refusal {
                switch refusal {
                case .invalid(let why): Stderr.write("error: \(why)\n")
                default: Stderr.write("error: someone has the address \(email) already\n")
                }
                throw ExitStatus.badInput
            }
            let (record, key) = try household.makeKey(personID: person.id, scope: .write, name: device)
            print(key)
            Stderr.write("person \(person.id) <\(person.email)> added; key \(record.id) '\(record.name)' (write) is shown only now.\n")
        }
    }

    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "list", abstract: "List the people: id, e-mail, added, keys in force.")
        @OptionGroup var options: FolderOption

        func run() throws {
            let household = try options.household()
            print(["id", "email", "added", "keys"].joined(separator: "\t"))
            for person in try household.directory.people() {
                let keys = try household.directory.keys(personID: person.id).filter { $0.revokedAt == nil }.count
                print([person.id, person.email, person.createdAt.formatted(.iso8601), String(keys)].joined(separator: "\t"))
            }
        }
    }

    struct Remove: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "remove", abstract: "Remove a person: their keys, their ledger and every file of theirs.")
        @OptionGroup var options: FolderOption
        @Argument(help: "Their id or e-mail address.")
        var person: String

        func run() throws {
            let household = try options.household()
            let found = try People.find(person, in: household)
            _ = try household.remove(personID: found.id)
            print("person \(found.id) <\(found.email)> removed, with their keys and files")
        }
    }

    struct Export: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "export", abstract: "Copy everything of a person's into a folder: their ledger, files and directory entry.")
        @OptionGroup var options: FolderOption
        @Argument(help: "Their id or e-mail address.")
        var person: String
        @Option(name: [.short, .long], help: ArgumentHelp("The folder to write (created).", valueName: "folder"))
        var output: String

        func run() throws {
            let household = try options.household()
            let found = try People.find(person, in: household)
            let destination = URL(fileURLWithPath: output)
            var files = try household.folders.export(found.id, to: destination)
            // Their directory entry: who they are and their keys (never a hash of a password or key).
            let keys = try household.directory.keys(personID: found.id).map { key -> [String: String] in
                var entry = ["id": String(key.id), "name": key.name, "scope": key.scope.rawValue,
                             "created_at": key.createdAt.formatted(.iso8601)]
                if let revoked = key.revokedAt { entry["revoked_at"] = revoked.formatted(.iso8601) }
                return entry
            }
            let entry: [String: Any] = ["id": found.id, "email": found.email, "created_at": found.createdAt.formatted(.iso8601),
                                        "keys": keys]
            let data = try JSONSerialization.data(withJSONObject: entry, options: [.prettyPrinted, .sortedKeys])
            try data.write(to: destination.appendingPathComponent("person.json"))
            files.append("person.json")
            print(files.sorted().map { destination.appendingPathComponent($0).path }.joined(separator: "\n"))
        }
    }

    struct Invite: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "invite", abstract: "Make an invitation code for POST /auth/register (serve --registration invite).")
        @OptionGroup var options: FolderOption
        @Option(name: .long, help: "Only this address may use it.")
        var email: String?
        @Option(name: .long, help: "Days it stays valid.")
        var days = 7

        func validate() throws {
            guard (1...365).contains(days) else { throw ValidationError("--days must be from 1 to 365") }
        }

        func run() throws {
            print(try options.household().invite(email: email, days: days))
            Stderr.write("invitation valid for \(days) days\(email.map { " for \($0)" } ?? ""); it is shown only now.\n")
        }
    }

    struct OperatorKey: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "operator-key",
            abstract: "Make the operator's admin key: it manages people over HTTP and reads no person's data.")
        @OptionGroup var options: FolderOption
        @Option(name: .long, help: "What the key is for.")
        var name = "operator"

        func run() throws {
            let (record, key) = try options.household().makeKey(personID: nil, scope: .admin, name: name)
            print(key)
            Stderr.write("operator key \(record.id) '\(record.name)' (admin) is shown only now.\n")
        }
    }
}
