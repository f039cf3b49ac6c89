// swift-tools-version:6.2
// NotesServer: a JSON API for notes on Hummingbird 2, wired by Wiring's manifests in config/.
import Foundation
import PackageDescription

// Wiring is the repository this example sits in; SwiftPM names a path dependency after its
// folder, so the product is looked up under that name.
let wiring = URL(fileURLWithPath: Context.packageDirectory).appendingPathComponent("../..").standardized

let package = Package(
    name: "NotesServer",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "notes-server", targets: ["NotesServer"]),
        // For Benchmark/, a package of its own: `swift run` here has one executable to run.
        .library(name: "NotesServerApp", targets: ["NotesServerApp"]),
    ],
    dependencies: [
        // The `Hummingbird` trait brings the WiringHummingbird product (and Hummingbird) in,
        // `Observability` WiringObservability's tracing and metrics observers.
        .package(path: wiring.path, traits: ["Hummingbird", "Observability"]),
        // The manifests, services and factories both notes servers share, and their tests' scenarios.
        .package(path: "../NotesCore"),
        .package(url: "https://github.com/hummingbird-project/hummingbird.git", from: "2.0.0"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle.git", from: "2.0.0"),
        .package(url: "https://github.com/apple/swift-log.git", from: "1.6.0"),
        // With NOTES_OTLP=1, spans and metrics exported over OTLP/HTTP (not gRPC: a lighter build).
        .package(url: "https://github.com/swift-otel/swift-otel.git", from: "1.6.0", traits: ["OTLPHTTP"]),
    ],
    targets: [
        // The app: services, routes, and how the container is made.
        .target(
            name: "NotesServerApp",
            dependencies: [
                .product(name: "NotesCore", package: "NotesCore"),
                .product(name: "Wiring", package: wiring.lastPathComponent),
                .product(name: "WiringServiceLifecycle", package: wiring.lastPathComponent),
                .product(name: "WiringHummingbird", package: wiring.lastPathComponent),
                .product(name: "WiringObservability", package: wiring.lastPathComponent),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "OTel", package: "swift-otel"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "UnixSignals", package: "swift-service-lifecycle"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // `swift run notes-server`: reads config/, serves until SIGTERM or SIGINT.
        .executableTarget(
            name: "NotesServer",
            dependencies: ["NotesServerApp"]
        ),
        .testTarget(
            name: "NotesServerTests",
            dependencies: [
                "NotesServerApp",
                .product(name: "NotesCore", package: "NotesCore"),
                .product(name: "NotesServerTesting", package: "NotesCore"),
                .product(name: "Wiring", package: wiring.lastPathComponent),
                .product(name: "WiringHummingbird", package: wiring.lastPathComponent),
                .product(name: "HummingbirdTesting", package: "hummingbird"),
            ]
        ),
    ]
)
