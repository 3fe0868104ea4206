import Foundation
import NIOCore
import NIOPosix
import NIOSSL

/// How to connect: certificates, timeouts, whether plain text is allowed.
public struct IMAPConnectionOptions: Sendable {
    /// A PEM file of CA certificates to trust instead of the system's store (a private CA).
    public var caFile: String?
    /// Allow an `imap://` session to stay unencrypted when the server offers no STARTTLS.
    public var allowPlainText = false
    /// Seconds to wait to connect, and for the server's next bytes, before the connection counts as lost.
    public var timeout: Double = 60
    /// The largest message read (a larger literal is an error).
    public var maxLiteral = 256 << 20

    /// Options; by default the system's CAs, TLS required, 60 s.
    public init(caFile: String? = nil, allowPlainText: Bool = false, timeout: Double = 60) {
        self.caFile = caFile
        self.allowPlainText = allowPlainText
        self.timeout = timeout
    }
}

/// How to log in.
public enum IMAPCredentials: Sendable {
    /// A password, sent with AUTHENTICATE PLAIN when the server offers it, else LOGIN.
    case password(user: String, password: String)
    /// An OAuth 2 access token (Gmail, Outlook), sent with AUTHENTICATE XOAUTH2.
    case xoauth2(user: String, token: String)
}

/// A mailbox opened read-only (EXAMINE).
public struct IMAPMailboxStatus: Sendable, Equatable {
    /// The number that says the mailbox's UIDs still mean what they meant (RFC 9051 2.3.1.1).
    public var uidValidity: UInt32
    /// The UID the next message will get; every message now there has a lower one.
    public var uidNext: UInt32
    /// Messages in the mailbox now (EXISTS).
    public var messages: Int
}

/// One message of a FETCH: its UID and what was asked for.
public struct IMAPFetchedMessage: Sendable {
    /// The message's UID in the mailbox.
    public var uid: UInt32
    /// Its size in bytes (RFC822.SIZE), when asked for.
    public var size: Int?
    /// The message's bytes (`BODY.PEEK[]`), or its Message-ID header lines (`BODY.PEEK[HEADER.FIELDS (MESSAGE-ID)]`).
    public var body: [UInt8]?
}

/// One logged-in conversation with an IMAP server, over SwiftNIO with swift-nio-ssl.
///
/// Why these and not libcurl (Debian's libcurl speaks IMAP): curl's IMAP fetch SELECTs the
/// mailbox and fetches `BODY[]`, which marks every message read; its custom commands hand back
/// FETCH literals as loose lines with no framing; and it would be one more C library to install.
/// SwiftNIO and swift-nio-ssl are already in the build (the HTTP service and client), verify
/// certificates against the system's store (or a given CA), and STARTTLS is one handler added
/// to the pipeline. The protocol part is small: `IMAPResponseParser` and the commands below.
///
/// Read-only by construction: the mailbox is opened with EXAMINE, messages are read with
/// `BODY.PEEK[]`; no command that stores flags, copies, moves or expunges exists here.
public final class IMAPSession {
    private let channel: Channel
    private var inbound: NIOAsyncChannelInboundStream<ByteBuffer>.AsyncIterator
    private let outbound: NIOAsyncChannelOutboundWriter<ByteBuffer>
    private var parser: IMAPResponseParser
    private var tagNumber = 0
    /// The server's capabilities, upper-cased (`IMAP4REV1`, `AUTH=PLAIN`, `STARTTLS`).
    public private(set) var capabilities: Set<String> = []
    /// Bytes received so far (for throughput figures).
    public private(set) var bytesReceived = 0

    private init(channel: Channel, inbound: NIOAsyncChannelInboundStream<ByteBuffer>.AsyncIterator,
                 outbound: NIOAsyncChannelOutboundWriter<ByteBuffer>, maxLiteral: Int) {
        self.channel = channel
        self.inbound = inbound
        self.outbound = outbound
        self.parser = IMAPResponseParser(maxLiteral: maxLiteral)
    }

    /// Connects to the URL's server, secures the connection (TLS or STARTTLS), runs `body`
    /// with the session, and closes the connection whatever happens.
    public static func withSession<T: Sendable>(
        _ url: IMAPMailboxURL, options: IMAPConnectionOptions, _ body: (IMAPSession) async throws -> T
    ) async throws -> T {
        let context = try makeTLSContext(options)
        let implicitTLS = url.security == .implicitTLS
        let host = url.host
        let timeout = TimeAmount.milliseconds(Int64(options.timeout * 1000))
        let asyncChannel: NIOAsyncChannel<ByteBuffer, ByteBuffer>
        do {
            asyncChannel = try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
                .connectTimeout(timeout)
                .connect(host: url.host, port: url.port) { channel in
                    channel.eventLoop.makeCompletedFuture {
                        if implicitTLS {
                            try channel.pipeline.syncOperations.addHandler(
                                try NIOSSLClientHandler(context: context, serverHostname: Self.sniName(host)))
                        }
                        try channel.pipeline.syncOperations.addHandler(IdleStateHandler(readTimeout: timeout))
                        try channel.pipeline.syncOperations.addHandler(SilenceHandler())
                        return try NIOAsyncChannel<ByteBuffer, ByteBuffer>(wrappingChannelSynchronously: channel)
                    }
                }
        } catch {
            throw IMAPError.cannotConnect("\(url.host) port \(url.port): \(Self.describe(error))")
        }
        return try await asyncChannel.executeThenClose { inbound, outbound in
            let session = IMAPSession(channel: asyncChannel.channel, inbound: inbound.makeAsyncIterator(),
                                      outbound: outbound, maxLiteral: options.maxLiteral)
            try await session.greet()
            if !implicitTLS {
                try await session.startTLS(context: context, host: host, allowPlainText: options.allowPlainText)
            }
            return try await body(session)
        }
    }

    // MARK: - Commands

    /// Logs in: XOAUTH2 with a token; with a password, AUTHENTICATE PLAIN when offered (any
    /// characters), else LOGIN.
    public func login(_ credentials: IMAPCredentials) async throws {
        if capabilities.contains("LOGINDISABLED") {
            throw IMAPError.authenticationFailed("the server allows no login on this connection (LOGINDISABLED)")
        }
        let done: IMAPResponse
        switch credentials {
        case .xoauth2(let user, let token):
            let payload = Data("user=\(user)\u{1}auth=Bearer \(token)\u{1}\u{1}".utf8).base64EncodedString()
            done = try await authenticate(mechanism: "XOAUTH2", payload: payload)
        case .password(let user, let password):
            if capabilities.contains("AUTH=PLAIN") {
                let payload = Data("\u{0}\(user)\u{0}\(password)".utf8).base64EncodedString()
                done = try await authenticate(mechanism: "PLAIN", payload: payload)
            } else {
                done = try await loginCommand(user: user, password: password)
            }
        }
        guard done.status == "OK" else {
            throw IMAPError.authenticationFailed(done.statusText.isEmpty ? done.status : done.statusText)
        }
        // Servers often change their capabilities after login (and say so in the OK).
        if let list = Self.capabilityCode(in: done.text) { capabilities = list } else {
            let (responses, _) = try await command("CAPABILITY")
            updateCapabilities(from: responses)
        }
    }

    /// Opens a mailbox read-only.
    public func examine(_ mailbox: String) async throws -> IMAPMailboxStatus {
        let name = IMAPSyntax.quoted(IMAPSyntax.mailboxName(mailbox)) ?? "\"\""
        let (responses, done) = try await command("EXAMINE \(name)")
        guard done.status == "OK" else { throw IMAPError.mailbox("\(mailbox): \(done.statusText)") }
        var status = IMAPMailboxStatus(uidValidity: 0, uidNext: 0, messages: 0)
        for response in responses where response.kind == .untagged {
            if let value = response.code("UIDVALIDITY") { status.uidValidity = value }
            if let value = response.code("UIDNEXT") { status.uidNext = value }
            let words = response.text.split(separator: " ")
            if words.count == 2, words[1].uppercased() == "EXISTS", let count = Int(words[0]) { status.messages = count }
        }
        guard status.uidValidity != 0 else {
            throw IMAPError.protocolError("the server gave \(mailbox) no UIDVALIDITY; its UIDs cannot be kept between runs")
        }
        return status
    }

    /// UID SEARCH: the UIDs of the selected mailbox's messages that match `criteria`.
    public func search(_ criteria: String) async throws -> [UInt32] {
        let (responses, done) = try await command("UID SEARCH \(criteria)")
        guard done.status == "OK" else { throw IMAPError.protocolError("search refused: \(done.statusText)") }
        var uids: [UInt32] = []
        for response in responses where response.kind == .untagged && response.status == "SEARCH" {
            uids += response.text.split(separator: " ").dropFirst().compactMap { UInt32($0) }
        }
        return uids
    }

    /// UID FETCH of `items` (`(UID RFC822.SIZE BODY.PEEK[])`), calling `each` for every message as
    /// it arrives. Unsolicited FETCH responses (flag changes) are passed over.
    public func fetch(_ uids: [UInt32], items: String, each: (IMAPFetchedMessage) throws -> Void) async throws {
        guard !uids.isEmpty else { return }
        let tag = nextTag()
        try await send("\(tag) UID FETCH \(IMAPSyntax.sequenceSet(uids)) \(items)\r\n")
        while true {
            let response = try await readResponse()
            switch response.kind {
            case .tagged(let got) where got == tag:
                guard response.status == "OK" else { throw IMAPError.protocolError("fetch refused: \(response.statusText)") }
                return
            case .untagged:
                if let message = Self.fetchedMessage(response) { try each(message) }
            default:
                continue
            }
        }
    }

    /// Says goodbye; errors are ignored (the connection closes either way).
    public func logout() async {
        _ = try? await command("LOGOUT")
    }

    // MARK: - Connection set-up

    private func greet() async throws {
        let greeting = try await readResponse()
        guard greeting.kind == .untagged, greeting.status == "OK" || greeting.status == "PREAUTH" else {
            throw IMAPError.protocolError("the server refused the connection: \(greeting.text)")
        }
        if let list = Self.capabilityCode(in: greeting.text) {
            capabilities = list
        } else {
            let (responses, _) = try await command("CAPABILITY")
            updateCapabilities(from: responses)
        }
    }

    private func startTLS(context: NIOSSLContext, host: String, allowPlainText: Bool) async throws {
        guard capabilities.contains("STARTTLS") else {
            if allowPlainText { return }
            throw IMAPError.noTLS
        }
        let (_, done) = try await command("STARTTLS")
        guard done.status == "OK" else {
            if allowPlainText { return }
            throw IMAPError.tls("the server refused STARTTLS: \(done.statusText)")
        }
        // The server now waits for the TLS handshake: the handler goes first in the pipeline,
        // and every byte after this point is encrypted.
        let channel = self.channel
        try await channel.eventLoop.submit {
            try channel.pipeline.syncOperations.addHandler(
                try NIOSSLClientHandler(context: context, serverHostname: Self.sniName(host)), position: .first)
        }.get()
        // Capabilities learned before TLS are not to be trusted (RFC 9051 section 6.2.1).
        let (responses, _) = try await command("CAPABILITY")
        updateCapabilities(from: responses)
    }

    private func authenticate(mechanism: String, payload: String) async throws -> IMAPResponse {
        let tag = nextTag()
        if capabilities.contains("SASL-IR") {
            try await send("\(tag) AUTHENTICATE \(mechanism) \(payload)\r\n")
        } else {
            try await send("\(tag) AUTHENTICATE \(mechanism)\r\n")
        }
        var sentPayload = capabilities.contains("SASL-IR")
        while true {
            let response = try await readResponse()
            switch response.kind {
            case .continuation:
                // The first challenge asks for the payload; a later one carries an error (XOAUTH2
                // sends its reason base64-encoded) and wants an empty line before the NO.
                if sentPayload { try await send("\r\n") } else { try await send(payload + "\r\n"); sentPayload = true }
            case .tagged(let got) where got == tag:
                return response
            default:
                continue
            }
        }
    }

    private func loginCommand(user: String, password: String) async throws -> IMAPResponse {
        let tag = nextTag()
        // Quoted strings when they may be (ASCII, no line breaks); else literals, which take anything.
        func argument(_ text: String) -> String {
            if text.allSatisfy(\.isASCII), let quoted = IMAPSyntax.quoted(text) { return quoted }
            return "{\(text.utf8.count)}"
        }
        let userArgument = argument(user)
        let passwordArgument = argument(password)
        if !userArgument.hasPrefix("{") && !passwordArgument.hasPrefix("{") {
            try await send("\(tag) LOGIN \(userArgument) \(passwordArgument)\r\n")
        } else {
            // Each literal is sent after the server's go-ahead.
            try await send("\(tag) LOGIN \(userArgument)" + (userArgument.hasPrefix("{") ? "\r\n" : " "))
            if userArgument.hasPrefix("{") {
                try await awaitContinuation(tag: tag)
                try await send(user + " ")
            }
            try await send(passwordArgument + (passwordArgument.hasPrefix("{") ? "\r\n" : ""))
            if passwordArgument.hasPrefix("{") {
                try await awaitContinuation(tag: tag)
                try await send(password)
            }
            try await send("\r\n")
        }
        while true {
            let response = try await readResponse()
            if case .tagged(let got) = response.kind, got == tag { return response }
        }
    }

    private func awaitContinuation(tag: String) async throws {
        while true {
            let response = try await readResponse()
            switch response.kind {
            case .continuation: return
            case .tagged(let got) where got == tag:
                throw IMAPError.authenticationFailed(response.statusText)
            default: continue
            }
        }
    }

    // MARK: - Reading and writing

    /// Sends a command and reads until its tagged completion: the untagged responses in between, and the completion.
    private func command(_ text: String) async throws -> (responses: [IMAPResponse], done: IMAPResponse) {
        let tag = nextTag()
        try await send("\(tag) \(text)\r\n")
        var responses: [IMAPResponse] = []
        while true {
            let response = try await readResponse()
            if case .tagged(let got) = response.kind, got == tag {
                if response.status == "BAD" { throw IMAPError.protocolError("\(text.prefix { $0 != " " }): \(response.statusText)") }
                return (responses, response)
            }
            if response.kind == .untagged, response.status == "BYE" {
                throw IMAPError.connectionLost("the server closed the session: \(response.statusText)")
            }
            responses.append(response)
        }
    }

    private func nextTag() -> String {
        tagNumber += 1
        return "s\(tagNumber)"
    }

    private func send(_ text: String) async throws {
        do {
            try await outbound.write(ByteBuffer(string: text))
        } catch {
            throw IMAPError.connectionLost(Self.describe(error))
        }
    }

    private func readResponse() async throws -> IMAPResponse {
        while true {
            if let response = try parser.next() { return response }
            let buffer: ByteBuffer?
            do {
                buffer = try await inbound.next()
            } catch {
                throw Self.classify(error)
            }
            guard let buffer else { throw IMAPError.connectionLost("the server closed the connection") }
            bytesReceived += buffer.readableBytes
            buffer.withUnsafeReadableBytes { parser.append($0) }
        }
    }

    private func updateCapabilities(from responses: [IMAPResponse]) {
        for response in responses where response.kind == .untagged && response.status == "CAPABILITY" {
            capabilities = Set(response.text.split(separator: " ").dropFirst().map { $0.uppercased() })
        }
    }

    // MARK: - Helpers

    /// `[CAPABILITY IMAP4rev1 …]` in a greeting or an OK.
    static func capabilityCode(in text: String) -> Set<String>? {
        guard let open = text.range(of: "[CAPABILITY ", options: .caseInsensitive),
              let close = text[open.upperBound...].firstIndex(of: "]") else { return nil }
        return Set(text[open.upperBound..<close].split(separator: " ").map { $0.uppercased() })
    }

    /// A FETCH response's UID, size and body (the first literal), if it is one.
    static func fetchedMessage(_ response: IMAPResponse) -> IMAPFetchedMessage? {
        let words = response.text.split(separator: " ", maxSplits: 2)
        guard words.count == 3, words[1].uppercased() == "FETCH" else { return nil }
        let attributes = words[2]
        func number(after name: String) -> Int? {
            guard let range = attributes.range(of: name + " ", options: .caseInsensitive) else { return nil }
            return Int(attributes[range.upperBound...].prefix { $0.isASCII && $0.isNumber })
        }
        guard let uid = number(after: "UID").flatMap(UInt32.init(exactly:)) else { return nil }
        let hasBody = attributes.range(of: "BODY[", options: .caseInsensitive) != nil
        return IMAPFetchedMessage(uid: uid, size: number(after: "RFC822.SIZE"),
                                  body: hasBody ? (response.literals.first ?? []) : nil)
    }

    /// The name sent for SNI and checked against the certificate: not for IP addresses, which
    /// are checked against the certificate's IP entries instead.
    static func sniName(_ host: String) -> String? {
        var address = in6_addr()
        if host.contains(":") && inet_pton(AF_INET6, host, &address) == 1 { return nil }
        var address4 = in_addr()
        if inet_pton(AF_INET, host, &address4) == 1 { return nil }
        return host
    }

    static func makeTLSContext(_ options: IMAPConnectionOptions) throws -> NIOSSLContext {
        var configuration = TLSConfiguration.makeClientConfiguration()
        configuration.certificateVerification = .fullVerification
        if let caFile = options.caFile {
            guard FileManager.default.isReadableFile(atPath: caFile) else {
                throw IMAPError.tls("cannot read the CA file \(caFile)")
            }
            configuration.trustRoots = .file(caFile)
        }
        do { return try NIOSSLContext(configuration: configuration) } catch {
            throw IMAPError.tls("cannot set up TLS: \(describe(error))")
        }
    }

    /// An error from the connection as an `IMAPError`: TLS handshake failures (a certificate
    /// not trusted, a name that does not match) apart from a connection that just ended.
    static func classify(_ error: Error) -> IMAPError {
        if let imap = error as? IMAPError { return imap }
        if let ssl = error as? NIOSSLError {
            switch ssl {
            case .handshakeFailed(let inner):
                let text = "\(inner)"
                if text.contains("CERTIFICATE_VERIFY_FAILED") || text.contains("certificate") {
                    return .tls("the server's certificate is not trusted (\(text)); for a private CA give --ca-file")
                }
                return .tls("handshake failed: \(text)")
            case .uncleanShutdown:
                return .connectionLost("the connection was cut (no TLS close)")
            default:
                return .tls("\(ssl)")
            }
        }
        if let extra = error as? NIOSSLExtraError {
            return .tls("the server's certificate does not match the host name: \(extra)")
        }
        if error is SilenceHandler.Silence { return .connectionLost("no answer from the server in time") }
        return .connectionLost(describe(error))
    }

    static func describe(_ error: Error) -> String {
        if let io = error as? IOError { return io.description }
        return "\(error)"
    }
}

/// Closes the connection, with an error the session reports, when the server sends nothing for
/// the read timeout (IdleStateHandler's event): a half-dead connection must not hang a fetch.
private final class SilenceHandler: ChannelInboundHandler, Sendable {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer

    struct Silence: Error {}

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if let idle = event as? IdleStateHandler.IdleStateEvent, idle == .read {
            context.fireErrorCaught(Silence())
            context.close(promise: nil)
            return
        }
        context.fireUserInboundEventTriggered(event)
    }
}
