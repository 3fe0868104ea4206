/// Writes a binary attachment as a base64 MIME part, in 57 KiB pieces of random bytes behind
/// a PDF or JPEG signature: the shape of the scanned statements and phone photos that make most
/// of the bytes of a real mailbox. Base64 text never starts a line with "From ", so no escaping.
enum AttachmentWriter {
    /// Raw bytes per piece: a whole number of 57-byte base64 lines.
    private static let pieceSize = Base64Lines.bytesPerLine * 1024

    static func write(_ attachment: Attachment, boundary: String, random: inout CorpusRandom, to sink: ByteSink) {
        let type = attachment.kind == .pdf ? "application/pdf" : "image/jpeg"
        sink.write("\n--\(boundary)\nContent-Type: \(type); name=\"\(attachment.filename)\"\n"
            + "Content-Disposition: attachment; filename=\"\(attachment.filename)\"\n"
            + "Content-Transfer-Encoding: base64\n\n")
        let head: [UInt8], tail: [UInt8]
        switch attachment.kind {
        case .pdf:
            head = Array("%PDF-1.7\n%".utf8) + [0xE2, 0xE3, 0xCF, 0xD3] + Array("\n1 0 obj\n<< /Type /Catalog /Pages 2 0 R >>\nendobj\n4 0 obj\n<< /Length \(attachment.size) /Filter /FlateDecode >>\nstream\n".utf8)
            tail = Array("\nendstream\nendobj\ntrailer\n<< /Root 1 0 R >>\n%%EOF\n".utf8)
        case .jpeg:
            head = [0xFF, 0xD8, 0xFF, 0xE0, 0x00, 0x10, 0x4A, 0x46, 0x49, 0x46, 0x00, 0x01, 0x01, 0x00, 0x00, 0x48, 0x00, 0x48, 0x00, 0x00]
            tail = [0xFF, 0xD9]
        }
        let total = max(attachment.size, head.count + tail.count)
        var piece = [UInt8](repeating: 0, count: pieceSize)
        var encoded: [UInt8] = []
        encoded.reserveCapacity(pieceSize / 3 * 4 + 1100)
        var produced = 0
        while produced < total {
            let length = min(pieceSize, total - produced)
            piece.withUnsafeMutableBytes { buffer in
                let slice = UnsafeMutableRawBufferPointer(rebasing: buffer[0..<length])
                random.fill(slice)
                // The signature at the start, the trailer at the end.
                if produced == 0 {
                    for (index, byte) in head.enumerated() where index < length { slice[index] = byte }
                }
                let tailStart = total - tail.count
                for (index, byte) in tail.enumerated() where tailStart + index >= produced && tailStart + index < produced + length {
                    slice[tailStart + index - produced] = byte
                }
            }
            encoded.removeAll(keepingCapacity: true)
            piece.withUnsafeBytes { Base64Lines.encode(UnsafeRawBufferPointer(rebasing: $0[0..<length]), into: &encoded) }
            sink.write(encoded)
            produced += length
        }
    }
}
