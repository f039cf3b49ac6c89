// swift-tools-version:6.1
import PackageDescription

let package = Package(
    name: "Wiring",
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "Wiring", targets: ["Wiring"]),
        .library(name: "WiringCommands", targets: ["WiringCommands"]),
        // The container as a swift-service-lifecycle `Service`; the `Wiring` product does not need it.
        .library(name: "WiringServiceLifecycle", targets: ["WiringServiceLifecycle"]),
        // A Swift Testing trait: each test with a child container of its own (`@Test(.container { … })`).
        .library(name: "WiringTesting", targets: ["WiringTesting"]),
        // Request scopes for Hummingbird 2, behind the `Hummingbird` package trait: a client of
        // `Wiring` alone does not fetch Hummingbird.
        .library(name: "WiringHummingbird", targets: ["WiringHummingbird"]),
        // The same for Vapor 4, with the container in the application's lifecycle, behind the
        // `Vapor` package trait.
        .library(name: "WiringVapor", targets: ["WiringVapor"]),
        // `${key}` values from apple/swift-configuration's ConfigReader, behind the
        // `Configuration` package trait.
        .library(name: "WiringConfiguration", targets: ["WiringConfiguration"]),
        // Observers that trace a container's start, builds, shutdown, refreshes and reloads with
        // swift-distributed-tracing and count them with swift-metrics, behind the
        // `Observability` package trait.
        .library(name: "WiringObservability", targets: ["WiringObservability"]),
        .executable(name: "wiring", targets: ["WiringCLI"]),
        // Validates a target's manifests on every build and generates its factory keys.
        .plugin(name: "WiringValidate", targets: ["WiringValidate"]),
        // `swift package wiring validate|explain|graph …`.
        .plugin(name: "WiringCommandPlugin", targets: ["WiringCommandPlugin"]),
    ],
    traits: [
        .trait(name: "Hummingbird", description: "The WiringHummingbird product: a request scope per request on Hummingbird 2."),
        .trait(name: "Vapor", description: "The WiringVapor product: the container in a Vapor 4 application's lifecycle, a request scope per request."),
        .trait(name: "Configuration", description: "The WiringConfiguration product: manifest values read through a swift-configuration ConfigReader."),
        .trait(name: "Observability", description: "The WiringObservability product: a container's start, builds and shutdown as swift-distributed-tracing spans and swift-metrics metrics."),
        .default(enabledTraits: []),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.0.0"),
        .package(url: "https://github.com/vapor/vapor", from: "4.100.0"),
        .package(url: "https://github.com/apple/swift-configuration", from: "1.0.0"),
        .package(url: "https://github.com/apple/swift-distributed-tracing", from: "1.1.0"),
        .package(url: "https://github.com/apple/swift-metrics", from: "2.5.0"),
    ],
    targets: [
        // libyaml, read through its event API. Only `Wiring` imports it, and only `internal`ly.
        .systemLibrary(
            name: "CYAML",
            pkgConfig: "yaml-0.1",
            providers: [.apt(["libyaml-dev"]), .brew(["libyaml"])]
        ),
        .target(
            name: "Wiring",
            dependencies: ["CYAML", .product(name: "Logging", package: "swift-log")],
            // Async functions run on their caller's executor unless marked `@concurrent`: an
            // awaited resolve of a built instance then costs no hop to another executor.
            swiftSettings: [.enableUpcomingFeature("NonisolatedNonsendingByDefault")]
        ),
        .target(
            name: "WiringServiceLifecycle",
            dependencies: ["Wiring", .product(name: "ServiceLifecycle", package: "swift-service-lifecycle")]
        ),
        .target(name: "WiringTesting", dependencies: ["Wiring"]),
        // Compiled empty unless the `Hummingbird` trait is enabled.
        .target(
            name: "WiringHummingbird",
            dependencies: ["Wiring", .product(name: "Hummingbird", package: "hummingbird", condition: .when(traits: ["Hummingbird"]))]
        ),
        // Compiled empty unless the `Vapor` trait is enabled.
        .target(
            name: "WiringVapor",
            dependencies: ["Wiring", .product(name: "Vapor", package: "vapor", condition: .when(traits: ["Vapor"]))]
        ),
        // Compiled empty unless the `Configuration` trait is enabled.
        .target(
            name: "WiringConfiguration",
            dependencies: [
                "Wiring",
                .product(name: "Configuration", package: "swift-configuration", condition: .when(traits: ["Configuration"])),
            ]
        ),
        // Compiled empty unless the `Observability` trait is enabled.
        .target(
            name: "WiringObservability",
            dependencies: [
                "Wiring",
                .product(name: "Tracing", package: "swift-distributed-tracing", condition: .when(traits: ["Observability"])),
                .product(name: "Metrics", package: "swift-metrics", condition: .when(traits: ["Observability"])),
            ],
            // As in `Wiring`, whose observer protocol's async requirements (`observingStart`,
            // `observingBuild`) are `nonisolated(nonsending)`: its witnesses must be too.
            swiftSettings: [.enableUpcomingFeature("NonisolatedNonsendingByDefault")]
        ),
        .target(
            name: "WiringCommands",
            dependencies: [
                "Wiring",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        // The standalone `wiring` tool. The target is not named `wiring` so that its folder does
        // not collide with `Sources/Wiring` on case-insensitive file systems.
        .executableTarget(
            name: "WiringCLI",
            dependencies: [
                "WiringCommands",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        // The `wiring` tool the plugins run; see its source for why it is a target of its own.
        .executableTarget(
            name: "WiringPluginTool",
            dependencies: ["WiringCommands", .product(name: "ArgumentParser", package: "swift-argument-parser")]
        ),
        // No target of this package applies it: SwiftPM builds a build-tool plugin's tool for
        // every target in the graph that applies it, even one of a dependency that nothing
        // builds, so a client would pay for the tool. The example app that uses it is a package
        // of its own, Examples/NotesApp.
        .plugin(
            name: "WiringValidate",
            capability: .buildTool(),
            dependencies: ["WiringPluginTool"],
            path: "Sources/WiringValidatePlugin"
        ),
        .plugin(
            name: "WiringCommandPlugin",
            capability: .command(
                intent: .custom(verb: "wiring", description: "Validate, explain or graph the package's Wiring manifests.")),
            dependencies: ["WiringPluginTool"],
            path: "Sources/WiringCommandPlugin"
        ),
        // The libFuzzer target for the reader and the loader: Tests/Fuzz/fuzz.sh builds and runs it.
        .executableTarget(name: "WiringFuzz", dependencies: ["Wiring", "WiringCommands"], path: "Tests/Fuzz", exclude: ["fuzz.sh", "lsan.supp", "seeds"]),
        // A small program the context tests run as a child process, with WIRING_CONTEXT set.
        .executableTarget(name: "ContextProbe", dependencies: ["Wiring"], path: "Tests/ContextProbe"),
        // An app's tool embedding Wiring's commands with its own registry, for end-to-end tests.
        .executableTarget(
            name: "EmbeddedTool",
            dependencies: [
                "Wiring", "WiringCommands",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            path: "Tests/EmbeddedTool"
        ),
        .testTarget(
            name: "WiringTests",
            dependencies: [
                "Wiring", "WiringCommands", "WiringCLI", "ContextProbe", "EmbeddedTool", "WiringTesting",
                .product(name: "Logging", package: "swift-log"),
            ],
            exclude: ["Fixtures", "Commands/validate_with_schema.py"]
        ),
        // Runs with the `Configuration` trait (`swift test --traits Configuration`; `.ci/run`
        // does in its AddressSanitizer run); compiled empty without it.
        .testTarget(
            name: "WiringConfigurationTests",
            dependencies: [
                "Wiring", "WiringConfiguration",
                .product(name: "Configuration", package: "swift-configuration", condition: .when(traits: ["Configuration"])),
            ]
        ),
        // Runs with the `Observability` trait (`.ci/run` does, in its AddressSanitizer run);
        // compiled empty without it.
        .testTarget(
            name: "WiringObservabilityTests",
            dependencies: [
                "Wiring", "WiringObservability",
                .product(name: "Tracing", package: "swift-distributed-tracing", condition: .when(traits: ["Observability"])),
                .product(name: "InMemoryTracing", package: "swift-distributed-tracing", condition: .when(traits: ["Observability"])),
                .product(name: "Metrics", package: "swift-metrics", condition: .when(traits: ["Observability"])),
                .product(name: "MetricsTestKit", package: "swift-metrics", condition: .when(traits: ["Observability"])),
            ]
        ),
        .testTarget(
            name: "WiringServiceLifecycleTests",
            dependencies: [
                "Wiring", "WiringServiceLifecycle",
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
    ]
)

for target in package.targets where target.type != .system && target.type != .plugin {
    target.swiftSettings = (target.swiftSettings ?? []) + [
        .enableUpcomingFeature("InternalImportsByDefault"),
        .enableUpcomingFeature("ExistentialAny"),
        .enableUpcomingFeature("MemberImportVisibility"),
    ]
}
