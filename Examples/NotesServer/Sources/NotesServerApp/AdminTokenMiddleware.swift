import Hummingbird
import NotesCore
import Wiring

/// Lets a request through only with the admin token (`Authorization: Bearer …`), read from the
/// container in force for each request, so that a reload of the manifests changes it: 401
/// otherwise. The group of admin routes (the container's snapshot) sits behind it.
struct AdminTokenMiddleware: RouterMiddleware {
    typealias Context = AppRequestContext
    let container: any ContainerProvider

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let token = try await container.container.resolve(AdminToken.self)
        guard token.allows(request.headers[.authorization]) else { throw HTTPError(.unauthorized, message: "this route needs the admin token") }
        return try await next(request, context)
    }
}
