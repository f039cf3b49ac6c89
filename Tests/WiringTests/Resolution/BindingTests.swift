import Testing
@testable import Wiring

@Suite("Binding a manifest to a registry")
struct BindingTests {
    @Test func everyUnboundFactoryAndUnsetVariableIsReportedAtItsPosition() {
        let registry = FactoryRegistry()
        registry.factory("logger") { _ in Clock() }
        registry.factory("user-store") { _ in Clock() }
        registry.factory("replica-store") { _ in Clock() }
        #expect {
            try Container(manifest: TestSupport.fixture("container/unbound.yaml"), registry: registry, contexts: .none,
                          options: Container.Options(environment: [:]))
        } throws: { error in
            TestSupport.headlines((error as? ManifestError)?.diagnostics ?? []) == [
                "container/unbound.yaml:4:14: error: service 'Logger' uses factory 'loger', which is not registered; did you mean 'logger'?",
                "container/unbound.yaml:6:14: error: service 'UserStore' uses factory 'user-stor', which is not registered; did you mean 'user-store'?",
                "container/unbound.yaml:8:27: error: service 'UserStore[replica]' uses factory 'replica-stor', which is not registered; did you mean 'replica-store'?",
                "container/unbound.yaml:10:14: error: service 'Audit' uses factory 'audit', which is not registered",
                "container/unbound.yaml:12:19: error: environment variable 'WIRING_TEST_UNSET_SINK' is not set and has no default",
            ]
        }
    }

    @Test func referencesAreCheckedAtBuildAndFilledInOnFirstUse() throws {
        let good = """
            wiring: 1
            parameters:
              hosts: [a, b]
              host: db.example.com
            services:
              Store:
                factory: store
                args: { url: "postgres://$(host)/${DB_NAME:-app}", pool: { size: "${POOL}" }, plain: { text: costs $$5 } }
                names:
                  replica: { args: { url: "postgres://replica.$(host)" } }

            """
        let path = try TestSupport.temporaryFile(good + """
              Broken: { factory: store, args: { url: "hosts: $(hosts)", user: "${DB_USER}" } }
            """, name: "broken.yaml")
        let registry = FactoryRegistry()
        registry.factory("store") { r in
            [try r.arg("url", as: String.self), try r.arg("pool", as: [String: Int].self)["size"].map(String.init) ?? "-",
             try r.arg("plain", as: [String: String].self)["text"] ?? "-"]
        }
        // Nested, in a list parameter and unset: every problem, each at its value.
        #expect {
            try Container(manifest: path, registry: registry, contexts: .none, options: .init(environment: [:]))
        } throws: { error in
            TestSupport.headlines((error as? ManifestError)?.diagnostics ?? []) == [
                "\(path):8:70: error: environment variable 'POOL' is not set and has no default",
                "\(path):11:42: error: parameter 'hosts' is a list and cannot be part of a string",
                "\(path):11:67: error: environment variable 'DB_USER' is not set and has no default",
            ]
        }
        let container = try Container(manifest: try TestSupport.temporaryFile(good), registry: registry, contexts: .none,
                                      options: .init(environment: ["POOL": "8"]))
        #expect(try container.resolve(key: "Store") as? [String] == ["postgres://db.example.com/app", "8", "costs $5"])
        // The variant's own url, over the service's other arguments.
        #expect(try container.resolve(key: "Store", name: "replica") as? [String] == ["postgres://replica.db.example.com", "8", "costs $5"])
    }

    @Test func aWholeListParameterIsAnArgumentWithItsKind() throws {
        let path = try TestSupport.temporaryFile("""
            wiring: 1
            parameters:
              hosts: [a, b]
            services:
              Hosts: { factory: hosts, args: { hosts: $(hosts) } }
            """, name: "hosts.yaml")
        let registry = FactoryRegistry()
        registry.factory("hosts") { r in try r.arg("hosts", as: [String].self) }
        let container = try Container(manifest: path, registry: registry, contexts: .none, options: .init(environment: [:]))
        #expect(try container.resolve(key: "Hosts") as? [String] == ["a", "b"])
    }

    @Test func unusedFactoriesAreInformation() throws {
        let registry = Fixture.registry()
        registry.factory("spare") { _ in Clock() }
        let container = try Container(manifest: TestSupport.fixture("container/app.yaml"), registry: registry, contexts: .none)
        #expect(container.diagnostics.map(\.severity) == [.info])
        #expect(container.diagnostics.first?.message == "factory 'spare' is registered but no service uses it")
        #expect(container.diagnostics.first?.location?.file == "WiringTests/BindingTests.swift")
    }

    @Test func registeringAKeyTwiceIsAnErrorUnlessOverriding() {
        let registry = Fixture.registry()
        registry.factory("clock") { _ in Clock() }
        #expect {
            try Container(manifest: TestSupport.fixture("container/app.yaml"), registry: registry, contexts: .none)
        } throws: { error in
            let diagnostic = (error as? ManifestError)?.diagnostics.first
            return diagnostic?.message == "factory 'clock' is registered twice; pass overriding: true to replace it on purpose"
                && diagnostic?.location?.file == "WiringTests/BindingTests.swift"
                && diagnostic?.notes.first?.location?.file == "WiringTests/TestServices.swift"
        }
        let overridden = Fixture.registry()
        overridden.factory("clock", overriding: true) { _ in Clock() }
        #expect(throws: Never.self) {
            try Container(manifest: TestSupport.fixture("container/app.yaml"), registry: overridden, contexts: .none)
        }
    }
}
