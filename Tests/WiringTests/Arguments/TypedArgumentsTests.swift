import Foundation
import Testing
import Wiring

/// The arguments of a pool, as the client writes them.
struct PoolArgs: Decodable, Sendable {
    enum Mode: String, Decodable, CaseIterable, Sendable { case fast, safe }
    var url: String
    var size: Int?
    var mode: Mode
    var timeout: Duration?
}

final class ArgsPool: Sendable {
    let args: PoolArgs
    init(_ args: PoolArgs) { self.args = args }
}

/// Counts factory calls, to show that a failed build ran none.
final class FactoryCalls: Sendable {
    private let count = Mutex(0)
    func tick() { count.withLock { $0 += 1 } }
    var calls: Int { count.withLock { $0 } }
}

import Synchronization

@Suite("Typed factory arguments")
struct TypedArgumentsTests {
    static func registry(counting counter: FactoryCalls = FactoryCalls()) -> FactoryRegistry {
        let registry = FactoryRegistry()
        registry.factory("pool", args: PoolArgs.self) { _, args in
            counter.tick()
            return ArgsPool(args)
        }
        return registry
    }

    static func headlines(_ error: ManifestError) -> [String] {
        error.errors.map { $0.headline.replacingOccurrences(of: TestSupport.fixtures + "/", with: "") }
    }

    @Test func aFactoryReceivesItsArgumentsDecodedByTheManifestsRules() throws {
        let container = try Container(manifest: TestSupport.fixture("typed-args/good.yaml"), registry: Self.registry(),
                                      options: .init(environment: [:]))
        let pool: ArgsPool = try container.resolve()
        #expect(pool.args.url == "postgres://db/notes")
        #expect(pool.args.size == 16)
        #expect(pool.args.mode == .safe)
        #expect(pool.args.timeout == .seconds(5))
        // A named variant's args are laid over the service's, key by key.
        let replica = try container.resolve(ArgsPool.self, name: "replica")
        #expect(replica.args.url == "postgres://replica/notes")
        #expect(replica.args.mode == .fast)
        #expect(replica.args.size == 16)
    }

    @Test func everyProblemFailsTheBuildAtItsLineWithNoFactoryCalled() throws {
        let counter = FactoryCalls()
        let error = try #require(throws: ManifestError.self) {
            try Container(manifest: TestSupport.fixture("typed-args/bad.yaml"), registry: Self.registry(counting: counter),
                          options: .init(environment: ["PORT": "eighty"]))
        }
        #expect(Self.headlines(error) == [
            "typed-args/bad.yaml:6:7: error: service ArgsPool: missing argument 'url' (a string)",
            "typed-args/bad.yaml:6:13: error: service ArgsPool: argument 'size': expected an integer, found a string 'ten'",
            "typed-args/bad.yaml:7:13: error: service ArgsPool: argument 'mode': 'fsat' is not a case of Mode (fast, safe); did you mean 'fast'?",
            "typed-args/bad.yaml:8:7: error: service ArgsPool: unknown argument 'urll'; did you mean 'url'?",
            "typed-args/bad.yaml:14:13: error: service Other: argument 'size': expected an integer, found a string from environment variable 'PORT'",
        ])
        #expect(!error.description.contains("eighty"))
        #expect(counter.calls == 0)
    }
}
