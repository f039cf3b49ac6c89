/// Values passed at resolve time, read by the factory by position and checked by type.
///
/// ```swift
/// let editor: NoteEditor = try container.resolve(NoteEditor.self, arguments: noteID, true)
/// // in the factory:
/// registry.factory("note-editor") { r in
///     NoteEditor(id: try r.argument(0, as: NoteID.self), editing: try r.argument(1, as: Bool.self))
/// }
/// ```
///
/// A missing argument or one of the wrong type is an error that names what was expected
/// and what was given, never a crash. Apps pass the values (`arguments: noteID, true`) and read
/// them through `FactoryContext`; the type itself is the container's, usable from the inlinable
/// resolves that pack them.
@usableFromInline
struct Arguments: Sendable {
    /// The values, in the order they were passed.
    @usableFromInline let values: [any Sendable]

    /// Creates arguments from values.
    @inlinable
    init(_ values: [any Sendable]) { self.values = values }

    /// No arguments. Made on each read (an empty array allocates nothing), not stored: a
    /// stored one would be a lazy global, checked on every resolve that passes none.
    @inlinable
    static var none: Arguments { Arguments([]) }

    /// The number of arguments.
    var count: Int { values.count }
}
