// libFuzzer entry point for the YAML reader and the manifest loader. Tests/Fuzz/fuzz.sh builds it
// with SwiftPM's fuzzer sanitizer (libFuzzer supplies main); a plain `swift build` compiles it
// into a program that does nothing.
import Wiring

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzManifest(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    Exercise.run(Array(UnsafeBufferPointer(start: data, count: size)))
    return 0
}
