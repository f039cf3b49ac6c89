// swift-tools-version:6.1
// A clean app that applies Wiring's build plugin: the plugin tests build it and expect success.
import Foundation
import PackageDescription

// The Wiring package is the repository this fixture sits in; SwiftPM names a path dependency
// after its folder.
let wiring = URL(fileURLWithPath: Context.packageDirectory).appendingPathComponent("../../..").standardized

let package = Package(
    name: "CleanApp",
    platforms: [.macOS(.v15)],
    dependencies: [.package(path: wiring.path)],
    targets: [
        .executableTarget(
            name: "CleanApp",
            dependencies: [.product(name: "Wiring", package: wiring.lastPathComponent)],
            exclude: ["config"],
            plugins: [.plugin(name: "WiringValidate", package: wiring.lastPathComponent)]
        ),
    ]
)
