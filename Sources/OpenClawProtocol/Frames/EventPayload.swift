import Synchronization

/// How an ``EventFrame`` holds its payload: as a value, or, when it was an object read off the wire, as
/// that object's members, from which the value is built the first time someone asks for it.
///
/// A streamed reply is an event per delta, and its payload is read member by member (``ChatEvent``): a
/// dictionary built first hashed each of its names only to be walked once, about a tenth of decoding a
/// delta.
enum EventPayload: Sendable {
    case value(JSONValue?)
    case members(ObjectMembers)

    /// A frame's member as the envelope reader has it; nil for an explicit `null`, which reads as absent.
    init?(_ member: JSONParser.EnvelopeValue) {
        switch member {
        case .value(.null): return nil
        case .value(let value): self = .value(value)
        case .members(let members): self = .members(ObjectMembers(members))
        }
    }

    var value: JSONValue? {
        switch self {
        case .value(let value): return value
        case .members(let members): return members.object
        }
    }
}

/// An object's members in document order (of duplicate names, the last counts, as in a dictionary),
/// and the object itself once it has been asked for.
final class ObjectMembers: Sendable {
    let members: [JSONMember]
    private let built = Mutex<JSONValue?>(nil)

    init(_ members: [JSONMember]) {
        self.members = members
    }

    var object: JSONValue {
        built.withLock { built in
            if let built { return built }
            let object = JSONValue.object(JSONObject(members: members))
            built = object
            return object
        }
    }
}
