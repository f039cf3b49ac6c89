import Foundation
@testable import Wiring

/// The services of the child-container tests: a notes app whose store, clock and pool a test
/// replaces. In a namespace of their own, so that `Clock` is the app's protocol, not Swift's.
enum Notebook {
    protocol NoteReading: AnyObject, Sendable { var label: String { get } }

    /// The app's store; tests replace it with one of its subclasses.
    class NoteStore: NoteReading, @unchecked Sendable {
        var label: String { "sql" }
    }

    final class DatabasePool: Sendable { let id = UUID() }
    final class LogSink: Sendable { let id = UUID() }

    final class SQLNoteStore: NoteStore, @unchecked Sendable {
        let pool: DatabasePool
        init(pool: DatabasePool) { self.pool = pool }
    }

    final class InMemoryNoteStore: NoteStore, @unchecked Sendable {
        let log: LogSink
        init(log: LogSink) { self.log = log }
        override var label: String { "memory" }
    }

    final class EmptyStore: NoteStore, @unchecked Sendable {
        override var label: String { "empty" }
    }

    /// The app's clock; tests fix it.
    class Clock: @unchecked Sendable {
        var now: Duration { .seconds(1_000) }
    }

    final class FixedClock: Clock, @unchecked Sendable {
        let fixed: Duration
        init(at now: Duration) { fixed = now }
        override var now: Duration { fixed }
    }

    final class NoteEditor: Sendable {
        let store: NoteStore
        let clock: Clock
        init(store: NoteStore, clock: Clock) {
            self.store = store
            self.clock = clock
        }
    }

    /// Resolves its store in code, not through a declared reference.
    final class NoteLister: Sendable {
        let store: NoteStore
        init(store: NoteStore) { self.store = store }
    }

    final class Reports: Sendable {
        let editor: NoteEditor
        init(editor: NoteEditor) { self.editor = editor }
    }

    final class Health: Sendable {
        let checks: [NoteStore]
        init(checks: [NoteStore]) { self.checks = checks }
    }

    final class RequestLog: Sendable { let id = UUID() }

    static let manifest = """
        wiring: 1
        services:
          DatabasePool: { factory: pool, scope: singleton }
          LogSink: { factory: log, scope: singleton }
          NoteStore:
            factory: sql-store
            scope: singleton
            args: { pool: !service DatabasePool }
            implements: [NoteReading]
            tags: [health-check]
            names:
              archive: { scope: singleton }
          Clock: { factory: system-clock, scope: singleton }
          NoteEditor:
            factory: editor
            scope: singleton
            args: { store: !service NoteStore, clock: !service Clock }
          NoteLister: { factory: lister, scope: unique }
          Reports: { factory: reports, scope: singleton, args: { editor: !service NoteEditor } }
          Health: { factory: health, scope: unique, args: { checks: !tagged health-check } }
          RequestLog: { factory: request-log, scope: scoped }
        """

    /// The app's factories; each shutdown is recorded in `journal`.
    static func registry(_ journal: Journal = Journal()) -> FactoryRegistry {
        let registry = FactoryRegistry()
        registry.factory("pool") { _ in DatabasePool() }.onShutdown { _ in journal.record("close pool") }
        registry.factory("log") { _ in LogSink() }
        registry.factory("sql-store") { r in SQLNoteStore(pool: try r.arg("pool")) }
            .onShutdown { store in journal.record("close \(store.label) store") }
        registry.factory("system-clock") { _ in Clock() }
        registry.factory("editor") { r in NoteEditor(store: try r.arg("store"), clock: try r.arg("clock")) }
            .onShutdown { _ in journal.record("close editor") }
        registry.factory("lister") { r in NoteLister(store: try r.resolve(NoteStore.self)) }
        registry.factory("reports") { r in Reports(editor: try r.arg("editor")) }
        registry.factory("health") { r in Health(checks: try r.arg("checks")) }
        registry.factory("request-log") { _ in RequestLog() }
        return registry
    }

    /// The app's container, as a test builds it once.
    static func container(
        _ journal: Journal = Journal(), manifest: String = Notebook.manifest, registry: FactoryRegistry? = nil
    ) throws -> Container {
        let path = try TestSupport.temporaryFile(manifest, name: "services.yaml")
        return try Container(manifest: path, registry: registry ?? Notebook.registry(journal), contexts: .none,
                             options: Container.Options(environment: [:]))
    }
}
