import Foundation
import NotesCore
import NotesServerApp

// `swift run --package-path Examples/NotesServer`: serves the notes API until SIGTERM or SIGINT.
do {
    let (container, settings) = try await Notes.launchContainer(environment: ProcessInfo.processInfo.environment)
    // The settings file, when NOTES_SETTINGS names one, is watched while the server runs.
    try await NotesServerApp.run(container: container, settingsFile: settings.file) { port in
        // At once, also into a pipe (a supervisor, a log collector), as the logger does.
        FileHandle.standardOutput.write(Data("notes-server listening on port \(port)\n".utf8))
    }
} catch {
    Notes.exit(reporting: error, program: "notes-server")
}
