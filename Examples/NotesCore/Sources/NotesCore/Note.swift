import Foundation

/// A note, as the API sends it.
public struct Note: Codable, Sendable, Equatable {
    public var id: Int
    public var title: String
    public var body: String

    public init(id: Int, title: String, body: String) {
        self.id = id
        self.title = title
        self.body = body
    }
}

/// A note to add, as `POST /notes` receives it.
public struct NewNote: Codable, Sendable {
    public var title: String
    public var body: String

    public init(title: String, body: String = "") {
        self.title = title
        self.body = body
    }

    /// `body` may be left out: a note can be just a title.
    public init(from decoder: any Decoder) throws {
        let fields = try decoder.container(keyedBy: CodingKeys.self)
        title = try fields.decode(String.self, forKey: .title)
        body = try fields.decodeIfPresent(String.self, forKey: .body) ?? ""
    }
}

/// What `/health` answers: each check by name, and whether all passed.
public struct HealthReport: Codable, Sendable {
    public var healthy: Bool
    public var checks: [String: Bool]
}
