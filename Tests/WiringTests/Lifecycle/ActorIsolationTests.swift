import Foundation
import Testing
@testable import Wiring

@Suite("Actors and global actors")
struct ActorIsolationTests {
    static func container() throws -> Container {
        let registry = FactoryRegistry()
        registry.factory("view-model") { @MainActor _ in ViewModel() }
        registry.factory("counter") { _ in Counter() }
        registry.factory("repository") { @StorageActor _ in Repository() }
        return try AsyncFixture.container("""
            services:
              ViewModel: { factory: view-model, scope: singleton, eager: true }
              Counter: { factory: counter, scope: singleton }
              Repository: { factory: repository, scope: singleton }
            """, registry: registry)
    }

    @Test func aMainActorServiceResolvesWithAwaitFromAnyIsolation() async throws {
        let container = try Self.container()
        let model = try await container.resolve(ViewModel.self)
        let title = await model.title
        #expect(title == "notes")
        #expect(try await container.resolve(ViewModel.self) === model)
    }

    @MainActor
    @Test func onTheMainActorAStartedServiceResolvesSynchronously() async throws {
        let container = try Self.container()
        // A main-actor factory runs on its actor: before it is built, it takes an await.
        #expect(throws: ResolutionError.self) { try Self.resolveOnMain(container) }
        try await container.start()
        let model = try Self.resolveOnMain(container)
        model.title = "edited"
        #expect(model.title == "edited")
    }

    @MainActor
    static func resolveOnMain(_ container: Container) throws -> ViewModel {
        try container.resolve(ViewModel.self)
    }

    @Test func anActorAndAGlobalActorClassResolve() async throws {
        let container = try Self.container()
        let counter = try await container.resolve(Counter.self)
        #expect(await counter.increment() == 1)
        #expect(await (try await container.resolve(Counter.self)).increment() == 2)
        let repository = try await container.resolve(Repository.self)
        await StorageActor.run { repository.rows.append("row") }
        #expect(await StorageActor.run { repository.rows } == ["row"])
    }
}

extension StorageActor {
    static func run<T: Sendable>(_ body: @StorageActor () -> T) async -> T {
        await body()
    }
}
