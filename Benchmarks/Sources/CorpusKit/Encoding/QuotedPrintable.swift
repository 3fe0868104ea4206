/// Quoted-printable body encoding as Python's `quopri.encodestring` writes it: `=`, control
/// bytes and bytes above 126 as `=XX`, a space or tab at the end of a line encoded, lines
/// longer than 76 characters broken with a soft `=` line break.
public enum QuotedPrintable {
    private static let hex = Array("0123456789ABCDEF".utf8)
    private static let maxLine = 76

    /// Encodes the bytes; "\n" separates lines, and a trailing "\n" is kept.
    public static func encode(_ bytes: [UInt8]) -> [UInt8] {
        var output: [UInt8] = []
        output.reserveCapacity(bytes.count + bytes.count / 8)
        var lineStart = 0
        while lineStart <= bytes.count {
            let newline = bytes[lineStart...].firstIndex(of: UInt8(ascii: "\n"))
            let lineEnd = newline ?? bytes.count
            if newline == nil && lineStart == bytes.count { break }
            encodeLine(bytes[lineStart..<lineEnd], into: &output)
            if newline != nil { output.append(UInt8(ascii: "\n")) }
            lineStart = lineEnd + 1
        }
        return output
    }

    private static func encodeLine(_ line: ArraySlice<UInt8>, into output: inout [UInt8]) {
        var column = 0
        var index = line.startIndex
        while index < line.endIndex {
            let byte = line[index]
            let isLast = index == line.endIndex - 1
            let plain = (byte >= 33 && byte <= 126 && byte != UInt8(ascii: "="))
                || ((byte == 0x20 || byte == 0x09) && !isLast)
            let width = plain ? 1 : 3
            // Keep room for the soft break's "=", unless this is the line's last character.
            if column + width > (isLast ? maxLine : maxLine - 1) {
                output.append(UInt8(ascii: "="))
                output.append(UInt8(ascii: "\n"))
                column = 0
            }
            if plain {
                output.append(byte)
            } else {
                output.append(UInt8(ascii: "="))
                output.append(hex[Int(byte >> 4)])
                output.append(hex[Int(byte & 15)])
            }
            column += width
            index += 1
        }
    }
}
