#!/usr/bin/env bash
# How long a client's clean debug build takes when it depends on the `Wiring` product alone, by
# URL and by local path, against one of Swinject 2.10.0 and one of Factory, each by URL and by path.
#
#     Benchmarks/build-time.sh [ROUNDS]      # 3 rounds by default; about 40 s a round
#
# Each client is a package of its own under $BUILD_TIME_DIR (/tmp/wiring-build-time), whose
# `main.swift` uses the library. Its dependencies are resolved once; then, ROUNDS times, every
# client is built one after the other with its build folder emptied but its checkouts (what a
# clean build after `git clone` and `swift package resolve` does). It prints each client's
# median and the ratios: Wiring against Swinject and Factory built one after the other.
#
# Factory is not on this machine's package list. Its stand-in has Factory 2.5's manifest (its
# products, its swift-docc-plugin dependency, its FactoryKit target with a resource) and a
# FactoryKit module of one declaration: building a client of it does everything building a
# client of Factory does but compile FactoryKit's sources, so its time is a lower bound of
# Factory's and the ratios printed are upper bounds.
#
# Wiring by URL is HEAD of this checkout (`file://`, by revision): commit before measuring.
set -euo pipefail

rounds=${1:-3}
repo=$(cd "$(dirname "$0")/.." && pwd)
work=${BUILD_TIME_DIR:-/tmp/wiring-build-time}
revision=$(git -C "$repo" rev-parse HEAD)
identity=$(basename "$repo" | tr '[:upper:]' '[:lower:]')
mkdir -p "$work"

# client NAME DEPENDENCY PRODUCT PACKAGE IMPORT USE: a package whose executable uses PRODUCT.
client() {
    local name=$1 dependency=$2 product=$3 package=$4 module=$5 use=$6
    mkdir -p "$work/$name/Sources/App"
    cat > "$work/$name/Package.swift" <<EOF
// swift-tools-version:6.0
import PackageDescription
let package = Package(name: "App", platforms: [.macOS(.v15)],
    dependencies: [$dependency],
    targets: [.executableTarget(name: "App", dependencies: [.product(name: "$product", package: "$package")])])
EOF
    printf 'import %s\n%s\n' "$module" "$use" > "$work/$name/Sources/App/main.swift"
    swift package --package-path "$work/$name" resolve > "$work/$name.resolve.log" 2>&1 \
        || { cat "$work/$name.resolve.log"; exit 1; }
}

# The stand-in for Factory: a git repository tagged 2.5.3, so that it is depended on by URL too.
factory=$work/FactoryStandIn
if [ ! -d "$factory/.git" ]; then
    mkdir -p "$factory/Sources/FactoryKit" "$factory/Sources/FactoryTesting"
    cat > "$factory/Package.swift" <<'EOF'
// swift-tools-version: 6.1
import PackageDescription
let settings: [SwiftSetting] = [.enableExperimentalFeature("StrictConcurrency")]
let package = Package(
    name: "Factory",
    platforms: [.iOS(.v13), .macOS(.v10_15), .tvOS(.v13), .watchOS(.v8), .visionOS(.v1), .macCatalyst(.v13)],
    products: [
        .library(name: "FactoryKit", targets: ["FactoryKit"]),
        .library(name: "FactoryKitDynamic", type: .dynamic, targets: ["FactoryKit"]),
        .library(name: "FactoryTesting", targets: ["FactoryTesting"]),
    ],
    dependencies: [.package(url: "https://github.com/apple/swift-docc-plugin", from: "1.5.0")],
    targets: [
        .target(name: "FactoryKit", resources: [.copy("PrivacyInfo.xcprivacy")], swiftSettings: settings),
        .target(name: "FactoryTesting", dependencies: ["FactoryKit"], swiftSettings: settings),
    ],
    swiftLanguageModes: [.version("6")]
)
EOF
    printf 'public final class Container: Sendable {\n    public init() {}\n}\n' > "$factory/Sources/FactoryKit/Container.swift"
    printf '<?xml version="1.0" encoding="UTF-8"?>\n<plist version="1.0"><dict/></plist>\n' \
        > "$factory/Sources/FactoryKit/PrivacyInfo.xcprivacy"
    printf 'import FactoryKit\n' > "$factory/Sources/FactoryTesting/Testing.swift"
    git -C "$factory" init -q
    git -C "$factory" add -A
    git -C "$factory" -c user.name=bench -c user.email=bench@localhost commit -qm "Factory's manifest, an empty module"
    git -C "$factory" tag 2.5.3
fi

client wiring-url ".package(url: \"file://$repo\", revision: \"$revision\")" Wiring "$identity" Wiring 'print(FactoryRegistry())'
client wiring-path ".package(path: \"$repo\")" Wiring "$identity" Wiring 'print(FactoryRegistry())'
client swinject-url '.package(url: "https://github.com/Swinject/Swinject", exact: "2.10.0")' Swinject Swinject Swinject 'print(Container())'
# Swinject by path: a copy of the checkout the URL client resolved.
if [ ! -d "$work/Swinject" ]; then cp -R "$work/swinject-url/.build/checkouts/Swinject" "$work/Swinject"; fi
client swinject-path ".package(path: \"$work/Swinject\")" Swinject swinject Swinject 'print(Container())'
client factory-url ".package(url: \"file://$factory\", exact: \"2.5.3\")" FactoryKit factorystandin FactoryKit 'print(Container())'
client factory-path ".package(path: \"$factory\")" FactoryKit factorystandin FactoryKit 'print(Container())'

names=(swinject-url factory-url wiring-url swinject-path factory-path wiring-path)
: > "$work/times"
for ((round = 1; round <= rounds; round++)); do
    for name in "${names[@]}"; do
        find "$work/$name/.build" -mindepth 1 -maxdepth 1 ! -name checkouts ! -name repositories \
            ! -name workspace-state.json -exec rm -rf {} + 2>/dev/null || true
        start=$(date +%s.%N)
        swift build --package-path "$work/$name" > "$work/$name.build.log" 2>&1 \
            || { cat "$work/$name.build.log"; exit 1; }
        end=$(date +%s.%N)
        echo "$name $start $end" >> "$work/times"
    done
done

python3 - "$work/times" <<'EOF'
import statistics, sys
runs = {}
for line in open(sys.argv[1]):
    name, start, end = line.split()
    runs.setdefault(name, []).append(float(end) - float(start))
median = {name: statistics.median(times) for name, times in runs.items()}
for name, times in runs.items():
    print(f"{name:14} {median[name]:5.1f} s   ({', '.join(f'{t:.1f}' for t in times)})")
for how in ("url", "path"):
    peers = median[f"swinject-{how}"] + median[f"factory-{how}"]
    print(f"by {how}: Wiring {median[f'wiring-{how}']:.1f} s against Swinject and Factory's stand-in "
          f"{peers:.1f} s: {median[f'wiring-{how}'] / peers:.2f}x (at most)")
EOF
