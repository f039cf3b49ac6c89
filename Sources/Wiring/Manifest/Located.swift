/// A value of the manifest together with the place it was written.
///
/// ```swift
/// if let factory = service.factory {
///     print("\(factory.location): factory \(factory.value)")
/// }
/// ```
package struct Located<Value: Sendable>: Sendable {
    /// The value.
    package let value: Value
    /// Where the value was written.
    package let location: SourceLocation

    /// Creates a located value.
    package init(_ value: Value, at location: SourceLocation) {
        self.value = value
        self.location = location
    }
}

extension Located: Equatable where Value: Equatable {}
extension Located: Hashable where Value: Hashable {}
