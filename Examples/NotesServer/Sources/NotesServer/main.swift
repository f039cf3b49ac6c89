import Foundation
import NotesCore
import NotesServerApp
import Wiring

// `swift run --package-path Examples/NotesServer`: serves the notes API until SIGTERM or SIGINT.
let environment = ProcessInfo.processInfo.environment
do {
    let container = try Notes.makeContainer(
        config: environment["NOTES_CONFIG"] ?? Notes.defaultConfig,
        contexts: Notes.contexts(environment: environment),
        environment: environment)
    say(container.contextSummary)
    try await NotesServerApp.run(container: container) { port in
        say("notes-server listening on port \(port)")
    }
} catch let error as ManifestError {
    for diagnostic in error.diagnostics { FileHandle.standardError.write(Data((diagnostic.formatted() + "\n").utf8)) }
    exit(1)
} catch {
    FileHandle.standardError.write(Data("notes-server: \(error)\n".utf8))
    exit(1)
}

/// Writes a line to standard output at once, also into a pipe (a supervisor, a log collector),
/// as the logger does.
func say(_ line: String) {
    FileHandle.standardOutput.write(Data((line + "\n").utf8))
}
