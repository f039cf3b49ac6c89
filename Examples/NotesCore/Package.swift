// swift-tools-version:6.2
// NotesCore: what the two notes servers share — the manifests in config/, the services they
// declare, the factories that build them — and, for their tests, the scenarios both pass.
import Foundation
import PackageDescription

// Wiring is the repository this package sits in; SwiftPM names a path dependency after its
// folder, so the product is looked up under that name.
let wiring = URL(fileURLWithPath: Context.packageDirectory).appendingPathComponent("../..").standardized

let package = Package(
    name: "NotesCore",
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "NotesCore", targets: ["NotesCore"]),
        // Swift Testing scenarios a notes server's tests run against it, over loopback.
        .library(name: "NotesServerTesting", targets: ["NotesServerTesting"]),
    ],
    dependencies: [
        // The `Configuration` trait brings WiringConfiguration (and swift-configuration) in: the
        // servers read their port and log level through a ConfigReader. `Observability` brings
        // WiringObservability: with NOTES_TRACING=1 the servers print the container's spans.
        .package(path: wiring.path, traits: ["Configuration", "Observability"]),
        .package(url: "https://github.com/apple/swift-distributed-tracing.git", from: "1.1.0"),
        // JSON settings files, reloaded when they change.
        .package(url: "https://github.com/apple/swift-configuration.git", from: "1.0.0", traits: ["JSON", "Reloading"]),
        .package(url: "https://github.com/apple/swift-system.git", from: "1.5.0"),
        .package(url: "https://github.com/apple/swift-log.git", from: "1.6.0"),
    ],
    targets: [
        .target(
            name: "NotesCore",
            dependencies: [
                .product(name: "Wiring", package: wiring.lastPathComponent),
                .product(name: "WiringConfiguration", package: wiring.lastPathComponent),
                .product(name: "WiringObservability", package: wiring.lastPathComponent),
                .product(name: "Tracing", package: "swift-distributed-tracing"),
                .product(name: "InMemoryTracing", package: "swift-distributed-tracing"),
                .product(name: "Configuration", package: "swift-configuration"),
                .product(name: "SystemPackage", package: "swift-system"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .target(
            name: "NotesServerTesting",
            dependencies: ["NotesCore", .product(name: "Wiring", package: wiring.lastPathComponent)]
        ),
    ]
)
