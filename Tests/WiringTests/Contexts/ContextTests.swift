import Foundation
import Logging
import Testing
@testable import Wiring

@Suite("Contexts")
struct ContextTests {
    let path = TestSupport.fixture("contexts/services.yaml")
    let overlay = TestSupport.fixture("contexts/services.staging.yaml")

    func registry() -> FactoryRegistry {
        let registry = FactoryRegistry()
        registry.factory("greeter") { r in
            let once = try r.arg("greeting", as: String.self) + (try r.arg("punctuation", default: ""))
            // `greeting` holds what the fixture's Greeter says, so a test sees which contexts applied.
            return Greeter(greeting: String(repeating: once, count: try r.arg("repeat", default: 1)))
        }
        for key in ["system-clock", "fixed-clock", "audit", "banner"] {
            registry.factory(key) { r in
                if r.factoryKey == "banner" { return try r.arg("text", as: String.self) }
                return r.factoryKey
            }
        }
        return registry
    }

    func container(_ selection: ContextSelection) throws -> Container {
        try Container(manifest: path, registry: registry(), contexts: selection, options: .init(environment: [:]))
    }

    func greeting(_ selection: ContextSelection, name: String? = nil) throws -> String {
        try container(selection).resolve(Greeter.self, name: name).greeting
    }

    // MARK: Writing contexts

    @Test func noContextIsTheManifestAsWritten() throws {
        let container = try container(.none)
        #expect(try container.resolve(Greeter.self).greeting == "hello!")
        #expect(container.contextSummary == "contexts: none")
    }

    @Test func anInFileBlockAndItsOverlayFileApplyWithTheOverlayLast() throws {
        // Block: greeting hi (parameter), repeat 2, punctuation "."; overlay: punctuation "?".
        #expect(try greeting(.explicit("staging")) == "hi?hi?")
        // The overlay's add: is there too.
        #expect(try container(.explicit("staging")).resolve(key: "Banner") as? String == "STAGING")
    }

    @Test func overlayFilesAreReadByTheLoaderAsPartOfTheManifest() throws {
        let manifest = try ManifestLoader(environment: [:]).load(path)
        #expect(manifest.files.contains(overlay))
        let staging = try #require(manifest.context("staging"))
        #expect(staging.services.map(\.location.file) == [path, overlay])
    }

    @Test func mergedFieldsKeepTheFileAndLineTheyCameFrom() throws {
        let manifest = try ManifestLoader(environment: [:]).load(path).applying(contexts: ["staging"])
        let args = try #require(manifest.service("Greeter")?.args)
        #expect(args["punctuation"]?.location == SourceLocation(file: overlay, line: 3, column: 35))
        #expect(args["repeat"]?.location == SourceLocation(file: path, line: 21, column: 34))
        #expect(args["greeting"]?.location == SourceLocation(file: path, line: 9, column: 23))
        #expect(manifest.parameter("greeting")?.location == SourceLocation(file: path, line: 19, column: 19))
        #expect(manifest.appliedContexts == ["staging"])
    }

    @Test func argsMergeKeyByKeyUnlessReplaced() throws {
        #expect(try greeting(.explicit("staging")) == "hi?hi?")   // merged: greeting kept, repeat added
        #expect(try greeting(.explicit("quiet")) == "shh")        // !replace: punctuation and repeat gone
    }

    @Test func namesMergeByNameUnlessReplaced() throws {
        let loud = try container(.explicit("loud"))
        #expect(try loud.resolve(Greeter.self, name: "loud").greeting == "hello!!!")
        #expect(try loud.resolve(Greeter.self, name: "shout").greeting == "hello!!!!")
        let quiet = try container(.explicit("quiet"))
        #expect(try quiet.resolve(Greeter.self, name: "soft").greeting == "psst")
        #expect(throws: ResolutionError.self) { try quiet.resolve(Greeter.self, name: "loud") }
    }

    @Test func aContextChangesScopeAndAddsServices() throws {
        let base = try container(.none)
        #expect(try base.resolve(Greeter.self) === base.resolve(Greeter.self))
        let loud = try container(.explicit("loud"))
        #expect(try loud.resolve(Greeter.self) !== loud.resolve(Greeter.self))   // scope: unique
        #expect(try loud.resolve(key: "Banner") as? String == "LOUD")
        #expect(throws: ResolutionError.self) { try base.resolve(key: "Banner") }
    }

    @Test func switchingAServiceOffRemovesItAndItsTypes() throws {
        let test = try container(.explicit("test"))
        #expect(try test.resolve(key: "Clock") as? String == "fixed-clock")
        #expect {
            try test.resolve(key: "Audit")
        } throws: { error in
            "\(error)" == "service Audit is switched off in context 'test' (\(path):30:25)"
        }
        #expect(try test.optional(String.self) == nil)
        #expect(try container(.none).resolve(key: "Audit") as? String == "audit")
    }

    @Test func contextsOverManyServicesChangeExactlyTheServicesTheyName() throws {
        // 3,000 services; `odd` overrides every odd one and switches off each tenth, `back`
        // switches the first of those on again and adds a service.
        var text = "wiring: 1\nservices:\n"
        for index in 0..<3_000 { text += "  S\(index): { factory: banner, args: { text: base-\(index) } }\n" }
        text += "contexts:\n  odd:\n    services:\n"
        for index in stride(from: 1, to: 3_000, by: 2) { text += "      S\(index): { args: { text: odd-\(index) } }\n" }
        for index in stride(from: 0, to: 3_000, by: 10) { text += "      S\(index): { enabled: false }\n" }
        text += "  back:\n    services:\n      S0: { enabled: true }\n    add:\n      Extra: { factory: banner, args: { text: added } }\n"
        let path = try TestSupport.temporaryFile(text)
        let container = try Container(manifest: path, registry: registry(), contexts: .explicit("odd", "back"),
                                      options: .init(environment: [:]))
        #expect(try container.resolve(key: "S0") as? String == "base-0")
        #expect(try container.resolve(key: "S1") as? String == "odd-1")
        #expect(try container.resolve(key: "S2") as? String == "base-2")
        #expect(throws: ResolutionError.self) { try container.resolve(key: "S10") }
        #expect(try container.resolve(key: "S2999") as? String == "odd-2999")
        #expect(try container.resolve(key: "Extra") as? String == "added")
        // Switched off: 300 tenths, less S0 switched on again; added and switched on again go last.
        #expect(container.manifest.services.count == 3_000 - 299 + 1)
        #expect(container.manifest.services.suffix(2).map(\.key) == ["Extra", "S0"])
    }

    // MARK: Stacking and precedence

    @Test func stackedContextsApplyInOrderTheLaterWinning() throws {
        // quiet replaces args, then staging merges over them.
        #expect(try greeting(.explicit("quiet", "staging")) == "shh?shh?")
        // staging, then quiet replaces everything staging set.
        #expect(try greeting(.explicit("staging", "quiet")) == "shh")
    }

    @Test func sourcesApplyAsTestThenCodeThenEnvironmentThenLaunchArguments() throws {
        let selection = ContextSelection(
            contexts: ["quiet"], environment: ["WIRING_CONTEXT": "staging"],
            arguments: ["/app/Tests.xctest", "--wiring-context", "loud"])
        let container = try container(selection)
        #expect(container.activeContexts.map(\.description) == [
            "test (automatic)", "quiet (code)", "staging (WIRING_CONTEXT)", "loud (--wiring-context)",
        ])
        #expect(container.contextSummary == "contexts: test (automatic), quiet (code), staging (WIRING_CONTEXT), loud (--wiring-context)")
        // As README shows it printed.
        #expect("\(container.activeContexts)" == "[test (automatic), quiet (code), staging (WIRING_CONTEXT), loud (--wiring-context)]")
    }

    @Test func theEnvironmentVariableListsContextsAndCanBeRenamed() throws {
        let byDefault = ContextSelection(environment: ["WIRING_CONTEXT": "staging, loud"], arguments: ["app"])
        #expect(try container(byDefault).activeContexts.map(\.name) == ["staging", "loud"])
        let renamed = ContextSelection(environmentVariable: "APP_ENV", environment: ["APP_ENV": "quiet", "WIRING_CONTEXT": "loud"], arguments: ["app"])
        #expect(try container(renamed).activeContexts.map(\.description) == ["quiet (APP_ENV)"])
    }

    @Test func launchArgumentsInBothForms() throws {
        let separate = ContextSelection(environment: [:], arguments: ["app", "--wiring-context", "staging"])
        #expect(try container(separate).activeContexts.map(\.name) == ["staging"])
        let joined = ContextSelection(environment: [:], arguments: ["app", "--wiring-context=quiet,staging"])
        #expect(try container(joined).activeContexts.map(\.name) == ["quiet", "staging"])
    }

    @Test func aContextNamedTwiceAppliesOnceAtItsLastPlace() throws {
        let selection = ContextSelection(contexts: ["staging", "quiet"], environment: ["WIRING_CONTEXT": "staging"], arguments: ["app"])
        #expect(try container(selection).activeContexts.map(\.description) == ["quiet (code)", "staging (WIRING_CONTEXT)"])
    }

    @Test func testIsAutomaticUnderATestRunnerAndCanBeTurnedOff() throws {
        #expect(ContextSelection.isRunningTests(arguments: ["/x/WiringPackageTests.xctest"], environment: [:]))
        #expect(ContextSelection.isRunningTests(arguments: ["runner", "--testing-library", "swift-testing"], environment: [:]))
        #expect(ContextSelection.isRunningTests(arguments: ["app"], environment: ["XCTestConfigurationFilePath": "/tmp/x"]))
        #expect(!ContextSelection.isRunningTests(arguments: ["/usr/bin/app"], environment: [:]))
        // This process is a test runner: with its real arguments, `test` applies by itself.
        #expect(try container(ContextSelection(environment: [:])).activeContexts.map(\.description) == ["test (automatic)"])
        #expect(try container(ContextSelection(detectsTests: false, environment: [:])).activeContexts.isEmpty)
    }

    // MARK: Errors

    @Test func anUnknownContextSuggestsAndListsTheDefinedOnes() {
        let selection = ContextSelection(environment: ["WIRING_CONTEXT": "stagin"], arguments: ["app"])
        #expect {
            try container(selection)
        } throws: { error in
            (error as? ManifestError)?.diagnostics.map(\.description) == [
                "error: unknown context 'stagin' from WIRING_CONTEXT; did you mean 'staging'? (contexts: loud, quiet, staging, test)",
            ]
        }
        #expect {
            try ManifestLoader(environment: [:]).load(path).applying(contexts: ["qiet"])
        } throws: { error in
            (error as? ManifestError)?.diagnostics.map(\.description) == [
                "error: unknown context 'qiet'; did you mean 'quiet'? (contexts: loud, quiet, staging, test)",
            ]
        }
    }

    @Test func anUnknownContextIsReportedWithTheManifestsOtherErrors() throws {
        let path = try TestSupport.temporaryFile("""
            wiring: 1
            services:
              Logger: { factory: loger }
            """, name: "services.yaml")
        let error = #expect(throws: ManifestError.self) {
            try Container(manifest: path, registry: registry(), contexts: .explicit("development"), options: .init(environment: [:]))
        }
        #expect(error?.errors.map(\.description) == [
            "error: unknown context 'development' from code (contexts: none are defined)",
            "\(path):3:22: error: service 'Logger' uses factory 'loger', which is not registered",
        ])
    }

    @Test func validationReportsProblemsThatOnlyAppearWithAContext() {
        #expect(TestSupport.validate("contexts/collision.yaml") == [
            "contexts/collision.yaml:5:43: error: service 'Wrapper' decorates 'Echo', which context 'lonely' switches off (contexts/collision.yaml:12:24)",
            "contexts/collision.yaml:9:54: error: 'Greeting' is implemented by both 'Greeter' and 'OtherGreeter'; tell them apart with a name: { type: Greeting, name: … }",
        ])
        let result = ManifestLoader(environment: [:]).validate(TestSupport.fixture("contexts/collision.yaml"))
        #expect(result.diagnostics.map { $0.notes.last?.message } == ["with context lonely applied", "with context twins applied"])
    }

    @Test func anOverlayFileWithUnknownKeysIsReportedAtItsPosition() throws {
        let folder = try TestSupport.temporaryFolder().path
        try "wiring: 1\nservices:\n  A: { factory: a }\n".write(toFile: folder + "/app.yaml", atomically: true, encoding: .utf8)
        try "wiring: 1\nservice:\n  A: { factory: b }\n".write(toFile: folder + "/app.dev.yaml", atomically: true, encoding: .utf8)
        #expect(TestSupport.headlines(ManifestLoader().validate(folder + "/app.yaml").diagnostics) == [
            "\(folder)/app.dev.yaml:2:1: error: unknown key 'service' in overlay file for context 'dev'; did you mean 'services'?",
        ])
    }

    /// An overlay file that is not a mapping, or lacks `wiring: 1`, is an error in that file;
    /// the validation says it did not succeed, and lists it among its errors.
    @Test func anOverlayFileOfTheWrongShapeIsAnErrorInIt() throws {
        let folder = try TestSupport.temporaryFolder().path
        try "wiring: 1\nservices:\n  A: { factory: a }\n".write(toFile: folder + "/app.yaml", atomically: true, encoding: .utf8)
        try "- A\n- B\n".write(toFile: folder + "/app.dev.yaml", atomically: true, encoding: .utf8)
        try "services:\n  A: { factory: b }\n".write(toFile: folder + "/app.test.yaml", atomically: true, encoding: .utf8)
        let result = ManifestLoader().validate(folder + "/app.yaml")
        #expect(TestSupport.headlines(result.diagnostics) == [
            "\(folder)/app.dev.yaml:1:1: error: an overlay file must be a mapping with 'wiring: 1' and the keys of a context",
            "\(folder)/app.test.yaml:1:1: error: an overlay file needs 'wiring: 1'",
        ])
        #expect(!result.succeeded && result.errors.count == 2 && result.warnings.isEmpty)
        let fine = ManifestLoader().validate(TestSupport.fixture("contexts/services.yaml"))
        #expect(fine.succeeded && fine.errors.isEmpty)
    }

    // MARK: Visible

    @Test func theActiveContextsAreLoggedAtInfo() throws {
        let records = LogRecords()
        var logger = Logging.Logger(label: "test") { _ in RecordingLogHandler(records: records) }
        logger.logLevel = .trace
        _ = try Container(manifest: path, registry: registry(), contexts: .explicit("staging"),
                          options: .init(environment: [:], logger: logger))
        #expect(records.lines == ["info: contexts: staging (code)"])
        _ = try Container(manifest: path, registry: registry(), contexts: .explicit("staging"), options: .init(environment: [:]))
        #expect(records.lines.count == 1)
    }

    // MARK: A real process

    @Test func aChildProcessPicksItsContextFromTheEnvironment() throws {
        func run(_ environment: [String: String]) throws -> String {
            try BinaryRunner.run("ContextProbe", [path], environment: environment).stdout
        }
        #expect(try run([:]) == "contexts: none\ngreeting: hello!\nclock: system-clock\n")
        #expect(try run(["WIRING_CONTEXT": "staging,test"]) == "contexts: staging (WIRING_CONTEXT), test (WIRING_CONTEXT)\ngreeting: hi?hi?\nclock: fixed-clock\n")
        #expect(try run(["WIRING_CONTEXT": "prod"]) == "error: unknown context 'prod' from WIRING_CONTEXT (contexts: loud, quiet, staging, test)\n")
    }
}

/// Log lines captured by ``RecordingLogHandler``.
final class LogRecords: Sendable {
    private let storage = Locked<[String]>([])
    func append(_ line: String) { storage.withLock { $0.append(line) } }
    var lines: [String] { storage.withLock { $0 } }
}

/// A swift-log handler that keeps `level: message` lines for tests.
struct RecordingLogHandler: LogHandler {
    let records: LogRecords
    var metadata: Logging.Logger.Metadata = [:]
    var logLevel: Logging.Logger.Level = .trace

    subscript(metadataKey key: String) -> Logging.Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        records.append("\(event.level): \(event.message)")
    }
}
