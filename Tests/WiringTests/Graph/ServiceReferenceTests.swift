import Foundation
import Testing
@testable import Wiring

protocol HealthCheck: Sendable {
    var name: String { get }
}
final class DiskCheck: HealthCheck {
    let name = "disk"
}
final class StoreCheck: HealthCheck {
    let name = "store"
}
final class Archive: Sendable {
    let primary: UserStore, archive: UserStore, checks: [any HealthCheck]
    init(primary: UserStore, archive: UserStore, checks: [any HealthCheck]) {
        (self.primary, self.archive, self.checks) = (primary, archive, checks)
    }
}
final class Stores: Sendable {
    let all: [UserStore]
    init(all: [UserStore]) { self.all = all }
}

@Suite("Service references and tags")
struct ServiceReferenceTests {
    static let manifest = """
        services:
          UserStore:
            factory: user-store
            scope: singleton
            args: { url: primary }
            names:
              archive: { args: { url: archive }, tags: [stores] }
          Archive:
            factory: archive
            scope: unique
            args:
              primary: !service UserStore
              archive: !service { service: UserStore, name: archive }
              checks: !tagged health-check
          Stores:
            factory: stores
            args: { all: [!service UserStore, !service { service: UserStore, name: archive }] }
          DiskCheck: { factory: disk-check, scope: singleton, tags: [health-check] }
          StoreCheck: { factory: store-check, tags: [health-check, metrics] }
        contexts:
          test:
            services:
              StoreCheck: { tags: [metrics] }
              Archive: { args: { primary: !service { service: UserStore, name: archive } } }
        """

    static func registry() -> FactoryRegistry {
        let registry = FactoryRegistry()
        registry.factory("user-store") { r in UserStore(url: try r.arg("url")) }
        registry.factory("archive") { r in
            Archive(primary: try r.arg("primary", as: UserStore.self), archive: try r.arg("archive"),
                    checks: try r.arg("checks", as: [any HealthCheck].self))
        }
        registry.factory("stores") { r in Stores(all: try await r.resolve(arg: "all")) }
        registry.factory("disk-check") { _ in DiskCheck() }
        registry.factory("store-check") { _ in StoreCheck() }
        return registry
    }

    static func container(context: String? = nil) throws -> Container {
        let path = try TestSupport.temporaryFile("wiring: 1\n" + manifest, name: "services.yaml")
        return try Container(manifest: path, registry: registry(), contexts: context.map { .explicit($0) } ?? .none,
                             options: Container.Options(environment: [:]))
    }

    @Test func aFactoryReadsReferencedServicesAsTypedArguments() throws {
        let container = try Self.container()
        let archive = try container.resolve(Archive.self)
        #expect(archive.primary === (try container.resolve(UserStore.self)))
        #expect(archive.archive.url == "archive")
        #expect(archive.archive === (try container.resolve(UserStore.self, name: "archive")))
        #expect(archive.checks.map(\.name) == ["disk", "store"])
    }

    @Test func aListOfReferencesAndAnAwaitedRead() async throws {
        let container = try Self.container()
        let stores = try await container.resolve(Stores.self)
        #expect(stores.all.map(\.url) == ["primary", "archive"])
    }

    @Test func anAsyncFactoryAwaitsSingleReferencesAndAMismatchNamesTheReference() async throws {
        let registry = Self.registry()
        registry.factory("archive", overriding: true) { r in
            Archive(primary: try await r.resolve(arg: "primary"), archive: try await r.resolve(arg: "archive", as: UserStore.self),
                    checks: [])
        }
        let path = try TestSupport.temporaryFile("wiring: 1\n" + Self.manifest, name: "services.yaml")
        let container = try Container(manifest: path, registry: registry, contexts: .none, options: .init(environment: [:]))
        let archive = try await container.resolve(Archive.self)
        #expect(archive.primary === (try await container.resolve(UserStore.self)))
        #expect(archive.archive === (try await container.resolve(UserStore.self, name: "archive")))
        // The test context points `primary` at the archive.
        let test = try Container(manifest: path, registry: registry, contexts: .explicit("test"), options: .init(environment: [:]))
        #expect(try await test.resolve(Archive.self).primary.url == "archive")

        registry.factory("archive", overriding: true) { r in
            _ = try await r.resolve(arg: "primary", as: DiskCheck.self)
            return Archive(primary: UserStore(url: ""), archive: UserStore(url: ""), checks: [])
        }
        let mismatched = try Container(manifest: path, registry: registry, contexts: .none, options: .init(environment: [:]))
        let error = await #expect(throws: ResolutionError.self) { try await mismatched.resolve(Archive.self) }
        #expect(error?.message.contains("argument 'primary' of service Archive refers to UserStore (") == true, "\(String(describing: error))")
        #expect(error?.message.contains("), which produced UserStore, not a DiskCheck") == true)
    }

    @Test func aListElementOfTheWrongTypeIsNamedWithItsPosition() throws {
        let manifest = """
            wiring: 1
            services:
              UserStore: { factory: user-store, scope: singleton, args: { url: primary }, tags: [health-check] }
              DiskCheck: { factory: disk-check, scope: singleton, tags: [health-check] }
              Archive:
                factory: archive
                args: { primary: !service UserStore, archive: !service UserStore, checks: !tagged health-check }
              Stores:
                factory: stores
                args: { all: [!service UserStore, !service DiskCheck] }
            """
        let path = try TestSupport.temporaryFile(manifest, name: "services.yaml")
        let registry = Self.registry()
        registry.factory("stores", overriding: true) { r in Stores(all: try r.arg("all")) }
        let container = try Container(manifest: path, registry: registry, contexts: .none, options: .init(environment: [:]))
        let tagged = #expect(throws: ResolutionError.self) { try container.resolve(Archive.self) }
        #expect(tagged?.message == "argument 'checks' of service Archive is a list of HealthCheck, but service UserStore (\(path):3:3), tagged health-check, produced UserStore, which is not a HealthCheck")
        let listed = #expect(throws: ResolutionError.self) { try container.resolve(Stores.self) }
        #expect(listed?.message == "argument 'all' of service Stores is a list of UserStore, but DiskCheck (\(path):10:39) produced DiskCheck, which is not a UserStore")
    }

    /// `resolve(arg:)` of an argument that is not a reference, of a list with a plain value in
    /// it, or of a list read as one service: each says what it found and how to write it.
    @Test func resolvingAnArgumentThatIsNotAReferenceSaysHowToWriteIt() async throws {
        let registry = Self.registry()
        registry.factory("one-store") { r in try await r.resolve(arg: "all", as: UserStore.self) }
        func failure(_ services: String) async throws -> String {
            let path = try TestSupport.temporaryFile("wiring: 1\nservices:\n  UserStore: { factory: user-store, args: { url: u } }\n" + services,
                                                     name: "services.yaml")
            let container = try Container(manifest: path, registry: registry, contexts: .none, options: .init(environment: [:]))
            let error = await #expect(throws: ResolutionError.self) { try await container.resolve(key: "Broken") }
            return (error?.message ?? "").replacingOccurrences(of: path, with: "services.yaml")
        }
        #expect(try await failure("  Broken: { factory: stores, args: { all: [!service UserStore, primary] } }\n") ==
                "services.yaml:4:64: argument 'all' of service Broken is a list with a string; a list of services has a !service reference in each place")
        let plain = try await failure("  Broken: { factory: stores, args: { all: primary } }\n")
        #expect(plain == "services.yaml:4:43: argument 'all' of service Broken is a string, not a !service reference; write it as !service Key, or read it as a value type",
                "\(plain)")
        #expect(try await failure("  Broken: { factory: one-store, args: { all: [!service UserStore, !service UserStore] } }\n") ==
                "argument 'all' of service Broken refers to services that produced [UserStore, UserStore], which is not a UserStore")
    }

    @Test func tagsResolveInManifestOrderAndContextsReplaceThem() throws {
        let container = try Self.container()
        let checks: [any HealthCheck] = try container.resolveAll(tagged: "health-check")
        #expect(checks.map(\.name) == ["disk", "store"])
        // Every tag a service or a named variant carries, sorted.
        #expect(container.tags == ["health-check", "metrics", "stores"])
        // A named variant has tags of its own.
        #expect(try container.resolveAll(UserStore.self, tagged: "stores").map(\.url) == ["archive"])
        #expect(try container.resolveAll(Any.self, tagged: "nothing").isEmpty)
        let error = #expect(throws: ResolutionError.self) { try container.resolveAll(UserStore.self, tagged: "health-check") }
        #expect(error?.message.hasPrefix("service DiskCheck (") == true)
        let test = try Self.container(context: "test")
        #expect(try test.resolveAll(Any.self, tagged: "health-check").count == 1)
        #expect(test.tags == ["health-check", "metrics", "stores"])
        #expect(try test.resolveAll((any HealthCheck).self, tagged: "metrics").map(\.name) == ["store"])
        // A context points one consumer at another implementation.
        #expect(try test.resolve(Archive.self).primary.url == "archive")
    }

    @Test func tagsResolveWithAwait() async throws {
        let container = try Self.container(context: "test")
        let checks: [any HealthCheck] = try await container.resolveAll(tagged: "metrics")
        #expect(checks.map(\.name) == ["store"])
    }

    @Test func aReferenceReadAsAValueSaysHowToReadIt() throws {
        let registry = Self.registry()
        registry.factory("archive", overriding: true) { r in
            _ = try r.arg("primary", as: String.self)
            return Archive(primary: UserStore(url: ""), archive: UserStore(url: ""), checks: [])
        }
        let path = try TestSupport.temporaryFile("wiring: 1\n" + Self.manifest, name: "services.yaml")
        let container = try Container(manifest: path, registry: registry, contexts: .none, options: .init(environment: [:]))
        let error = #expect(throws: ResolutionError.self) { try container.resolve(Archive.self) }
        #expect(error?.message.hasSuffix(
            ": argument 'primary' of service Archive is a service reference; read it as the service's type: r.arg(\"primary\", as: TheService.self)") == true)
    }
}
