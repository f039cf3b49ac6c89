// swift-tools-version:6.2
// NotesServerVapor: NotesServer's JSON API on Vapor 4, from the same manifests and services
// (../NotesCore), wired by Wiring's WiringVapor product.
import Foundation
import PackageDescription

// Wiring is the repository this example sits in; SwiftPM names a path dependency after its
// folder, so the product is looked up under that name.
let wiring = URL(fileURLWithPath: Context.packageDirectory).appendingPathComponent("../..").standardized

let package = Package(
    name: "NotesServerVapor",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "notes-server-vapor", targets: ["NotesServerVapor"]),
        // For ../NotesBenchmark, a package of its own.
        .library(name: "NotesServerVaporApp", targets: ["NotesServerVaporApp"]),
    ],
    dependencies: [
        // The `Vapor` trait brings the WiringVapor product (and Vapor) in.
        .package(path: wiring.path, traits: ["Vapor"]),
        .package(path: "../NotesCore"),
        .package(url: "https://github.com/vapor/vapor.git", from: "4.100.0"),
        .package(url: "https://github.com/apple/swift-log.git", from: "1.6.0"),
    ],
    targets: [
        // The app: routes, and how the application is made around the container.
        .target(
            name: "NotesServerVaporApp",
            dependencies: [
                .product(name: "NotesCore", package: "NotesCore"),
                .product(name: "Wiring", package: wiring.lastPathComponent),
                .product(name: "WiringVapor", package: wiring.lastPathComponent),
                .product(name: "Vapor", package: "vapor"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // `swift run --package-path Examples/NotesServerVapor`: serves until SIGTERM or SIGINT.
        .executableTarget(
            name: "NotesServerVapor",
            dependencies: [
                "NotesServerVaporApp",
                .product(name: "NotesCore", package: "NotesCore"),
                .product(name: "Wiring", package: wiring.lastPathComponent),
            ]
        ),
        .testTarget(
            name: "NotesServerVaporTests",
            dependencies: [
                "NotesServerVaporApp",
                .product(name: "NotesCore", package: "NotesCore"),
                .product(name: "NotesServerTesting", package: "NotesCore"),
                .product(name: "Wiring", package: wiring.lastPathComponent),
                .product(name: "WiringVapor", package: wiring.lastPathComponent),
                .product(name: "Vapor", package: "vapor"),
            ]
        ),
    ]
)
