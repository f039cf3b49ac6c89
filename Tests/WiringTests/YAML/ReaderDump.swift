@testable import Wiring

/// A YAML read as text, to compare the ways the reader can read a file: every node with its
/// kind, tag, style, position and content, then every streamed entry, then every diagnostic.
enum ReaderDump {
    /// Reads `bytes` one way, streaming `services`; the text, and whether it was read split.
    static func read(
        _ bytes: [UInt8], _ pipelining: YAMLPipelining, limits: YAMLLimits = .default
    ) -> (text: String, split: Bool) {
        var out = ""
        var streamed = YAMLEntryCollector()
        let result = YAMLReader.read(bytes, file: "f.yaml", limits: limits, streaming: "services",
                                     into: &streamed, pipelining: pipelining)
        dump(result.root, into: &out)
        for pair in streamed.entries {
            out += "streamed:\n"
            dump(pair.key, indent: "  ", into: &out)
            dump(pair.value, indent: "    ", into: &out)
        }
        for diagnostic in result.diagnostics {
            out += "\(diagnostic.severity) \(diagnostic.location.map { "\($0.line):\($0.column)" } ?? "-") \(diagnostic.message)\n"
            for note in diagnostic.notes { out += "  note \(note.location.map { "\($0.line):\($0.column)" } ?? "-") \(note.message)\n" }
        }
        return (out, result.readSplit)
    }

    private static func dump(_ node: YAMLNode?, indent: String = "", into out: inout String) {
        guard let node else {
            out += indent + "(none)\n"
            return
        }
        let head = "\(indent)\(node.line):\(node.column) \(node.tag)"
        switch node.content {
        case .scalar(let text, let style):
            out += "\(head) \(style) \(text.debugDescription)\n"
        case .sequence(let elements):
            out += "\(head) seq\n"
            for element in elements { dump(element, indent: indent + "  ", into: &out) }
        case .mapping(let pairs):
            out += "\(head) map\n"
            for pair in pairs {
                dump(pair.key, indent: indent + "  ", into: &out)
                dump(pair.value, indent: indent + "    ", into: &out)
            }
        }
    }
}
