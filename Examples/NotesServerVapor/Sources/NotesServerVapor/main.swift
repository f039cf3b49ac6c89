import Foundation
import NotesCore
import NotesServerVaporApp

// `swift run --package-path Examples/NotesServerVapor`: serves the notes API until SIGTERM or
// SIGINT (Vapor's `serve` command), then drains the requests in flight and shuts the
// container down.
do {
    let (container, settings) = try await Notes.launchContainer(environment: ProcessInfo.processInfo.environment)
    // The settings file, when NOTES_SETTINGS names one, is watched while the server runs.
    let watching = Task { try await settings.file?.run() }
    defer { watching.cancel() }
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
