import Foundation
import Logging
import Wiring

/// Every factory the manifests in `config/` name; a test overrides some of them.
extension Notes {
    public static func registry() -> FactoryRegistry {
        let registry = FactoryRegistry()
        // Every argument is read as a typed struct (FactoryArguments.swift): building the
        // container checks them all, each problem at its manifest line, before any factory runs.
        // One level for every container built from this registry: in development, a reload of
        // the manifests builds a new container, while the server logs through the first one's
        // logger.
        let level = LiveLogLevel()
        registry.factory("live-log-level") { _ in level }
        // Eager and cached: built at start, and again when `log.level` changes.
        registry.factory("log-level", args: LogLevelArgs.self) { _, args in
            args.live.level = args.level
            return LogLevel(level: args.level)
        }
        registry.factory("app-logger", args: LoggerArgs.self) { r, args in
            // The level is set before the logger's first message: LogLevel, which sets it, is
            // built now if nothing (start()) built it yet.
            _ = try r.resolve(LogLevel.self)
            return Logger(label: "notes-server") { label in LiveLevelLogHandler(stream: .standardError(label: label), live: args.live) }
        }
        registry.factory("server-settings", args: ServerSettingsArgs.self) { _, args in
            ServerSettings(host: args.host, port: Int(args.port))
        }
        registry.factory("admin-token", args: AdminTokenArgs.self) { _, args in AdminToken(value: args.token) }

        // The stores: a file opened asynchronously (eager: open before serving), or memory.
        registry.factory("file-note-store", args: FileNoteStoreArgs.self) { _, args -> any NoteStore in
            try await FileNoteStore.open(directory: args.directory, log: args.log)
        }
        .onShutdown { store in try await store.close() }
        registry.factory("in-memory-note-store", args: LoggedArgs.self) { _, args -> any NoteStore in
            InMemoryNoteStore(log: args.log)
        }
        .onShutdown { store in try await store.close() }

        // Per request (scope `scoped`); RequestLog has no factory: the middleware seeds it. The
        // other two are autowired: each initializer's parameters are resolved by type, the
        // same lookup as `r.resolve`, and the manifest checks see them as edges (a singleton
        // that took one would be a captive dependency) without a `!service` line.
        registry.autowire("unit-of-work", UnitOfWork.init)
            .onShutdown { unit in unit.end() }
        // Synchronous, though the file store's factory is async: the store is `eager`, built
        // by `start()` before the server listens, so reading it needs no `await`, and a request
        // resolves its queries without an async factory's frames (`NotesBenchmark --in-process`
        // measures the container's work for a request). A synchronous factory cannot wait for
        // an async service still to build: the tests that hold a request open override this one.
        registry.autowire("note-queries", NoteQueries.init)
        registry.autowire("request-counter", RequestCounter.init)
            .onShutdown { counter in counter.close() }

        // Tagged `health-check`: what /health runs.
        registry.factory("store-health", args: StoreHealthArgs.self) { _, args -> any HealthCheck in
            StoreHealthCheck(store: args.store)
        }
        registry.factory("uptime-health") { _ -> any HealthCheck in UptimeHealthCheck() }
        return registry
    }
}
