import Foundation
import Testing
@testable import Wiring
import WiringCommands

/// What a server knows of a request, seeded into the request's scope.
final class RequestInfo: Sendable {
    let id: String
    init(id: String) { self.id = id }
}

/// A value seeded into a scope: held in a box, not as an object.
struct Region: Sendable, Equatable {
    let identifier: String
}

final class RequestHandler: Sendable {
    let info: RequestInfo
    let region: Region
    init(info: RequestInfo, region: Region) {
        self.info = info
        self.region = region
    }
}

@Suite("Seeding a scope")
struct ScopeSeedingTests {
    static let manifest = """
        services:
          RequestInfo: { factory: request-info, scope: scoped }
          Region: { factory: region, scope: scoped }
          RequestHandler: { factory: requestHandler, scope: scoped, args: { info: !service RequestInfo, region: !service Region } }
          Pool: { factory: pool, scope: singleton }
        """

    static func container(_ journal: Journal = Journal()) throws -> Container {
        let registry = FactoryRegistry()
        registry.factory("request-info") { _ in
            journal.record("build RequestInfo")
            return RequestInfo(id: "built")
        }.onShutdown { _ in journal.record("close RequestInfo") }
        registry.factory("region") { _ in Region(identifier: "built") }
        // Synchronous, with its dependencies as `!service` arguments: the path a request takes.
        registry.factory("requestHandler") { r in
            RequestHandler(info: try r.arg("info", as: RequestInfo.self), region: try r.arg("region", as: Region.self))
        }.onShutdown { _ in journal.record("close RequestHandler") }
        registry.factory("pool") { _ in try await Pool.connect() }
        return try AsyncFixture.container(manifest, registry: registry)
    }

    @Test func resolvesAndDependentsGetTheSeededInstance() async throws {
        let journal = Journal()
        let container = try Self.container(journal)
        let scope = container.makeScope()
        let info = RequestInfo(id: "request-1")
        try scope.seed(info)
        try scope.seed(Region(identifier: "fr"))
        let requestHandler = try scope.resolveSynchronously(RequestHandler.self)
        #expect(requestHandler.info === info)
        #expect(requestHandler.region == Region(identifier: "fr"))
        #expect(try scope.resolveSynchronously(RequestInfo.self) === info)
        #expect(try await scope.resolve(Region.self) == Region(identifier: "fr"))
        #expect(try await scope.resolve(RequestHandler.self) === requestHandler)
        try await scope.end()
        // The factory never ran, and the seeded instance's hook does not run: the caller made it.
        #expect(journal.all == ["close RequestHandler"])
    }

    @Test func aSeedBelongsToItsScopeAlone() async throws {
        let container = try Self.container()
        let seeded = container.makeScope()
        try seeded.seed(RequestInfo(id: "request-1"))
        let other = container.makeScope()
        #expect(try other.resolveSynchronously(RequestHandler.self).info.id == "built")
        #expect(try seeded.resolveSynchronously(RequestHandler.self).info.id == "request-1")
        try await seeded.end()
        try await other.end()
    }

    @Test func onlyAnEmptySlotOfAScopedServiceTakesASeed() async throws {
        let container = try Self.container()
        let scope = container.makeScope()
        _ = try scope.resolveSynchronously(RequestInfo.self)
        let occupied = #expect(throws: ResolutionError.self) { try scope.seed(RequestInfo(id: "late")) }
        #expect(occupied?.message.hasPrefix("the scope already holds an instance of service RequestInfo (") == true)
        #expect(occupied?.message.hasSuffix("): seed it before anything resolves it") == true)
        #expect(occupied.map { if case .seedRefused("RequestInfo") = $0.kind { true } else { false } } == true)

        let pool = try await Pool.connect()
        let singleton = #expect(throws: ResolutionError.self) { try scope.seed(pool) }
        #expect(singleton?.message.hasPrefix("service Pool (") == true)
        #expect(singleton?.message.hasSuffix(") is singleton, not scoped: only a scoped service can be seeded in a scope") == true)

        let unknown = #expect(throws: ResolutionError.self) { try scope.seed("text") }
        #expect(unknown.map { if case .unknownService = $0.kind { true } else { false } } == true)

        try await scope.end()
        let ended = #expect(throws: ResolutionError.self) { try scope.seed(Region(identifier: "de")) }
        #expect(ended?.message.hasPrefix("the scope has ended; service Region (") == true)
        #expect(ended?.message.hasSuffix(") cannot be seeded in it") == true)
    }

    // MARK: - `seeded: true` in the manifest

    static let seededManifest = """
        services:
          RequestInfo: { scope: scoped, seeded: true }
          Region: { factory: region, scope: scoped, seeded: true }
          RequestHandler: { factory: handler, scope: scoped, args: { info: !service RequestInfo, region: !service Region } }
        """

    /// No factory is registered for RequestInfo: it is only ever seeded.
    static func seededContainer() throws -> Container {
        let registry = FactoryRegistry()
        registry.factory("region") { _ in Region(identifier: "built") }
        registry.factory("handler") { r in
            RequestHandler(info: try r.arg("info", as: RequestInfo.self), region: try r.arg("region", as: Region.self))
        }
        return try AsyncFixture.container(seededManifest, registry: registry)
    }

    @Test func aSeededServiceNeedsNoFactoryAndSaysSoWhenNotSeeded() async throws {
        let container = try Self.seededContainer()
        let seeded = container.makeScope()
        let info = RequestInfo(id: "request-1")
        try seeded.seed(info)
        let handler = try seeded.resolveSynchronously(RequestHandler.self)
        #expect(handler.info === info)
        // A seeded service with a factory falls back to it in a scope that was not seeded.
        #expect(handler.region == Region(identifier: "built"))
        try await seeded.end()

        let unseeded = container.makeScope()
        let error = #expect(throws: ResolutionError.self) { try unseeded.resolveSynchronously(RequestHandler.self) }
        #expect(error.map { if case .notSeeded("RequestInfo") = $0.kind { true } else { false } } == true)
        #expect(error?.message.hasPrefix("service RequestInfo (") == true)
        #expect(error?.message.hasSuffix(") is seeded: give the scope its instance with scope.seed(_:) before anything resolves it") == true)
        #expect(error?.path.map(\.service) == ["RequestHandler", "RequestInfo"])
        try await unseeded.end()
    }

    @Test func checksAndDryRunsKnowASeededService() async throws {
        let path = try TestSupport.temporaryFile("wiring: 1\n" + Self.seededManifest, name: "services.yaml")
        let manifest = try ManifestLoader().load(path)
        // No factory key to check against a catalog for RequestInfo; Region names one.
        #expect(manifest.factoryKeyDiagnostics(registered: []).map(\.message).allSatisfy { !$0.contains("RequestInfo") })
        #expect(manifest.factoryKeyDiagnostics(registered: []).count == 2)
        let explained = try manifest.explain("RequestInfo", environment: [:])
        #expect(explained.fields.map(\.path).prefix(2) == ["scope", "seeded"])
        #expect(explained.fields.first { $0.path == "seeded" }?.value == "true")

        // A dry run builds neither the seeded service nor what depends on it: it says why.
        let dryRun = await (try Self.seededContainer()).instantiateAll()
        #expect(dryRun.filter { $0.severity == .error }.isEmpty, "\(dryRun)")
        #expect(dryRun.map(\.message) == [
            "RequestInfo is seeded into each scope by code; a dry run does not build it",
            "RequestHandler depends on RequestInfo, which is seeded into each scope by code; a dry run does not build it",
        ])
    }
}
