import Foundation
import Hummingbird
import SpendlexEngine

/// An error the service answers with: an HTTP status and a JSON body
/// `{"error": {"code": "stable_code", "message": "..."}}`. Codes are stable, for programs;
/// messages are for people and may change. No stack trace or internal detail is ever sent.
public struct APIError: Error, HTTPResponseError, Sendable {
    /// The HTTP status.
    public let status: HTTPResponse.Status
    /// The stable code: `unauthorized`, `invalid_json`, `not_found`, ...
    public let code: String
    /// What went wrong, in words.
    public let message: String
    /// Headers the answer carries besides its content type (`Allow` with a 405).
    public var headers: HTTPFields = [:]
    /// Why it happened, for the log only (never sent): the underlying error of a 5xx.
    var cause: String?

    /// An error with its status, code and message; a card number in the message (echoed from
    /// a request) is masked.
    public init(_ status: HTTPResponse.Status, _ code: String, _ message: String) {
        self.status = status
        self.code = code
        self.message = CardNumberMasker.mask(message)
    }

    /// Writes the JSON body.
    public func response(from request: Request, context: some RequestContext) throws -> Response {
        // Sorted keys: the same error is the same bytes every time (a wrong password and an
        // unknown e-mail must not differ even in key order).
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let body = try encoder.encode(Body(error: .init(code: code, message: message)))
        var headers = self.headers
        headers[.contentType] = "application/json; charset=utf-8"
        return Response(status: status, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: body)))
    }

    private struct Body: Encodable {
        struct Detail: Encodable {
            let code: String
            let message: String
        }
        let error: Detail
    }
}

extension APIError {
    /// 400: the body is not the JSON this route takes.
    static func invalidJSON(_ message: String) -> APIError { APIError(.badRequest, "invalid_json", message) }
    /// 400: a field or query parameter has a wrong value.
    static func invalidField(_ message: String) -> APIError { APIError(.badRequest, "invalid_field", message) }
    /// 404: no such thing.
    static func notFound(_ message: String) -> APIError { APIError(.notFound, "not_found", message) }
    /// 500: the ledger could not be read or written. `cause` (the SQLite error) goes to the log only.
    static func storeFailed(_ cause: Any) -> APIError {
        var error = APIError(.internalServerError, "store_failed", "the ledger could not be read or written")
        error.cause = CardNumberMasker.mask(String(describing: cause))
        return error
    }
    /// 500: anything else that went wrong inside.
    static let internalError = APIError(.internalServerError, "internal_error", "internal error")
}
