import Foundation
import Testing
@testable import Wiring

@Suite("Manifest loading and validation")
struct ManifestLoaderTests {
    // MARK: Accepted manifests

    @Test func everyFeatureLoadsIntoTheModel() throws {
        let manifest = try ManifestLoader(environment: [:]).load(TestSupport.fixture("valid/everything.yaml"))
        #expect(manifest.diagnostics.isEmpty)
        #expect(manifest.version == 1)
        #expect(manifest.files.map { $0.replacingOccurrences(of: TestSupport.fixtures + "/", with: "") }
            == ["valid/everything.yaml", "imports/shared-logging.yaml"])
        #expect(manifest.services.map(\.key) == ["UserStore", "CachedUserStore", "Session", "Clock", "Logger"])

        let store = try #require(manifest.service("UserStore"))
        #expect(store.factoryKey == "postgres-user-store")
        #expect(store.scope?.value == .singleton)           // from the merge key
        #expect(store.scope?.location.line == 4)            // where the anchor wrote it
        #expect(store.implements.map(\.type) == ["UserReading", "UserWriting"])
        #expect(store.implements.map(\.name) == [nil, "primary"])
        #expect(store.names.map(\.name) == ["replica"])
        let args = try #require(store.args)
        #expect(args.keys == ["url", "port", "pool", "tags", "password"])
        guard case .template(let url) = args["url"]?.content else {
            Issue.record("url is not a template")
            return
        }
        #expect(url.parts == [.parameter("dbURL")])
        #expect(try args.decode("pool", as: [String: Int].self) == ["min": 1, "max": 8])
        #expect(try args.decode("tags", as: [String].self) == ["a", "b"])
        #expect(args["password"]?.isSecret == true)
        #expect(args["password"]?.description == "<redacted>")
        #expect(args["url"]?.location == SourceLocation(file: TestSupport.fixture("valid/everything.yaml"), line: 20, column: 12))

        let cached = try #require(manifest.service("CachedUserStore"))
        #expect(cached.decorates?.value == "UserStore")
        #expect(cached.timeToLive?.value == .seconds(90))
        #expect(manifest.service("Clock")?.factoryKey == "Clock")
        #expect(manifest.effectiveScope(of: try #require(manifest.service("Clock"))) == .unique)
        #expect(manifest.customScopes.map(\.name) == ["request", "session"])
        #expect(manifest.customScopes.last?.timeToLive?.value == .seconds(90))

        guard case .template(let db) = manifest.parameter("dbURL")?.value.content else {
            Issue.record("dbURL is not a template")
            return
        }
        #expect(db.parts == [.environment("DATABASE_URL", fallback: "sqlite:///tmp/dev.db")])
        guard case .template(let greeting) = manifest.parameter("greeting")?.value.content else {
            Issue.record("greeting is not a template")
            return
        }
        #expect(greeting.parts == [.literal("Hello, $USER")])

        let test = try #require(manifest.context("test"))
        #expect(test.services.map(\.key) == ["UserStore", "Logger"])   // blocks of two files add up
        #expect(test.services.first?.enabled?.value == true)
        #expect(test.parameters.map(\.name) == ["port"])
    }

    @Test func servicesMergedOrAliasedAtTheServicesLevelAreDecodedToo() throws {
        let path = try TestSupport.temporaryFile("""
            wiring: 1
            x-common:
              shared: &shared
                Clock: { factory: system-clock, scope: singleton }
                Logger: &logger { factory: console, args: { level: info } }
            services:
              <<: *shared
              App: { factory: app }
              AuditLogger: *logger
              Clock: { factory: fixed-clock }
            """)
        let manifest = try ManifestLoader().load(path)
        #expect(manifest.services.map(\.key) == ["App", "AuditLogger", "Clock", "Logger"])
        #expect(manifest.service("Clock")?.factoryKey == "fixed-clock")       // written wins over merged
        #expect(manifest.service("AuditLogger")?.factoryKey == "console")
        #expect(manifest.service("Logger")?.args?.keys == ["level"])
        #expect(manifest.service("Logger")?.location.line == 5)               // where the anchor wrote it
    }

    @Test func diamondImportsReadSharedFilesOnce() throws {
        let manifest = try ManifestLoader(environment: [:]).load(TestSupport.fixture("imports/diamond.yaml"))
        #expect(manifest.services.map(\.key) == ["Top", "Left", "Logger", "Right"])
        #expect(manifest.files.count == 4)
    }

    @Test func loadThrowsEveryDiagnostic() {
        #expect {
            try ManifestLoader(environment: [:]).load(TestSupport.fixture("invalid/decorators.yaml"))
        } throws: { error in
            (error as? ManifestError)?.errors.count == 3
        }
    }

    // MARK: Rejected manifests

    @Test func unknownKeysAtEveryLevelWithSuggestions() {
        #expect(TestSupport.validate("invalid/unknown-keys.yaml") == [
            "invalid/unknown-keys.yaml:2:1: error: unknown top-level key 'servics'; did you mean 'services'?",
            "invalid/unknown-keys.yaml:5:3: error: unknown key 'defualt' in 'scopes'; did you mean 'default'?",
            "invalid/unknown-keys.yaml:7:16: error: unknown key 'tll' in custom scope 'session'; did you mean 'ttl'?",
            "invalid/unknown-keys.yaml:10:5: error: unknown key 'factroy' in service 'Logger'; did you mean 'factory'?",
            "invalid/unknown-keys.yaml:12:16: error: unknown key 'scop' in named variant 'audit' of service 'Logger'; did you mean 'scope'?",
            "invalid/unknown-keys.yaml:13:32: error: unknown key 'nmae' in an 'implements' entry of service 'Logger'; did you mean 'name'?",
            "invalid/unknown-keys.yaml:16:5: error: unknown key 'service' in context 'test'; did you mean 'services'?",
            "invalid/unknown-keys.yaml:18:17: error: unknown key 'enable' in the override of 'Logger' in context 'test'; did you mean 'enabled'?",
        ])
    }

    @Test func unknownTopLevelKeyWithoutNearNameMentionsExtensions() throws {
        #expect(try TestSupport.validate(text: "wiring: 1\nzzz: 1\nx-mine: 2\n") == [
            "m.yaml:2:1: error: unknown top-level key 'zzz' (keys starting with 'x-' are ignored)",
        ])
    }

    @Test func valuesOfTheWrongKind() {
        #expect(TestSupport.validate("invalid/wrong-kinds.yaml") == [
            "invalid/wrong-kinds.yaml:1:9: error: 'wiring' must be the format version 1, found a string",
            "invalid/wrong-kinds.yaml:2:10: error: 'imports' must be a list, found a string",
            "invalid/wrong-kinds.yaml:3:13: error: 'parameters' must be a mapping, found a list",
            "invalid/wrong-kinds.yaml:6:14: error: 'factory' of service 'Logger' must be a string, found a list",
            "invalid/wrong-kinds.yaml:7:12: error: 'scope' of service 'Logger' must be a string, found an integer",
            "invalid/wrong-kinds.yaml:8:10: error: 'ttl' of service 'Logger' must be a duration (seconds, or text like 500ms, 30s, 5m, 2h, 1d; at most 100 years), found a string",
            "invalid/wrong-kinds.yaml:9:17: error: 'implements' of service 'Logger' must be a list, found a mapping",
            "invalid/wrong-kinds.yaml:10:11: error: 'args' of service 'Logger' must be a mapping, found a list",
            "invalid/wrong-kinds.yaml:11:16: error: 'decorates' of service 'Logger' must be a string, found an integer",
            "invalid/wrong-kinds.yaml:12:12: error: 'names' of service 'Logger' must be a mapping, found a list",
            "invalid/wrong-kinds.yaml:13:10: error: service 'Store' must be a mapping, found a string",
            "invalid/wrong-kinds.yaml:17:26: error: 'enabled' of the override of 'Logger' in context 'test' must be true or false, found a string",
        ])
    }

    @Test func unknownScopesAndMisplacedTimeToLive() {
        #expect(TestSupport.validate("invalid/scopes.yaml") == [
            "invalid/scopes.yaml:3:12: error: unknown scope 'singelton'; did you mean 'singleton'? (scopes: unique, graph, scoped, cached, shared, singleton, request)",
            "invalid/scopes.yaml:6:5: error: custom scope 'singleton' has the name of a built-in scope",
            "invalid/scopes.yaml:8:15: error: unknown scope 'reqest'; did you mean 'request'? (scopes: unique, graph, scoped, cached, shared, singleton, request)",
            "invalid/scopes.yaml:9:28: error: 'ttl' of service 'B' needs the cached scope or a custom scope, not 'shared'",
            "invalid/scopes.yaml:14:34: error: 'ttl' of named variant 'hot' of service 'D' needs the cached scope or a custom scope, not 'unique'",
            "invalid/scopes.yaml:18:19: error: unknown scope 'sesion' (scopes: unique, graph, scoped, cached, shared, singleton, request)",
        ])
    }

    @Test func implementsAndNamesCollisions() {
        let result = ManifestLoader(environment: [:]).validate(TestSupport.fixture("invalid/implements.yaml"))
        #expect(TestSupport.headlines(result.diagnostics) == [
            "invalid/implements.yaml:4:44: error: 'UserReading' is listed twice in 'implements' of service 'UserStore'",
            "invalid/implements.yaml:8:18: error: 'UserReading' is implemented by both 'UserStore' and 'CachedUserStore'; tell them apart with a name: { type: UserReading, name: … }",
            "invalid/implements.yaml:8:31: error: 'UserWriting' named 'replica' is implemented by both 'UserStore' and 'CachedUserStore'; give one of them another name",
            "invalid/implements.yaml:10:54: error: 'implements' of service 'AuditStore' lists 'Logger', which is a service key",
            "invalid/implements.yaml:13:7: error: named variant 'UserStore' of service 'Logger' has the name of a service",
        ])
        // Each collision names the other place; a name claimed through a variant says so.
        #expect(result.diagnostics.map { $0.notes.first?.location?.line } == [4, 4, 4, 11, 3])
        #expect(result.diagnostics[2].notes.first?.message == "'UserStore' claims it here, through its variant 'replica'")
    }

    /// A name two services claim, one through a variant of its unnamed entry: the hint is to
    /// rename one (both have names already), and the variant is named on whichever side it is.
    @Test func aNameClaimedThroughAVariantIsToldAsSuch() throws {
        let path = try TestSupport.temporaryFile("""
            wiring: 1
            services:
              SlowBin: { implements: [{ type: Bin, name: x }] }
              FastBin: { implements: [Bin], names: { x: {}, y: {} } }
            """)
        let diagnostics = ManifestLoader(environment: [:]).validate(path).diagnostics
        #expect(diagnostics.map(\.message) == [
            "'Bin' named 'x' is implemented by both 'SlowBin' and 'FastBin' (through its variant 'x'); give one of them another name",
        ])
        #expect(diagnostics.first?.notes.map(\.message) == ["'SlowBin' claims it here"])
    }

    @Test func decoratorsMustExistAndNotFormCycles() {
        #expect(TestSupport.validate("invalid/decorators.yaml") == [
            "invalid/decorators.yaml:3:19: error: decorator cycle: A → B → C → A",
            "invalid/decorators.yaml:6:19: error: service 'D' decorates itself",
            "invalid/decorators.yaml:7:19: error: service 'E' decorates unknown service 'Stor'; did you mean 'Store'?",
        ])
    }

    @Test func contextsParametersAndTheEnvironment() {
        #expect(TestSupport.validate("invalid/contexts-and-parameters.yaml") == [
            "invalid/contexts-and-parameters.yaml:3:3: error: parameter cycle: base → other → base",
            "invalid/contexts-and-parameters.yaml:5:8: error: undefined parameter 'bas'; did you mean 'base'?",
            "invalid/contexts-and-parameters.yaml:6:11: error: '${' is not closed by '}' in '${UNCLOSED'; write '$$' for a literal '$'",
            "invalid/contexts-and-parameters.yaml:7:12: error: '9lives' is not a valid parameter name (letters, digits, '_', '.' and '-', not starting with a digit)",
            "invalid/contexts-and-parameters.yaml:10:20: error: undefined parameter 'levle'",
            "invalid/contexts-and-parameters.yaml:10:38: warning: environment variable 'HOME_DIR_FOR_TEST' is not set and has no default; building a container will fail unless it is set",
            "invalid/contexts-and-parameters.yaml:14:7: error: context 'test' overrides unknown parameter 'urll'; did you mean 'url'?",
            "invalid/contexts-and-parameters.yaml:16:7: error: context 'test' overrides unknown service 'Loger'; did you mean 'Logger'?",
            "invalid/contexts-and-parameters.yaml:17:32: error: undefined parameter 'missing'",
            "invalid/contexts-and-parameters.yaml:17:59: error: the override of 'Logger' in context 'test' decorates unknown service 'Nothing'",
        ])
    }

    @Test func setEnvironmentVariableSilencesTheWarning() {
        let lines = TestSupport.validate("invalid/contexts-and-parameters.yaml", environment: ["HOME_DIR_FOR_TEST": "/x"])
        #expect(!lines.contains { $0.contains("warning") })
    }

    @Test func unsetEnvironmentVariableIsOnlyAWarning() throws {
        let path = try TestSupport.temporaryFile("wiring: 1\nparameters:\n  url: ${WIRING_TEST_UNSET}\n")
        let manifest = try ManifestLoader(environment: [:]).load(path)
        #expect(TestSupport.headlines(manifest.diagnostics) == [
            "\(path):3:8: warning: environment variable 'WIRING_TEST_UNSET' is not set and has no default; building a container will fail unless it is set",
        ])
    }

    @Test func importsMissingDuplicatedAndCyclic() {
        #expect(TestSupport.validate("imports/root.yaml") == [
            "imports/root.yaml:2:19: error: cannot read import 'missing.yaml' (imports/missing.yaml): no such file or directory",
            "imports/a.yaml:4:3: error: parameter 'p' is declared twice",
            "imports/a.yaml:6:3: error: service 'Shared' is declared twice",
            "imports/b.yaml:2:11: error: import cycle: imports/a.yaml → imports/b.yaml → imports/a.yaml",
        ])
        let result = ManifestLoader(environment: [:]).validate(TestSupport.fixture("imports/root.yaml"))
        #expect(result.diagnostics[1].notes == [Diagnostic.Note("first declared here", at: SourceLocation(file: TestSupport.fixture("imports/root.yaml"), line: 4, column: 3))])
    }

    /// A chain of imports deeper than 64 files stops there, with one error at the import that
    /// goes too deep, however long the chain is.
    @Test func importsNestingTooDeepStopWithOneError() throws {
        let folder = try TestSupport.temporaryFolder().path
        for index in 0..<100 {
            let next = index < 99 ? "imports: [f\(index + 1).yaml]\n" : ""
            try "wiring: 1\n\(next)services:\n  S\(index): { factory: s }\n".write(toFile: folder + "/f\(index).yaml", atomically: true, encoding: .utf8)
        }
        #expect(TestSupport.headlines(ManifestLoader().validate(folder + "/f0.yaml").diagnostics) == [
            "\(folder)/f63.yaml:2:11: error: imports nest deeper than 64 files",
        ])
    }

    /// A service declared in three files keeps its first declaration: both later ones point at
    /// it, and what looks the key up afterwards (a decorator, a container) finds the first.
    @Test func aServiceDeclaredThriceKeepsItsFirstDeclaration() throws {
        let root = try TestSupport.temporaryFile("wiring: 1\nimports: [b.yaml, c.yaml]\nservices:\n  Shared: { factory: first }\n  Wrapper: { factory: wrap, decorates: Shared }\n")
        let folder = (root as NSString).deletingLastPathComponent
        try "wiring: 1\nservices:\n  Shared: { factory: second }\n".write(toFile: folder + "/b.yaml", atomically: true, encoding: .utf8)
        try "wiring: 1\nservices:\n  Other: { factory: other }\n  Shared: { factory: third }\n".write(toFile: folder + "/c.yaml", atomically: true, encoding: .utf8)
        let result = ManifestLoader(environment: [:]).validate(root)
        let duplicates = result.diagnostics.filter { $0.message == "service 'Shared' is declared twice" }
        #expect(duplicates.map(\.location?.line) == [3, 4])
        #expect(duplicates.allSatisfy { $0.notes == [Diagnostic.Note("first declared here", at: SourceLocation(file: root, line: 4, column: 3))] })
        #expect(result.diagnostics.count == 2, "\(result.diagnostics.map(\.message))")
        let assembled = ManifestLoader(environment: [:]).read(root).manifest
        #expect(assembled.service("Shared")?.factoryKey == "first")
        #expect(assembled.service("Other")?.factoryKey == "other")
        #expect(assembled.services.map(\.key) == ["Shared", "Wrapper", "Other"])
    }

    @Test func formatVersion() {
        #expect(TestSupport.validate("invalid/version-missing.yaml") == [
            "invalid/version-missing.yaml:1:1: error: missing 'wiring: 1' (the format version) at the top level",
        ])
        #expect(TestSupport.validate("invalid/version-2.yaml") == [
            "invalid/version-2.yaml:1:9: error: unsupported format version 2; this version of Wiring reads 'wiring: 1'",
        ])
    }

    @Test func emptyAndNonMappingManifests() {
        #expect(TestSupport.validate("invalid/empty.yaml") == [
            "invalid/empty.yaml:1:1: error: the manifest is empty; it needs at least 'wiring: 1'",
        ])
        #expect(TestSupport.validate("invalid/list.yaml") == [
            "invalid/list.yaml:1:1: error: a manifest must be a mapping of keys such as 'wiring' and 'services', found a list",
        ])
    }

    @Test func missingRootFileIsOneClearLine() {
        let result = ManifestLoader().validate("/nonexistent/services.yaml")
        #expect(result.diagnostics.map(\.description) == [
            "error: cannot read manifest '/nonexistent/services.yaml': no such file or directory",
        ])
    }

    @Test func oversizedFileIsRefusedBeforeReading() throws {
        let path = try TestSupport.temporaryFile(Data(repeating: UInt8(ascii: "#"), count: 2048))
        let result = ManifestLoader(limits: YAMLLimits(maxFileSize: 1024)).validate(path)
        #expect(result.diagnostics.map(\.headline) == [
            "error: cannot read manifest '\(path)': the file is 2048 bytes, more than the limit of 1024 bytes",
        ])
    }

    @Test func yamlAndManifestErrorsOfOneFileComeInOnePass() throws {
        #expect(try TestSupport.validate(text: "wiring: 1\nservices:\n  A: { factory: x, factory: y }\n  B: { scop: unique }\n") == [
            "m.yaml:3:20: error: duplicate key 'factory'; first defined at line 3",
            "m.yaml:4:8: error: unknown key 'scop' in service 'B'; did you mean 'scope'?",
        ])
    }

    @Test func undefinedAliasesDoNotCascadeIntoManifestErrors() throws {
        let lines = try TestSupport.validate(text: """
            wiring: 1
            services:
              A:
                <<: *defaults
                factory: *name
                scope: *scope
                args: *args
                implements: *types
              B: { enabled: *flag }
            contexts:
              test: { services: { A: { enabled: *flag } } }
            """)
        #expect(lines.map { $0.replacingOccurrences(of: "m.yaml", with: "m") } == [
            "m:4:9: error: undefined alias '*defaults'",
            "m:5:14: error: undefined alias '*name'",
            "m:6:12: error: undefined alias '*scope'",
            "m:7:11: error: undefined alias '*args'",
            "m:8:17: error: undefined alias '*types'",
            "m:9:8: error: unknown key 'enabled' in service 'B'",
            "m:9:17: error: undefined alias '*flag'",
            "m:11:37: error: undefined alias '*flag'",
        ])
    }

    @Test func diagnosticsCarryTheSourceLineForTheCaret() throws {
        let path = try TestSupport.temporaryFile("wiring: 1\r\nservices:\r\n  A: { scope: singelton }\r\n")
        let result = ManifestLoader().validate(path)
        #expect(result.diagnostics.first?.description == """
            \(path):3:15: error: unknown scope 'singelton'; did you mean 'singleton'? (scopes: unique, graph, scoped, cached, shared, singleton)
              A: { scope: singelton }
                          ^
            """)
    }
}
