/// Which of a manifest's parameters read which (`a: $(b)` is an edge from `a` to `b`), and
/// the groups of parameters that read each other, found in time linear in the parameters and
/// references.
///
/// The groups are the strongly connected components of the graph (Tarjan's algorithm, with an
/// explicit stack, so that a chain of thousands of parameters cannot overflow the thread's).
/// They come dependencies first: a parameter's group follows the groups of every parameter it
/// reads, which is the order to fill parameters in without recursion.
struct ParameterGraph {
    /// Each parameter's references to defined parameters, by position in the manifest.
    let edges: [[Int]]
    /// The groups of parameters that read each other, each parameter in exactly one group,
    /// dependencies first.
    let components: [[Int]]

    init(_ manifest: Manifest) {
        edges = manifest.parameters.map { parameter in
            var targets: [Int] = []
            parameter.value.forEachTemplate { template, _ in
                for name in template.parameters {
                    if let target = manifest.parameterPosition(name) { targets.append(target) }
                }
            }
            return targets
        }
        components = Self.components(of: edges)
    }

    /// The length of each parameter's filled-in text (environment variables counted by their
    /// defaults), capped at `limit + 1`, computed from lengths alone, without making any text;
    /// and the first parameter, in the order parameters are filled in, at which the text they
    /// fill in together passes `limit` bytes (`nil` when they stay within it). A parameter
    /// read many times over, by parameters read many times over, grows exponentially with the
    /// manifest.
    func textLengths(_ limit: Int, in manifest: Manifest) -> (lengths: [Int], firstPastLimit: Int?) {
        let parameters = manifest.parameters
        var lengths = [Int](repeating: 0, count: parameters.count)
        var total = 0
        for component in components {
            for position in component {
                let value = parameters[position].value
                var length = 0, filledIn = false
                switch value.content {
                case .value(.string(let text)): length = text.utf8.count
                case .value(.int), .value(.double), .value(.bool): length = value.description.utf8.count
                default: break
                }
                value.forEachTemplate { template, _ in
                    filledIn = true
                    length = min(length + Self.length(of: template, lengths: lengths, in: manifest, limit: limit), limit + 1)
                }
                lengths[position] = length
                // As when filling in: only text made from templates counts toward the limit.
                guard filledIn else { continue }
                total = min(total + length, limit + 1)
                if total > limit { return (lengths, position) }
            }
        }
        return (lengths, nil)
    }

    /// The length of `template` filled in, given each parameter's (`lengths`), capped at
    /// `limit + 1`; environment variables are counted by their defaults.
    static func length(of template: StringTemplate, lengths: [Int], in manifest: Manifest, limit: Int) -> Int {
        var length = 0
        for part in template.parts {
            let added = switch part {
            case .literal(let text): text.utf8.count
            case .environment(_, let fallback): fallback?.utf8.count ?? 0
            case .parameter(let name): manifest.parameterPosition(name).map { lengths[$0] } ?? 0
            }
            length = min(length + added, limit + 1)
        }
        return length
    }

    /// Whether the group `component` is a cycle: several parameters, or one that reads itself.
    func isCycle(_ component: [Int]) -> Bool {
        component.count > 1 || edges[component[0]].contains(component[0])
    }

    /// One cycle of parameters: the names on its path, the first repeated at the end.
    struct Cycle {
        let path: [String]
        let location: SourceLocation
    }

    /// A cycle for each group that is one, in the manifest order of its first parameter, with
    /// the shortest path from that parameter back to itself.
    func cycles(in manifest: Manifest) -> [Cycle] {
        let parameters = manifest.parameters
        var cycles: [(start: Int, cycle: Cycle)] = []
        for component in components where isCycle(component) {
            let start = component.min()!
            let path = Self.shortestCycle(from: start, within: Set(component), edges: edges)
            cycles.append((start, Cycle(path: path.map { parameters[$0].name }, location: parameters[start].location)))
        }
        return cycles.sorted { $0.start < $1.start }.map(\.cycle)
    }

    /// The strongly connected components of the graph `edges` (node `i` has edges to
    /// `edges[i]`): Tarjan's algorithm without recursion.
    private static func components(of edges: [[Int]]) -> [[Int]] {
        let count = edges.count
        var index = [Int](repeating: -1, count: count)
        var lowLink = [Int](repeating: 0, count: count)
        var onStack = [Bool](repeating: false, count: count)
        var stack: [Int] = []
        var components: [[Int]] = []
        var nextIndex = 0
        // The depth-first walk: each frame is a node and how many of its edges it has followed.
        var walk: [(node: Int, edge: Int)] = []
        for root in 0..<count where index[root] < 0 {
            walk.append((root, 0))
            index[root] = nextIndex
            lowLink[root] = nextIndex
            nextIndex += 1
            stack.append(root)
            onStack[root] = true
            while let (node, edge) = walk.last {
                if edge < edges[node].count {
                    walk[walk.count - 1].edge += 1
                    let target = edges[node][edge]
                    if index[target] < 0 {
                        index[target] = nextIndex
                        lowLink[target] = nextIndex
                        nextIndex += 1
                        stack.append(target)
                        onStack[target] = true
                        walk.append((target, 0))
                    } else if onStack[target] {
                        lowLink[node] = min(lowLink[node], index[target])
                    }
                    continue
                }
                walk.removeLast()
                if let parent = walk.last?.node { lowLink[parent] = min(lowLink[parent], lowLink[node]) }
                guard lowLink[node] == index[node] else { continue }
                var component: [Int] = []
                while let member = stack.popLast() {
                    onStack[member] = false
                    component.append(member)
                    if member == node { break }
                }
                components.append(component)
            }
        }
        return components
    }

    /// The shortest path from `start` back to itself through `members` (breadth first).
    private static func shortestCycle(from start: Int, within members: Set<Int>, edges: [[Int]]) -> [Int] {
        var previous: [Int: Int] = [:]
        var queue = [start]
        var head = 0
        while head < queue.count {
            let node = queue[head]
            head += 1
            for target in edges[node] where members.contains(target) {
                if target == start {
                    var path = [start]
                    var step = node
                    while step != start {
                        path.append(step)
                        step = previous[step]!
                    }
                    return [start] + path.dropFirst().reversed() + [start]
                }
                if previous[target] == nil {
                    previous[target] = node
                    queue.append(target)
                }
            }
        }
        return [start, start]
    }
}
