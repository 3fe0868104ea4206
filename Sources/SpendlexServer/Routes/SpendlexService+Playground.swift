import Foundation
import Hummingbird
import SpendlexEngine
import SpendlexMail
import SpendlexRules

/// How `spendlex playground` sets the service up: where the page is, and the rules folder it
/// loads and saves bank files in.
public struct PlaygroundConfiguration: Sendable {
    /// The folder of the page (`index.html`, its CSS and JavaScript).
    public var pageFolder: String
    /// The rules folder files are listed from and saved into.
    public var rulesFolder: String

    /// A playground serving the page in `pageFolder` over the rules in `rulesFolder`.
    public init(pageFolder: String, rulesFolder: String) {
        self.pageFolder = pageFolder
        self.rulesFolder = rulesFolder
    }
}

extension SpendlexService {
    /// The most messages a dropped file gives the page.
    static let playgroundSampleLimit = 200

    /// The rule playground (`spendlex playground`): the page (`GET /playground`, its assets), and
    /// what it asks besides `/rules/try`: the rules folder's files, saving one (checked, then the
    /// live set reloaded), a dropped file's messages, a draft from `suggest`, and a confirmed
    /// message added as an example. A service not started as a playground answers 404
    /// `not_playground` on all of them: writing rule files over HTTP is for the playground only.
    func addPlaygroundRoutes(to table: RouteTable) {
        let playground = configuration.playground
        let rules = rules
        @Sendable func enabled() throws(APIError) -> PlaygroundConfiguration {
            guard let playground else {
                throw APIError(.notFound, "not_playground", "this route is the playground's: start it with `spendlex playground`")
            }
            return playground
        }
        @Sendable func asset(_ name: String) throws -> Response {
            let playground = try enabled()
            let types = ["html": "text/html; charset=utf-8", "css": "text/css; charset=utf-8",
                         "js": "text/javascript; charset=utf-8", "png": "image/png", "svg": "image/svg+xml"]
            let ext = String(name.split(separator: ".").last ?? "")
            guard let type = types[ext], !name.hasPrefix("."), !name.contains("/"),
                  let data = FileManager.default.contents(atPath: playground.pageFolder + "/" + name) else {
                throw APIError.notFound("no playground file \(name)")
            }
            var headers = HTTPFields()
            headers[.contentType] = type
            // The page holds no secret (the key stays in the address's fragment), but is not to be framed.
            headers[.init("X-Frame-Options")!] = "DENY"
            headers[.init("Content-Security-Policy")!] = "default-src 'self'; img-src 'self' data:; frame-ancestors 'none'"
            return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: data)))
        }

        table.get("/playground", access: .open) { _, _ in try asset("index.html") }
        table.get("/playground/assets/{name}", access: .open) { _, context in
            try asset(try context.parameters.require("name"))
        }

        table.get("/playground/files", access: .shared(.read)) { _, _ in
            let playground = try enabled()
            let folder = URL(fileURLWithPath: playground.rulesFolder).standardizedFileURL.path
            struct File: Encodable {
                let path: String
                let banks: [String]
            }
            let banks = rules.current.engine.rules.banks
            var files: [File] = []
            let enumerator = FileManager.default.enumerator(atPath: folder)
            while let relative = enumerator?.nextObject() as? String {
                guard relative.hasSuffix(".yaml") else { continue }
                let full = folder + "/" + relative
                files.append(File(path: relative, banks: banks.filter { $0.rules.location.file == full }.map(\.id)))
            }
            return try JSONResponse.make(["files": files.sorted { $0.path < $1.path }])
        }
        table.get("/playground/file", access: .shared(.read)) { request, _ in
            let playground = try enabled()
            let path = try Self.playgroundPath(QueryReader(request).string("path"), in: playground)
            guard let data = FileManager.default.contents(atPath: path.full) else { throw APIError.notFound("no file \(path.relative)") }
            return try JSONResponse.make(["path": path.relative, "yaml": String(decoding: data, as: UTF8.self)])
        }
        table.put("/playground/file", access: .shared(.write)) { request, context in
            let playground = try enabled()
            struct Input: Decodable {
                let path: String
                let yaml: String
            }
            let input = try await request.decodeJSON(Input.self, context: context)
            let path = try Self.playgroundPath(input.path, in: playground)
            return try await offloaded { try Self.save(input.yaml, at: path, rules: rules) }
        }
        table.post("/playground/messages", access: .shared(.read)) { request, context in
            _ = try enabled()
            // The file's own name says nothing the readers need (they detect the format from its
            // bytes); only a plain suffix is kept, for the temporary file.
            let buffer = try await request.body.collect(upTo: context.maxUploadSize)
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("spendlex-playground-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: folder) }
            let name = QueryReader(request).string("name") ?? "upload"
            let suffix = name.split(separator: ".").last.map { ext in ext.allSatisfy { $0.isLetter || $0.isNumber } ? "." + ext : "" } ?? ""
            let file = folder.appendingPathComponent("upload" + suffix)
            try Data(buffer.readableBytesView).write(to: file)
            let read: (samples: [InputSamples.Sample], count: Int, truncated: Bool)
            do { read = try InputSamples.read(path: file.path, limit: Self.playgroundSampleLimit) } catch {
                throw APIError(.unprocessableContent, "unreadable_file", "\(error)".replacingOccurrences(of: file.path, with: name))
            }
            struct Sample: Encodable {
                let text: String
                let sender: String?
                let subject: String?

                func encode(to encoder: any Encoder) throws {
                    var c = encoder.container(keyedBy: CodingKeys.self)
                    try c.encode(CardNumberMasker.mask(text), forKey: .text)
                    try c.encode(sender, forKey: .sender)
                    try c.encode(subject, forKey: .subject)
                }
                enum CodingKeys: String, CodingKey { case text, sender, subject }
            }
            struct Body: Encodable {
                let messages: [Sample]
                let count: Int
                let truncated: Bool
            }
            return try JSONResponse.make(Body(messages: read.samples.map { Sample(text: $0.text, sender: $0.sender, subject: $0.subject) },
                                              count: read.count, truncated: read.truncated))
        }
        table.post("/playground/suggest", access: .shared(.read)) { request, context in
            _ = try enabled()
            struct Sample: Decodable {
                let text: String
                let sender: String?
            }
            struct Input: Decodable { let samples: [Sample] }
            let input = try await request.decodeJSON(Input.self, context: context)
            let engine = rules.current.engine
            let messages = input.samples.enumerated().map { index, sample in
                Message(id: "sample-\(index + 1)", text: sample.text, sender: sample.sender)
            }
            let suggestions = try await offloaded { RuleSuggester(engine: engine).suggestBanks(messages) }
            let drafted = suggestions.first { $0.yaml != nil }
            struct Body: Encodable {
                let yaml: String?
                let reason: String

                func encode(to encoder: any Encoder) throws {
                    var c = encoder.container(keyedBy: CodingKeys.self)
                    try c.encode(yaml, forKey: .yaml)
                    try c.encode(reason, forKey: .reason)
                }
                enum CodingKeys: String, CodingKey { case yaml, reason }
            }
            let notes = suggestions.flatMap(\.notes)
            return try JSONResponse.make(Body(
                yaml: drafted?.yaml,
                reason: drafted.map { "a draft for \($0.bank.id) from \($0.parsers.reduce(0) { $0 + $1.covers }) message(s)" }
                    ?? (notes.isEmpty ? "nothing to suggest: no message reads as a bank's transaction" : notes.joined(separator: "; "))))
        }
        table.post("/playground/example", access: .shared(.read)) { request, context in
            _ = try enabled()
            struct Input: Decodable {
                let yaml: String
                let parser: String
                let text: String
                let sender: String?
                let expect: [String: String]
            }
            let input = try await request.decodeJSON(Input.self, context: context)
            let expect = input.expect.sorted { $0.key < $1.key }.map { (field: $0.key, value: $0.value) }
            let yaml: String
            do {
                yaml = try ExampleInserter.adding(to: input.yaml, parser: input.parser, text: input.text, sender: input.sender,
                                                  expect: expect)
            } catch {
                throw APIError(.unprocessableContent, "cannot_add_example", "\(error)")
            }
            return try JSONResponse.make(["yaml": yaml])
        }
    }

    /// A path the playground may read or write: relative, inside the rules folder, a `.yaml` file.
    static func playgroundPath(_ given: String?, in playground: PlaygroundConfiguration) throws(APIError)
        -> (relative: String, full: String) {
        guard let given, !given.isEmpty else { throw APIError.invalidField("path is required: a file under the rules folder") }
        let folder = URL(fileURLWithPath: playground.rulesFolder).standardizedFileURL.path
        let full = URL(fileURLWithPath: given, relativeTo: URL(fileURLWithPath: folder + "/")).standardizedFileURL.path
        guard !given.hasPrefix("/"), full.hasPrefix(folder + "/"), full.hasSuffix(".yaml"),
              !full.dropFirst(folder.count + 1).split(separator: "/").contains(where: { $0.hasPrefix(".") }) else {
            throw APIError.invalidField("path must be a .yaml file inside the rules folder, such as banks/us/mybank.yaml")
        }
        return (String(full.dropFirst(folder.count + 1)), full)
    }

    /// Saves a bank file when it compiles (alone, with the live grammars) and the live set with it
    /// reloads; else puts back what was there and answers 422 with the diagnostics.
    static func save(_ yaml: String, at path: (relative: String, full: String), rules: LiveRules) throws -> Response {
        let trial = tryDraft(yaml, samples: [], live: rules.current)
        let errors = trial.diagnostics.filter { $0.severity == "error" }
        guard errors.isEmpty else {
            throw APIError(.unprocessableContent, "invalid_rules", "the file has errors; nothing was saved:\n"
                           + errors.map { $0.text.replacingOccurrences(of: draftPath, with: path.relative) }.joined(separator: "\n"))
        }
        let before = FileManager.default.contents(atPath: path.full)
        try FileManager.default.createDirectory(at: URL(fileURLWithPath: path.full).deletingLastPathComponent(),
                                                withIntermediateDirectories: true)
        try Data(yaml.utf8).write(to: URL(fileURLWithPath: path.full), options: .atomic)
        switch rules.reload() {
        case .swapped(let snapshot):
            struct Body: Encodable {
                let path: String
                let reload: String
                let diagnostics: [DiagnosticBody]
            }
            return try JSONResponse.make(Body(path: path.relative, reload: "swapped",
                                              diagnostics: snapshot.diagnostics.filter { $0.location.file == path.full }.map(DiagnosticBody.init)))
        case .rejected(let rejected):
            // With the others it does not load (a bank id another file has, say): as it was.
            if let before { try before.write(to: URL(fileURLWithPath: path.full), options: .atomic) } else {
                try? FileManager.default.removeItem(atPath: path.full)
            }
            rules.reload()
            throw APIError(.unprocessableContent, "invalid_rules", "the rules with this file have errors; it was not kept:\n"
                           + rejected.diagnostics.filter { $0.severity == .error }.map { DiagnosticBody($0).text }.joined(separator: "\n"))
        }
    }
}
