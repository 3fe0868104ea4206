import Foundation
import Yams

/// Reads a person's `spendlex.yaml`, every problem a located diagnostic.
public enum PersonConfigReader {
    static let fileKeys = ["language_model", "mailboxes"]
    static let mailboxKeys = ["url", "password_env", "oauth2_command", "ca_file", "since", "all_senders", "insecure"]
    static let modelKeys = ["url", "model", "api_key_env", "batch_size", "timeout"]

    /// The settings at `path`; the source text for printing diagnostics.
    public static func load(path: String) -> (PersonConfig?, [Diagnostic], SourceText?) {
        let text: String
        do { text = try String(contentsOfFile: path, encoding: .utf8) } catch {
            return (nil, [.unreadable(path, reason: "\(error.localizedDescription)")], nil)
        }
        let (config, diagnostics) = read(text: text, path: path)
        return (config, diagnostics, SourceText(path: path, text: text))
    }

    /// The settings in `text` (see `load(path:)`).
    public static func read(text: String, path: String) -> (PersonConfig?, [Diagnostic]) {
        let source = SourceText(path: path, text: text)
        let root: Node?
        do { root = try Yams.compose(yaml: text, .basic) } catch {
            return (nil, [.yamlSyntax("\(error)", at: source.location(line: 1, column: 1))])
        }
        guard let root else { return (PersonConfig(), []) }
        var reader = NodeReader(source: source)
        guard let entries = reader.entries(of: root, context: "a settings file", allowed: fileKeys) else { return (nil, reader.diagnostics) }
        var config = PersonConfig()
        if let node = entries.first(where: { $0.key.value == "language_model" })?.value {
            config.languageModel = languageModel(node, with: &reader)
        }
        if let node = entries.first(where: { $0.key.value == "mailboxes" })?.value {
            config.mailboxes = mailboxes(node, with: &reader)
        }
        return (config, reader.diagnostics)
    }

    static func mailboxes(_ node: Node, with reader: inout NodeReader) -> [PersonConfig.Mailbox] {
        let items = reader.list(node, key: "mailboxes")
        var found: [PersonConfig.Mailbox] = []
        for item in items {
            guard let entries = reader.entries(of: item, context: "a mailbox", allowed: mailboxKeys) else { continue }
            func value(_ key: String) -> Node? { entries.first { $0.key.value == key }?.value }
            guard let urlNode = value("url") else {
                reader.report(.missingKey("url", in: "a mailbox", at: reader.location(of: item)))
                continue
            }
            guard let url = reader.string(urlNode, key: "url") else { continue }
            let lowered = url.value.lowercased()
            guard lowered.hasPrefix("imaps://") || lowered.hasPrefix("imap://") else {
                reader.report(.invalidValue(url.value, for: "url", allowed: "an imaps:// or imap:// URL (imaps://USER@HOST/MAILBOX)",
                                            at: url.location))
                continue
            }
            let authority = url.value.dropFirst(lowered.hasPrefix("imaps://") ? 8 : 7).prefix { $0 != "/" }
            if let at = authority.lastIndex(of: "@"), authority[..<at].contains(":") {
                reader.report(.invalidValue("(a password)", for: "url",
                                            allowed: "a URL without a password: name its variable in password_env", at: url.location))
                continue
            }
            var mailbox = PersonConfig.Mailbox(url: url.value)
            mailbox.passwordVariable = value("password_env").flatMap { reader.string($0, key: "password_env")?.value }
            mailbox.oauth2Command = value("oauth2_command").flatMap { reader.string($0, key: "oauth2_command")?.value }
            mailbox.caFile = value("ca_file").flatMap { reader.string($0, key: "ca_file")?.value }
            if let node = value("since"), let text = reader.string(node, key: "since") {
                if let day = PersonConfig.Mailbox.day(text.value) {
                    mailbox.since = day
                } else {
                    reader.report(.invalidValue(text.value, for: "since", allowed: "a day as YYYY-MM-DD", at: text.location))
                }
            }
            mailbox.allSenders = value("all_senders").flatMap { reader.bool($0, key: "all_senders") } ?? false
            mailbox.insecure = value("insecure").flatMap { reader.bool($0, key: "insecure") } ?? false
            found.append(mailbox)
        }
        return found
    }

    static func languageModel(_ node: Node, with reader: inout NodeReader) -> PersonConfig.LanguageModel? {
        guard let entries = reader.entries(of: node, context: "language_model", allowed: modelKeys) else { return nil }
        func value(_ key: String) -> Node? { entries.first { $0.key.value == key }?.value }
        for key in ["url", "model"] where value(key) == nil {
            reader.report(.missingKey(key, in: "language_model", at: reader.location(of: node)))
        }
        guard let urlNode = value("url"), let url = reader.string(urlNode, key: "url"),
              let modelNode = value("model"), let model = reader.string(modelNode, key: "model") else { return nil }
        guard let parsed = URL(string: url.value), ["http", "https"].contains(parsed.scheme ?? ""), parsed.host != nil else {
            reader.report(.invalidValue(url.value, for: "url", allowed: "an http or https URL of a chat completions endpoint",
                                        at: url.location))
            return nil
        }
        func positive(_ key: String, default fallback: Int) -> Int? {
            guard let node = value(key) else { return fallback }
            guard let text = reader.string(node, key: key), let number = Int(text.value), number > 0 else {
                reader.report(.invalidValue(node.scalar?.string ?? "", for: key, allowed: "a whole number above 0",
                                            at: reader.location(of: node)))
                return nil
            }
            return number
        }
        guard let batch = positive("batch_size", default: 25), let timeout = positive("timeout", default: 60) else { return nil }
        let key = value("api_key_env").flatMap { reader.string($0, key: "api_key_env")?.value }
        return PersonConfig.LanguageModel(url: url.value, model: model.value, apiKeyVariable: key, batchSize: batch, timeout: timeout)
    }
}
