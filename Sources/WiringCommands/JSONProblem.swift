import Foundation

/// What is wrong with a JSON file the tools read (a factory catalog, a plugin configuration),
/// said with where in it: `autowired.note-service[1] should be a string`.
enum JSONProblem {
    /// What `error`, thrown while decoding, says is wrong, and where; `whole` names the file's
    /// top level (`the catalog`).
    static func describe(_ error: any Error, whole: String) -> String {
        switch error as? DecodingError {
        case .typeMismatch(let type, let context)?:
            return "\(place(context.codingPath, whole: whole)) should be \(kind(type))"
        case .valueNotFound(let type, let context)?:
            return "\(place(context.codingPath, whole: whole)) should be \(kind(type)), not null"
        case .keyNotFound(let key, let context)?:
            return context.codingPath.isEmpty ? "it has no '\(key.stringValue)' key"
                : "\(place(context.codingPath, whole: whole)) has no '\(key.stringValue)' key"
        case .dataCorrupted(let context)? where context.codingPath.isEmpty:
            return "it is not valid JSON"
        case .dataCorrupted(let context)?:
            return "\(place(context.codingPath, whole: whole)): \(context.debugDescription)"
        default:
            return "\(error)"
        }
    }

    /// `autowired.note-service[1]`: keys joined with dots, indexes in brackets.
    private static func place(_ path: [any CodingKey], whole: String) -> String {
        guard !path.isEmpty else { return whole }
        return path.reduce("") { place, key in
            if let index = key.intValue { return place + "[\(index)]" }
            return place.isEmpty ? key.stringValue : place + "." + key.stringValue
        }
    }

    /// What a value of `type` is, in JSON's words.
    private static func kind(_ type: Any.Type) -> String {
        switch type {
        case is String.Type: "a string"
        case is Int.Type: "an integer"
        case is Bool.Type: "true or false"
        case is [Any].Type: "an array"
        case is [String: Any].Type: "an object"
        default: "a \(type)"
        }
    }
}

/// A key of a JSON object the tools read, or an index in one of its arrays: for decoding an
/// object whose keys are not known in advance, and for saying where a problem is.
struct JSONKey: CodingKey {
    let stringValue: String
    let intValue: Int?
    init(_ key: String) { (stringValue, intValue) = (key, nil) }
    init(index: Int) { (stringValue, intValue) = ("\(index)", index) }
    init(stringValue: String) { self.init(stringValue) }
    init(intValue: Int) { self.init(index: intValue) }
}
