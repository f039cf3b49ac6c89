import Foundation
import Wiring
import WiringCommands

/// Every factory the notes app registers; config-examples/services.yaml names them.
enum NotesRegistry: WiringApp {
    static func makeRegistry() -> FactoryRegistry {
        let registry = FactoryRegistry()
        registry.factory("system-clock") { _ in SystemClock() as any Clock }
        registry.factory("fixed-clock") { r in
            FixedClock(now: Date(timeIntervalSince1970: TimeInterval(try r.arg("epochSeconds", as: Int.self)))) as any Clock
        }
        registry.factory("file-note-store") { r -> NoteStore in
            FileNoteStore(directory: try r.arg("directory"), fsync: try r.arg("fsync", default: false))
        }
        registry.factory("in-memory-note-store") { _ -> NoteStore in InMemoryNoteStore() }
        registry.factory("audited-note-store") { r -> NoteStore in
            AuditedNoteStore(inner: try r.decorated(NoteStore.self), prefix: try r.arg("prefix"),
                             log: try r.arg("log", as: (any LogSink).self))
        }
        registry.factory("console-notifier") { r in ConsoleNotifier(template: try r.arg("template")) as any Notifier }
        registry.factory("recording-notifier") { _ in RecordingNotifier() as any Notifier }
        registry.factory("webhook-notifier") { r in
            WebhookNotifier(url: try r.arg("url"), timeout: try r.arg("timeout")) as any Notifier
        }
        registry.factory("http-api-client") { r in APIClient(baseURL: try r.arg("baseURL"), timeout: try r.arg("timeout")) }
        registry.factory("memory-session-cache") { _ in SessionCache() }
        registry.factory("notes-app") { _ in NotesApp() }
        registry.factory("activity-journal") { r in try await ActivityJournal.open(path: try r.arg("path")) }
            .onShutdown { journal in try await journal.close() }
        registry.factory("console-logger") { r -> any LogSink in
            ConsoleLogger(level: try r.arg("level"), timestamps: try r.arg("timestamps", default: false))
        }
        registry.factory("file-logger") { r -> any LogSink in FileLogger(path: try r.arg("path")) }
        registry.factory("memory-logger") { _ -> any LogSink in MemoryLogger() }
        return registry
    }
}
