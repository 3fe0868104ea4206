import SpendlexEngine
@testable import SpendlexMail

extension FuzzTarget {
    /// What must not change between two reads of the same input: kind, offset, content and reason
    /// of every item (the mbox range tests compare the same).
    static func summary(_ items: [InputItem]) -> [String] {
        items.map { item in
            switch item {
            case .email(let email):
                "email @\(email.offset) \(email.bytes.count) \(StableHash.hex(email.bytes)) \(email.flags ?? "-")"
            case .text(let text):
                "text @\(text.offset) \(text.id ?? "-") \(text.sender ?? "-") \(text.channel) "
                    + "\(text.receivedAt.map { "\($0.timeIntervalSince1970)" } ?? "-") \(text.text)"
            case .jsonLine(let bytes, _, let line):
                "jsonLine @\(line) \(StableHash.hex(bytes))"
            case .skipped(_, let offset, let reason):
                "skipped @\(offset) \(reason)"
            case .malformed(_, let offset, let reason):
                "malformed @\(offset) \(reason)"
            }
        }
    }

    /// Every item of the scratch file read as `format`.
    static func items(_ path: String, _ format: InputFormat, chunkSize: Int = InputByteStream.defaultChunkSize,
                      recordLimit: Int = InputByteStream.defaultRecordLimit) -> [InputItem] {
        guard let reader = try? InputReader(path: path, format: format, chunkSize: chunkSize,
                                            recordLimit: recordLimit) else { return [] }
        return Array(reader)
    }

    /// Reads `bytes` as `format` with the default chunk and with 64-byte chunks (reads ahead as
    /// soon as the input is larger than a chunk): the items must be the same. Then with a small
    /// record limit, for the oversized-record paths.
    static func chunked(_ bytes: [UInt8], as format: InputFormat) -> (path: String, items: [InputItem]) {
        _ = InputDetector.detect(prefix: bytes)
        let path = ScratchFile.write(bytes)
        let whole = items(path, format)
        let small = items(path, format, chunkSize: 64)
        FuzzCheck.expect(summary(whole) == summary(small), "\(format) items differ with 64-byte chunks")
        _ = items(path, format, chunkSize: 64, recordLimit: 256)
        return (path, whole)
    }

    static func mbox(_ bytes: [UInt8]) {
        let (path, _) = chunked(bytes, as: .mbox)
        // Routing in place: every other message's body is declined and skipped in the buffer.
        guard let reader = try? InputReader(path: path, format: .mbox, chunkSize: 64) else { return }
        var count = 0
        reader.router = { headers in
            count += 1
            return EmailRoute(from: headers.fromAddress, messageID: headers.messageID, senderBanks: [],
                              fallback: false, parsesBody: count % 2 == 0, wantsBody: count % 2 == 0)
        }
        while reader.next() != nil {}
    }

    /// Sequential read against ranges of two sizes, one small (many ranges, often cutting lines;
    /// at most about 48, since every range reader allocates its 1 MiB buffers) and one about a
    /// third of the input; inputs up to 256 bytes also in ranges of 1 to 5 bytes.
    static func mboxRanges(_ bytes: [UInt8]) {
        guard !bytes.isEmpty else { return }
        let path = ScratchFile.write(bytes)
        let sequential = summary(items(path, .mbox))
        var rangeSizes = [max(1 + bytes.count % 61, bytes.count / 48), bytes.count / 3 + 1]
        // Tiny ranges too while they stay few: every separator rule at every range boundary.
        if bytes.count <= 256 { rangeSizes.append(1 + bytes.count % 5) }
        for rangeSize in rangeSizes {
            var ranged: [InputItem] = []
            for start in stride(from: 0, to: bytes.count, by: rangeSize) {
                guard let reader = try? InputReader(mboxPath: path, owning: start..<min(start + rangeSize, bytes.count))
                else { FuzzCheck.expect(false, "range reader failed to open"); return }
                ranged += Array(reader)
            }
            FuzzCheck.expect(summary(ranged) == sequential,
                             "ranges of \(rangeSize) bytes differ from the sequential read:\n"
                                 + "\(summary(ranged))\nvs\n\(sequential)")
        }
    }

    static func smsBackup(_ bytes: [UInt8]) {
        _ = chunked(bytes, as: .smsBackupXML)
    }

    static func jsonLines(_ bytes: [UInt8]) {
        let (_, items) = chunked(bytes, as: .jsonLines)
        for item in items {
            if case .jsonLine(let line, let file, let number) = item {
                _ = JSONLinesMessageReader.record(from: line[...], file: file, line: number)
            }
        }
    }
}
