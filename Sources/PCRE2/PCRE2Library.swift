internal import CPCRE2

/// Facts about the linked libpcre2-8 build.
public enum PCRE2Library {
    /// Whether this libpcre2-8 build can JIT-compile patterns on this machine
    /// (`PCRE2_CONFIG_JIT`). When `false`, every ``Pattern`` uses the interpreter.
    public static var isJITAvailable: Bool {
        cpcre2_jit_available() != 0
    }

    /// The library version string, e.g. `"10.42 2022-12-11"` (`PCRE2_CONFIG_VERSION`).
    public static var version: String {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 64) { buffer in
            let length = pcre2_config_8(UInt32(PCRE2_CONFIG_VERSION), buffer.baseAddress)
            // The result counts the terminating NUL.
            guard length > 1 else { return "unknown" }
            return String(decoding: UnsafeBufferPointer(rebasing: buffer[..<Int(length - 1)]), as: UTF8.self)
        }
    }
}
