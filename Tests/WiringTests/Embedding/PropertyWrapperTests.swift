import Foundation
import Logging
import Testing
@testable import Wiring

/// Classes that use the wrappers the way app code does.
final class Screen {
    @Injected var logger: Logger
    @Injected(name: "replica") var replica: UserStore
    @LazyInjected var clock: Clock
    @WeakLazyInjected var connection: Connection?
    @OptionalInjected var missing: String?
    @OptionalInjected var sink: (any LogSink)?
}

@Suite("Property wrappers and the shared container")
struct PropertyWrapperTests {
    func container(counter: BuildCounter = BuildCounter(), logger: Logging.Logger? = nil) throws -> Container {
        try Container(manifest: TestSupport.fixture("container/app.yaml"), registry: Fixture.registry(counter: counter),
                      contexts: .none, options: .init(environment: [:], logger: logger))
    }

    @Test func injectedResolvesAtInitFromTheCurrentContainer() throws {
        let container = try container()
        let logger = try container.resolve(Logger.self)
        Container.using(container) {
            let screen = Screen()
            #expect(screen.logger === logger)
            #expect(screen.replica.describe() == "cache:log:postgres://replica")   // name:
            #expect(screen.sink?.level == "debug")                                 // through implements
            #expect(screen.missing == nil)                                          // nothing declared
        }
    }

    @Test func lazyResolvesOnFirstReadAndKeeps() throws {
        let counter = BuildCounter()
        let container = try container(counter: counter)
        Container.using(container) {
            final class Holder { @LazyInjected var handler: Handler }
            let holder = Holder()
            #expect(counter["request-context"] == 0)
            let first = holder.handler
            #expect(counter["request-context"] == 1)
            #expect(holder.handler === first)
        }
    }

    @Test func weakLazyLetsTheInstanceGo() throws {
        let counter = BuildCounter()
        let container = try container(counter: counter)
        // Something else holds the shared connection; the wrapper sees it only while it does.
        var held: Connection? = try container.resolve(Connection.self)
        Container.using(container) {
            let screen = Screen()
            #expect(screen.connection === held)
            held = nil
            #expect(screen.connection == nil)
            #expect(counter["connection"] == 1)
        }
    }

    @Test func anExplicitContainerWinsOverTheCurrentOne() throws {
        let a = try container(), b = try container()
        let fromB = try b.resolve(Logger.self), fromA = try a.resolve(Logger.self)
        Container.using(a) {
            #expect(Injected<Logger>(container: b).wrappedValue === fromB)
            #expect(Injected<Logger>().wrappedValue === fromA)
        }
    }

    @Test func parallelTestsEachSeeTheirOwnContainer() async throws {
        let containers = try (0..<8).map { _ in try container() }
        try await withThrowingTaskGroup(of: Bool.self) { group in
            for container in containers {
                let expected = try await container.resolve(Logger.self)
                group.addTask {
                    try await Container.using(container) {
                        try await Task.sleep(for: .milliseconds(5))
                        return Screen().logger === expected
                    }
                }
            }
            for try await sawItsOwn in group { #expect(sawItsOwn) }
        }
        #expect(Set(containers.map { ObjectIdentifier(try! $0.resolve(Logger.self)) }).count == 8)
    }

    @Test func wrappersInAnInstanceResolveFromTheContainerBuildingIt() throws {
        // No container is current here: the one building Screen must serve its wrappers.
        let path = try TestSupport.temporaryFile("""
            wiring: 1
            services:
              Screen: { factory: screen }
              Logger: { factory: logger, scope: singleton, args: { level: warn, port: 1, tags: [] } }
              UserStore: { factory: user-store, args: { url: u }, names: { replica: {} } }
              Clock: { factory: clock }
              Connection: { factory: connection, scope: shared }
            """)
        let registry = Fixture.registry()
        registry.factory("screen") { _ in Screen() }
        let container = try Container(manifest: path, registry: registry, contexts: .none)
        let screen = try container.resolve(Screen.self)
        #expect(screen.logger === (try container.resolve(Logger.self)))
        #expect(screen.logger.level == "warn")
        #expect(Container.current == nil)
    }

    /// A lazy wrapper resolves from the container that built its owner, whichever container is
    /// current when it is first read; its read is a resolution of its own (not the owner's graph).
    @Test func aLazyWrapperResolvesFromTheContainerThatBuiltItsOwner() throws {
        final class Owner {
            let direct: RequestContext
            @LazyInjected var later: RequestContext
            @WeakLazyInjected var connection: Connection?
            init(direct: RequestContext) { self.direct = direct }
        }
        let yaml = """
            wiring: 1
            services:
              Owner: { factory: owner }
              RequestContext: { factory: request-context, scope: graph }
              Connection: { factory: connection, scope: shared }
            """
        let (builtBy, other) = (BuildCounter(), BuildCounter())
        func container(_ counter: BuildCounter) throws -> Container {
            let registry = Fixture.registry(counter: counter)
            registry.factory("owner") { r in Owner(direct: try r.resolve()) }
            return try Container(manifest: try TestSupport.temporaryFile(yaml), registry: registry, contexts: .none)
        }
        let a = try container(builtBy), b = try container(other)
        let owner = try a.resolve(Owner.self)
        let held = try a.resolve(Connection.self)
        let heldInB = try b.resolve(Connection.self)
        Container.using(b) {
            let later = owner.later
            #expect(later !== owner.direct)
            #expect(owner.connection === held)
            #expect(owner.connection !== heldInB)
            #expect(owner.$later.container === a)
        }
        #expect(builtBy["request-context"] == 2)
        #expect(other["request-context"] == 0)
    }

    @Test func theLazyWrappersNameAndContainerAreSetBeforeTheFirstRead() throws {
        let container = try container()
        final class Holder {
            @LazyInjected var store: UserStore
            @WeakLazyInjected var weakStore: UserStore?
        }
        let holder = Holder()
        #expect(!holder.$store.isResolved)
        holder.$store.container = container
        holder.$store.name = "archive"
        holder.$weakStore.container = container
        holder.$weakStore.name = "archive"
        let archive = try container.resolve(UserStore.self, name: "archive")
        #expect(holder.store.describe() == archive.describe())   // the variant is unique: an equal instance
        #expect(holder.$store.isResolved)
        #expect(holder.$store.name == "archive")
        #expect(holder.weakStore.map { $0 === archive } ?? true)
    }

    @Test func settingALazyWrappersNameAfterTheFirstReadStopsWithAMessage() throws {
        let output = try BinaryRunner.run("ContextProbe", ["rename-after-read"])
        #expect(output.status != 0)
        #expect(output.stdout.contains("read: hi"))
        #expect(!output.stdout.contains("unreachable"))
        #expect(output.stderr.contains("Wiring: 'name' of a lazily injected property was set after its first read; set it before the property is read (in init)"))
    }

    @Test func injectingBeforeBootstrapSaysWhatToDo() throws {
        let output = try BinaryRunner.run("ContextProbe", ["inject-before-bootstrap"])
        #expect(output.status != 0)
        #expect(!output.stdout.contains("unreachable"))
        #expect(output.stderr.contains("Wiring: no container. Call Container.bootstrap(manifest:registry:) once at launch, or run this code inside Container.using(container) { … } (in tests)."))
    }

    /// In a process of its own: the shared container is the process's, and a test that set it
    /// would change what every other test's wrappers resolve from.
    @Test func bootstrapSetsTheSharedContainerTheWrappersResolveFrom() throws {
        let output = try BinaryRunner.run("ContextProbe", ["bootstrap"])
        #expect(output.status == 0, "\(output.stderr)")
        #expect(output.stdout == """
            shared: true, current: true
            injected: hi HI hi nil
            kept: true
            replaced: true, injected: bye

            """)
    }

    /// A wrapper cannot throw: a resolve that fails stops the program with its message.
    @Test func aWrapperWhoseResolveFailsStopsWithTheMessage() throws {
        let output = try BinaryRunner.run("ContextProbe", ["inject-failure"])
        #expect(output.status != 0)
        #expect(!output.stdout.contains("unreachable"))
        #expect(output.stderr.contains("Wiring: cannot inject Greeter: "), "\(output.stderr)")
        #expect(output.stderr.contains("service Greeter has no argument 'greeting' (it has none)"), "\(output.stderr)")
    }

    @Test func bootstrapReportsProblemsAsThrownErrors() throws {
        #expect {
            try Container.bootstrap(manifest: TestSupport.fixture("container/unbound.yaml"), registry: FactoryRegistry(),
                                    contexts: .none, options: .init(environment: [:]))
        } throws: { error in
            (error as? ManifestError)?.errors.first?.message.hasPrefix("service 'Logger' uses factory 'loger'") == true
        }
        // .instantiate meets a failing factory at launch, as a thrown error.
        #expect {
            try Container.bootstrap(manifest: TestSupport.fixture("container/app.yaml"), registry: Fixture.registry(),
                                    contexts: .none, checking: .instantiate, options: .init(environment: [:]))
        } throws: { error in
            (error as? ManifestError)?.errors.contains { $0.message.contains("factory 'broken' of service Broken") } == true
        }
    }

    @Test func resolutionsAreTracedAndFailuresLogged() throws {
        let records = LogRecords()
        var logger = Logging.Logger(label: "test") { _ in RecordingLogHandler(records: records) }
        logger.logLevel = .trace
        let container = try container(logger: logger)
        _ = try container.resolve(Logger.self)
        _ = try container.resolve(Logger.self)
        _ = try container.resolve(Clock.self)
        let lines = records.lines
        #expect(lines.first == "info: contexts: none")
        #expect(lines.contains { $0.hasPrefix("trace: resolve Logger (singleton): built in ") })
        #expect(lines.contains("trace: resolve Logger: kept"))
        #expect(lines.contains { $0.hasPrefix("trace: resolve Clock (unique): built in ") })
        container.logFailure(ResolutionError(.circularDependency, message: "boom", path: []))
        #expect(records.lines.last == "error: boom")
        // At info level nothing is traced.
        let quiet = LogRecords()
        var infoLogger = Logging.Logger(label: "test") { _ in RecordingLogHandler(records: quiet) }
        infoLogger.logLevel = .info
        let plain = try self.container(logger: infoLogger)
        _ = try plain.resolve(Logger.self)
        #expect(quiet.lines == ["info: contexts: none"])
    }
}
