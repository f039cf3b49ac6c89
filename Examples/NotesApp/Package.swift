// swift-tools-version:6.1
// NotesApp: the example notes tool README's main command runs (`wiring-example`), wired by
// config-examples/, its manifests checked on every build by the WiringValidate plugin.
import Foundation
import PackageDescription

// Wiring is the repository this example sits in; SwiftPM names a path dependency after its
// folder, so the products are looked up under that name.
let wiring = URL(fileURLWithPath: Context.packageDirectory).appendingPathComponent("../..").standardized

let package = Package(
    name: "NotesApp",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "wiring-example", targets: ["WiringExample"]),
    ],
    dependencies: [
        .package(path: wiring.path),
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
    ],
    targets: [
        .executableTarget(
            name: "WiringExample",
            dependencies: [
                .product(name: "Wiring", package: wiring.lastPathComponent),
                .product(name: "WiringCommands", package: wiring.lastPathComponent),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            // wiring-plugin.json points the plugin at config-examples/ and at the app's catalog
            // (`wiring-example catalog > Examples/NotesApp/Sources/WiringExample/factories.json`).
            exclude: ["wiring-plugin.json", "factories.json"],
            plugins: [.plugin(name: "WiringValidate", package: wiring.lastPathComponent)]
        ),
        .testTarget(
            name: "WiringExampleTests",
            dependencies: [
                "WiringExample",
                .product(name: "Wiring", package: wiring.lastPathComponent),
                .product(name: "WiringTesting", package: wiring.lastPathComponent),
            ]
        ),
    ]
)

for target in package.targets {
    target.swiftSettings = (target.swiftSettings ?? []) + [
        .enableUpcomingFeature("InternalImportsByDefault"),
        .enableUpcomingFeature("ExistentialAny"),
        .enableUpcomingFeature("MemberImportVisibility"),
    ]
}
