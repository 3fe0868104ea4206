import CMalloc
import Foundation

/// The C allocator's settings for a program that parses message after message on several threads.
enum HeapTuning {
    /// How far glibc's malloc grows (and, freeing, keeps) an arena's heap past what a request
    /// needs: 16 MiB instead of its default 128 KiB.
    ///
    /// A worker's heap rises and falls by a few MiB with every batch of messages (a decoded
    /// e-mail, its text, the batch's output); at the default glibc gave those pages back and
    /// faulted them in again each time. On the reference corpus (`parse --jobs 2`) this cut the
    /// kernel's time by 40% and the wall time by 6 to 7% (farm-bench, 12 runs paired with
    /// `GLIBC_TUNABLES=glibc.malloc.top_pad=16777216` against the default), with peak memory 2 MiB
    /// higher. An explicit `GLIBC_TUNABLES` setting still wins: it is read first, and this
    /// changes only the value it left at the default.
    static let topPad: Int32 = 16 << 20

    static func apply() {
        #if os(Linux)
        guard !(getenv("GLIBC_TUNABLES").map { String(cString: $0).contains("malloc.top_pad") } ?? false) else { return }
        _ = mallopt(M_TOP_PAD, topPad)
        #endif
    }
}
