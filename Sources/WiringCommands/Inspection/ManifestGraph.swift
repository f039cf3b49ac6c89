public import Wiring

/// The formats `wiring graph` draws in.
public enum GraphFormat: String, Sendable, CaseIterable {
    /// Graphviz DOT: `dot -Tsvg`.
    case dot
    /// Mermaid flowchart, for Markdown that renders it.
    case mermaid
}

extension Manifest {
    /// The wiring as a picture: each service (with its factory and scope), the types it
    /// implements, its named variants, the decorators that wrap it, the services its args
    /// refer to (`!service`, solid, labelled with the argument) and its tags.
    ///
    /// Apply contexts first (``applying(contexts:)``) to draw an environment's wiring.
    ///
    /// - Parameter format: Graphviz DOT or Mermaid.
    public func graph(format: GraphFormat) -> String {
        graph(format: format, resolvedEdges: [])
    }

    /// ``graph(format:)`` with the dependencies factories resolved in code, as a container
    /// records them (`Container.resolvedEdges`): drawn dashed, labelled "resolves".
    package func graph(format: GraphFormat, resolvedEdges: [ResolvedEdge]) -> String {
        struct Node { let id: String; let label: [String]; let kind: Kind }
        enum Kind { case service, type, variant, tag }
        struct Edge { let from: String; let to: String; let label: String; let dashed: Bool }
        var nodes: [Node] = []
        var edges: [Edge] = []
        var ids: [String: String] = [:]
        func id(_ key: String) -> String {
            if let id = ids[key] { return id }
            let id = "n\(ids.count)"
            ids[key] = id
            return id
        }
        for service in services {
            let serviceID = id("service:" + service.key)
            var label = [service.key, service.hasFactory ? "factory: \(service.factoryKey)" : "seeded", "scope: \(effectiveScope(of: service))"]
            if service.hasFactory, service.seeded?.value == true { label.append("seeded") }
            if service.eager?.value == true { label.append("eager") }
            if let timeout = service.shutdownTimeout { label.append("shutdownTimeout: \(timeout.value)") }
            nodes.append(Node(id: serviceID, label: label, kind: .service))
            for entry in service.implements {
                let typeKey = "type:" + entry.type
                if ids[typeKey] == nil { nodes.append(Node(id: id(typeKey), label: [entry.type], kind: .type)) }
                edges.append(Edge(from: id(typeKey), to: serviceID, label: entry.name.map { "implements (\($0))" } ?? "implements", dashed: true))
            }
            for variant in service.names {
                let variantID = id("variant:\(service.key)[\(variant.name)]")
                var label = ["\(service.key)[\(variant.name)]"]
                if let factory = variant.factory { label.append("factory: \(factory.value)") }
                if let scope = variant.scope { label.append("scope: \(scope.value)") }
                if variant.lifecycle.eager?.value == true { label.append("eager") }
                nodes.append(Node(id: variantID, label: label, kind: .variant))
                edges.append(Edge(from: serviceID, to: variantID, label: "name", dashed: true))
            }
        }
        for service in services {
            if let target = service.decorates?.value, ids["service:" + target] != nil {
                edges.append(Edge(from: id("service:" + service.key), to: id("service:" + target), label: "decorates", dashed: false))
            }
        }
        func tagNode(_ tag: String) -> String {
            let key = "tag:" + tag
            if ids[key] == nil { nodes.append(Node(id: id(key), label: ["#" + tag], kind: .tag)) }
            return id(key)
        }
        func node(_ service: String, _ name: String?) -> String? {
            if let name, let variant = ids["variant:\(service)[\(name)]"] { return variant }
            return ids["service:" + service]
        }
        for service in services {
            for tag in service.tags ?? [] {
                edges.append(Edge(from: id("service:" + service.key), to: tagNode(tag.value), label: "tag", dashed: true))
            }
            for variant in service.names {
                for tag in variant.tags ?? [] {
                    edges.append(Edge(from: id("variant:\(service.key)[\(variant.name)]"), to: tagNode(tag.value), label: "tag", dashed: true))
                }
            }
        }
        for reference in declaredReferences {
            guard let from = node(reference.owner, reference.ownerName) else { continue }
            switch reference.target {
            case .service(let target):
                if let to = node(target.service, target.name) {
                    edges.append(Edge(from: from, to: to, label: reference.isAutowired ? "autowired" : reference.argument, dashed: false))
                }
            case .tagged(let tag, _):
                edges.append(Edge(from: from, to: tagNode(tag), label: reference.argument, dashed: false))
            }
        }

        for edge in resolvedEdges {
            guard let from = ids["service:" + edge.from], let to = ids["service:" + edge.to] else { continue }
            edges.append(Edge(from: from, to: to, label: "resolves", dashed: true))
        }

        func escaped(_ text: String) -> String {
            text.replacing("\\", with: "\\\\").replacing("\"", with: "\\\"")
        }
        switch format {
        case .dot:
            var lines = ["digraph wiring {", "  rankdir=LR;", "  node [shape=box, fontname=\"Helvetica\"];"]
            if !appliedContexts.isEmpty { lines.append("  label=\"contexts: \(escaped(appliedContexts.joined(separator: ", ")))\";") }
            for node in nodes {
                let label = node.label.map(escaped).joined(separator: "\\n")
                let style = switch node.kind {
                case .service: ""
                case .type: ", shape=ellipse, style=dashed"
                case .variant: ", style=rounded"
                case .tag: ", shape=hexagon"
                }
                lines.append("  \(node.id) [label=\"\(label)\"\(style)];")
            }
            for edge in edges {
                lines.append("  \(edge.from) -> \(edge.to) [label=\"\(edge.label)\"\(edge.dashed ? ", style=dashed" : "")];")
            }
            lines.append("}")
            return lines.joined(separator: "\n")
        case .mermaid:
            var lines = ["flowchart LR"]
            for node in nodes {
                let label = node.label.map { $0.replacing("\"", with: "#quot;") }.joined(separator: "<br/>")
                switch node.kind {
                case .service: lines.append("  \(node.id)[\"\(label)\"]")
                case .type: lines.append("  \(node.id)([\"\(label)\"])")
                case .variant: lines.append("  \(node.id)(\"\(label)\")")
                case .tag: lines.append("  \(node.id){{\"\(label)\"}}")
                }
            }
            for edge in edges {
                lines.append("  \(edge.from) \(edge.dashed ? "-.->" : "-->")|\(edge.label)| \(edge.to)")
            }
            return lines.joined(separator: "\n")
        }
    }
}
