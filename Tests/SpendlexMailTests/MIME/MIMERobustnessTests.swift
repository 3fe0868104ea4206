import Testing
@testable import SpendlexMail

/// Damaged input must never crash the decoder: every torture message cut at many
/// points and with bytes overwritten (deterministic pseudo-random damage).
@Suite("MIME decoder on damaged input")
struct MIMERobustnessTests {
    /// xorshift64*: a fixed sequence, so that a failure can be replayed.
    struct Damage {
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        mutating func next(_ bound: Int) -> Int {
            state ^= state >> 12
            state ^= state << 25
            state ^= state >> 27
            return Int((state &* 0x2545_F491_4F6C_DD1D) >> 33) % max(bound, 1)
        }
    }

    /// Bytes that matter to the parsers, to make damage hit structure often.
    static let structural = Array("\r\n\t -=?:;<>&\"'_#/*(){}".utf8) + [0x00, 0x80, 0xC3, 0xE2, 0xFF]

    static func survive(_ message: [UInt8]) {
        guard let headers = try? MIMEDecoder.headers(of: message) else { return }
        _ = headers.fields
        _ = (headers.subject, headers.fromAddress, headers.date, headers.messageID)
        _ = MIMEDecoder.body(of: message, headers: headers).text
    }

    @Test func truncatedAndOverwrittenMessagesDecode() throws {
        let run = try MIMEDifferentialTests.tortureRun.get()
        var damage = Damage()
        for (_, message) in run.messages.sorted(by: { $0.key < $1.key }) {
            for cut in stride(from: 0, to: message.count, by: max(1, message.count / 40)) {
                Self.survive(Array(message[..<cut]))
            }
            for _ in 0..<60 {
                var damaged = message
                for _ in 0..<(1 + damage.next(8)) {
                    let at = damage.next(damaged.count)
                    damaged[at] = Self.structural[damage.next(Self.structural.count)]
                }
                Self.survive(damaged)
            }
        }
    }

    @Test(arguments: [
        "Content-Type: multipart/mixed; boundary=\"\"\n\n--\n--\n",
        "Content-Type: multipart/mixed; boundary=b\n\n--b",
        "Content-Type: multipart/mixed; boundary=b\n\n--b--",
        "Content-Type: multipart/mixed; boundary=b\n\n--b\r",
        "Content-Type: multipart/mixed; boundary=\"b\n\n--b\nContent-Type: text/plain\n",
        "Content-Type: text/plain; charset=\"\n\nx",
        "Content-Type: text/plain; charset*0*=''; charset*=%\n\nx",
        "Content-Type: /\n\nx",
        "Content-Transfer-Encoding: base64\n\n=",
        "Content-Transfer-Encoding: quoted-printable\n\n=",
        "Content-Type: text/html\n\n<",
        "Content-Type: text/html\n\n&#",
        "Content-Type: text/html\n\n<!--",
        "Content-Type: text/html\n\n<a href='",
        "Content-Type: text/html\n\n<script",
        "Content-Type: text/html; charset=utf-16\n\n<p>",
        "Subject: =?\n\n",
        "Subject: =?utf-8?b?=?=\n\n",
        "From: <\n\n",
        "From: \"\n\n",
        "From: (\n\n",
        "Date: 99999999999999999999 Jan 2024 10:00\n\n",
        "Date: 1 Jan 9999 99:99\n\n",
        "Date: +\n\n",
    ])
    func edgeCasesDecode(_ text: String) {
        Self.survive(Array(text.utf8))
    }
}
