extension Manifest {
    /// The type each configuration key is needed as, where a typed factory's field reads it
    /// whole (`port: "${http.port}"` for an `Int` field: `.int`), directly or through a
    /// parameter that is itself a whole `${key}`; `schemas` by factory key. A key read as two
    /// types, or read elsewhere only (inside a longer string, by `r.arg`), has none: the source
    /// reads it as it reads any value.
    func configurationTypes(schemas: [String: ArgumentSchema]) -> [String: ConfigurationType] {
        guard !schemas.isEmpty else { return [:] }
        var types: [String: ConfigurationType] = [:]
        var mixed: Set<String> = []
        func read(_ args: ManifestMap?, factoryKey: String) {
            guard let args, case .object(_, let fields) = schemas[factoryKey] else { return }
            for field in fields {
                guard let value = args[field.name], let key = wholeReference(value),
                      let type = Self.configurationType(of: field.schema) else { continue }
                if let known = types[key], known != type { mixed.insert(key) }
                types[key] = type
            }
        }
        for service in services where service.hasFactory {
            read(service.args, factoryKey: service.factoryKey)
            for variant in service.names {
                let args = service.arguments(of: variant)
                read(args, factoryKey: variant.factory?.value ?? service.factoryKey)
            }
        }
        for key in mixed { types[key] = nil }
        return types
    }

    /// The key `value` is, when it is a whole `${key}`, or a whole `$(parameter)` that is one.
    private func wholeReference(_ value: ManifestValue) -> String? {
        guard case .template(let template) = value.content, template.parts.count == 1 else { return nil }
        switch template.parts[0] {
        case .environment(let name, _):
            return name
        case .parameter(let name):
            guard let parameter = parameter(name), case .template(let read) = parameter.value.content, read.parts.count == 1,
                  case .environment(let key, _) = read.parts[0] else { return nil }
            return key
        case .literal:
            return nil
        }
    }

    /// What a field of `schema` needs of a configuration value; `nil` where more than one type
    /// reads (a duration is written as text or as a number of seconds).
    private static func configurationType(of schema: ArgumentSchema) -> ConfigurationType? {
        switch schema {
        case .string, .url, .enumeration: .string
        case .integer: .int
        case .number: .double
        case .boolean: .bool
        case .list(let element):
            switch configurationType(of: element) {
            case .string: .stringList
            case .int: .intList
            case .double: .doubleList
            case .bool: .boolList
            default: nil
            }
        default: nil
        }
    }
}
