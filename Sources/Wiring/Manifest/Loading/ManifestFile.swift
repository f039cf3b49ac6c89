/// What one manifest file declares, before imports are merged.
package struct ManifestFile: Sendable {
    package let path: String
    package var version: Located<Int>?
    package var imports: [Located<String>] = []
    package var parameters: [Parameter] = []
    package var services: [ServiceDefinition] = []
    package var contexts: [ContextDefinition] = []
    package var defaultScope: Located<Scope>?
    package var customScopes: [CustomScope] = []
    package var parameterReferences: [Located<String>] = []

    package init(path: String) { self.path = path }
}
