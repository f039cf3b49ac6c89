// swift-tools-version:6.1
import Foundation
import PackageDescription

// A path dependency is identified by its folder's name, which differs between clones.
let wiringPackage = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().lastPathComponent

// Measures Wiring against its peers and against the floor, in one process, as ratios.
// Peers (Yams) live here, never in the library's own dependencies.
let package = Package(
    name: "WiringBenchmarks",
    platforms: [.macOS(.v15)],
    dependencies: [
        // With WiringObservability, to measure ContainerTracing.
        .package(path: "..", traits: ["Observability"]),
        .package(url: "https://github.com/apple/swift-distributed-tracing", from: "1.1.0"),
        .package(url: "https://github.com/jpsim/Yams", from: "6.0.0"),
        .package(url: "https://github.com/Swinject/Swinject", exact: "2.10.0"),
    ],
    targets: [
        // libyaml again, for the floor: a bare event parse with nothing built.
        .systemLibrary(
            name: "CLibYAML",
            pkgConfig: "yaml-0.1",
            providers: [.apt(["libyaml-dev"]), .brew(["libyaml"])]
        ),
        .executableTarget(
            name: "WiringBenchmarks",
            dependencies: [
                "CLibYAML",
                .product(name: "Wiring", package: wiringPackage),
                .product(name: "WiringObservability", package: wiringPackage),
                .product(name: "Tracing", package: "swift-distributed-tracing"),
                .product(name: "InMemoryTracing", package: "swift-distributed-tracing"),
                .product(name: "Yams", package: "Yams"),
                .product(name: "Swinject", package: "Swinject"),
            ]
        ),
    ]
)
