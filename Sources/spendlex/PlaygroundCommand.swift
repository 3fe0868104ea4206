import ArgumentParser
import Foundation
import SpendlexServer

/// `spendlex playground`: the rule playground in the browser, served on loopback.
struct Playground: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "playground",
        abstract: "Edit a bank's rule file in the browser: paste messages, see fields, diagnostics and why a message did not match.",
        discussion: """
            Starts the service on 127.0.0.1 with a temporary ledger and a key of its own, and prints the \
            page's address (the key travels in its #fragment, never in a request line). The page drafts \
            and tries a bank file against pasted or dropped messages as you type (POST /rules/try), loads \
            and saves files of the first --rules folder (saving shows a diff first, and the service reloads \
            the rules), and adds a message whose fields you confirm as an example.
            """
    )

    @Option(name: .long, help: ArgumentHelp(
        "Rule files or folders (repeat); the first folder is where files are listed from and saved (default: the bundled rules).",
        valueName: "path"))
    var rules: [String] = []

    @Option(name: .long, help: "The TCP port (0: a free one).")
    var port = 8002

    @Option(name: .customLong("log-level"), help: "trace, debug, info, notice, warning, error or critical.")
    var logLevel = "warning"

    func validate() throws {
        guard (0...65535).contains(port) else { throw ValidationError("--port must be between 0 and 65535") }
    }

    func run() async throws {
        let paths = try BundledRules.paths(given: rules)
        var isFolder: ObjCBool = false
        guard let folder = paths.first(where: { FileManager.default.fileExists(atPath: $0, isDirectory: &isFolder) && isFolder.boolValue }) else {
            throw ValidationError("--rules needs a folder to list and save bank files in")
        }
        let page = try BundledRules.playgroundFolder()
        // A ledger of its own, gone when the playground stops: the page parses, it stores nothing.
        let work = FileManager.default.temporaryDirectory.appendingPathComponent("spendlex-playground-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        defer { try? FileManager.default.removeItem(at: work) }
        let service: SpendlexService
        do {
            var configuration = ServiceConfiguration(host: "127.0.0.1", port: port, storePath: work.appendingPathComponent("ledger.sqlite").path,
                                                     rulePaths: paths, version: Spendlex.configuration.version)
            configuration.playground = PlaygroundConfiguration(pageFolder: page, rulesFolder: folder)
            service = try SpendlexService(configuration: configuration)
        } catch {
            Stderr.write("error: \(error)\n")
            if case .rules = error { throw ExitStatus.findings }
            throw ExitStatus.badInput
        }
        let key = try service.keys!.create(name: "playground").key
        do {
            try await service.run(logLevel: logLevel) { port in
                Stderr.write("spendlex playground on http://127.0.0.1:\(port)/playground#key=\(key)\n")
            }
        } catch {
            Stderr.write("error: cannot serve on 127.0.0.1:\(port): \(error)\n")
            throw ExitStatus.internalError
        }
    }
}
