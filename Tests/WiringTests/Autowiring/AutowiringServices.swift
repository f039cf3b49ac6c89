import Foundation
import Wiring

// The services the autowiring tests build: initializers with dependencies, as an app writes them.

protocol AutoClock: Sendable { var now: Int { get } }
struct FixedAutoClock: AutoClock { let now: Int }

final class AutoStore: Sendable {
    let name: String
    init(name: String = "store") { self.name = name }
}

final class AutoAudit: Sendable {}

/// Three dependencies, one a protocol, one optional.
final class AutoNoteService: Sendable {
    let store: AutoStore
    let clock: any AutoClock
    let audit: AutoAudit?
    init(store: AutoStore, clock: any AutoClock, audit: AutoAudit?) {
        self.store = store
        self.clock = clock
        self.audit = audit
    }
}

struct AutoFailure: Error {}

final class ThrowingAutoService: Sendable {
    init(store: AutoStore) throws { throw AutoFailure() }
}

/// An async initializer: the form that crashed Swift 6.3.1 without `@concurrent`.
final class AsyncAutoGreeter: Sendable {
    let store: AutoStore
    init(store: AutoStore) async { self.store = store }
}

@MainActor
final class AutoViewModel {
    let store: AutoStore
    init(store: AutoStore) { self.store = store }
}

struct AutoPoolArgs: Decodable, Sendable { var size: Int }

final class AutoPool: Sendable {
    let size: Int
    let store: AutoStore
    init(store: AutoStore, settings: AutoPoolArgs) {
        size = settings.size
        self.store = store
    }
}

/// An async initializer that takes typed args too.
final class AsyncAutoPool: Sendable {
    let size: Int
    init(settings: AutoPoolArgs, store: AutoStore) async { size = settings.size }
}

/// An async initializer with an optional parameter.
final class AsyncAutoReport: Sendable {
    let audit: AutoAudit?
    init(store: AutoStore, audit: AutoAudit?) async { self.audit = audit }
}

final class AutoPing: Sendable {
    let pong: AutoPong
    init(pong: AutoPong) { self.pong = pong }
}

final class AutoPong: Sendable {
    let ping: AutoPing
    init(ping: AutoPing) { self.ping = ping }
}

/// A registry with every autowired form the tests use.
enum AutowiringFixture {
    static func registry() -> FactoryRegistry {
        let registry = FactoryRegistry()
        registry.factory("store") { _ in AutoStore() }
        registry.factory("clock") { _ in FixedAutoClock(now: 42) }
        registry.factory("audit") { _ in AutoAudit() }
        registry.autowire("note-service", AutoNoteService.init)
        registry.autowire(AutoNoteService.init)   // the type-keyed form, under "AutoNoteService"
        registry.autowire("throwing", ThrowingAutoService.init)
        registry.autowire("greeter", AsyncAutoGreeter.init)
        registry.autowire("view-model", isolated: AutoViewModel.init)
        registry.autowire("pool", AutoPool.init, args: AutoPoolArgs.self)
        registry.autowire("async-pool", AsyncAutoPool.init, args: AutoPoolArgs.self)
        registry.autowire("report", AsyncAutoReport.init)
        registry.autowire(AsyncAutoReport.init)   // the type-keyed async form
        registry.autowire(isolated: AutoViewModel.init)   // the type-keyed isolated form
        registry.factory("async-audit") { _ in
            await Task.yield()
            return AutoAudit()
        }
        registry.autowire(AutoPing.init)
        registry.autowire(AutoPong.init)
        return registry
    }

    static func container(_ yaml: String, registry: FactoryRegistry = registry()) throws -> Container {
        try Container(manifest: try temporaryManifest(yaml), registry: registry, contexts: .none)
    }

    static func temporaryManifest(_ yaml: String) throws -> String {
        try TestSupport.temporaryFile("wiring: 1\n" + yaml, name: "m.yaml")
    }
}
