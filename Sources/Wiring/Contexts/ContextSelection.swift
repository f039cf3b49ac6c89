#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Which contexts a container applies, chosen at launch.
///
/// Four sources, applied in this order (a later context wins where two change the same thing):
///
/// 1. `test`, automatically, when the process runs tests (XCTest or Swift Testing) and the
///    manifest defines a `test` context; turn it off with `detectsTests: false`;
/// 2. the list given in code (`contexts:`);
/// 3. the environment variable (`WIRING_CONTEXT=staging,mock-api` by default; rename it with
///    `environmentVariable:`, for example to `APP_ENV`);
/// 4. the launch argument (`--wiring-context staging` or `--wiring-context=staging,mock-api`;
///    rename it with `launchArgument:`), so an app can pass it through from its own flags.
///
/// A name given by several sources applies once, at its last place. An unknown name is an
/// error that names its source, suggests the nearest defined context and lists them all.
///
/// ```swift
/// let container = try Container(manifest: "services.yaml", registry: registry,
///                               contexts: .launch(environmentVariable: "APP_ENV"))
/// let forTests = try Container(manifest: "services.yaml", registry: registry,
///                              contexts: .explicit("test", "mock-api"))
/// ```
public struct ContextSelection: Sendable {
    /// Contexts named in code.
    public var contexts: [String]
    /// The environment variable read, or `nil` to read none.
    public var environmentVariable: String?
    /// The launch argument read, or `nil` to read none.
    public var launchArgument: String?
    /// Whether `test` applies automatically when the process runs tests.
    public var detectsTests: Bool
    /// The environment to read; the process's when `nil`.
    public var environment: [String: String]?
    /// The launch arguments to read; the process's when `nil`.
    public var arguments: [String]?

    /// Creates a selection; see the type's discussion for the order of the sources.
    public init(contexts: [String] = [], environmentVariable: String? = "WIRING_CONTEXT",
                launchArgument: String? = "--wiring-context", detectsTests: Bool = true,
                environment: [String: String]? = nil, arguments: [String]? = nil) {
        self.contexts = contexts
        self.environmentVariable = environmentVariable
        self.launchArgument = launchArgument
        self.detectsTests = detectsTests
        self.environment = environment
        self.arguments = arguments
    }

    /// Every source: automatic `test`, `contexts`, the environment variable, the launch argument.
    public static func launch(
        _ contexts: String..., environmentVariable: String? = "WIRING_CONTEXT",
        launchArgument: String? = "--wiring-context", detectsTests: Bool = true
    ) -> ContextSelection {
        ContextSelection(contexts: contexts, environmentVariable: environmentVariable,
                         launchArgument: launchArgument, detectsTests: detectsTests)
    }

    /// Exactly these contexts, in this order: no environment, no arguments, no automatic `test`.
    public static func explicit(_ contexts: String...) -> ContextSelection {
        ContextSelection(contexts: contexts, environmentVariable: nil, launchArgument: nil, detectsTests: false)
    }

    /// No context at all.
    public static let none = ContextSelection(environmentVariable: nil, launchArgument: nil, detectsTests: false)

    /// The contexts to apply to `manifest` that it defines, in order, each with where it came
    /// from, and the error for those it does not (empty when it defines them all).
    func chosen(for manifest: Manifest) -> (known: [ActiveContext], unknown: ManifestError) {
        var chosen: [ActiveContext] = []
        if detectsTests, manifest.context("test") != nil, Self.isRunningTests(arguments: arguments ?? CommandLine.arguments,
                                                                             environment: environment ?? ProcessInfo.processInfo.environment) {
            chosen.append(ActiveContext(name: "test", source: .automatic))
        }
        chosen += contexts.map { ActiveContext(name: $0, source: .code) }
        if let variable = environmentVariable, let value = (environment ?? ProcessInfo.processInfo.environment)[variable] {
            chosen += Self.split(value).map { ActiveContext(name: $0, source: .environment(variable)) }
        }
        if let flag = launchArgument {
            let arguments = arguments ?? CommandLine.arguments
            for (index, argument) in arguments.enumerated() {
                if argument == flag, index + 1 < arguments.count {
                    chosen += Self.split(arguments[index + 1]).map { ActiveContext(name: $0, source: .launchArgument(flag)) }
                } else if argument.hasPrefix(flag + "=") {
                    chosen += Self.split(String(argument.dropFirst(flag.count + 1))).map { ActiveContext(name: $0, source: .launchArgument(flag)) }
                }
            }
        }
        let defined = manifest.contexts.map(\.name)
        let unknown = ManifestError(chosen.filter { manifest.context($0.name) == nil }.map { context in
            .error("unknown context '\(context.name)' from \(context.source)\(Suggestion.hint(for: context.name, in: defined)) (contexts: \(defined.isEmpty ? "none are defined" : defined.sorted().joined(separator: ", ")))", at: nil)
        })
        let known = chosen.filter { manifest.context($0.name) != nil }
        // A context named twice applies once, at its last place.
        return (known.enumerated().filter { index, context in
            !known[(index + 1)...].contains { $0.name == context.name }
        }.map(\.element), unknown)
    }

    private static func split(_ list: String) -> [String] {
        list.split(separator: ",").map { String($0.drop { $0 == " " }.reversed().drop { $0 == " " }.reversed()) }
            .filter { !$0.isEmpty }
    }

    /// Whether the process is a test runner: XCTest's bundle runner, or `swift test`'s.
    static func isRunningTests(arguments: [String], environment: [String: String]) -> Bool {
        if environment["XCTestConfigurationFilePath"] != nil || environment["XCTestBundlePath"] != nil
            || environment["XCTestSessionIdentifier"] != nil { return true }
        if let program = arguments.first, program.hasSuffix(".xctest") || program.hasSuffix("/xctest") { return true }
        return arguments.contains("--testing-library")
    }
}

/// A context a container applies, and where its name came from.
public struct ActiveContext: Sendable, Hashable, CustomStringConvertible {
    /// Where a context's name came from.
    public enum Source: Sendable, Hashable, CustomStringConvertible {
        /// `test`, because the process runs tests.
        case automatic
        /// The list given in code.
        case code
        /// An environment variable, by name.
        case environment(String)
        /// A launch argument, by flag.
        case launchArgument(String)

        /// `automatic`, `code`, the variable's name, or the flag.
        public var description: String {
            switch self {
            case .automatic: "automatic"
            case .code: "code"
            case .environment(let variable): variable
            case .launchArgument(let flag): flag
            }
        }
    }

    /// The context's name.
    public let name: String
    /// Where the name came from.
    public let source: Source

    /// `staging (WIRING_CONTEXT)`.
    public var description: String { "\(name) (\(source))" }
}
