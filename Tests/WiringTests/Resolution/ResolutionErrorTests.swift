import Testing
@testable import Wiring

@Suite("Resolution errors")
struct ResolutionErrorTests {
    let path = TestSupport.fixture("container/app.yaml")

    @Test func unknownServiceSuggestsAndListsWhatIsDeclared() throws {
        struct Loger {}
        let container = try Fixture.container()
        #expect {
            try container.resolve(Loger.self)
        } throws: { error in
            "\(error)" == "no service is declared for 'Loger'; did you mean 'Logger'? (declared: Logger, Clock, RequestContext, Handler, Session, Token, Connection, UserStore, LoggingUserStore, CachingUserStore, Greeter, Editor, and 6 more)"
        }
    }

    @Test func typeMismatchNamesServicePositionAndTypes() throws {
        let container = try Fixture.container()
        #expect {
            try container.resolve(Mismatch.self)
        } throws: { error in
            "\(error)" == "service Mismatch (\(path):58:3) produced String, which is not a Mismatch"
        }
    }

    @Test func factoryErrorsAreWrappedWithThePath() throws {
        let container = try Fixture.container()
        #expect {
            try container.resolve(Broken.self)
        } throws: { error in
            guard let error = error as? ResolutionError, case .factoryFailed(let underlying) = error.kind else { return false }
            return underlying is StoreUnavailable
                && error.description == "factory 'broken' of service Broken (\(path):54:3) threw: connection refused"
        }
    }

    @Test func nestedFailureShowsTheResolutionPath() throws {
        let registry = Fixture.registry()
        registry.factory("handler", overriding: true) { r in _ = try r.resolve(Broken.self); return Handler(first: RequestContext(), second: RequestContext()) }
        let container = try Container(manifest: path, registry: registry, contexts: .none)
        #expect {
            try container.resolve(Handler.self)
        } throws: { error in
            "\(error)" == """
                factory 'broken' of service Broken (\(path):54:3) threw: connection refused
                  resolving Handler (\(path):20:3) → Broken (\(path):54:3)
                """
        }
    }

    @Test func cyclesPrintTheWholePathWithPositions() throws {
        let container = try Fixture.container()
        #expect {
            try container.resolve(CycleA.self)
        } throws: { error in
            guard let error = error as? ResolutionError, case .circularDependency = error.kind else { return false }
            return error.description == "circular dependency: CycleA (\(path):56:3) → CycleB (\(path):57:3) → CycleA (\(path):56:3)"
        }
    }

    @Test func aFailedSingletonIsRetriedOnTheNextResolve() throws {
        let attempts = BuildCounter()
        let registry = Fixture.registry()
        registry.factory("logger", overriding: true) { r in
            attempts.tick("logger")
            if attempts["logger"] == 1 { throw StoreUnavailable() }
            return Logger(level: try r.arg("level"), port: 1, tags: [])
        }
        let container = try Container(manifest: path, registry: registry, contexts: .none)
        #expect(throws: ResolutionError.self) { try container.resolve(Logger.self) }
        let logger = try container.resolve(Logger.self)
        #expect(try container.resolve(Logger.self) === logger)
        #expect(attempts["logger"] == 2)
    }
}
