import Foundation
import Hummingbird
import SpendlexEngine
import SpendlexStore

/// A person as the service shows them: never their password or its hash.
struct PersonBody: Encodable, Sendable {
    let id: String
    let email: String
    let createdAt: String

    init(_ person: Person) {
        id = person.id
        email = person.email
        createdAt = TransactionWriter.timestamp(person.createdAt)
    }

    enum CodingKeys: String, CodingKey {
        case id, email
        case createdAt = "created_at"
    }
}

/// A key as the service shows it: never the key itself (that is shown once, when made).
struct KeyBody: Encodable, Sendable {
    let id: Int64
    let name: String
    let scope: String
}

/// A key just made: the key itself, shown this once, and whose it is.
struct NewKeyBody: Encodable, Sendable {
    let key: String
    let keyInfo: KeyBody
    let person: PersonBody?

    /// A key just made for `person` (nil: the operator), with its record.
    init(key: String, record: PersonKey, person: Person?) {
        self.key = key
        keyInfo = KeyBody(id: record.id, name: record.name, scope: record.scope.rawValue)
        self.person = person.map(PersonBody.init)
    }

    enum CodingKeys: String, CodingKey {
        case key, person
        case keyInfo = "key_info"
    }

    func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(key, forKey: .key)
        try c.encode(keyInfo, forKey: .keyInfo)
        try c.encode(person, forKey: .person)
    }
}

extension SpendlexService {
    /// Registration and login (`/auth/*`), `GET /me`, and the operator's `/people` routes. A service
    /// serving one ledger has no people: registration and login answer 404 `not_hosting`.
    func addPeopleRoutes(to table: RouteTable) {
        let hosting = hosting
        @Sendable func household() throws(APIError) -> Household {
            guard case .household(let household) = hosting else {
                throw APIError(.notFound, "not_hosting",
                               "this service serves one ledger; start it with --people FOLDER to host several people")
            }
            return household
        }

        table.post("/auth/register", access: .open) { request, context in
            struct Input: Decodable {
                let email: String
                let password: String
                let invitation: String?
                let device: String?
            }
            let household = try household()
            let input = try await request.decodeJSON(Input.self, context: context)
            let address = context.clientAddress
            let made: (Person, PersonKey, String)
            do {
                made = try await offloaded {
                    let person = try household.register(email: input.email, password: input.password,
                                                        invitation: input.invitation, address: address)
                    let (record, key) = try household.makeKey(personID: person.id, scope: .write,
                                                              name: input.device ?? "registration")
                    return (person, record, key)
                }
            } catch let refusal as Household.Refusal {
                throw Self.answer(refusal, registration: household.registration)
            } catch {
                throw APIError.storeFailed(error)
            }
            let (person, record, key) = made
            return try JSONResponse.make(NewKeyBody(key: key, record: record, person: person), status: .created)
        }

        table.post("/auth/login", access: .open) { request, context in
            struct Input: Decodable {
                let email: String
                let password: String
                let device: String?
                /// `write` (the default) or `read`: a device that only shows the person's money.
                let scope: String?
            }
            let household = try household()
            let input = try await request.decodeJSON(Input.self, context: context)
            let scope = KeyScope(rawValue: input.scope ?? "write")
            guard let scope, scope != .admin else { throw APIError.invalidField("scope must be read or write") }
            guard input.password.utf8.count <= 1024, input.email.utf8.count <= 254 else {
                throw APIError(.unauthorized, "wrong_credentials", "wrong e-mail or password")
            }
            let address = context.clientAddress
            let outcome: Household.LoginOutcome
            do {
                outcome = try await offloaded {
                    try household.login(email: input.email, password: input.password, device: input.device ?? "login",
                                        scope: scope, address: address)
                }
            } catch { throw APIError.storeFailed(error) }
            switch outcome {
            case .success(let person, let key, let record):
                return try JSONResponse.make(NewKeyBody(key: key, record: record, person: person))
            case .wrong:
                throw APIError(.unauthorized, "wrong_credentials", "wrong e-mail or password")
            case .throttled(let wait):
                throw Self.tooManyAttempts(wait)
            }
        }

        // Revokes the key the request came with: a phone logging out.
        table.post("/auth/logout", access: .shared(.read)) { _, context in
            guard let caller = context.caller else { throw APIError(.unauthorized, "unauthorized", "an X-API-Key header is required") }
            switch hosting {
            case .one(_, let keys): _ = try stored { try keys.revoke(id: caller.keyID) }
            case .household(let household): _ = try stored { try household.directory.revokeKey(id: caller.keyID) }
            }
            return Response(status: .noContent)
        }

        table.get("/me", access: .shared(.read)) { _, context in
            guard let caller = context.caller else { throw APIError(.unauthorized, "unauthorized", "an X-API-Key header is required") }
            struct Body: Encodable {
                let person: PersonBody?
                let scope: String
                let keyID: Int64
                let hosting: String

                enum CodingKeys: String, CodingKey {
                    case person, scope, hosting
                    case keyID = "key_id"
                }

                func encode(to encoder: any Encoder) throws {
                    var c = encoder.container(keyedBy: CodingKeys.self)
                    try c.encode(person, forKey: .person)
                    try c.encode(scope, forKey: .scope)
                    try c.encode(keyID, forKey: .keyID)
                    try c.encode(hosting, forKey: .hosting)
                }
            }
            var person: Person?
            if case .household(let household) = hosting, let id = caller.personID {
                person = try stored { try household.directory.person(id: id) }
            }
            return try JSONResponse.make(Body(person: person.map(PersonBody.init), scope: caller.scope.rawValue,
                                              keyID: caller.keyID, hosting: hosting.name))
        }

        // The operator's: who is hosted (never their data), adding and removing people, invitations,
        // and keys for a person's devices.
        table.get("/people", access: .admin) { _, _ in
            let household = try household()
            return try JSONResponse.make(["people": try stored { try household.directory.people() }.map(PersonBody.init)])
        }
        table.post("/people", access: .admin) { request, context in
            struct Input: Decodable {
                let email: String
                let password: String
            }
            let household = try household()
            let input = try await request.decodeJSON(Input.self, context: context)
            do {
                let person = try await offloaded { try household.add(email: input.email, password: input.password) }
                return try JSONResponse.make(PersonBody(person), status: .created)
            } catch let refusal as Household.Refusal {
                throw Self.answer(refusal, registration: .closed)
            } catch { throw APIError.storeFailed(error) }
        }
        table.delete("/people/{person}", access: .admin) { _, context in
            let household = try household()
            let id = try context.parameters.require("person")
            guard try await offloaded({ try stored { try household.remove(personID: id) } }) else {
                throw APIError.notFound("no person \(id)")
            }
            return Response(status: .noContent)
        }
        table.post("/invitations", access: .admin) { request, context in
            struct Input: Decodable {
                let email: String?
                let days: Int?
            }
            let household = try household()
            let input = try await request.decodeJSON(Input.self, context: context)
            let days = input.days ?? 7
            guard (1...365).contains(days) else { throw APIError.invalidField("days must be from 1 to 365") }
            let code = try stored { try household.invite(email: input.email, days: days) }
            struct Body: Encodable {
                let invitation: String
                let days: Int
            }
            return try JSONResponse.make(Body(invitation: code, days: days), status: .created)
        }
    }

    /// The answer to a refused registration. An address taken and a bad invitation get one answer,
    /// so that a stranger holding no invitation cannot ask who has an account.
    static func answer(_ refusal: Household.Refusal, registration: RegistrationMode) -> APIError {
        switch refusal {
        case .notAllowed:
            return registration == .closed
                ? APIError(.forbidden, "registration_closed", "registration is closed: the operator adds people")
                : APIError(.forbidden, "invitation_required", "registration needs an invitation from the operator")
        case .invitationOrAddress:
            return APIError(.conflict, "cannot_register", "the invitation is not valid for this address, or the address cannot register")
        case .taken:
            return APIError(.conflict, "email_taken", "someone has this e-mail address already")
        case .invalid(let why):
            return APIError(.unprocessableContent, "invalid_field", why)
        case .throttled(let wait):
            return tooManyAttempts(wait)
        }
    }

    /// 429 `too_many_attempts` with `Retry-After` in whole seconds (at least 1).
    static func tooManyAttempts(_ wait: Duration) -> APIError {
        var error = APIError(.tooManyRequests, "too_many_attempts", "too many failed attempts; try again later")
        let seconds = wait.components.seconds + (wait.components.attoseconds > 0 ? 1 : 0)
        error.headers[.retryAfter] = "\(max(1, seconds))"
        return error
    }
}

extension Hosting {
    /// `one` or `household`, as `GET /me` says.
    var name: String {
        switch self {
        case .one: "one"
        case .household: "household"
        }
    }
}
