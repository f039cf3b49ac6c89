// swift-tools-version:6.2
// What Wiring costs a request of the notes server: `swift run -c release` here (needs wrk).
import Foundation
import PackageDescription

// Wiring is the repository this sits in; SwiftPM names a path dependency after its folder.
let wiring = URL(fileURLWithPath: Context.packageDirectory).appendingPathComponent("../../..").standardized

let package = Package(
    name: "NotesServerBenchmark",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(path: ".."),
        .package(path: "../../NotesCore"),
        .package(path: wiring.path),
        .package(url: "https://github.com/hummingbird-project/hummingbird.git", from: "2.0.0"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle.git", from: "2.0.0"),
        .package(url: "https://github.com/apple/swift-log.git", from: "1.6.0"),
    ],
    targets: [
        .executableTarget(
            name: "NotesServerBenchmark",
            dependencies: [
                .product(name: "NotesServerApp", package: "NotesServer"),
                .product(name: "NotesCore", package: "NotesCore"),
                .product(name: "Wiring", package: wiring.lastPathComponent),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
    ]
)
