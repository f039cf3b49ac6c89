/// The values of a JSON or YAML configuration file, keyed as swift-configuration's file
/// providers key them: a nested mapping makes a dotted key (`http: {port: 8080}` is `http.port`),
/// a list of scalars is a list. What `wiring validate --config FILE` checks a manifest's `${key}`
/// references against, where the running reader cannot be seen.
///
/// JSON is read as the YAML it is; scalars take the YAML 1.2 core schema's types (a quoted
/// string stays a string).
package struct ConfigurationFile: ConfigurationSource {
    package let path: String
    private let values: [String: ConfigurationValue]

    /// The largest configuration file read, in bytes.
    static let maxFileSize = 32 << 20

    /// Reads the file at `path`.
    /// - Throws: ``ManifestError``: the file cannot be read, is not YAML or JSON (each problem at
    ///   its position), or is not a mapping at its top.
    package init(path: String) throws(ManifestError) {
        self.path = path
        let bytes: [UInt8]
        do {
            bytes = try SourceFiles.read(path, limit: Self.maxFileSize)
        } catch {
            throw ManifestError("cannot read configuration file '\(path)': \(error.reason(limit: Self.maxFileSize))", at: nil)
        }
        let read = YAMLReader.read(bytes, file: path)
        if read.diagnostics.containsErrors { throw ManifestError(read.diagnostics) }
        guard let root = read.root, case .mapping(let pairs) = root.content else {
            throw ManifestError("configuration file '\(path)' is not a mapping of keys to values",
                                at: SourceLocation(file: path, line: 1, column: 1))
        }
        var values: [String: ConfigurationValue] = [:]
        var problems: [Diagnostic] = []
        var pending: [(prefix: String, pairs: [YAMLPair])] = [("", pairs)]
        while let (prefix, pairs) = pending.popLast() {
            for pair in pairs {
                guard let name = pair.key.scalar else { continue }
                let key = prefix.isEmpty ? name : prefix + "." + name
                switch pair.value.content {
                case .mapping(let nested): pending.append((key, nested))
                case .sequence(let elements):
                    if let list = Self.list(elements, of: key, in: path, problems: &problems) { values[key] = list }
                // A null leaves the key unset, as swift-configuration's file providers read it.
                case .scalar: values[key] = Self.scalar(pair.value)
                }
            }
        }
        if !problems.isEmpty { throw ManifestError(problems.inManifestOrder(files: [path], bySeverity: false, unplacedFirst: true)) }
        self.values = values
    }

    package func value(forKey key: String) -> ConfigurationValue? { values[key] }

    /// A scalar's value; `nil` for null, a list or a mapping.
    private static func scalar(_ node: YAMLNode) -> ConfigurationValue? {
        switch node.resolvedScalar {
        case .bool(let flag): .bool(flag)
        case .int(let number): .int(number)
        case .double(let number): .double(number)
        case .string(let text): .string(text)
        case .null, .none: nil
        }
    }

    /// The list `elements` make, as swift-configuration's file providers read one: strings
    /// only, or numbers and booleans only. Anything else (a null, a list or a mapping in it,
    /// strings mixed with numbers) is a problem at the element, and `nil`.
    private static func list(_ elements: [YAMLNode], of key: String, in path: String, problems: inout [Diagnostic]) -> ConfigurationValue? {
        var list: [ConfigurationValue] = []
        var holdsText: Bool?
        for (index, element) in elements.enumerated() {
            let value = scalar(element)
            let isText: Bool? = switch value {
            case .string: true
            case .int, .double, .bool: false
            case .list, nil: nil
            }
            guard let value, let isText, holdsText == nil || holdsText == isText else {
                let expected = holdsText.map { $0 ? "a string, as the list's first element is" : "a number or a boolean, as the list's first element is" }
                    ?? "a string, a number or a boolean"
                problems.append(.error("configuration key '\(key)': element \(index) is \(element.kindDescription), where a list holds \(expected)",
                                       at: SourceLocation(file: path, line: Int(element.line), column: Int(element.column))))
                return nil
            }
            holdsText = isText
            list.append(value)
        }
        return .list(list)
    }
}
