import ArgumentParser
import WiringCommands

/// The `wiring` tool as the plugins run it. It is its own target, in no product, because
/// SwiftPM cannot hand a plugin an executable target that a product also builds when the
/// plugin is applied in this same package (swiftlang/swift-package-manager#8831).
@main
enum WiringPluginTool {
    static func main() async {
        await WiringCommand.main(nil)
    }
}
