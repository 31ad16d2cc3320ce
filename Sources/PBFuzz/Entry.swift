import Foundation

#if FUZZING
/// libFuzzer's side (built by `make fuzz` with -sanitize=fuzzer,address -DFUZZING); the target
/// is named by PB_FUZZ_TARGET, read once.
nonisolated(unsafe) let fuzzTarget = ProcessInfo.processInfo.environment["PB_FUZZ_TARGET"] ?? "ndjson"

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOne(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
    FuzzTargets.run(fuzzTarget, bytes)
    return 0
}

@_silgen_name("LLVMFuzzerRunDriver")
func LLVMFuzzerRunDriver(_ argc: UnsafeMutablePointer<CInt>,
                         _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>>,
                         _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt) -> CInt

/// SwiftPM links an executable's entry as `<target>_main` (so tests can link the target); this
/// is it, and it hands over to libFuzzer's driver, whose own `main` is then never pulled in.
@_cdecl("PBFuzz_main")
public func pbFuzzMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> CInt {
    var count = argc
    var vector = argv
    return LLVMFuzzerRunDriver(&count, &vector) { data, size in fuzzOne(data, size) }
}
#else
/// The replayer: `PBFuzz TARGET FILE...` runs each file through the target once, as the fuzzer
/// would; make test replays every crash input kept under Tests/Fuzz/regressions.
@main
struct Replay {
    static func main() {
        let arguments = Array(CommandLine.arguments.dropFirst())
        guard let target = arguments.first, FuzzTargets.names.contains(target) else {
            FileHandle.standardError.write(Data("usage: PBFuzz TARGET [FILE ...]; targets: \(FuzzTargets.names.joined(separator: " "))\n".utf8))
            exit(64)
        }
        for path in arguments.dropFirst() {
            guard let data = FileManager.default.contents(atPath: path) else {
                FileHandle.standardError.write(Data("PBFuzz: cannot read \(path)\n".utf8))
                exit(66)
            }
            FuzzTargets.run(target, [UInt8](data))
        }
        print("PBFuzz: \(target): \(arguments.count - 1) inputs replayed, none crashed")
    }
}
#endif
