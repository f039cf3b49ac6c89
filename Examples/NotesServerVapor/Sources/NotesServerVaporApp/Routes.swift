import Foundation
import NotesCore
import Vapor
import Wiring
import WiringVapor

/// The JSON API, as NotesServer serves it: each route resolves what it needs from the
/// request's scope.
enum Routes {
    static func add(to app: Application) {
        app.get("notes") { req async throws -> [Note] in
            try await req.resolve(NoteQueries.self).all()
        }
        app.post("notes") { req async throws -> Response in
            let new = try req.content.decode(NewNote.self)
            guard !new.title.isEmpty else { throw Abort(.badRequest, reason: "a note needs a title") }
            let response = Response(status: .created)
            try response.content.encode(try await req.resolve(NoteQueries.self).add(new))
            return response
        }
        // Streamed, one JSON note per line: the scoped stream keeps the request's scope open
        // until the last line is written.
        app.get("notes", "export") { req async throws -> Response in
            let queries = try await req.resolve(NoteQueries.self)
            return Response(status: .ok, headers: ["Content-Type": "application/x-ndjson"], body: try .init(scopedStream: req) { writer in
                for note in try await queries.all() {
                    try await writer.writeBuffer(ByteBuffer(bytes: try JSONEncoder().encode(note) + [UInt8(ascii: "\n")]))
                }
            })
        }
        app.get("notes", ":id") { req async throws -> Note in
            let id = try noteID(req)
            guard let note = try await req.resolve(NoteQueries.self).note(id: id) else { throw Abort(.notFound, reason: "no note \(id)") }
            return note
        }
        app.delete("notes", ":id") { req async throws -> HTTPStatus in
            let token = try await req.resolve(AdminToken.self)
            guard token.allows(req.headers.first(name: .authorization)) else { throw Abort(.unauthorized, reason: "DELETE needs the admin token") }
            let id = try noteID(req)
            guard try await req.resolve(NoteQueries.self).delete(id: id) else { throw Abort(.notFound, reason: "no note \(id)") }
            return .noContent
        }
        app.get("health") { req async throws -> Response in
            // The request's container: after a reload of the manifests, the new one.
            let report = try await Notes.health(in: req.scope.container)
            let response = Response(status: report.healthy ? .ok : .serviceUnavailable)
            try response.content.encode(report)
            return response
        }
    }

    private static func noteID(_ req: Request) throws -> Int {
        guard let id = req.parameters.get("id", as: Int.self) else { throw Abort(.badRequest, reason: "a note's id is a number") }
        return id
    }
}

// The API's JSON bodies, as Vapor reads and answers them.
extension Note: @retroactive Content {}
extension NewNote: @retroactive Content {}
extension HealthReport: @retroactive Content {}
