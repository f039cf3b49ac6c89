/// What a run of a model program shows, written so that two runs can be compared line by
/// line: each instance is numbered when first seen (`#3=S1(#4=S2)`), so two runs agree when
/// they return the same instance in the same places, built from the same dependencies,
/// whatever their addresses.
struct Observation {
    private(set) var lines: [String] = []
    private var numbers: [ObjectIdentifier: Int] = [:]
    /// Every instance seen, kept alive so that an address is never reused for another.
    private var seen: [ModelNode] = []

    /// `node`, numbered; with its dependencies, unless `shallow`.
    mutating func render(_ node: ModelNode, shallow: Bool = false) -> String {
        if let number = numbers[ObjectIdentifier(node)] { return "#\(number)" }
        let number = numbers.count
        numbers[ObjectIdentifier(node)] = number
        seen.append(node)
        let dependencies = shallow ? [] : node.dependencies.map { render($0) }
        let hooked = shallow ? nil : node.hooked.map { render($0) }
        return "#\(number)=\(node.label)" + (dependencies.isEmpty ? "" : "(\(dependencies.joined(separator: ",")))")
            + (hooked.map { "{\($0)}" } ?? "")
    }

    /// What a resolve gave: an instance, a list of them (`resolveAll`), or an error.
    enum Outcome {
        case instance(ModelNode)
        case list([ModelNode])
        case failure(kind: String, service: String?)
    }

    /// Records `outcome`. Of a resolve run beside others (`concurrent`), what does not depend
    /// on which task got where first: the instance without its dependencies (a kept instance
    /// shares the `graph` of the resolution that built it, whichever that was), an error's
    /// kind without its place (a cycle across tasks is found by the task that closes it).
    mutating func record(_ label: String, _ outcome: Outcome, concurrent: Bool = false) {
        if concurrent, case .failure(let kind, _) = outcome {
            lines.append("\(label): error \(kind)")
            return
        }
        switch outcome {
        case .instance(let node): lines.append("\(label): \(render(node, shallow: concurrent))")
        case .list(let nodes): lines.append("\(label): [\(nodes.map { render($0, shallow: concurrent) }.joined(separator: ", "))]")
        case .failure(let kind, let service): lines.append("\(label): error \(kind)\(service.map { " at \($0)" } ?? "")")
        }
    }

    /// The instances whose shutdown hooks ran, in order (sorted when the order depends on
    /// which task built first).
    mutating func recordHooks(_ label: String, _ nodes: [ModelNode], ordered: Bool) {
        // Unordered, by label only: numbering them would depend on the order too.
        let rendered = ordered ? nodes.map { render($0) } : nodes.map(\.label).sorted()
        lines.append("\(label): hooks\(ordered ? "" : " (any order)") \(rendered.joined(separator: " "))")
    }

    mutating func note(_ line: String) { lines.append(line) }

    /// How many times each factory built, by label. With resolves run concurrently, only kept
    /// services (singleton, cached, scoped): how many `graph` instances (and what they depend
    /// on) a kept service's build needs depends on whether the resolution that built it had
    /// them already, which depends on which task got there first.
    mutating func recordCounts(_ counts: [String: Int], of program: ModelProgram) {
        let shown = counts.filter { label, _ in
            guard program.hasConcurrency else { return true }
            let key = ModelNode.key(ofLabel: label)
            let name = label.contains("[") ? String(label.drop { $0 != "[" }.dropFirst().prefix { $0 != "]" }) : nil
            guard let service = program.service(key) else { return true }
            let scope = name.flatMap { name in service.variants.first { $0.name == name }?.scope } ?? service.scope
            return scope.keeps || scope == .scoped
        }
        lines.append("built: " + shown.sorted { $0.key < $1.key }.map { "\($0.key)×\($0.value)" }.joined(separator: " "))
    }
}
