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
        registry.factory(WiringFactoryKeys.fixedClock, args: FixedClockArgs.self) { _, args in
            FixedClock(now: Date(timeIntervalSince1970: TimeInterval(args.epochSeconds))) as any Clock
        }
        registry.factory(WiringFactoryKeys.fileNoteStore, args: FileNoteStoreArgs.self) { _, args -> NoteStore in
            FileNoteStore(directory: args.directory, fsync: args.fsync ?? false)
        }
        registry.factory(WiringFactoryKeys.inMemoryNoteStore) { _ -> NoteStore in InMemoryNoteStore() }
        registry.factory(WiringFactoryKeys.auditedNoteStore, args: AuditedNoteStoreArgs.self) { r, args -> NoteStore in
            AuditedNoteStore(inner: try r.decorated(NoteStore.self), prefix: args.prefix, log: args.log)
        }
        registry.factory(WiringFactoryKeys.consoleNotifier, args: ConsoleNotifierArgs.self) { _, args in
            ConsoleNotifier(template: args.template) as any Notifier
        }
        registry.factory(WiringFactoryKeys.recordingNotifier) { _ in RecordingNotifier() as any Notifier }
        registry.factory(WiringFactoryKeys.webhookNotifier, args: WebhookNotifierArgs.self) { _, args in
            WebhookNotifier(url: args.url.absoluteString, timeout: Double(args.timeout.components.seconds)
                + Double(args.timeout.components.attoseconds) / 1e18) as any Notifier
        }
        registry.factory(WiringFactoryKeys.httpApiClient, args: APIClientArgs.self) { _, args in
            APIClient(baseURL: args.baseURL.absoluteString, timeout: Int(args.timeout.components.seconds))
        }
        registry.factory(WiringFactoryKeys.memorySessionCache) { _ in SessionCache() }
        registry.factory(WiringFactoryKeys.notesApp) { _ in NotesApp() }
        registry.factory(WiringFactoryKeys.activityJournal, args: ActivityJournalArgs.self) { _, args in
            try await ActivityJournal.open(path: args.path)
        }
            .onShutdown { journal in try await journal.close() }
        registry.factory(WiringFactoryKeys.consoleLogger, args: ConsoleLoggerArgs.self) { _, args -> any LogSink in
            ConsoleLogger(level: args.level.rawValue, timestamps: args.timestamps ?? false)
        }
        registry.factory(WiringFactoryKeys.fileLogger, args: FileLoggerArgs.self) { _, args -> any LogSink in FileLogger(path: args.path) }
        registry.factory(WiringFactoryKeys.memoryLogger) { _ -> any LogSink in MemoryLogger() }
        return registry
    }
}
