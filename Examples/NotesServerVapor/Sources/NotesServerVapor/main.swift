import Foundation
import NotesCore
import NotesServerVaporApp

// `swift run --package-path Examples/NotesServerVapor`: serves the notes API until SIGTERM or
// SIGINT (Vapor's `serve` command), then drains the requests in flight and shuts the
// container down.
do {
    let container = try Notes.launchContainer(environment: ProcessInfo.processInfo.environment)
    let app = try await NotesVaporApp.makeApplication(container: container)
    do {
        try await app.execute()
    } catch {
        try? await app.asyncShutdown()
        throw error
    }
    try await app.asyncShutdown()
} catch {
    Notes.exit(reporting: error, program: "notes-server-vapor")
}
