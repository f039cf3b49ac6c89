/// What a run of a model program shows, written so that two runs can be compared line by
/// line: each instance is numbered when first seen (`#3=S1(#4=S2)`), so two runs agree when
/// they return the same instance in the same places, built from the same dependencies,
/// whatever their addresses.
struct Observation {
    private(set) var lines: [String] = []
    private var numbers: [ObjectIdentifier: Int] = [:]
    /// Every instance seen, kept alive so that an address is never reused for another.
    private var seen: [ModelNode] = []
    /// The operations whose builds run at once (``ModelProgram/concurrentOperations``): what an
    /// instance one of them built depends on is not shown, even when a later operation returns
    /// it. A kept instance shares the `graph` instances of the resolution that built it, and
    /// which task's resolution that was depends on which got there first.
    var concurrent: Set<Int> = []

    /// `node`, numbered; with its dependencies, unless `shallow` or an operation that builds
    /// concurrently built it.
    mutating func render(_ node: ModelNode, shallow: Bool = false) -> String {
        if let number = numbers[ObjectIdentifier(node)] { return "#\(number)" }
        let shallow = shallow || concurrent.contains(node.operation)
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

    /// The instances whose shutdown hooks ran, in order; those built by one of the
    /// `concurrent` operations, next to each other, in any order: sorted, by label only
    /// (numbering them would depend on the order too), in brackets.
    mutating func recordHooks(_ label: String, _ nodes: [ModelNode], concurrent: Set<Int>) {
        var rendered: [String] = []
        var index = nodes.startIndex
        while index < nodes.endIndex {
            let operation = nodes[index].operation
            guard concurrent.contains(operation) else {
                rendered.append(render(nodes[index]))
                index += 1
                continue
            }
            let end = nodes[index...].firstIndex { $0.operation != operation } ?? nodes.endIndex
            rendered.append("{" + nodes[index..<end].map(\.label).sorted().joined(separator: " ") + "}")
            index = end
        }
        lines.append("\(label): hooks \(rendered.joined(separator: " "))")
    }

    mutating func note(_ line: String) { lines.append(line) }

    /// The registrations whose shutdown hooks failed, if any, sorted (the hooks' order is
    /// recorded with them).
    mutating func noteFailures(_ label: String, _ failures: [String]) {
        guard !failures.isEmpty else { return }
        lines.append("\(label): shutdown failed: \(failures.sorted().joined(separator: " "))")
    }

    /// How many times each factory built, by label: `outside` operations that build
    /// concurrently, every build; `inside` them, only kept services' (singleton, cached,
    /// scoped): how many `graph` instances (and what they depend on) a kept service's build
    /// needs depends on whether the resolution that built it had them already, which depends
    /// on which task got there first.
    mutating func recordCounts(_ outside: [String: Int], _ inside: [String: Int], of program: ModelProgram) {
        var shown = outside
        for (label, count) in inside where Self.isKept(label, in: program) { shown[label, default: 0] += count }
        lines.append("built: " + shown.sorted { $0.key < $1.key }.map { "\($0.key)×\($0.value)" }.joined(separator: " "))
    }

    /// Whether the registration a label names is kept by its container or scope.
    private static func isKept(_ label: String, in program: ModelProgram) -> Bool {
        let key = ModelNode.key(ofLabel: label)
        let name = label.contains("[") ? String(label.drop { $0 != "[" }.dropFirst().prefix { $0 != "]" }) : nil
        guard let service = program.service(key) else { return true }
        let scope = name.flatMap { name in service.variants.first { $0.name == name }?.scope } ?? service.scope
        return scope.keeps || scope == .scoped
    }
}
