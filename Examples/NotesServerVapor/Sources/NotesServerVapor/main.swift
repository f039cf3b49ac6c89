import Foundation
import NotesCore
import NotesServerVaporApp

// `swift run --package-path Examples/NotesServerVapor`: serves the notes API until SIGTERM or
// SIGINT (Vapor's `serve` command), then drains the requests in flight and shuts the
// container down.
do {
    // In development, the manifests are watched while the server runs (as is the settings
    // file, when NOTES_SETTINGS names one).
    let (app, settings) = try await NotesVaporApp.launch(environment: ProcessInfo.processInfo.environment)
    let watching = Task { try await settings.file?.run() }
    defer { watching.cancel() }
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
