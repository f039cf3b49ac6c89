/// A value of the manifest together with the place it was written.
///
/// ```swift
/// if let factory = service.factory {
///     print("\(factory.location): factory \(factory.value)")
/// }
/// ```
public struct Located<Value: Sendable>: Sendable {
    /// The value.
    public let value: Value
    /// Where the value was written.
    public let location: SourceLocation

    /// Creates a located value.
    public init(_ value: Value, at location: SourceLocation) {
        self.value = value
        self.location = location
    }
}

extension Located: Equatable where Value: Equatable {}
extension Located: Hashable where Value: Hashable {}
