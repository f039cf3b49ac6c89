import Wiring

/// A diagnostic as `validate --format json` prints it: `{severity, message, file, line, column,
/// context, notes}`, each note `{message, file, line, column}`.
struct DiagnosticJSON: Encodable {
    let diagnostic: Diagnostic

    private enum CodingKeys: String, CodingKey {
        case severity, message, file, line, column, context, notes
    }

    private struct Note: Encodable {
        let note: Diagnostic.Note

        private enum CodingKeys: String, CodingKey { case message, file, line, column }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(note.message, forKey: .message)
            try container.encodeIfPresent(note.location?.file, forKey: .file)
            try container.encodeIfPresent(note.location?.line, forKey: .line)
            try container.encodeIfPresent(note.location?.column, forKey: .column)
        }
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(diagnostic.severity.rawValue, forKey: .severity)
        try container.encode(diagnostic.message, forKey: .message)
        try container.encodeIfPresent(diagnostic.location?.file, forKey: .file)
        try container.encodeIfPresent(diagnostic.location?.line, forKey: .line)
        try container.encodeIfPresent(diagnostic.location?.column, forKey: .column)
        try container.encodeIfPresent(diagnostic.context, forKey: .context)
        try container.encode(diagnostic.notes.map(Note.init), forKey: .notes)
    }
}
