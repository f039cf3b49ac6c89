// An app's own command-line tool that embeds Wiring's commands with its registry, as the
// README describes (WiringCommands). The end-to-end tests run it.
import ArgumentParser
import Wiring
import WiringCommands

final class Greeter: Sendable {
    let text: String
    init(text: String) { self.text = text }
}

/// A typed factory's arguments, as the typed-arguments article writes them.
struct PoolArgs: Decodable, Sendable {
    enum Mode: String, Decodable, CaseIterable, Sendable { case fast, safe }
    var url: String
    var size: Int?
    var mode: Mode
    var timeout: Duration?
}

/// Arguments with a check of their own, which only decoding them finds.
struct WindowArgs: Decodable, Sendable {
    var low: Int
    var high: Int
    enum CodingKeys: String, CodingKey { case low, high }
    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        low = try container.decode(Int.self, forKey: .low)
        high = try container.decode(Int.self, forKey: .high)
        guard low <= high else { throw DecodingError.dataCorruptedError(forKey: .high, in: container, debugDescription: "high below low") }
    }
}

final class Pool: Sendable {
    let args: PoolArgs
    init(_ args: PoolArgs) { self.args = args }
}

enum ContextApp: WiringApp {
    static func makeRegistry() -> FactoryRegistry {
        let registry = FactoryRegistry()
        registry.factory("greeter") { r in
            Greeter(text: try r.arg("greeting", as: String.self) + (try r.arg("punctuation", default: "")))
        }
        registry.factory("system-clock") { r in r.factoryKey }
        registry.factory("fixed-clock") { r in r.factoryKey }
        registry.factory("banner") { r in try r.arg("text", as: String.self) }
        // Resolves a service in code, with no `!service` in the manifest: `graph --instantiate` draws it.
        registry.factory("welcome") { r in "welcome: " + (try r.resolve(Greeter.self)).text }
        registry.factory("greeters") { r in try r.arg("all", as: [Greeter].self) }
        registry.factory("pool", args: PoolArgs.self) { _, args in Pool(args) }
        registry.factory("window", args: WindowArgs.self) { _, args in args.high - args.low }
        registry.factory("audit") { _ -> String in
            struct AuditUnavailable: Error, CustomStringConvertible { var description: String { "audit log is read-only" } }
            throw AuditUnavailable()
        }
        return registry
    }
}

/// The keys the build plugin would generate for an app whose manifests name a factory its
/// registry lacks (written by hand: this tool does not apply the plugin).
enum GeneratedKeys: FactoryKeySet {
    static let all: [FactoryKey] = ["greeter", "smtp-mailer"]
}

/// The same app, with the generated keys that `validate --instantiate` checks.
enum KeyedApp: WiringApp {
    static func makeRegistry() -> FactoryRegistry { ContextApp.makeRegistry() }
    static var factoryKeys: (any FactoryKeySet.Type)? { GeneratedKeys.self }
}

/// `embedded-tool keyed validate …`: validate for ``KeyedApp``.
struct Keyed: AsyncParsableCommand {
    static let configuration = CommandConfiguration(subcommands: [AppValidateCommand<KeyedApp>.self])
}

@main
struct EmbeddedTool: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "embedded-tool",
        abstract: "An app's tool with Wiring's commands embedded.",
        subcommands: [AppValidateCommand<ContextApp>.self, AppCatalogCommand<ContextApp>.self, AppGraphCommand<ContextApp>.self,
                      ExplainCommand.self, Keyed.self])
}
