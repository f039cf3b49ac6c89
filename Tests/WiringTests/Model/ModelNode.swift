/// What every service of a model program builds: its label (`S3`, `S3[eu]`, `override:S3`) and
/// the instances its factory got, in the order it asked for them. The reference model builds
/// the same objects, so one ``Observation`` renderer serves both.
final class ModelNode: ModelAlias0, ModelAlias1, ModelAlias2, ModelAlias3, @unchecked Sendable {
    let label: String
    let dependencies: [ModelNode]
    init(label: String, dependencies: [ModelNode]) {
        self.label = label
        self.dependencies = dependencies
    }
}

/// The protocols a model program's services implement (`implements: [ModelAlias0]`).
protocol ModelAlias0: AnyObject, Sendable {}
protocol ModelAlias1: AnyObject, Sendable {}
protocol ModelAlias2: AnyObject, Sendable {}
protocol ModelAlias3: AnyObject, Sendable {}
