import Testing
@testable import Wiring

@Suite("Scopes")
struct ScopeTests {
    @Test func singletonIsBuiltOnceForTheContainersLife() throws {
        let counter = BuildCounter()
        let container = try Fixture.container(counter: counter)
        let first = try container.resolve(Logger.self)
        let second = try container.resolve(Logger.self)
        #expect(first === second)
        #expect(counter["logger"] == 1)
    }

    @Test func uniqueIsNewEachTime() throws {
        let container = try Fixture.container()
        #expect(try container.resolve(Clock.self) !== container.resolve(Clock.self))
    }

    @Test func graphIsSharedWithinOneResolutionAndNotAcross() throws {
        let counter = BuildCounter()
        let container = try Fixture.container(counter: counter)
        let one = try container.resolve(Handler.self)
        #expect(one.first === one.second)
        let two = try container.resolve(Handler.self)
        #expect(two.first !== one.first)
        #expect(counter["request-context"] == 2)
        // Two top-level resolves of a graph service are two resolutions.
        #expect(try container.resolve(RequestContext.self) !== container.resolve(RequestContext.self))
    }

    /// A container whose `Later` keeps its factory's context, to resolve a graph service after
    /// the resolution that built it is over.
    static func laterContainer(scope: String = "unique") throws -> Container {
        let text = """
            wiring: 1
            services:
              Later: { factory: later, scope: \(scope) }
              RequestContext: { factory: request-context, scope: graph }
            """
        let registry = FactoryRegistry()
        registry.factory("request-context") { _ in RequestContext() }
        registry.factory("later") { r in Later { try r.resolve(RequestContext.self) } }
        return try Container(manifest: try TestSupport.temporaryFile(text), registry: registry, contexts: .none)
    }

    @Test func aFactoryThatKeepsItsContextResolvesLaterInAResolutionOfItsOwn() throws {
        // A resolution's state is reused by the next one on the thread once nothing holds it;
        // a factory that keeps its context holds it, so later resolves through that context
        // must neither see nor disturb other resolutions' graph instances.
        let container = try Self.laterContainer()
        let later = try container.resolve(Later.self)
        let betweenFirst = try container.resolve(RequestContext.self)
        let kept = try later.make()
        #expect(try later.make() === kept)             // the kept resolution's own graph instance
        #expect(kept !== betweenFirst)
        #expect(try container.resolve(RequestContext.self) !== kept)
    }

    @Test func aKeptContextKeepsItsContainerAfterTheCallerLetsGo() throws {
        // Contexts do not count their container; the state a kept context holds does, once
        // the resolution is over.
        weak var released: Container?
        var later: Later?
        do {
            let container = try Self.laterContainer()
            released = container
            later = try container.resolve(Later.self)
        }
        #expect(released != nil)
        let first = try #require(later).make()
        let again = try #require(later).make()
        #expect(first === again)
        later = nil
        #expect(released == nil)
    }

    @Test func aKeptInstanceThatKeepsItsContextKeepsItsContainerUntilShutdown() async throws {
        // A singleton that keeps its context holds the container that holds it: the container
        // outlives its caller's reference, until shutdown drops the instances it keeps.
        weak var released: Container?
        weak var kept: Later?
        do {
            let container = try Self.laterContainer(scope: "singleton")
            released = container
            kept = try await container.resolve(Later.self)
        }
        #expect(released != nil)
        #expect(kept != nil)
        try await #require(released).shutdown()
        #expect(kept == nil)
        #expect(released == nil)
    }

    @Test func aKeptContextOfABuildWithArgumentsKeepsThemAndItsResolution() throws {
        // A build with runtime arguments holds its state in a box with them; a build without
        // holds it bare, at the top level and nested. Either way, the context a factory keeps
        // must keep what it reads.
        let text = """
            wiring: 1
            services:
              Later: { factory: later, scope: unique }
              Sized: { factory: sized, scope: unique }
              Outer: { factory: outer, scope: unique }
              RequestContext: { factory: request-context, scope: graph }
            """
        let registry = FactoryRegistry()
        registry.factory("request-context") { _ in RequestContext() }
        registry.factory("later") { r in Later { try r.resolve(RequestContext.self) } }
        registry.factory("sized") { r in
            Sized(size: try r.argument(), later: Later { try r.resolve(RequestContext.self) }, reread: { try r.argument() })
        }
        registry.factory("outer") { r in
            Outer(sized: try r.resolve(Sized.self, arguments: 3), later: try r.resolve(Later.self))
        }
        var sized: Sized?
        var outer: Outer?
        do {
            let container = try Container(manifest: try TestSupport.temporaryFile(text), registry: registry, contexts: .none)
            sized = try container.resolve(Sized.self, arguments: 7)
            outer = try container.resolve(Outer.self)
        }
        let top = try #require(sized)
        #expect(top.size == 7)
        #expect(try top.reread() == 7)
        #expect(try top.later.make() === top.later.make())
        let nested = try #require(outer)
        #expect(try nested.sized.reread() == 3)
        #expect(try nested.sized.later.make() === nested.sized.later.make())
        #expect(try nested.later.make() === nested.later.make())
        #expect(try nested.later.make() !== top.later.make())
    }

    @Test func cachedExpiresAfterItsTimeToLive() throws {
        let clock = ManualClock()
        let counter = BuildCounter()
        let container = try Fixture.container(counter: counter, clock: clock)
        let first = try container.resolve(Token.self)
        clock.advance(by: .seconds(29))
        #expect(try container.resolve(Token.self) === first)
        clock.advance(by: .seconds(1))
        let renewed = try container.resolve(Token.self)
        #expect(renewed !== first)
        #expect(counter["token"] == 2)
    }

    @Test func customScopeKeepsUntilItsTimeToLiveOrAReset() throws {
        let clock = ManualClock()
        let container = try Fixture.container(clock: clock)
        let first = try container.resolve(Session.self)
        #expect(try container.resolve(Session.self) === first)
        container.reset(scope: Scope("session"))
        let second = try container.resolve(Session.self)
        #expect(second !== first)
        clock.advance(by: .seconds(60))
        #expect(try container.resolve(Session.self) !== second)
    }

    @Test func sharedIsKeptWhileSomeoneHoldsIt() throws {
        let counter = BuildCounter()
        let container = try Fixture.container(counter: counter)
        var held: Connection? = try container.resolve(Connection.self)
        let id = ObjectIdentifier(held!)
        #expect(ObjectIdentifier(try container.resolve(Connection.self)) == id)
        #expect(counter["connection"] == 1)
        held = nil
        _ = try container.resolve(Connection.self)
        #expect(counter["connection"] == 2)
        _ = held
    }

    @Test func sharedValueTypesAreNotKept() throws {
        struct Settings { let serial: Int }
        let path = try TestSupport.temporaryFile("wiring: 1\nservices:\n  Settings: { factory: settings, scope: shared }\n")
        let counter = BuildCounter()
        let registry = FactoryRegistry()
        registry.factory("settings") { _ in counter.tick("settings"); return Settings(serial: counter["settings"]) }
        let container = try Container(manifest: path, registry: registry, contexts: .none)
        #expect(try container.resolve(Settings.self).serial == 1)
        #expect(try container.resolve(Settings.self).serial == 2)
    }

    @Test func resetsOfOneServiceOneScopeAndEverything() throws {
        let container = try Fixture.container()
        let logger = try container.resolve(Logger.self)
        let token = try container.resolve(Token.self)
        container.reset(scope: .cached)
        #expect(try container.resolve(Logger.self) === logger)
        #expect(try container.resolve(Token.self) !== token)

        container.reset(service: "Logger")
        let newLogger = try container.resolve(Logger.self)
        #expect(newLogger !== logger)
        container.reset(Logger.self)
        #expect(try container.resolve(Logger.self) !== newLogger)

        let store = try container.resolve(UserStore.self)
        let session = try container.resolve(Session.self)
        container.reset()
        #expect(try container.resolve(UserStore.self) !== store)
        #expect(try container.resolve(Session.self) !== session)
    }

    @Test func defaultScopeComesFromTheManifest() throws {
        let path = try TestSupport.temporaryFile("wiring: 1\nscopes: { default: singleton }\nservices:\n  Clock: { factory: clock }\n")
        let registry = FactoryRegistry()
        registry.factory("clock") { _ in Clock() }
        let container = try Container(manifest: path, registry: registry, contexts: .none)
        #expect(try container.resolve(Clock.self) === container.resolve(Clock.self))
    }
}

/// Holds a closure that resolves through a factory's context after the factory returned.
final class Later {
    let make: () throws -> RequestContext
    init(_ make: @escaping () throws -> RequestContext) { self.make = make }
}

/// A service built with a runtime argument whose closures read it, and resolve, through the
/// factory's context after the factory returned.
final class Sized {
    let size: Int
    let later: Later
    let reread: () throws -> Int
    init(size: Int, later: Later, reread: @escaping () throws -> Int) {
        (self.size, self.later, self.reread) = (size, later, reread)
    }
}

/// Holds a service built with runtime arguments and one built without, both as dependencies.
final class Outer {
    let sized: Sized
    let later: Later
    init(sized: Sized, later: Later) { (self.sized, self.later) = (sized, later) }
}
