import Foundation
import Logging
import Testing
@testable import Wiring
import WiringCommands

final class Link: Sendable {
    let next: Link?
    init(next: Link?) { self.next = next }
}

@Suite("Failure semantics and secrets")
struct FailureSemanticsTests {
    /// A chain of `length` services, each resolving the next by key.
    func chain(_ length: Int) throws -> Container {
        var text = "wiring: 1\nservices:\n"
        for index in 0..<length { text += "  L\(index): { factory: link, args: { next: \(index + 1) } }\n" }
        let registry = FactoryRegistry()
        registry.factory("link") { r in
            let next: Int = try r.arg("next")
            return Link(next: next < length ? try r.resolve(key: "L\(next)") as? Link : nil)
        }
        return try Container(manifest: try TestSupport.temporaryFile(text), registry: registry, contexts: .none)
    }

    @Test func aDeepGraphEndsInAnErrorNotAStackOverflow() throws {
        let deep = try chain(1_000)
        #expect {
            try deep.resolve(key: "L0")
        } throws: { error in
            "\(error)".hasPrefix("resolution is deeper than 256 services") || "\(error)".hasPrefix("resolution is too deep for this thread's stack")
        }
        // Also on a thread with a small stack.
        let done = DispatchSemaphore(value: 0)
        let outcome = Outcome()
        let thread = Thread {
            do { _ = try deep.resolve(key: "L0") } catch { outcome.error = "\(error)" }
            done.signal()
        }
        thread.stackSize = 512 << 10
        thread.start()
        done.wait()
        #expect(outcome.error?.hasPrefix("resolution is too deep for this thread's stack") == true)
        // A chain within the limit resolves.
        #expect(try chain(200).resolve(key: "L0") is Link)
    }

    @Test func theStackGuardRefusesOnlyWhatItCanMeasure() {
        let low: UInt = 0x7000_0000
        #expect(StackGuard.hasRoom(at: low + 1 << 20, lowestAddress: low))
        #expect(!StackGuard.hasRoom(at: low + 4096, lowestAddress: low))
        // An address below the stack or far above it (ASan's fake stack) cannot be measured.
        // Found under AddressSanitizer: every resolve on such threads was refused.
        #expect(StackGuard.hasRoom(at: low - 4096, lowestAddress: low))
        #expect(StackGuard.hasRoom(at: low + 1 << 40, lowestAddress: low))
        #expect(StackGuard.hasRoom)
    }

    @Test func aFailedBuildLeavesAnEarlierContainerUsable() throws {
        let good = try Container(manifest: TestSupport.fixture("container/app.yaml"), registry: Fixture.registry(), contexts: .none,
                                 options: .init(environment: [:]))
        let logger = try good.resolve(Logger.self)
        #expect(throws: ManifestError.self) {
            try Container(manifest: TestSupport.fixture("container/unbound.yaml"), registry: Fixture.registry(), contexts: .none,
                          options: .init(environment: [:]))
        }
        #expect(try good.resolve(Logger.self) === logger)
        #expect(try good.resolve(UserStore.self).describe() == "cache:log:postgres://primary")
    }

    @Test func validateExplainAndGraphWriteNoFile() throws {
        let folder = try TestSupport.temporaryFolder()
        for name in ["services.yaml", "logging.yaml", "services.production.yaml", "wiring.schema.json", "wiring-overlay.schema.json"] {
            try FileManager.default.copyItem(atPath: TestSupport.packageRoot + "/config-examples/" + name,
                                             toPath: folder.appendingPathComponent(name).path)
        }
        func snapshot() throws -> [String: Date] {
            var result: [String: Date] = [:]
            for name in try FileManager.default.contentsOfDirectory(atPath: folder.path) {
                result[name] = try FileManager.default.attributesOfItem(atPath: folder.appendingPathComponent(name).path)[.modificationDate] as? Date
            }
            return result
        }
        let before = try snapshot()
        let manifest = folder.appendingPathComponent("services.yaml").path
        for arguments in [["validate", manifest, "--all-contexts"], ["validate", manifest, "--format", "json"],
                          ["explain", manifest, "NoteStore", "--show-values"], ["graph", manifest], ["schema"]] {
            _ = try BinaryRunner.run("wiring", arguments)
        }
        #expect(try snapshot() == before)
    }

    @Test func environmentValuesStayOutOfErrorsExplainGraphAndLogs() throws {
        let secret = "hunter2-\(UUID().uuidString.prefix(8))"
        let path = try TestSupport.temporaryFile("""
            wiring: 1
            parameters:
              password: ${WIRING_TEST_SECRET}
            services:
              Greeter: { factory: greeter, args: { greeting: 5, password: $(password), port: "${WIRING_TEST_SECRET}" } }
            """)
        let environment = ["WIRING_TEST_SECRET": secret]
        let records = LogRecords()
        var logger = Logging.Logger(label: "secrets") { _ in RecordingLogHandler(records: records) }
        logger.logLevel = .trace
        let registry = FactoryRegistry()
        registry.factory("greeter") { r in Greeter(greeting: "\(try r.arg("port", as: Int.self))") }
        let container = try Container(manifest: path, registry: registry, contexts: .none,
                                      options: .init(environment: environment, logger: logger))
        var message = ""
        do { _ = try container.resolve(Greeter.self) } catch { message = "\(error)" }
        #expect(message.hasSuffix("argument 'port' of service Greeter: expected an integer, found a string from environment variable 'WIRING_TEST_SECRET'"))
        #expect(!message.contains(secret))
        #expect(!records.lines.joined().contains(secret))

        let manifest = try ManifestLoader(environment: environment).load(path)
        let explained = try manifest.explain("Greeter", environment: environment).description
        #expect(explained.contains("args.password  <redacted>"))
        #expect(!explained.contains(secret))
        #expect(try manifest.explain("Greeter", environment: environment, showingValues: true).description.contains(secret))
        #expect(!manifest.graph(format: .dot).contains(secret))
        #expect(!manifest.graph(format: .mermaid).contains(secret))
    }
}

/// What a thread reports back.
private final class Outcome: @unchecked Sendable {
    var error: String?

    /// A service reference read as the wrong type is resolved once, not again for the error:
    /// a `unique` factory runs once, through `r.arg` and through a typed `@Reference` alike.
    @Test func aReferenceOfTheWrongTypeIsResolvedOnceBeforeTheError() throws {
        struct WrongArgs: Decodable, Sendable { @Reference var part: Link }
        final class Counter: Sendable {
            let count = Locked(0)
            var value: Int { count.withLock { $0 } }
        }
        let built = Counter()
        let registry = FactoryRegistry()
        registry.factory("part") { _ in
            built.count.withLock { $0 += 1 }
            return IssuedTicket()
        }
        registry.factory("reads-arg") { r in try r.arg("part", as: Link.self) }
        registry.factory("typed", args: WrongArgs.self) { _, args in args.part }
        let container = try TypedFactoryFormsTests.container("""
            services:
              Part: { factory: part, scope: unique }
              ReadsArg: { factory: reads-arg, args: { part: !service Part } }
              Typed: { factory: typed, implements: [], args: { part: !service Part } }
            """, registry)
        #expect(throws: ResolutionError.self) { try container.resolve(key: "ReadsArg") }
        #expect(built.value == 1)
        #expect(throws: ResolutionError.self) { try container.resolve(key: "Typed") }
        #expect(built.value == 2)
    }
}
