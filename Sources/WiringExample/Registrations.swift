import Foundation
import Wiring
import WiringCommands

/// Every factory the notes app registers; config-examples/services.yaml names them.
enum NotesRegistry: WiringApp {
    /// The keys the build plugin generated from config-examples/: `validate --instantiate`
    /// reports any of them the registry lacks.
    static var factoryKeys: (any FactoryKeySet.Type)? { WiringFactoryKeys.self }

    static func makeRegistry() -> FactoryRegistry {
        let registry = FactoryRegistry()
        registry.factory(WiringFactoryKeys.systemClock) { _ in SystemClock() as any Clock }
        registry.factory(WiringFactoryKeys.fixedClock) { r in
            FixedClock(now: Date(timeIntervalSince1970: TimeInterval(try r.arg("epochSeconds", as: Int.self)))) as any Clock
        }
        registry.factory(WiringFactoryKeys.fileNoteStore) { r -> NoteStore in
            FileNoteStore(directory: try r.arg("directory"), fsync: try r.arg("fsync", default: false))
        }
        registry.factory(WiringFactoryKeys.inMemoryNoteStore) { _ -> NoteStore in InMemoryNoteStore() }
        registry.factory(WiringFactoryKeys.auditedNoteStore) { r -> NoteStore in
            AuditedNoteStore(inner: try r.decorated(NoteStore.self), prefix: try r.arg("prefix"),
                             log: try r.arg("log", as: (any LogSink).self))
        }
        registry.factory(WiringFactoryKeys.consoleNotifier) { r in ConsoleNotifier(template: try r.arg("template")) as any Notifier }
        registry.factory(WiringFactoryKeys.recordingNotifier) { _ in RecordingNotifier() as any Notifier }
        registry.factory(WiringFactoryKeys.webhookNotifier) { r in
            WebhookNotifier(url: try r.arg("url"), timeout: try r.arg("timeout")) as any Notifier
        }
        registry.factory(WiringFactoryKeys.httpApiClient) { r in APIClient(baseURL: try r.arg("baseURL"), timeout: try r.arg("timeout")) }
        registry.factory(WiringFactoryKeys.memorySessionCache) { _ in SessionCache() }
        registry.factory(WiringFactoryKeys.notesApp) { _ in NotesApp() }
        registry.factory(WiringFactoryKeys.activityJournal) { r in try await ActivityJournal.open(path: try r.arg("path")) }
            .onShutdown { journal in try await journal.close() }
        registry.factory(WiringFactoryKeys.consoleLogger) { r -> any LogSink in
            ConsoleLogger(level: try r.arg("level"), timestamps: try r.arg("timestamps", default: false))
        }
        registry.factory(WiringFactoryKeys.fileLogger) { r -> any LogSink in FileLogger(path: try r.arg("path")) }
        registry.factory(WiringFactoryKeys.memoryLogger) { _ -> any LogSink in MemoryLogger() }
        return registry
    }
}
