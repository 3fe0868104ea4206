import Foundation
import Hummingbird
import SpendlexEngine

/// Typed reading of a request's query parameters; a wrong value is a 400 `invalid_field`
/// naming the parameter.
struct QueryReader {
    let parameters: [String: String]

    init(_ request: Request) {
        parameters = Dictionary(request.uri.queryParameters.map { (String($0.key), String($0.value)) },
                                uniquingKeysWith: { first, _ in first })
    }

    /// Whether the query names the parameter at all, even empty (`?q=`).
    func has(_ name: String) -> Bool { parameters[name] != nil }

    func string(_ name: String) -> String? {
        parameters[name].flatMap { $0.isEmpty ? nil : $0 }
    }

    func int(_ name: String, in range: ClosedRange<Int>) throws(APIError) -> Int? {
        guard let text = string(name) else { return nil }
        guard let value = Int(text), range.contains(value) else {
            throw .invalidField("\(name) must be a whole number from \(range.lowerBound) to \(range.upperBound)")
        }
        return value
    }

    func date(_ name: String) throws(APIError) -> LocalDate? {
        guard let text = string(name) else { return nil }
        guard let date = LocalDate(iso: text) else { throw .invalidField("\(name) must be a day such as 2026-05-02") }
        return date
    }

    /// `from` and `to`, each a day or absent; `to` before `from` is an `invalid_field`.
    func dateRange() throws(APIError) -> (from: LocalDate?, to: LocalDate?) {
        let from = try date("from")
        let to = try date("to")
        if let from, let to, to < from { throw .invalidField("to is before from") }
        return (from, to)
    }

    func bool(_ name: String) throws(APIError) -> Bool? {
        guard let text = string(name) else { return nil }
        switch text {
        case "true", "1": return true
        case "false", "0": return false
        default: throw .invalidField("\(name) must be true or false")
        }
    }
}

extension ServiceRequestContext {
    /// The `{id}` path parameter as a ledger id; 404 when it is not one.
    func id() throws(APIError) -> Int64 {
        guard let id = parameters.get("id", as: Int64.self) else { throw .notFound("no such id") }
        return id
    }
}

/// Today in the server's time zone.
func today() -> LocalDate {
    let parts = Calendar(identifier: .gregorian).dateComponents(in: .current, from: Date())
    return LocalDate(year: parts.year ?? 1970, month: parts.month ?? 1, day: parts.day ?? 1)!
}
