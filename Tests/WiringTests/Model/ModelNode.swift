import Wiring

/// What every service of a model program builds: its label (`S3`, `S3[eu]`, `override:S3`,
/// `S3+0` for its first decorator) and the instances its factory got, in the order it asked for
/// them. The reference model builds the same objects, so one ``Observation`` renderer serves
/// both.
///
/// Each service key has a class of its own (`S3` builds an ``S3``), so that a typed resolve,
/// `container.resolve(S3.self)` or a factory's `r.resolve(S3.self)`, names the service by its
/// type as an app does.
class ModelNode: ModelAlias0, ModelAlias1, ModelAlias2, ModelAlias3, @unchecked Sendable {
    let label: String
    let dependencies: [ModelNode]
    /// What its property hook resolved, if it has one (set once, in its resolution).
    var hooked: ModelNode?
    /// Whether its shutdown hook throws (its service's `fails: true`).
    var failsShutdown = false
    /// The index of the program's operation that built it.
    var operation = -1
    required init(label: String, dependencies: [ModelNode]) {
        self.label = label
        self.dependencies = dependencies
    }

    /// The classes of the service keys `S0`…`S7`, by index.
    static let types: [any ModelService.Type] = [S0.self, S1.self, S2.self, S3.self, S4.self, S5.self, S6.self, S7.self]

    /// The class of service `key` (`S3`).
    static func type(of key: String) -> any ModelService.Type { types[Int(key.dropFirst())!] }

    /// A node of service `key`'s class.
    static func make(key: String, label: String, dependencies: [ModelNode]) -> ModelNode {
        type(of: key).init(label: label, dependencies: dependencies)
    }

    /// The service key of a label: `S3` of `S3[eu]`, `override:S3`, `seed:S3`, `S3+1`, `S3#7`,
    /// `S3@b` (a context's), `S3^1` (after a reload) or `S3~2` (a configuration value).
    static func key(ofLabel label: String) -> String {
        var registration = Substring(label)
        for prefix in ["override:", "seed:"] where registration.hasPrefix(prefix) { registration = registration.dropFirst(prefix.count) }
        return String(registration.prefix { !"[+#@^~".contains($0) })
    }

    /// The registration a label names, as a shutdown failure names it: `S3`, or `S3[eu]`.
    static func registration(ofLabel label: String) -> String {
        let key = key(ofLabel: label)
        guard let open = label.firstIndex(of: "["), let close = label.firstIndex(of: "]") else { return key }
        return key + label[open...close]
    }
}

/// The classes a model program's services build, one per key, so that each is resolvable by type.
protocol ModelService: ModelNode {}

final class S0: ModelNode, ModelService, @unchecked Sendable {}
final class S1: ModelNode, ModelService, @unchecked Sendable {}
final class S2: ModelNode, ModelService, @unchecked Sendable {}
final class S3: ModelNode, ModelService, @unchecked Sendable {}
final class S4: ModelNode, ModelService, @unchecked Sendable {}
final class S5: ModelNode, ModelService, @unchecked Sendable {}
final class S6: ModelNode, ModelService, @unchecked Sendable {}
final class S7: ModelNode, ModelService, @unchecked Sendable {}

/// A provider that keeps its factory's context, to resolve through it once its resolution is
/// over (`ModelKeeper`, a `unique` service of the manifests of programs that make one).
final class ModelKeeper: @unchecked Sendable {
    let context: FactoryContext
    init(context: FactoryContext) { self.context = context }
}

/// What a child adds (`overrides.add(ModelAdded.self) { … }`): a service the manifest lacks.
final class ModelAdded: ModelNode, @unchecked Sendable {}

/// The protocols a model program's services implement (`implements: [ModelAlias0]`).
protocol ModelAlias0: AnyObject, Sendable {}
protocol ModelAlias1: AnyObject, Sendable {}
protocol ModelAlias2: AnyObject, Sendable {}
protocol ModelAlias3: AnyObject, Sendable {}
