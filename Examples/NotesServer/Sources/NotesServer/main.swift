import Foundation
import NotesCore
import NotesServerApp

// `swift run --package-path Examples/NotesServer`: serves the notes API until SIGTERM or SIGINT.
do {
    let environment = ProcessInfo.processInfo.environment
    let listening: @Sendable (Int) async -> Void = { port in
        // At once, also into a pipe (a supervisor, a log collector), as the logger does.
        FileHandle.standardOutput.write(Data("notes-server listening on port \(port)\n".utf8))
    }
    // With NOTES_OTLP=1, spans and metrics go to an OTLP collector: bootstrapped before the
    // container is made, so that its start is traced.
    let telemetry = try NotesTelemetry(environment: environment)
    // The settings file, when NOTES_SETTINGS names one, is watched while the server runs; in
    // development, the manifests are too.
    if Notes.isDevelopment(environment: environment) {
        let (wiring, settings) = try await Notes.launchReloading(environment: environment, observers: telemetry.observers)
        try await NotesServerApp.run(container: wiring, telemetry: telemetry.exporter, settingsFile: settings.file,
                                     onServerRunning: listening)
    } else {
        let (container, settings) = try await Notes.launchContainer(environment: environment, observers: telemetry.observers)
        try await NotesServerApp.run(container: container, telemetry: telemetry.exporter, settingsFile: settings.file,
                                     onServerRunning: listening)
    }
} catch {
    Notes.exit(reporting: error, program: "notes-server")
}
