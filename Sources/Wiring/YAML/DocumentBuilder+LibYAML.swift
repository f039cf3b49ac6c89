internal import CYAML

/// What the builder reads off libyaml: scalar styles, strings, tags, and libyaml's own errors
/// turned into positioned diagnostics.
extension DocumentBuilder {
    func style(_ style: yaml_scalar_style_t) -> YAMLScalarStyle {
        switch style {
        case YAML_SINGLE_QUOTED_SCALAR_STYLE: .singleQuoted
        case YAML_DOUBLE_QUOTED_SCALAR_STYLE: .doubleQuoted
        case YAML_LITERAL_SCALAR_STYLE: .literal
        case YAML_FOLDED_SCALAR_STYLE: .folded
        default: .plain
        }
    }

    func string(_ pointer: UnsafeMutablePointer<yaml_char_t>?) -> String? {
        guard let pointer else { return nil }
        return String(cString: pointer)
    }

    /// The tag libyaml read on a node; most nodes have none, and cost no call.
    @inline(__always)
    mutating func readTag(_ pointer: UnsafeMutablePointer<yaml_char_t>?, line: Int32, column: Int32) -> YAMLTag {
        guard let pointer else { return .none }
        return readWrittenTag(pointer, line: line, column: column)
    }

    private mutating func readWrittenTag(_ pointer: UnsafeMutablePointer<yaml_char_t>, line: Int32, column: Int32) -> YAMLTag {
        var length = 0
        while pointer[length] != 0 { length += 1 }
        if let tag = YAMLTag(utf8: UnsafeBufferPointer(start: pointer, count: length)) { return tag }
        let text = String(cString: pointer)
        let shown = text.hasPrefix("tag:yaml.org,2002:") ? "!!" + text.dropFirst(18) : text
        diagnostics.append(.error(
            "unknown tag '\(shown)'; a manifest is plain data (tags allowed: !!str, !!int, !!float, !!bool, !!null, !!map, !!seq, !secret, !replace, !service, !tagged)",
            at: location(line: line, column: column)))
        return .none
    }

    static func displayTag(_ tag: YAMLTag) -> String {
        switch tag {
        case .none, .nonSpecific: "!"
        case .string: "!!str"
        case .int: "!!int"
        case .float: "!!float"
        case .bool: "!!bool"
        case .null: "!!null"
        case .map: "!!map"
        case .seq: "!!seq"
        case .merge: "!!merge"
        case .secret: "!secret"
        case .replace: "!replace"
        case .service: "!service"
        case .tagged: "!tagged"
        case .placeholder: "!"
        }
    }

    /// A positioned diagnostic for libyaml's error, with its context as a note.
    func parserError(_ parser: yaml_parser_t, _ buffer: UnsafeBufferPointer<UInt8>) -> Diagnostic {
        let problem = parser.problem.map { String(cString: $0) } ?? "unknown error"
        switch parser.error {
        case YAML_MEMORY_ERROR:
            return .error("libyaml ran out of memory", at: SourceLocation(file: file, line: 1, column: 1))
        case YAML_READER_ERROR:
            let offset = min(Int(parser.problem_offset), buffer.count)
            let at = Self.location(ofByte: offset, in: buffer, file: file)
            let value = Int(parser.problem_value)
            let message: String
            if problem.hasPrefix("control characters") {
                message = value == 0
                    ? "NUL byte is not allowed in YAML"
                    : "control character U+\(String(value, radix: 16, uppercase: true).leftPadded(to: 4)) is not allowed in YAML"
            } else if value >= 0 && problem.contains("UTF-8") {
                message = "invalid UTF-8: \(problem) (byte 0x\(String(value, radix: 16, uppercase: true).leftPadded(to: 2)))"
            } else {
                message = "invalid UTF-8: \(problem)"
            }
            return .error(message, at: at)
        default:
            var message = problem
            let index = Int(parser.problem_mark.index)
            if index < buffer.count {
                switch buffer[index] {
                case UInt8(ascii: "\t"): message += " (tabs cannot indent YAML; use spaces)"
                case UInt8(ascii: "{") where index > 0 && buffer[index - 1] == UInt8(ascii: "$"):
                    message += " (inside { } or [ ], quote a value that holds '${…}')"
                case UInt8(ascii: "%"), UInt8(ascii: "@"), UInt8(ascii: "`"):
                    if problem.contains("cannot start any token") {
                        message += " (quote a value that starts with '\(Character(Unicode.Scalar(buffer[index])))')"
                    }
                default: break
                }
            }
            var notes: [Diagnostic.Note] = []
            if let context = parser.context.map({ String(cString: $0) }) {
                notes.append(Diagnostic.Note(context, at: location(parser.context_mark)))
            }
            return .error(message, at: location(parser.problem_mark), notes: notes)
        }
    }

    /// The line and column (in characters) of a byte offset.
    static func location(ofByte offset: Int, in buffer: UnsafeBufferPointer<UInt8>, file: String) -> SourceLocation {
        var line = 1, column = 1
        for byte in buffer[..<offset] {
            if byte == UInt8(ascii: "\n") {
                line += 1
                column = 1
            } else if byte & 0xC0 != 0x80 {
                column += 1
            }
        }
        return SourceLocation(file: file, line: line, column: column)
    }
}

extension String {
    fileprivate func leftPadded(to width: Int) -> String {
        count >= width ? self : String(repeating: "0", count: width - count) + self
    }
}
