extension Manifest {
    /// The `${name}` references `map` reads, directly or through the parameters it reads
    /// (`$(logLevel)` with `logLevel: ${LOG_LEVEL:-info}`), in order, each once.
    func externalNames(readBy map: ManifestMap) -> [String] {
        var templates: [StringTemplate] = []
        func gather(_ value: ManifestValue) {
            switch value.kind {
            case .template(let template): templates.append(template)
            case .list(let values): values.forEach(gather)
            case .map(let map): map.entries.forEach { gather($0.value) }
            default: break
            }
        }
        if map.mayHoldReferences { map.entries.forEach { gather($0.value) } }
        return externalNames(readBy: templates)
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
                          case .template(let read) = parameter.value.kind else { continue }
                    pending.append(read)
                case .literal: break
                }
            }
        }
        return found
    }
}
