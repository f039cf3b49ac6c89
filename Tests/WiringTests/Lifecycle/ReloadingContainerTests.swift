import Foundation
import Logging
import Synchronization
import Testing
@testable import Wiring

/// A container following its manifest files as they are edited, as a development server uses it.
@Suite("Reloading container")
struct ReloadingContainerTests {
    final class Greeter: Sendable {
        let text: String
        let closed = Atomic<Bool>(false)
        init(text: String) { self.text = text }
        var isClosed: Bool { closed.load(ordering: .relaxed) }
    }

    final class Request: Sendable {}

    /// A folder with `services.yaml` importing `greeting.yaml`.
    struct Files {
        let folder: URL
        var services: URL { folder.appendingPathComponent("services.yaml") }
        var greeting: URL { folder.appendingPathComponent("greeting.yaml") }

        init(greeting: String) throws {
            folder = try TestSupport.temporaryFolder()
            try write(services: """
                wiring: 1
                imports: [greeting.yaml]
                services:
                  Request: { factory: request, scope: scoped }
                """)
            try write(greeting: greeting)
        }

        /// Writes a file with a modification time a poll cannot mistake for the last one's.
        func write(services text: String) throws { try write(text, to: services) }
        func write(greeting text: String) throws {
            try write("wiring: 1\nservices:\n  Greeter: { factory: greeter, scope: singleton, args: { text: \(text) } }\n", to: greeting)
        }

        private func write(_ text: String, to file: URL) throws {
            let previous = (try? FileManager.default.attributesOfItem(atPath: file.path)[.modificationDate] as? Date) ?? Date()
            try Data(text.utf8).write(to: file)
            try FileManager.default.setAttributes([.modificationDate: previous.addingTimeInterval(2)], ofItemAtPath: file.path)
        }
    }

    func registry() -> FactoryRegistry {
        let registry = FactoryRegistry()
        registry.factory("greeter") { r in Greeter(text: try r.arg("text")) }
            .onShutdown { (greeter: Greeter) in greeter.closed.store(true, ordering: .relaxed) }
        registry.factory("request") { _ in Request() }
        return registry
    }

    func reloading(_ files: Files, records: LogRecords = LogRecords(), pollInterval: Duration = .seconds(60)) throws -> ReloadingContainer {
        let logger = Logging.Logger(label: "test") { _ in RecordingLogHandler(records: records) }
        return try ReloadingContainer(manifest: files.services.path, registry: registry(), contexts: .none,
                                      options: .init(environment: [:], logger: logger), pollInterval: pollInterval)
    }

    @Test func anEditPutsANewContainerInForceAndTheOldShutsDownWhenItsLastScopeEnds() async throws {
        let files = try Files(greeting: "hello")
        let wiring = try reloading(files)
        try await wiring.start()
        let first = try await wiring.container.resolve(Greeter.self)
        #expect(await wiring.reloadIfChanged() == false)

        let inFlight = wiring.makeScope()
        _ = try await inFlight.resolve(Request.self)
        try files.write(greeting: "bonjour")
        #expect(await wiring.reloadIfChanged())
        #expect(wiring.reloads == 1)
        let second = try await wiring.container.resolve(Greeter.self)
        #expect(second.text == "bonjour")
        // The request in flight finishes on the old container, which waits for it.
        #expect(try await inFlight.resolve(Greeter.self) === first)
        #expect(try await wiring.makeScope().container.resolve(Greeter.self) === second)
        #expect(!first.isClosed && !inFlight.container.isShutDown)
        try await inFlight.end()
        let deadline = ContinuousClock.now + .seconds(10)
        while !first.isClosed && ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(5)) }
        #expect(first.isClosed)
        #expect(inFlight.container.isShutDown)
        #expect(!second.isClosed)
        try await wiring.shutdown()
        #expect(second.isClosed)
    }

    /// Through ``ContainerProvider``, as the integrations take it: a container is its own
    /// container in force; a reloading one hands out the one an edit put in force.
    @Test func eachProviderHandsOutTheContainerInForce() async throws {
        func inForce(_ provider: any ContainerProvider) -> Container { provider.container }
        let files = try Files(greeting: "hello")
        let wiring = try reloading(files)
        let fixed = try Container(manifest: files.services.path, registry: registry(), contexts: .none, options: .init(environment: [:]))
        #expect(inForce(fixed) === fixed)
        let first = inForce(wiring)
        try files.write(greeting: "bonjour")
        #expect(await wiring.reloadIfChanged())
        #expect(inForce(wiring) !== first && inForce(wiring) === wiring.container)
        #expect(try await inForce(wiring).resolve(Greeter.self).text == "bonjour")
        try await wiring.shutdown()
        try await fixed.shutdown()
    }

    /// `withScope` runs on the container in force and ends its scope, when its body returns and
    /// when it throws: a container retired since then shuts down, with no scope left open.
    @Test func withScopeEndsItsScopeSoARetiredContainerShutsDown() async throws {
        struct Refused: Error {}
        let files = try Files(greeting: "hello")
        let wiring = try reloading(files)
        try await wiring.start()
        let first = try await wiring.withScope { scope in
            _ = try await scope.resolve(Request.self)
            return try await scope.resolve(Greeter.self)
        }
        #expect(first === (try await wiring.container.resolve(Greeter.self)))
        try files.write(greeting: "bonjour")
        #expect(await wiring.reloadIfChanged())
        let second = try await wiring.container.resolve(Greeter.self)
        await #expect(throws: Refused.self) {
            try await wiring.withScope { scope in
                #expect(try await scope.resolve(Greeter.self) === second)
                throw Refused()
            }
        }
        try files.write(greeting: "hola")
        #expect(await wiring.reloadIfChanged())
        let deadline = ContinuousClock.now + .seconds(10)
        while !(first.isClosed && second.isClosed) && ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(5)) }
        // Required: a shutdown waits for the retired containers' open scopes, so one left open
        // would keep this test waiting instead of failing.
        try #require(first.isClosed && second.isClosed)
        try await wiring.shutdown()
    }

    @Test func anEditWithErrorsIsLoggedAtItsPositionAndTheContainerInForceKeepsServing() async throws {
        let files = try Files(greeting: "hello")
        let records = LogRecords()
        let wiring = try reloading(files, records: records)
        try await wiring.start()
        try files.write(services: """
            wiring: 1
            imports: [greeting.yaml]
            services:
              Request: { factory: requets, scope: scoped }
            """)
        #expect(await wiring.reloadIfChanged() == false)
        #expect(try await wiring.container.resolve(Greeter.self).text == "hello")
        let logged = try #require(records.lines.last { $0.hasPrefix("error: reload:") })
        #expect(logged.contains("\(files.services.path):4:23: error: "), "\(logged)")
        #expect(logged.contains("'requets'"))
        // Not read again until the files change again; then a fixed edit goes in force.
        #expect(await wiring.reloadIfChanged() == false)
        try files.write(services: """
            wiring: 1
            imports: [greeting.yaml]
            services:
              Request: { factory: request, scope: scoped }
            """)
        try files.write(greeting: "hallo")
        #expect(await wiring.reloadIfChanged())
        #expect(try await wiring.container.resolve(Greeter.self).text == "hallo")
        try await wiring.shutdown()
    }

    @Test func aNewImportWithAMistakeIsWatchedUntilItIsFixed() async throws {
        let files = try Files(greeting: "hello")
        let records = LogRecords()
        let wiring = try reloading(files, records: records)
        try await wiring.start()
        let extra = files.folder.appendingPathComponent("extra.yaml")
        try Data("wiring: 1\nservices:\n  Extra: { factory: greeter, scope: singleton, args: { txt: 1 } \n".utf8).write(to: extra)
        try files.write(services: """
            wiring: 1
            imports: [greeting.yaml, extra.yaml]
            services:
              Request: { factory: request, scope: scoped }
            """)
        #expect(await wiring.reloadIfChanged() == false)
        // Read once: until a watched file changes again, a poll reads nothing.
        #expect(await wiring.reloadIfChanged() == false)
        #expect(records.lines.filter { $0.hasPrefix("error: reload:") }.count == 1)
        // Only the new file is fixed: the edit is seen there.
        try Data("wiring: 1\nservices:\n  Extra: { factory: greeter, scope: singleton, implements: [], args: { text: extra } }\n".utf8)
            .write(to: extra)
        try FileManager.default.setAttributes([.modificationDate: Date().addingTimeInterval(5)], ofItemAtPath: extra.path)
        #expect(await wiring.reloadIfChanged())
        #expect(try await (wiring.container.resolve(key: "Extra") as? Greeter)?.text == "extra")
        try await wiring.shutdown()
    }

    @Test func theWatchReloadsAnEditedImportAndShutdownStopsIt() async throws {
        let files = try Files(greeting: "hello")
        let records = LogRecords()
        let wiring = try reloading(files, records: records, pollInterval: .milliseconds(20))
        // Nothing is watched before start.
        try files.write(greeting: "early")
        try await Task.sleep(for: .milliseconds(100))
        #expect(wiring.reloads == 0)
        try await wiring.start()
        let deadline = ContinuousClock.now + .seconds(10)
        while wiring.reloads == 0 && ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(10)) }
        #expect(try await wiring.container.resolve(Greeter.self).text == "early")
        #expect(records.lines.contains { $0.hasPrefix("info: reload: the edited manifest is in force") })
        try await wiring.shutdown()
        try files.write(greeting: "late")
        try await Task.sleep(for: .milliseconds(100))
        #expect(wiring.reloads == 1)
        #expect(wiring.container.isShutDown)
    }

    /// The log names each container a reload puts in force, and says once of each that it shut
    /// down, retired or in force at the end: what an operator (and the soak) checks by identity.
    @Test func theLogSaysOnceOfEachContainerThatItShutDown() async throws {
        let files = try Files(greeting: "hello")
        let records = LogRecords()
        let wiring = try reloading(files, records: records)
        try await wiring.start()
        let inFlight = wiring.makeScope()
        for edit in 1...3 {
            try files.write(greeting: "edit\(edit)")
            #expect(await wiring.reload())
        }
        #expect(records.lines.contains("info: reload: the edited manifest is in force as container 3; container 2 shuts down when its last scope ends"))
        try await inFlight.end()
        try await wiring.shutdown()
        let shutDown = records.lines.filter { $0.hasPrefix("info: reload: container ") && $0.hasSuffix(" shut down") }
        #expect(shutDown.sorted() == (0...3).map { "info: reload: container \($0) shut down" })
    }

    /// A scope handed out while a reload retires its container stays of a container that is up:
    /// the count of its scopes is taken under the lock that decides which container is in force.
    @Test func aScopeHandedOutDuringAReloadIsOfAContainerThatStaysUpUntilItEnds() async throws {
        let files = try Files(greeting: "hello")
        let wiring = try reloading(files)
        try await wiring.start()
        final class Run: Sendable {
            let failures = Atomic<Int>(0)
            let stop = Atomic<Bool>(false)
        }
        let run = Run()
        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<3 {
                group.addTask {
                    while !run.stop.load(ordering: .relaxed) {
                        let scope = wiring.makeScope()
                        do {
                            _ = try await scope.resolve(Request.self)
                            _ = try await scope.resolve(Greeter.self)
                        } catch {
                            run.failures.add(1, ordering: .relaxed)
                        }
                        try await scope.end()
                        await Task.yield()
                    }
                }
            }
            for _ in 0..<150 { await wiring.reload() }
            run.stop.store(true, ordering: .relaxed)
            try await group.waitForAll()
        }
        #expect(wiring.reloads == 150)
        let failed = run.failures.load(ordering: .relaxed)
        #expect(failed == 0)
        try await wiring.shutdown()
        #expect(wiring.retiringCount == 0)
    }

    /// `shutdown()` waits for a retired container whose request is still in flight, and the
    /// retired containers already shut down are not kept.
    @Test func shutdownWaitsForRetiredContainersWithOpenScopesAndKeepsNoneThatEnded() async throws {
        let files = try Files(greeting: "hello")
        let wiring = try reloading(files)
        try await wiring.start()
        for _ in 0..<20 { #expect(await wiring.reload()) }
        let deadline = ContinuousClock.now + .seconds(10)
        while wiring.retiringCount > 0 && ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(5)) }
        #expect(wiring.retiringCount == 0)

        let inFlight = wiring.makeScope()
        let old = try await inFlight.resolve(Greeter.self)
        #expect(await wiring.reload())
        let returned = Atomic<Bool>(false)
        let shutdown = Task {
            try await wiring.shutdown()
            returned.store(true, ordering: .relaxed)
        }
        try await Task.sleep(for: .milliseconds(200))
        let returnedEarly = returned.load(ordering: .relaxed)
        #expect(!returnedEarly)
        #expect(!old.isClosed)
        try await inFlight.end()
        try await shutdown.value
        #expect(old.isClosed)
        #expect(inFlight.container.isShutDown)
        #expect(wiring.retiringCount == 0)
    }
}
