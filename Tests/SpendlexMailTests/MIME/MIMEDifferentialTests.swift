import Foundation
import Testing
@testable import SpendlexMail

/// Our decoder against Python's stdlib `email` package (`policy=email.policy.default`),
/// on the torture set of `Fixtures/mime_torture.py` and on the reference corpus.
///
/// Compared per message: decoded subject, From address, Message-ID, Date (seconds),
/// the text/plain text (whitespace runs collapsed) and the text of the text/html parts
/// (characters only, without whitespace and "|": HTML-to-text styles differ).
///
/// Where we differ from Python on purpose, the case lists the difference with the
/// reason and our own expected value, and the test checks that Python still differs
/// (so that a stale exception shows up).
@Suite("MIME decoder against Python's email package")
struct MIMEDifferentialTests {
    enum Field: String, Sendable {
        case subject, from, messageID, date, plain, html
    }

    /// A legitimate difference: why, and what we produce instead (normalized like the comparison).
    struct Difference: Sendable {
        var field: Field
        var reason: String
        var ours: String?
    }

    struct TortureCase: Sendable, CustomTestStringConvertible {
        /// The file `mime_torture.py` writes.
        var file: String
        /// Substrings of the problems we must report; none means a clean message.
        var problems: [String] = []
        var differences: [Difference] = []
        /// Set when Python's `get_content()` raises on the message: why.
        var pythonFails: String?

        var testDescription: String { file }
    }

    static let tortureCases: [TortureCase] = [
        TortureCase(file: "01-nested-mixed-alternative-related.eml"),
        TortureCase(file: "02-missing-closing-boundary.eml", problems: ["missing closing boundary"]),
        TortureCase(
            file: "03-unknown-boundary.eml", problems: ["boundary \"declared\" not found in the body; used \"actual\""],
            differences: [Difference(
                field: .plain,
                reason: "Python stops at StartBoundaryNotFoundDefect and yields no part; we find the delimiter "
                    + "line the body really uses",
                ours: "Text behind an undeclared boundary.")]),
        TortureCase(
            file: "04-multipart-without-boundary.eml", problems: ["multipart without boundary"],
            differences: [Difference(
                field: .plain,
                reason: "Python yields no part for a multipart without boundary (NoBoundaryInMultipartDefect); "
                    + "we read the body as text/plain",
                ours: "Just text in a multipart with no boundary at all.")]),
        TortureCase(file: "05-bad-base64.eml", problems: ["bad base64 in the body: 2 characters skipped"]),
        TortureCase(file: "06-base64-missing-padding.eml"),
        TortureCase(file: "07-quoted-printable-soft-breaks.eml"),
        TortureCase(
            file: "08-latin1-labelled-utf8.eml",
            differences: [Difference(
                field: .plain,
                reason: "Python decodes invalid UTF-8 with errors='replace' (U+FFFD); we read bytes that are "
                    + "not UTF-8 as windows-1252",
                ours: "Compra con tarjeta: 45,90 EUR en CAFÉ PARÍS, señor.")]),
        TortureCase(
            file: "09-utf8-labelled-latin1.eml",
            differences: [Difference(
                field: .plain,
                reason: "Python trusts the ISO-8859-1 label and produces mojibake; valid UTF-8 with non-ASCII "
                    + "characters under a single-byte label is UTF-8 for us",
                ours: "Kartenzahlung über 12,50 € bei BÄCKEREI MÜLLER.")]),
        TortureCase(file: "10-8bit-utf8-headers.eml"),
        TortureCase(
            file: "11-8bit-latin1-headers.eml",
            differences: [Difference(
                field: .subject,
                reason: "Python replaces 8-bit header bytes that are not UTF-8 with U+FFFD; we read them as Latin-1",
                ours: "Operación con tarjeta")]),
        TortureCase(file: "12-encoded-words-split.eml"),
        TortureCase(file: "13-iso-8859-1-body.eml"),
        TortureCase(file: "14-windows-1252-body.eml"),
        TortureCase(file: "15-koi8-r-body.eml"),
        TortureCase(file: "16-shift-jis-body.eml"),
        TortureCase(file: "17-gb2312-body.eml"),
        TortureCase(file: "18-iso-2022-jp-body.eml"),
        TortureCase(file: "19-utf-16-body.eml"),
        TortureCase(file: "20-html-only.eml"),
        TortureCase(file: "21-alternative-plain-and-html.eml"),
        TortureCase(file: "22-empty-body.eml"),
        TortureCase(file: "23-headers-only.eml"),
        TortureCase(file: "24-crlf-everywhere.eml"),
        TortureCase(file: "25-attached-message-not-descended.eml"),
        TortureCase(file: "26-multipart-signed.eml"),
        TortureCase(file: "27-nested-five-levels.eml"),
        TortureCase(
            file: "28-nested-too-deep.eml", problems: ["multipart nested deeper than 20 levels in part 1.1.1"],
            differences: [Difference(
                field: .plain,
                reason: "Python has no nesting limit; we stop at 20 levels so that hostile input cannot "
                    + "exhaust the stack",
                ours: nil)]),
        TortureCase(file: "29-text-attachment-skipped.eml"),
        TortureCase(
            file: "30-unknown-charset-label.eml",
            differences: [Difference(
                field: .plain, reason: "unknown label: valid UTF-8 stays UTF-8",
                ours: "UTF-8 text under an unknown label: été.")],
            pythonFails: "get_content() raises LookupError for an unknown charset (Python's "
                + "contentmanager.get_text_content does not catch it)"),
        TortureCase(
            file: "31-no-content-type-8bit.eml",
            differences: [Difference(
                field: .plain,
                reason: "Python decodes a part without charset as ASCII with U+FFFD for 8-bit bytes; we keep "
                    + "valid UTF-8",
                ours: "No Content-Type, UTF-8 bytes: naïve café.")]),
        TortureCase(file: "32-preamble-and-epilogue.eml"),
        TortureCase(file: "33-dates-and-addresses.eml"),
        TortureCase(
            file: "34-date-two-digit-fifties.eml",
            differences: [Difference(
                field: .date,
                reason: "Python maps two-digit years 50-68 to 20xx; RFC 5322 §4.3 says 50-99 are 19xx",
                ours: "-470239200")]),
        TortureCase(file: "35-date-obsolete-zone.eml"),
        TortureCase(file: "36-base64-crlf-text.eml"),
    ]

    /// The torture set and the oracle's answers, made once per test run.
    struct TortureRun: Sendable {
        var messages: [String: [UInt8]]
        var oracle: [String: MIMEOracleRecord]
    }

    static let tortureRun: Result<TortureRun, MIMETestSupport.Failure> = {
        do {
            let directory = try MIMETestSupport.temporaryDirectory("torture")
            defer { try? FileManager.default.removeItem(at: directory) }
            _ = try MIMETestSupport.python([try MIMETestSupport.fixture("mime_torture.py").path, directory.path])
            let files = try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted()
            let paths = files.map { directory.appendingPathComponent($0).path }
            let output = try MIMETestSupport.python([try MIMETestSupport.fixture("mime_oracle.py").path] + paths)
            var messages: [String: [UInt8]] = [:]
            for (file, path) in zip(files, paths) {
                messages[file] = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
            }
            let records = try MIMEOracleRecord.decodeLines(output)
            return .success(TortureRun(
                messages: messages, oracle: Dictionary(uniqueKeysWithValues: records.map { ($0.name, $0) })))
        } catch let failure as MIMETestSupport.Failure {
            return .failure(failure)
        } catch {
            return .failure(MIMETestSupport.Failure(description: "\(error)"))
        }
    }()

    @Test func theCaseListCoversTheGeneratedSet() throws {
        let run = try Self.tortureRun.get()
        #expect(Set(run.messages.keys) == Set(Self.tortureCases.map(\.file)))
    }

    @Test(arguments: tortureCases)
    func tortureCase(_ tortureCase: TortureCase) throws {
        let run = try Self.tortureRun.get()
        let message = try #require(run.messages[tortureCase.file])
        let python = try #require(run.oracle[tortureCase.file])
        let ours = try MIMEDecoded(message)

        if let expected = tortureCase.pythonFails {
            #expect(python.error != nil, "Python no longer fails (\(expected)): drop the exception")
        } else {
            #expect(python.error == nil, "the oracle failed: \(python.error ?? "")")
        }
        let pythonValues: [Field: String?] = python.error != nil ? [:] : [
            .subject: MIMETestSupport.normalized(python.subject),
            .from: python.from,
            .messageID: python.message_id,
            .date: python.date.map(String.init),
            .plain: MIMETestSupport.normalized(python.plain),
            .html: python.html_chars,
        ]
        let ourValues: [Field: String?] = [
            .subject: MIMETestSupport.normalized(ours.subject),
            .from: ours.from,
            .messageID: ours.messageID,
            .date: ours.date.map(String.init),
            .plain: MIMETestSupport.normalized(ours.plain),
            .html: MIMETestSupport.htmlCharacters(ours.html),
        ]
        for field in [Field.subject, .from, .messageID, .date, .plain, .html] {
            let mine = ourValues[field] ?? nil
            if let difference = tortureCase.differences.first(where: { $0.field == field }) {
                #expect(mine == difference.ours, "\(field): \(difference.reason)")
                if python.error == nil {
                    #expect(pythonValues[field] ?? nil != difference.ours,
                            "\(field): Python now agrees with us; drop the exception")
                }
            } else if python.error == nil {
                #expect(mine == pythonValues[field] ?? nil, "\(field) differs from Python")
            }
        }
        if tortureCase.problems.isEmpty {
            #expect(ours.problems.isEmpty)
        }
        for problem in tortureCase.problems {
            #expect(ours.problems.contains { $0.contains(problem) }, "missing problem \"\(problem)\" in \(ours.problems)")
        }
    }

    /// A 50 MB base64 attachment between two small text parts: skipped with one boundary
    /// search, never decoded (it holds a character base64 does not allow, which decoding
    /// would report).
    @Test func aFiftyMegabyteAttachmentIsSkippedNotDecoded() throws {
        let directory = try MIMETestSupport.temporaryDirectory("big")
        defer { try? FileManager.default.removeItem(at: directory) }
        _ = try MIMETestSupport.python([try MIMETestSupport.fixture("mime_torture.py").path, directory.path, "--big"])
        let path = directory.appendingPathComponent("90-big-attachment.eml").path
        let message = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        #expect(message.count > 50_000_000)

        let clock = ContinuousClock()
        var ours: MIMEDecoded?
        let elapsed = try clock.measure { ours = try MIMEDecoded(message) }
        let decoded = try #require(ours)
        #expect(decoded.problems.isEmpty, "the attachment was decoded: \(decoded.problems)")
        #expect(elapsed < .seconds(1), "took \(elapsed)")

        let output = try MIMETestSupport.python([try MIMETestSupport.fixture("mime_oracle.py").path, path])
        let python = try #require(try MIMEOracleRecord.decodeLines(output).first)
        #expect(MIMETestSupport.normalized(decoded.plain) == MIMETestSupport.normalized(python.plain))
        // The line break before a delimiter belongs to the delimiter.
        #expect(decoded.plain == "Before the attachment: INR 75.00 spent.\nAfter the attachment.")
    }

    /// The first 2,000 messages of the reference corpus (gen_mbox.py, seed 42): no
    /// difference at all is expected.
    @Test func referenceCorpus() throws {
        let directory = try MIMETestSupport.temporaryDirectory("corpus")
        defer { try? FileManager.default.removeItem(at: directory) }
        let mbox = directory.appendingPathComponent("ref.mbox").path
        _ = try MIMETestSupport.python([try MIMETestSupport.referenceCorpusGenerator().path, "2000", mbox, "42"])
        let output = try MIMETestSupport.python([try MIMETestSupport.fixture("mime_oracle.py").path, "--mbox", mbox])
        let records = try MIMEOracleRecord.decodeLines(output)
        let messages = MIMETestSupport.mboxMessages([UInt8](try Data(contentsOf: URL(fileURLWithPath: mbox))))
        try #require(messages.count == 2000)
        try #require(records.count == messages.count)

        var mismatches: [String] = []
        for (index, (message, python)) in zip(messages, records).enumerated() {
            let ours = try MIMEDecoded(message)
            func compare(_ field: Field, _ mine: String?, _ theirs: String?) {
                if mine != theirs {
                    mismatches.append("message \(index) \(field): ours \(mine ?? "nil") / Python \(theirs ?? "nil")")
                }
            }
            compare(.subject, ours.subject, python.subject)
            compare(.from, ours.from, python.from)
            compare(.messageID, ours.messageID, python.message_id)
            compare(.date, ours.date.map(String.init), python.date.map(String.init))
            compare(.plain, MIMETestSupport.normalized(ours.plain), MIMETestSupport.normalized(python.plain))
            compare(.html, MIMETestSupport.htmlCharacters(ours.html), python.html_chars)
            if !ours.problems.isEmpty { mismatches.append("message \(index): problems \(ours.problems)") }
            if let error = python.error { mismatches.append("message \(index): oracle error \(error)") }
        }
        #expect(mismatches.isEmpty, "\(mismatches.count) mismatches, first: \(mismatches.prefix(5))")
    }
}
