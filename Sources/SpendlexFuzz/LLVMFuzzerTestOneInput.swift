import CLibFuzzer

/// libFuzzer's per-input callback: one call per input.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
    FuzzTarget.selected.run(bytes)
    return 0
}

/// The executable's entry point. SwiftPM links Linux executables with `main` renamed to
/// `<module>_main`, which takes the place of libFuzzer's `main`; this hands over to libFuzzer's
/// driver with the same arguments (`scripts/fuzz.sh` builds with `-parse-as-library`).
@_cdecl("SpendlexFuzz_main")
public func fuzzMain(_ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> Int32 {
    var argc = argc
    var argv = argv
    FuzzTarget.selected.prepare()
    return LLVMFuzzerRunDriver(&argc, &argv) { data, size in fuzzOneInput(data, size) }
}
