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
/// and what was given, never a crash.
public struct Arguments: Sendable {
    /// The values, in the order they were passed.
    public let values: [any Sendable]

    /// Creates arguments from values.
    @inlinable
    public init(_ values: [any Sendable]) { self.values = values }

    /// No arguments. Made on each read (an empty array allocates nothing), not stored: a
    /// stored one was a lazy global, checked on every resolve that passes none.
    @inlinable
    public static var none: Arguments { Arguments([]) }

    /// The number of arguments.
    public var count: Int { values.count }
}
