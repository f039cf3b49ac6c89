import Foundation
import Hummingbird
import NotesCore
import Wiring
import WiringHummingbird

/// The JSON API: each route resolves what it needs from the request's scope.
enum Routes {
    static func add(to router: Router<AppRequestContext>) {
        router.get("/notes") { _, context -> [Note] in
            try await queries(context).all()
        }
        router.post("/notes") { request, context -> EditedResponse<Note> in
            let new = try await request.decode(as: NewNote.self, context: context)
            guard !new.title.isEmpty else { throw HTTPError(.badRequest, message: "a note needs a title") }
            return EditedResponse(status: .created, response: try await queries(context).add(new))
        }
        // Streamed, one JSON note per line: the scope stays open until the last line is written.
        router.get("/notes/export") { _, context -> Response in
            let queries = try await queries(context)
            return Response(status: .ok, headers: [.contentType: "application/x-ndjson"], body: ResponseBody { writer in
                for note in try await queries.all() {
                    try await writer.write(ByteBuffer(bytes: try JSONEncoder().encode(note) + [UInt8(ascii: "\n")]))
                }
                try await writer.finish(nil)
            })
        }
        router.get("/notes/:id") { _, context -> Note in
            let id = try context.parameters.require("id", as: Int.self)
            guard let note = try await queries(context).note(id: id) else { throw HTTPError(.notFound, message: "no note \(id)") }
            return note
        }
        router.delete("/notes/:id") { request, context -> HTTPResponse.Status in
            let token = try await context.resolve(AdminToken.self)
            guard token.allows(request.headers[.authorization]) else { throw HTTPError(.unauthorized, message: "DELETE needs the admin token") }
            let id = try context.parameters.require("id", as: Int.self)
            guard try await queries(context).delete(id: id) else { throw HTTPError(.notFound, message: "no note \(id)") }
            return .noContent
        }
        router.get("/health") { _, context -> EditedResponse<HealthReport> in
            // The request's container: after a reload of the manifests, the new one.
            let report = try await Notes.health(in: context.requestScope().container)
            return EditedResponse(status: report.healthy ? .ok : .serviceUnavailable, response: report)
        }
    }

    private static func queries(_ context: AppRequestContext) async throws -> NoteQueries {
        try await context.resolve(NoteQueries.self)
    }
}
