import Foundation
import Testing
import SpendlexTestSupport

extension EndToEnd {
    /// `--output` writes into the path it is given, as a shell redirect would.
    @Suite("spendlex parse --output, end to end", .serialized)
    struct OutputFileEndToEndTests {
        /// The bug: the output was created with `FileManager.createFile(atPath:)`, which writes a new
        /// file and renames it over the path; `-o /dev/null`, run as root, replaced the null device
        /// with a regular file. A symlink shows the same fault without touching the machine's /dev.
        @Test func outputThroughASymlinkWritesItsTarget() throws {
            let folder = TestScratch.root.appendingPathComponent("spendlex-out-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: folder) }
            let target = folder.appendingPathComponent("target.jsonl")
            let link = folder.appendingPathComponent("link.jsonl")
            try Data().write(to: target)
            try FileManager.default.createSymbolicLink(at: link, withDestinationURL: target)

            let result = try spendlex(["parse", "examples/messages.jsonl", "--quiet", "-o", link.path])

            #expect(result.status == 0, "\(result.stderr)")
            let kind = try FileManager.default.attributesOfItem(atPath: link.path)[.type] as? FileAttributeType
            #expect(kind == .typeSymbolicLink, "the output path was replaced")
            let written = try String(contentsOf: target, encoding: .utf8)
            #expect(written.split(separator: "\n").count == 6)
            #expect(written.contains("\"rule\":\"hdfc.card.spend\""))
        }

        @Test func outputIntoAMissingFolderIsAnError() throws {
            let result = try spendlex(["parse", "examples/messages.jsonl", "--quiet", "-o", "/nonexistent-folder/out.jsonl"])
            #expect(result.status == 64)
            #expect(result.stderr.contains("cannot write '/nonexistent-folder/out.jsonl'"))
        }
    }
}
