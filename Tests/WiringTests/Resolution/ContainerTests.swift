import Testing
@testable import Wiring

/// A type that services list only under names, for the test of its unnamed resolve.
protocol NamedBin: AnyObject {}
final class Bin: NamedBin, @unchecked Sendable {}

@Suite("Container")
struct ContainerTests {
    @Test func staticArgumentsAreTypedAndFilledIn() throws {
        let logger = try Fixture.container().resolve(Logger.self)
        #expect(logger.level == "debug")          // $(level)
        #expect(logger.port == 8080)              // $(port) = ${WIRING_TEST_PORT:-8080}, read as Int
        #expect(logger.tags == ["a", "b"])
        let fromEnvironment = try Fixture.container(environment: ["WIRING_TEST_PORT": "9090"]).resolve(Logger.self)
        #expect(fromEnvironment.port == 9090)
    }

    @Test func implementsResolveTheSameInstance() throws {
        let container = try Fixture.container()
        let store = try container.resolve(UserStore.self)
        let reading = try container.resolve((any UserReading).self)
        let writing = try container.resolve((any UserWriting).self)
        // (Identity is compared outside #expect: Swift 6.3.1 crashes on `x as AnyObject === y` inside the macro.)
        let readingIsStore = ObjectIdentifier(reading as AnyObject) == ObjectIdentifier(store)
        let writingIsStore = ObjectIdentifier(writing as AnyObject) == ObjectIdentifier(store)
        #expect(readingIsStore)
        #expect(writingIsStore)
        #expect(try container.resolve((any LogSink).self).level == "debug")
    }

    @Test func namedVariantsOverrideArgsFactoryAndScope() throws {
        let container = try Fixture.container()
        #expect(try container.resolve(UserStore.self, name: "replica").describe() == "cache:log:postgres://replica")
        // archive has its own factory and the unique scope.
        let archive = try container.resolve(UserStore.self, name: "archive")
        #expect(archive.describe() == "cache:log:archive")
        #expect(try container.resolve(UserStore.self, name: "archive") !== archive)
        // Names reach through implements too.
        #expect(try container.resolve((any UserReading).self, name: "replica").describe() == "cache:log:postgres://replica")
    }

    @Test func unknownNameListsTheDefinedNames() throws {
        let container = try Fixture.container()
        #expect {
            try container.resolve(UserStore.self, name: "replika")
        } throws: { error in
            "\(error)" == "service UserStore has no variant named 'replika'; did you mean 'replica'? (its names: archive, replica)"
        }
        #expect {
            try container.resolve(Logger.self, name: "audit")
        } throws: { error in
            "\(error)" == "service Logger has no variant named 'audit' (it has no named variants)"
        }
    }

    @Test func decoratorsApplyInDeclaredOrderInnermostFirst() throws {
        let container = try Fixture.container()
        // CachingUserStore decorates LoggingUserStore, which decorates UserStore.
        #expect(try container.resolve(UserStore.self).describe() == "cache:log:postgres://primary")
        // The decorators' own keys resolve to the same chain and instance.
        let viaDecoratorKey = ObjectIdentifier(try container.resolve(key: "LoggingUserStore") as AnyObject)
        #expect(viaDecoratorKey == ObjectIdentifier(try container.resolve(UserStore.self)))
    }

    @Test func keysOfServicesDecoratorsAndImplementedTypesAllResolveByKey() throws {
        let container = try Fixture.container()
        let store = ObjectIdentifier(try container.resolve(UserStore.self))
        for key in ["UserStore", "LoggingUserStore", "CachingUserStore", "UserReading", "UserWriting"] {
            #expect(ObjectIdentifier(try container.resolve(key: key) as AnyObject) == store, "\(key)")
        }
        // Suggestions draw on every name that resolves, implemented types included.
        #expect {
            try container.resolve(key: "UserReadin")
        } throws: { error in
            "\(error)".contains("did you mean 'UserReading'?")
        }
    }

    @Test func runtimeArgumentsAreTypeChecked() throws {
        let container = try Fixture.container()
        let editor = try container.resolve(Editor.self, arguments: 42, true)
        #expect(editor.id == 42 && editor.editing)
        #expect {
            try container.resolve(Editor.self, arguments: "42", true)
        } throws: { error in
            "\(error)" == "runtime argument 0 of service Editor should be a Int, but a String was passed"
        }
        #expect {
            try container.resolve(Editor.self, arguments: 42)
        } throws: { error in
            "\(error)" == "service Editor expects a runtime argument 1 of type Bool, but 1 was passed"
        }
    }

    @Test func staticArgumentOfTheWrongKindNamesTheManifestLine() throws {
        let container = try Fixture.container()
        let path = TestSupport.fixture("container/app.yaml")
        #expect {
            try container.resolve(Greeter.self)
        } throws: { error in
            "\(error)" == "\(path):51:23: argument 'greeting' of service Greeter: expected a string, found an integer (5)"
        }
    }

    @Test func missingStaticArgumentNamesTheService() throws {
        let path = try TestSupport.temporaryFile("wiring: 1\nservices:\n  Greeter: { factory: greeter }\n")
        let registry = FactoryRegistry()
        registry.factory("greeter") { r in Greeter(greeting: try r.arg("greting")) }
        #expect {
            try Container(manifest: path, registry: registry, contexts: .none).resolve(Greeter.self)
        } throws: { error in
            "\(error)" == "\(path):3:3: service Greeter has no argument 'greting' (it has none)"
        }
    }

    @Test func resolveByKeyAndModuleQualifiedKeys() throws {
        let container = try Fixture.container()
        #expect(try container.resolve(key: "Clock") is Clock)
        #expect(throws: Never.self) { try container.resolve(QualifiedService.self) }
    }

    @Test func optionalIsNilOnlyWhenNothingIsDeclared() throws {
        let container = try Fixture.container()
        #expect(try container.optional(String.self) == nil)
        #expect(try container.optional(Clock.self) != nil)
        #expect(throws: ResolutionError.self) { try container.optional(Broken.self) }
    }

    /// A type every service lists under a name has no unnamed service: resolving it without a
    /// name is an error that names the type (not the first service listing it) and lists its
    /// names; optionally, it throws too, since the type is declared; resetting it drops nothing.
    @Test func aTypeListedOnlyUnderNamesResolvesOnlyByName() throws {
        let path = try TestSupport.temporaryFile("""
            wiring: 1
            services:
              FastBin: { factory: bin, scope: singleton, implements: [{ type: NamedBin, name: fast }] }
              SlowBin: { factory: bin, scope: singleton, implements: [{ type: NamedBin, name: slow }] }
            """)
        let registry = FactoryRegistry()
        registry.factory("bin") { _ in Bin() }
        let container = try Container(manifest: path, registry: registry, contexts: .none)
        #expect(throws: Never.self) { try container.resolve((any NamedBin).self, name: "fast") }
        let fast = try container.resolve((any NamedBin).self, name: "fast")
        let slow = try container.resolve((any NamedBin).self, name: "slow")
        #expect(fast !== slow)
        #expect {
            try container.resolve((any NamedBin).self)
        } throws: { error in
            "\(error)" == "'NamedBin' resolves only by name (fast, slow)"
        }
        #expect {
            try container.resolve(key: "NamedBin")
        } throws: { error in
            "\(error)" == "'NamedBin' resolves only by name (fast, slow)"
        }
        #expect(throws: ResolutionError.self) { try container.optional((any NamedBin).self) }
        // A name none lists: the names are several services', each shown with its own.
        #expect {
            try container.resolve((any NamedBin).self, name: "fats")
        } throws: { error in
            "\(error)" == "no service is listed as NamedBin named 'fats'; did you mean 'fast'? (its names: fast (FastBin), slow (SlowBin))"
        }
        #expect {
            try container.resolve(key: "NamedBin", name: "medium")
        } throws: { error in
            "\(error)" == "no service is listed as NamedBin named 'medium' (its names: fast (FastBin), slow (SlowBin))"
                // What a snapshot or a reload's report says of it: not "service 'NamedBin'", a type.
                && ReportedFailure.summary(of: (error as! ResolutionError).kind) == "nothing is named 'medium' for 'NamedBin'"
        }
        do {
            _ = try container.resolve((any NamedBin).self)
        } catch {
            // What a snapshot or a reload's report says of it.
            #expect(ReportedFailure.summary(of: error.kind) == "'NamedBin' resolves only by name")
        }
        container.reset((any NamedBin).self)
        #expect(try container.resolve((any NamedBin).self, name: "fast") === fast)
        // A child overrides one of its names; adding it unnamed is refused, saying so.
        let child = try container.child { $0.override((any NamedBin).self, name: "fast") { _ in Bin() } }
        #expect(try child.resolve((any NamedBin).self, name: "fast") !== fast)
        #expect {
            try container.child { $0.override((any NamedBin).self, name: "medium") { _ in Bin() } }
        } throws: { error in
            "\(error)".contains("no service is listed as NamedBin named 'medium' (its names: fast (FastBin), slow (SlowBin))")
        }
        #expect {
            try container.child { $0.add((any NamedBin).self) { _ in Bin() } }
        } throws: { error in
            "\(error)".contains("is declared already, under names only (fast, slow); override one of them by name")
        }
    }
}
