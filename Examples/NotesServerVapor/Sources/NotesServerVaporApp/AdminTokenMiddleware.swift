import NotesCore
import Vapor
import Wiring

/// Lets a request through only with the admin token (`Authorization: Bearer …`), read from the
/// container in force for each request, so that a reload of the manifests changes it: 401
/// otherwise. The group of admin routes (the container's snapshot) sits behind it.
struct AdminTokenMiddleware: AsyncMiddleware {
    let container: any ContainerProvider

    func respond(to request: Request, chainingTo next: any AsyncResponder) async throws -> Response {
        let token = try await container.container.resolve(AdminToken.self)
        guard token.allows(request.headers.first(name: .authorization)) else { throw Abort(.unauthorized, reason: "this route needs the admin token") }
        return try await next.respond(to: request)
    }
}
