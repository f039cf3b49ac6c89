// swift-tools-version:6.1
// Apps that must not build: BrokenApp's manifest has a misspelt scope and a factory key no
// source registers; MisspeltKey registers through a generated constant it misspells.
import Foundation
import PackageDescription

// The Wiring package is the repository this fixture sits in; SwiftPM names a path dependency
// after its folder.
let wiring = URL(fileURLWithPath: Context.packageDirectory).appendingPathComponent("../../..").standardized

let package = Package(
    name: "BrokenApp",
    platforms: [.macOS(.v15)],
    dependencies: [.package(path: wiring.path)],
    targets: [
        .executableTarget(
            name: "BrokenApp",
            dependencies: [.product(name: "Wiring", package: wiring.lastPathComponent)],
            exclude: ["config"],
            plugins: [.plugin(name: "WiringValidate", package: wiring.lastPathComponent)]
        ),
        .executableTarget(
            name: "MisspeltKey",
            dependencies: [.product(name: "Wiring", package: wiring.lastPathComponent)],
            exclude: ["config"],
            plugins: [.plugin(name: "WiringValidate", package: wiring.lastPathComponent)]
        ),
    ]
)
