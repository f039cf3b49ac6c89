import Foundation
import Logging
import Wiring

/// Every factory the manifests in `config/` name.
extension NotesServerApp {
    public static func registry() -> FactoryRegistry {
        let registry = FactoryRegistry()
        registry.factory("app-logger") { r in
            var logger = Logger(label: "notes-server")
            logger.logLevel = Logger.Level(rawValue: try r.arg("level")) ?? .info
            return logger
        }
        registry.factory("server-settings") { r in
            let port: String = try r.arg("port")
            guard let number = Int(port), (0...65_535).contains(number) else {
                throw ConfigurationError("port '\(port)' is not a port number (0 to 65535)")
            }
            return ServerSettings(host: try r.arg("host"), port: number)
        }
        registry.factory("admin-token") { r in AdminToken(value: try r.arg("token")) }

        // The stores: a file opened asynchronously (eager: open before serving), or memory.
        registry.factory("file-note-store") { r -> any NoteStore in
            try await FileNoteStore.open(directory: try r.arg("directory"), log: try await r.resolve(arg: "log", as: Logger.self))
        }
        .onShutdown { store in try await store.close() }
        registry.factory("in-memory-note-store") { r -> any NoteStore in
            InMemoryNoteStore(log: try r.arg("log", as: Logger.self))
        }
        .onShutdown { store in try await store.close() }

        // Per request (scope `scoped`); RequestLog has no factory: the middleware seeds it.
        registry.factory("unit-of-work") { r in UnitOfWork(log: try r.arg("log", as: RequestLog.self)) }
            .onShutdown { unit in unit.end() }
        // Synchronous, though the file store's factory is async: the store is `eager`, built
        // by `start()` before the server listens, so reading it needs no `await`, and a request
        // resolves its queries without an async factory's frames (the container's work for a
        // request: 2.5 µs with `await r.resolve(arg:)`, 2.0 µs with `r.arg`, caches cooled;
        // `NotesServerBenchmark --in-process`). A synchronous factory cannot wait for an async
        // service still to build: the tests that hold a request open override this one.
        registry.factory("note-queries") { r in
            NoteQueries(store: try r.arg("store", as: (any NoteStore).self),
                        unit: try r.arg("unit", as: UnitOfWork.self),
                        log: try r.arg("log", as: RequestLog.self))
        }
        registry.factory("request-counter") { r in RequestCounter(logger: try r.arg("log", as: Logger.self)) }
            .onShutdown { counter in counter.close() }

        // Tagged `health-check`: what /health runs.
        registry.factory("store-health") { r -> any HealthCheck in
            StoreHealthCheck(store: try await r.resolve(arg: "store", as: (any NoteStore).self))
        }
        registry.factory("uptime-health") { _ -> any HealthCheck in UptimeHealthCheck() }
        return registry
    }
}

/// A value in the manifest that the app cannot use.
struct ConfigurationError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
