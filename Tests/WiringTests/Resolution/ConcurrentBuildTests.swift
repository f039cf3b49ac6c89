import Foundation
import Testing
@testable import Wiring

/// A container built from a file of at least `Container.concurrentBindingThreshold` services
/// validates the manifest on another thread while it binds it. These tests hold that path to
/// what validating first, then binding, gives: the same container, the same warnings, and
/// validation's errors first when both fail.
@Suite("Concurrent validation and binding")
struct ConcurrentBuildTests {
    final class Part: Sendable {
        let name: String
        init(_ name: String) { self.name = name }
    }

    /// `count` services: a chain of dependencies, aliases, named variants, a decorator and a
    /// `test` context, plus whatever `extra` adds.
    private func manifest(services count: Int, extra: String = "") -> String {
        var text = "wiring: 1\nservices:\n"
        for index in 0..<count {
            text += "  S\(index):\n    factory: part\n    scope: \(index % 2 == 0 ? "singleton" : "unique")\n"
            text += "    implements: [P\(index)]\n    args: { name: \"s\(index)\" }\n"
            if index % 3 == 0 { text += "    names:\n      alt: { args: { name: \"alt\(index)\" } }\n" }
        }
        text += "  Wrapper:\n    factory: wrap\n    decorates: S1\n"
        text += extra
        text += "contexts:\n  test:\n    services:\n      S0: { args: { name: mocked } }\n"
        return text
    }

    private func registry(including extra: [String] = []) -> FactoryRegistry {
        let registry = FactoryRegistry()
        registry.factory("part") { r in Part(try r.arg("name")) }
        registry.factory("wrap") { r in Part("wrapped " + (try r.decorated(Part.self)).name) }
        for key in extra { registry.factory(key) { _ in Part(key) } }
        return registry
    }

    /// The container built from `path` one step after the other, on this thread, for comparison.
    private func sequential(_ path: String, registry: FactoryRegistry, contexts: ContextSelection) throws(ManifestError) -> Container {
        let loaded = try ManifestLoader(environment: [:]).load(path)
        return try sequential(loaded, registry: registry, contexts: contexts)
    }

    /// The container built from `loaded` one step after the other, on this thread.
    private func sequential(_ loaded: Manifest, registry: FactoryRegistry, contexts: ContextSelection) throws(ManifestError) -> Container {
        let bound = try Container.Bound(loaded, registry: registry, contexts: contexts, environment: [:], concurrently: false)
        return Container(bound: bound, options: .init(environment: [:]))
    }

    private func errorLines(_ body: () throws -> Container) -> [String] {
        do {
            _ = try body()
            return []
        } catch let error as ManifestError {
            return error.diagnostics.map(\.description)
        } catch {
            return ["\(error)"]
        }
    }

    @Test(arguments: [ContextSelection.none, .explicit("test")])
    func aLargeManifestBuildsTheSameContainer(contexts: ContextSelection) throws {
        let count = Container.concurrentBindingThreshold + 100
        // A context that is never applied reads an unset variable: a warning for the manifest to carry.
        let path = try TestSupport.temporaryFile(manifest(services: count) + "  staging:\n    services:\n      S2: { args: { name: \"${WIRING_UNSET_FOR_TEST}\" } }\n")
        let registry = registry(including: ["spare"])
        let built = try Container(manifest: path, registry: registry, contexts: contexts, options: .init(environment: [:]))
        let expected = try sequential(path, registry: registry, contexts: contexts)

        #expect(built.manifest.services.count == count + 1)
        #expect(built.manifest.diagnostics.map(\.description) == expected.manifest.diagnostics.map(\.description))
        #expect(!built.manifest.diagnostics.isEmpty)
        #expect(built.diagnostics.map(\.description) == expected.diagnostics.map(\.description))
        #expect(built.diagnostics.contains { $0.message.contains("factory 'spare' is registered but no service uses it") })
        #expect(built.activeContexts.map(\.name) == expected.activeContexts.map(\.name))
        for index in [0, 1, 2, 3, count - 1] {
            let (mine, theirs) = (try built.resolve(key: "S\(index)") as? Part, try expected.resolve(key: "S\(index)") as? Part)
            #expect(mine != nil && mine?.name == theirs?.name)
        }
        #expect((try built.resolve(key: "S0") as? Part)?.name == (built.activeContexts.isEmpty ? "s0" : "mocked"))
        #expect((try built.resolve(key: "S1") as? Part)?.name == "wrapped s1")
        #expect((try built.resolve(key: "S3", name: "alt") as? Part)?.name == "alt3")
    }

    @Test func validationErrorsComeFirstWhenBindingFailsToo() throws {
        // Invalid (an unknown scope, a decorator of nothing) and unbindable (no factory 'missing').
        let extra = "  Broken:\n    factory: missing\n    scope: singletn\n  Lost:\n    factory: part\n    decorates: Nowhere\n"
        let path = try TestSupport.temporaryFile(manifest(services: Container.concurrentBindingThreshold, extra: extra))
        let concurrent = errorLines { try Container(manifest: path, registry: registry(), contexts: .none, options: .init(environment: [:])) }
        let oneAfterTheOther = errorLines { try sequential(path, registry: registry(), contexts: .none) }
        #expect(concurrent == oneAfterTheOther)
        #expect(concurrent.contains { $0.contains("unknown scope 'singletn'") })
        #expect(concurrent.contains { $0.contains("decorates unknown service 'Nowhere'") })
        #expect(!concurrent.contains { $0.contains("missing") && $0.contains("not registered") })
    }

    @Test func bindingErrorsAreThrownWhenTheManifestIsValid() throws {
        let extra = "  Broken:\n    factory: missing\n    args: { url: \"${WIRING_UNSET_FOR_TEST}\" }\n"
        let path = try TestSupport.temporaryFile(manifest(services: Container.concurrentBindingThreshold, extra: extra))
        let concurrent = errorLines { try Container(manifest: path, registry: registry(), contexts: .none, options: .init(environment: [:])) }
        #expect(concurrent == errorLines { try sequential(path, registry: registry(), contexts: .none) })
        #expect(concurrent.contains { $0.contains("'missing'") })
        #expect(concurrent.contains { $0.contains("WIRING_UNSET_FOR_TEST") })
    }

    @Test func anUnknownContextIsReportedAsWithoutConcurrency() throws {
        let path = try TestSupport.temporaryFile(manifest(services: Container.concurrentBindingThreshold))
        let concurrent = errorLines { try Container(manifest: path, registry: registry(), contexts: .explicit("tset"), options: .init(environment: [:])) }
        #expect(concurrent == errorLines { try sequential(path, registry: registry(), contexts: .explicit("tset")) })
        #expect(concurrent.count == 1)
    }

    // MARK: A manifest already loaded

    /// A manifest of `count` services with contexts that override, add, switch off, and one
    /// that breaks the manifest (a decorator of a service it switches off).
    private func loadedManifest(services count: Int) throws -> Manifest {
        var extra = "  staging:\n    services:\n      S4: { enabled: false }\n      S5: { factory: spare }\n"
        extra += "    add:\n      Added: { factory: part, implements: [Extra], args: { name: added } }\n"
        extra += "  broken:\n    services:\n      S1: { enabled: false }\n"
        let path = try TestSupport.temporaryFile(manifest(services: count) + extra)
        return try ManifestLoader(environment: [:]).load(path)
    }

    @Test(arguments: [ContextSelection.none, .explicit("test"), .explicit("staging"), .explicit("test", "staging")])
    func aLoadedManifestBuildsTheSameContainerOnTwoThreads(contexts: ContextSelection) throws {
        // With no contexts to check, a second thread only helps bind, from a larger manifest.
        let threshold = contexts.contexts.isEmpty ? Container.helpedBindingThreshold : Container.concurrentBindingThreshold
        let count = threshold + 100
        let loaded = try loadedManifest(services: count)
        let registry = registry(including: ["spare"])
        let built = try Container(manifest: loaded, registry: registry, contexts: contexts, options: .init(environment: [:]))
        let expected = try sequential(loaded, registry: registry, contexts: contexts)

        #expect(built.manifest.services.map(\.key) == expected.manifest.services.map(\.key))
        #expect(built.manifest.appliedContexts == expected.manifest.appliedContexts)
        #expect(built.diagnostics.map(\.description) == expected.diagnostics.map(\.description))
        #expect(built.activeContexts.map(\.name) == expected.activeContexts.map(\.name))
        for key in ["S0", "S1", "S2", "S3", "S5", "S\(count - 1)", "Added"] {
            let (mine, theirs) = (try? built.resolve(key: key) as? Part, try? expected.resolve(key: key) as? Part)
            #expect(mine?.name == theirs?.name, "\(key)")
        }
        for index in [0, 3, 6] {
            #expect((try built.resolve(key: "S\(index)", name: "alt") as? Part)?.name == "alt\(index)")
        }
        let staging = built.activeContexts.contains { $0.name == "staging" }
        #expect(((try? built.resolve(key: "S4")) == nil) == staging)
        #expect((try? built.resolve(key: "S5") as? Part)?.name == (staging ? "spare" : "s5"))
        #expect((try? built.resolve(key: "Added") as? Part)?.name == (staging ? "added" : nil))
        // Each service is found by its key in the applied manifest, at its own place.
        for (position, service) in built.manifest.services.enumerated() {
            #expect(built.manifest.serviceIndex(of: service.key) == position)
        }
    }

    @Test func aContextThatBreaksALoadedManifestThrowsWhatTheCheckFinds() throws {
        let loaded = try loadedManifest(services: Container.concurrentBindingThreshold)
        // `broken` switches off S1, which Wrapper decorates; the registry also lacks 'spare'.
        let concurrent = errorLines { try Container(manifest: loaded, registry: registry(), contexts: .explicit("broken"), options: .init(environment: [:])) }
        #expect(concurrent == errorLines { try sequential(loaded, registry: registry(), contexts: .explicit("broken")) })
        #expect(!concurrent.isEmpty)
        #expect(concurrent.allSatisfy { $0.contains("with context broken applied") })
        #expect(concurrent.contains { $0.contains("S1") })
        var applying: [String] = []
        do {
            _ = try loaded.applying(contexts: ["broken"])
        } catch {
            applying = error.diagnostics.map(\.description)
        }
        #expect(concurrent == applying)
    }

    @Test func anUnknownContextOfALoadedManifestIsReportedAsWithoutConcurrency() throws {
        let loaded = try loadedManifest(services: Container.concurrentBindingThreshold)
        let concurrent = errorLines { try Container(manifest: loaded, registry: registry(), contexts: .explicit("tset"), options: .init(environment: [:])) }
        #expect(concurrent == errorLines { try sequential(loaded, registry: registry(), contexts: .explicit("tset")) })
        #expect(concurrent.count == 1)
        #expect(concurrent.first?.contains("did you mean 'test'") == true)
    }
}
