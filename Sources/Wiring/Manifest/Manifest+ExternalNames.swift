extension Manifest {
    /// The `${name}` references `map` reads, directly or through the parameters it reads
    /// (`$(logLevel)` with `logLevel: ${LOG_LEVEL:-info}`), in order, each once.
    func externalNames(readBy map: ManifestMap) -> [String] {
        guard map.mayHoldReferences else { return [] }
        return externalNames(readBy: map.entries.flatMap { Self.templates(in: $0.value) })
    }

    /// The `${name}` references `value` reads, directly or through parameters, in order, each once.
    func externalNames(readBy value: ManifestValue) -> [String] {
        externalNames(readBy: Self.templates(in: value))
    }

    /// The templates written in `value`, in order.
    private static func templates(in value: ManifestValue) -> [StringTemplate] {
        switch value.content {
        case .template(let template): [template]
        case .value(.list(let values)): values.flatMap(templates(in:))
        case .value(.map(let map)): map.entries.flatMap { templates(in: $0.value) }
        case .value: []
        }
    }

    /// The `${name}` references `templates` read, directly or through parameters, in order,
    /// each once.
    func externalNames(readBy templates: [StringTemplate]) -> [String] {
        var found: [String] = []
        var seenParameters: Set<String> = []
        var pending = Array(templates.reversed())
        while let template = pending.popLast() {
            for part in template.parts {
                switch part {
                case .environment(let name, _): if !found.contains(name) { found.append(name) }
                case .parameter(let name):
                    guard seenParameters.insert(name).inserted, let parameter = self.parameter(name),
                          case .template(let read) = parameter.value.content else { continue }
                    pending.append(read)
                case .literal: break
                }
            }
        }
        return found
    }
}
