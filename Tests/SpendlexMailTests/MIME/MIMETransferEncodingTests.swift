import Foundation
import Testing
@testable import SpendlexMail

@Suite("Quoted-printable and base64")
struct MIMETransferEncodingTests {
    static func qp(_ text: String) -> String {
        let bytes = Array(text.utf8)
        return String(decoding: bytes.withUnsafeBytes { MIMEQuotedPrintable.decode($0) }, as: UTF8.self)
    }

    static func base64(_ text: String) -> (String, Int) {
        let bytes = Array(text.utf8)
        let (decoded, invalid) = bytes.withUnsafeBytes { MIMEBase64.decode($0) }
        return (String(decoding: decoded, as: UTF8.self), invalid)
    }

    @Test(arguments: [
        ("plain text", "plain text"),
        ("a=3Db", "a=b"),
        ("caf=C3=A9 caf=c3=a9", "café café"),
        ("soft=\nbreak", "softbreak"),
        ("soft=\r\nbreak", "softbreak"),
        ("soft= \t\nbreak", "softbreak"),
        ("ends with soft break=", "ends with soft break"),
        ("ends with soft break= ", "ends with soft break"),
        ("hard\nbreak\r\nkept", "hard\nbreak\r\nkept"),
        ("bad =ZZ kept", "bad =ZZ kept"),
        ("lone = kept", "lone = kept"),
        ("half =4", "half =4"),
        ("=4=41", "=4A"),
        ("==41", "=A"),
        ("", ""),
    ])
    func quotedPrintable(_ input: String, _ expected: String) {
        #expect(Self.qp(input) == expected)
    }

    @Test(arguments: [
        ("a_b=5Fc", "a b_c"),
        ("caf=C3=A9", "café"),
        ("=ZZ", "=ZZ"),
        ("x=4", "x=4"),
    ])
    func qEncodingOfHeaders(_ input: String, _ expected: String) {
        let bytes = Array(input.utf8)
        #expect(String(decoding: bytes.withUnsafeBytes { MIMEQuotedPrintable.decodeHeader($0) }, as: UTF8.self) == expected)
    }

    @Test(arguments: [
        ("SGVsbG8gV29ybGQ=", "Hello World", 0),
        ("SGVsbG8gV29ybGQ", "Hello World", 0),  // missing padding
        ("SGVs\nbG8g\r\nV29y bGQ=", "Hello World", 0),  // whitespace and line breaks
        ("SGVsbG8=IGlnbm9yZWQ=", "Hello", 0),  // decoding stops at padding
        ("SGV!sbG8*", "Hello", 2),  // invalid characters skipped and counted
        ("SGVsbG8gV", "Hello ", 1),  // a lone final character cannot make a byte
        ("", "", 0),
        ("QUJD", "ABC", 0),
        ("QUI=", "AB", 0),
        ("QQ==", "A", 0),
    ])
    func base64(_ input: String, _ expected: String, _ invalid: Int) {
        let (decoded, skipped) = Self.base64(input)
        #expect(decoded == expected)
        #expect(skipped == invalid)
    }

    @Test func base64RoundTripsEveryByte() {
        let bytes = (0..<1000).map { UInt8(truncatingIfNeeded: $0 &* 7) }
        let encoded = Array(Data(bytes).base64EncodedString(options: .lineLength76Characters).utf8)
        let (decoded, invalid) = encoded.withUnsafeBytes { MIMEBase64.decode($0) }
        #expect(decoded == bytes)
        #expect(invalid == 0)
    }
}

