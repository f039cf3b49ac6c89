import Foundation
import Testing
@testable import Wiring

final class UserSessionDelegate: Sendable {}
class UserSession: @unchecked Sendable {
    var delegate: UserSessionDelegate?
    var tracing = false
}
final class TracedUserSession: UserSession, @unchecked Sendable {
    let inner: UserSession
    init(inner: UserSession) { self.inner = inner }
}

final class HookedGraph: Sendable {}
final class HookedSession: @unchecked Sendable {
    let early: HookedGraph
    var late: HookedGraph?
    init(early: HookedGraph) { self.early = early }
}

@Suite("Property injection after construction")
struct PropertyInjectionTests {
    @Test func hooksRunAfterTheFactoryBeforeDecoratorsInTheSameResolution() throws {
        let journal = Journal()
        let registry = FactoryRegistry()
        registry.factory("session") { _ in
            journal.record("factory")
            return UserSession()
        }.resolvingProperties { r, session in
            journal.record("properties")
            session.delegate = try r.resolve(UserSessionDelegate.self)
        }
        registry.factory("delegate") { _ in UserSessionDelegate() }
        registry.factory("traced") { r in
            let inner = try r.decorated(UserSession.self)
            journal.record("decorator sees a delegate: \(inner.delegate != nil)")
            return TracedUserSession(inner: inner)
        }
        // App code adds a hook to a registration it did not make.
        registry.resolvingProperties("session", as: UserSession.self) { _, session in
            journal.record("app hook")
            session.tracing = true
        }
        let container = try AsyncFixture.container("""
            services:
              UserSession: { factory: session, scope: unique }
              UserSessionDelegate: { factory: delegate, scope: singleton }
              TracedUserSession: { factory: traced, decorates: UserSession }
            """, registry: registry)
        let session = try container.resolveSynchronously(UserSession.self)
        #expect(journal.all == ["factory", "properties", "app hook", "decorator sees a delegate: true"])
        let inner = try #require((session as? TracedUserSession)?.inner)
        #expect(inner.delegate === (try container.resolveSynchronously(UserSessionDelegate.self)))
        #expect(inner.tracing)
    }

    @Test func aThrowingHookFailsTheResolveWithItsPath() async throws {
        let registry = FactoryRegistry()
        registry.factory("session") { _ in UserSession() }
            .resolvingProperties { r, session in session.delegate = try r.resolve(UserSessionDelegate.self) }
        let container = try AsyncFixture.container("services:\n  UserSession: { factory: session, scope: unique }", registry: registry)
        let error = await #expect(throws: ResolutionError.self) { try await container.resolve(UserSession.self) }
        #expect(error?.message.hasPrefix("no service is declared for 'UserSessionDelegate'") == true)
        #expect(error?.path.map(\.service) == ["UserSession"])
    }

    @Test func aHookOfASynchronousServiceAnAwaitedResolveBuildsJoinsItsResolution() async throws {
        // An awaited resolve builds a synchronous service in a state of the thread's that
        // continues the task's; the service's hook resolves in that state too, as its factory
        // did: the same `graph` instance, not one of another resolution.
        let registry = FactoryRegistry()
        registry.factory("session") { r in HookedSession(early: try r.resolve(HookedGraph.self)) }
            .resolvingProperties { r, session in session.late = try r.resolve(HookedGraph.self) }
        registry.factory("graph") { _ in HookedGraph() }
        let container = try AsyncFixture.container("""
            services:
              HookedSession: { factory: session, scope: unique }
              HookedGraph: { factory: graph, scope: graph }
            """, registry: registry)
        let awaited = try await container.resolve(HookedSession.self)
        #expect(awaited.late === awaited.early)
        let synchronous = try container.resolveSynchronously(HookedSession.self)
        #expect(synchronous.late === synchronous.early)
    }
}
