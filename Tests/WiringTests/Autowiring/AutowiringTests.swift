import Foundation
import Testing
@testable import Wiring

/// `registry.autowire`: a factory from an initializer, its parameters resolved by type, and
/// its dependencies known to the checks before any factory runs.
@Suite("Autowiring")
struct AutowiringTests {
    static let services = """
        services:
          AutoStore: { factory: store, scope: singleton }
          FixedAutoClock: { factory: clock, implements: [AutoClock] }
          NoteService: { factory: note-service }
          AutoNoteService: {}

        """

    @Test func eachParameterIsResolvedByTypeThroughImplementsToo() throws {
        let container = try AutowiringFixture.container(Self.services)
        let service = try container.resolve(AutoNoteService.self)
        #expect(service.clock.now == 42)
        #expect(service.store === (try container.resolve(AutoStore.self)))
        // No service is declared for AutoAudit: the optional parameter is nil.
        #expect(service.audit == nil)
        // The key form builds the same way.
        let byKey = try container.resolve(key: "NoteService") as? AutoNoteService
        #expect(byKey?.clock.now == 42)
    }

    @Test func aServiceOfAnotherTypeIsATypeMismatchNotACrash() throws {
        let yaml = Self.services.replacingOccurrences(of: "AutoStore: { factory: store, scope: singleton }", with: "AutoStore: { factory: audit }")
        let container = try AutowiringFixture.container(yaml)
        #expect(throws: ResolutionError.self) { try container.resolve(AutoNoteService.self) }
        // A protocol parameter checks what it is given as well, again after a first success.
        let clocks = try AutowiringFixture.container(Self.services)
        _ = try clocks.resolve(AutoNoteService.self)
        let child = try clocks.child { $0.override(key: "FixedAutoClock") { _ in AutoStore() } }
        #expect(throws: ResolutionError.self) { try child.resolve(AutoNoteService.self) }
    }

    @Test func anOptionalParameterIsResolvedWhenItsServiceIsDeclared() throws {
        let container = try AutowiringFixture.container(Self.services + "  AutoAudit: { factory: audit }\n")
        #expect(try container.resolve(AutoNoteService.self).audit != nil)
    }

    /// An async initializer's optional parameter: `nil` with no service for it, else awaited,
    /// through an async factory too; registered by key and under its type's name.
    @Test(arguments: ["AsyncAutoReport: { factory: report }", "AsyncAutoReport: {}"])
    func anAsyncInitializersOptionalParameterIsAwaitedOrNil(declaration: String) async throws {
        let without = try AutowiringFixture.container(Self.services + "  \(declaration)\n")
        #expect(try await without.resolve(AsyncAutoReport.self).audit == nil)
        let with = try AutowiringFixture.container(Self.services + """
              \(declaration)
              AutoAudit: { factory: async-audit, scope: singleton }

            """)
        let audit = try #require(try await with.resolve(AsyncAutoReport.self).audit)
        #expect(audit === (try await with.resolve(AutoAudit.self)))
    }

    @Test func aThrowingInitializersErrorFailsTheResolve() throws {
        let container = try AutowiringFixture.container(Self.services + "  ThrowingAutoService: { factory: throwing }\n")
        #expect {
            try container.resolve(ThrowingAutoService.self)
        } throws: { error in
            "\(error)".hasPrefix("factory 'throwing' of service ThrowingAutoService (") && "\(error)".hasSuffix(") threw: AutoFailure()")
        }
    }

    @Test func anAsyncInitializerIsAwaited() async throws {
        let container = try AutowiringFixture.container(Self.services + "  AsyncAutoGreeter: { factory: greeter }\n")
        let greeter = try await container.resolve(AsyncAutoGreeter.self)
        #expect(greeter.store === (try Self.resolveNow(AutoStore.self, from: container)))
        // Its service cannot be built synchronously.
        let fresh = try AutowiringFixture.container(Self.services + "  AsyncAutoGreeter: { factory: greeter }\n")
        #expect(throws: ResolutionError.self) { try Self.resolveNow(AsyncAutoGreeter.self, from: fresh) }
    }

    /// A synchronous resolve, from an async test.
    static func resolveNow<T>(_ type: T.Type, from container: Container) throws -> T {
        try container.resolve(type)
    }

    /// By key, and under its type's name by a service that names no factory.
    @Test(arguments: ["AutoViewModel: { factory: view-model }", "AutoViewModel: {}"])
    func aMainActorInitializerRunsOnTheMainActor(declaration: String) async throws {
        let container = try AutowiringFixture.container(Self.services + "  \(declaration)\n")
        let model = try await container.resolve(AutoViewModel.self)
        let store = await MainActor.run { ObjectIdentifier(model.store) }
        #expect(store == ObjectIdentifier(try Self.resolveNow(AutoStore.self, from: container)))
    }

    @Test func typedArgumentsFillTheParameterOfTheirType() throws {
        let container = try AutowiringFixture.container(Self.services + "  AutoPool: { factory: pool, args: { size: 7 } }\n")
        let pool = try container.resolve(AutoPool.self)
        #expect(pool.size == 7)
        #expect(pool.store === (try container.resolve(AutoStore.self)))
        // The args are checked as a typed factory's are, when the container is built.
        #expect(throws: ManifestError.self) { try AutowiringFixture.container(Self.services + "  AutoPool: { factory: pool, args: { size: big } }\n") }
    }

    @Test func anAsyncInitializerTakesItsTypedArgumentsToo() async throws {
        let container = try AutowiringFixture.container(Self.services + "  AsyncAutoPool: { factory: async-pool, args: { size: 3 } }\n")
        #expect(try await container.resolve(AsyncAutoPool.self).size == 3)
    }

    @Test func aDependencyNoServiceProvidesIsAnErrorAtTheServiceBeforeAnyFactoryRuns() throws {
        let yaml = """
            services:
              AutoStor: { factory: store }
              FixedAutoClock: { factory: clock, implements: [AutoClock] }
              AutoNoteService: {}

            """
        #expect {
            try AutowiringFixture.container(yaml)
        } throws: { error in
            let text = "\(error)"
            return text.contains("m.yaml:5:3: error: autowired parameter 'AutoStore' of service 'AutoNoteService' refers to unknown service 'AutoStore'; did you mean 'AutoStor'?")
        }
    }

    /// An autowired parameter resolves its type without a name: a type that services list
    /// only under names cannot give it one, optional or not, and that is an error when the
    /// container is built, not a resolve that fails later.
    @Test func aDependencyListedOnlyUnderNamesIsAnErrorBeforeAnyFactoryRuns() throws {
        let clock = """
            services:
              AutoStore: { factory: store }
              FixedAutoClock: { factory: clock, implements: [{ type: AutoClock, name: fixed }] }
              AutoNoteService: {}

            """
        #expect {
            try AutowiringFixture.container(clock)
        } throws: { error in
            "\(error)".contains("m.yaml:5:3: error: autowired parameter 'AutoClock' of service 'AutoNoteService' resolves the type without a name, but services list it only under names (fixed)")
        }
        let audit = Self.services + "  Audit: { factory: audit, implements: [{ type: AutoAudit, name: kept }] }\n"
        #expect {
            try AutowiringFixture.container(audit)
        } throws: { error in
            "\(error)".contains("m.yaml:6:3: error: autowired parameter 'AutoAudit' of service 'AutoNoteService' resolves the type without a name, but services list it only under names (kept)")
        }
    }

    @Test func aCycleOfAutowiredFactoriesIsFoundBeforeAnyFactoryRuns() throws {
        let yaml = Self.services + "  AutoPing: {}\n  AutoPong: {}\n"
        #expect {
            try AutowiringFixture.container(yaml)
        } throws: { error in
            "\(error)".contains("error: circular dependency through declared references: AutoPing → AutoPong")
        }
    }

    @Test func aSingletonThatAutowiresAShorterLivedServiceIsACaptiveDependency() throws {
        let yaml = """
            services:
              AutoStore: { factory: store, scope: unique }
              FixedAutoClock: { factory: clock, implements: [AutoClock] }
              AutoNoteService: { scope: singleton }

            """
        let path = try AutowiringFixture.temporaryManifest(yaml)
        var options = ValidationOptions()
        options.autowired = AutowiringFixture.registry().autowiredDependencies
        let found = ManifestLoader().validate(path, options: options).diagnostics.map(\.message)
        #expect(found.contains { $0.hasPrefix("captive dependency: AutoNoteService (singleton) → AutoStore (unique) through autowired parameter 'AutoStore'") }, "\(found)")
    }

    @Test func aContextThatSwitchesADependencyOffIsReportedWithIt() throws {
        let yaml = Self.services + """
            contexts:
              test:
                services:
                  AutoStore: { enabled: false }

            """
        let path = try AutowiringFixture.temporaryManifest(yaml)
        var options = ValidationOptions(contexts: ["test"])
        options.autowired = AutowiringFixture.registry().autowiredDependencies
        let found = ManifestLoader().validate(path, options: options).diagnostics.map(\.message)
        #expect(found.contains { $0.contains("autowired parameter 'AutoStore' of service 'AutoNoteService' refers to service 'AutoStore', which is switched off in context 'test'") }, "\(found)")
    }

    @Test func aChildsOverrideReplacesWhatAParameterResolves() throws {
        let container = try AutowiringFixture.container(Self.services)
        let child = try container.child { $0.override((any AutoClock).self, with: FixedAutoClock(now: 7)) }
        #expect(try child.resolve(AutoNoteService.self).clock.now == 7)
        #expect(try container.resolve(AutoNoteService.self).clock.now == 42)
    }

    /// A share hands out the parent's instance: when the parent overrides an autowired service
    /// with a closure that takes no parameter, a grandchild may override what the autowired
    /// factory took and still share the service. Shared from the root, which builds it
    /// autowired, it is refused (its instance holds the root's clock).
    @Test func aChildMayShareWhatItsParentBuildsWithoutTheAutowiredParameter() throws {
        let container = try AutowiringFixture.container(Self.services)
        let parent = try container.child {
            $0.override(AutoNoteService.self) { _ in AutoNoteService(store: AutoStore(name: "parent's"), clock: FixedAutoClock(now: 1), audit: nil) }
        }
        let grandchild = try parent.child {
            $0.override((any AutoClock).self, with: FixedAutoClock(now: 7))
            $0.share(AutoNoteService.self)
        }
        #expect(try grandchild.resolve(AutoNoteService.self).store.name == "parent's")
        #expect(try grandchild.resolve(AutoNoteService.self).clock.now == 1)
        let error = #expect(throws: ManifestError.self) {
            try container.child {
                $0.override((any AutoClock).self, with: FixedAutoClock(now: 7))
                $0.share(AutoNoteService.self)
            }
        }
        #expect(error?.diagnostics.map(\.message) == [
            "cannot share AutoNoteService: it depends on FixedAutoClock, which this child overrides (AutoNoteService → FixedAutoClock), and the parent's instance holds the parent's; override AutoNoteService too, or do not share it",
        ])
    }

    @Test func decoratorsAndPropertyHooksWrapAnAutowiredService() throws {
        let registry = AutowiringFixture.registry()
        registry.factory("renamed-store") { r in AutoStore(name: "decorated " + (try r.decorated(AutoStore.self)).name) }
        let hooked = Locked(0)
        registry.resolvingProperties("note-service", as: AutoNoteService.self) { _, _ in hooked.withLock { $0 += 1 } }
        let container = try AutowiringFixture.container(Self.services + "  Renamed: { factory: renamed-store, decorates: AutoStore }\n", registry: registry)
        #expect(try container.resolve(key: "NoteService") is AutoNoteService)
        #expect(hooked.withLock { $0 } == 1)
        #expect(try container.resolve(AutoNoteService.self).store.name == "decorated store")
    }

    @Test func theRegistryRecordsEachAutowiredFactorysDependencies() {
        let dependencies = AutowiringFixture.registry().autowiredDependencies
        #expect(dependencies["note-service"]?.map(\.description) == ["AutoStore", "AutoClock", "AutoAudit?"])
        #expect(dependencies["AutoNoteService"]?.map(\.description) == ["AutoStore", "AutoClock", "AutoAudit?"])
        #expect(dependencies["pool"]?.map(\.description) == ["AutoStore"])   // the args parameter is no dependency
        // The async, async with args, and isolated forms, by key and under the type's name.
        #expect(dependencies["greeter"]?.map(\.description) == ["AutoStore"])
        #expect(dependencies["async-pool"]?.map(\.description) == ["AutoStore"])
        #expect(dependencies["report"]?.map(\.description) == ["AutoStore", "AutoAudit?"])
        #expect(dependencies["AsyncAutoReport"]?.map(\.description) == ["AutoStore", "AutoAudit?"])
        #expect(dependencies["view-model"]?.map(\.description) == ["AutoStore"])
        #expect(dependencies["AutoViewModel"]?.map(\.description) == ["AutoStore"])
        #expect(dependencies["store"] == nil)                                // a closure's are not known
    }
}
