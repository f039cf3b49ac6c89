import Testing
@testable import Wiring

protocol ContextMailing: Sendable { var label: String { get } }
final class ContextMailer: ContextMailing {
    let label: String
    init(_ label: String) { self.label = label }
}
final class LoggingContextMailer: ContextMailing {
    let inner: any ContextMailing
    init(_ inner: any ContextMailing) { self.inner = inner }
    var label: String { "logged " + inner.label }
}
final class ContextTracker: Sendable {}
final class ContextScreen: Sendable {
    let mailer: (any ContextMailing)?
    let bulk: (any ContextMailing)?
    let tracker: ContextTracker?
    init(mailer: (any ContextMailing)?, bulk: (any ContextMailing)?, tracker: ContextTracker?) {
        (self.mailer, self.bulk, self.tracker) = (mailer, bulk, tracker)
    }
}

/// What a factory reads from its context besides `resolve`: optional dependencies and, in a
/// decorator, the instance it wraps.
@Suite("A factory's context")
struct FactoryContextTests {
    static func container(_ services: String) throws -> Container {
        let registry = FactoryRegistry()
        registry.factory("mailer") { r in ContextMailer(r.name ?? "smtp") }
        registry.factory("screen") { r in
            ContextScreen(mailer: try r.optional((any ContextMailing).self), bulk: try r.optional((any ContextMailing).self, name: "bulk"),
                          tracker: try r.optional(ContextTracker.self))
        }
        registry.factory("async-screen") { r in
            await Task.yield()
            return ContextScreen(mailer: try await r.optional((any ContextMailing).self),
                                 bulk: try await r.optional((any ContextMailing).self, name: "bulk"),
                                 tracker: try await r.optional(ContextTracker.self))
        }
        registry.factory("logging") { r in LoggingContextMailer(try r.decorated((any ContextMailing).self)) }
        registry.factory("async-logging") { r in
            await Task.yield()
            return LoggingContextMailer(try await r.decorated((any ContextMailing).self))
        }
        registry.factory("not-a-decorator") { r in LoggingContextMailer(try r.decorated((any ContextMailing).self)) }
        registry.factory("wrong-type") { r in try r.decorated(ContextTracker.self) }
        return try TypedFactoryFormsTests.container("services:\n" + services, registry)
    }

    static let screens = """
          ContextMailer: { factory: mailer, implements: [ContextMailing], names: { bulk: {} } }
          ContextScreen: { factory: screen }
          AsyncScreen: { factory: async-screen }

        """

    @Test func anOptionalDependencyIsResolvedWhenDeclaredAndNilWhenNot() throws {
        let container = try Self.container(Self.screens)
        let screen = try container.resolve(ContextScreen.self)
        #expect(screen.mailer?.label == "smtp")
        #expect(screen.bulk?.label == "bulk")
        #expect(screen.tracker == nil)
    }

    @Test func anAwaitedOptionalDependencyIsResolvedWhenDeclaredAndNilWhenNot() async throws {
        let container = try Self.container(Self.screens)
        let screen = try #require(try await container.resolve(key: "AsyncScreen") as? ContextScreen)
        #expect(screen.mailer?.label == "smtp")
        #expect(screen.bulk?.label == "bulk")
        #expect(screen.tracker == nil)
    }

    /// Declared, a dependency that fails is the resolve's error, not `nil`.
    @Test func anOptionalDependencyThatFailsIsAnError() throws {
        let container = try Self.container(Self.screens + "  ContextTracker: { factory: wrong-type }\n")
        let error = #expect(throws: ResolutionError.self) { try container.resolve(ContextScreen.self) }
        #expect(error.map { if case .notADecorator = $0.kind { true } else { false } } == true)
    }

    @Test(arguments: ["logging", "async-logging"])
    func aDecoratorGetsTheInstanceItWraps(factory: String) async throws {
        let container = try Self.container(Self.screens + "  LoggingContextMailer: { factory: \(factory), decorates: ContextMailer }\n")
        #expect(try await container.resolve((any ContextMailing).self).label == "logged smtp")
    }

    /// A decorator lives in the scope and names of what it decorates: its own are a warning,
    /// at the scope it writes, and not used.
    @Test func aDecoratorsOwnScopeIsAWarningAndUnused() throws {
        let container = try Self.container(Self.screens + "  LoggingContextMailer: { factory: logging, decorates: ContextMailer, scope: unique }\n")
        let warnings = container.diagnostics.filter { $0.severity == .warning }
        #expect(warnings.map(\.message) == [
            "decorator 'LoggingContextMailer' lives in the scope and names of 'ContextMailer', which it decorates; its own 'scope' and 'names' are not used",
        ])
        #expect(warnings.first?.location.map { [$0.line, $0.column] } == [6, 78])
        #expect(try container.resolve((any ContextMailing).self).label == "logged smtp")
    }

    @Test func askingForTheWrappedInstanceOutsideADecoratorSaysSo() throws {
        let container = try Self.container("  LoggingContextMailer: { factory: not-a-decorator }\n")
        let error = #expect(throws: ResolutionError.self) { try container.resolve(LoggingContextMailer.self) }
        #expect(error.map { if case .notADecorator = $0.kind { true } else { false } } == true)
        #expect(error?.message.hasPrefix("service LoggingContextMailer asked for the instance it decorates, but it decorates nothing") == true)
    }

    @Test func askingForTheWrappedInstanceAsAnotherTypeNamesBoth() throws {
        let container = try Self.container(Self.screens + "  ContextTracker: { factory: wrong-type, decorates: ContextMailer }\n")
        let error = #expect(throws: ResolutionError.self) { try container.resolve((any ContextMailing).self) }
        #expect(error.map { if case .typeMismatch(produced: "ContextMailer", expected: "ContextTracker") = $0.kind { true } else { false } } == true)
        #expect(error?.message.hasPrefix("service ContextTracker decorates a ContextMailer, which is not a ContextTracker") == true)
    }
}
