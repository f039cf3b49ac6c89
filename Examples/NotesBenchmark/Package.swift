// swift-tools-version:6.2
// What Wiring costs a request of the notes servers, on Hummingbird 2 and on Vapor 4:
// `swift run -c release --package-path Examples/NotesBenchmark` (needs wrk).
import Foundation
import PackageDescription

// Wiring is the repository this sits in; SwiftPM names a path dependency after its folder.
let wiring = URL(fileURLWithPath: Context.packageDirectory).appendingPathComponent("../..").standardized

let package = Package(
    name: "NotesBenchmark",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(path: "../NotesServer"),
        .package(path: "../NotesServerVapor"),
        .package(path: "../NotesCore"),
        .package(path: wiring.path, traits: ["Hummingbird", "Vapor"]),
        .package(url: "https://github.com/hummingbird-project/hummingbird.git", from: "2.0.0"),
        .package(url: "https://github.com/vapor/vapor.git", from: "4.100.0"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle.git", from: "2.0.0"),
        .package(url: "https://github.com/apple/swift-log.git", from: "1.6.0"),
    ],
    targets: [
        .executableTarget(
            name: "NotesBenchmark",
            dependencies: [
                .product(name: "NotesServerApp", package: "NotesServer"),
                .product(name: "NotesServerVaporApp", package: "NotesServerVapor"),
                .product(name: "NotesCore", package: "NotesCore"),
                .product(name: "Wiring", package: wiring.lastPathComponent),
                .product(name: "WiringVapor", package: wiring.lastPathComponent),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "Vapor", package: "vapor"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
    ]
)
