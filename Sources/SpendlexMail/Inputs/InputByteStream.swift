#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Dispatch

/// A file descriptor read in large chunks into reused buffers.
///
/// Positions are absolute byte offsets in the input; `bufferOffset` is the offset of `base[0]`,
/// the first byte still held. `fill(keepingFrom:)` drops what the caller no longer needs and
/// appends the next chunk after the rest, growing a buffer only when what must be kept is larger
/// than the room set aside for it. Memory is therefore a few chunks plus about twice the largest
/// record a reader keeps whole (an mbox message, an `<mms>` element).
///
/// Regular files larger than a chunk are read ahead: while the caller scans one chunk, a
/// background task reads the next into a second buffer, leaving `headroom` bytes free before it;
/// `fill` copies the kept tail (usually a partial message, a few KiB) into that room and swaps
/// the buffers, so file data is never copied twice. Pipes are read in the caller's thread, since
/// a blocked read could not be abandoned.
final class InputByteStream {
    /// The chunk size: large enough to keep the system-call count low, small enough to stay in
    /// the L2 cache between the kernel's copy and the scan (measured on the mbox benchmark).
    static let defaultChunkSize = 1 << 20
    /// The largest record a reader holds whole (an mbox message, an SMS backup element, a JSON
    /// line); larger ones are skipped and reported as `.malformed`.
    static let defaultRecordLimit = 256 << 20

    /// A size for messages: "256 MiB", or bytes when not a whole number of MiB.
    static func describe(size: Int) -> String {
        size >= 1 << 20 && size % (1 << 20) == 0 ? "\(size >> 20) MiB" : "\(size) bytes"
    }

    /// The descriptor read from.
    let descriptor: Int32
    private let closesDescriptor: Bool
    private let chunkSize: Int
    private var allocation: UnsafeMutablePointer<UInt8>
    private var allocationSize: Int
    private let readAhead: InputReadAhead?
    /// Start of the held bytes `base[0..<count]` (inside the current allocation).
    private(set) var base: UnsafeMutablePointer<UInt8>
    /// Number of valid bytes in the buffer.
    private(set) var count = 0
    /// Absolute offset of `base[0]`.
    private(set) var bufferOffset = 0
    /// True once a read returned end of file or failed.
    private(set) var atEOF = false
    /// Why the last read failed, if it did (reads after that report end of file).
    private(set) var readError: String?

    /// Wraps an open descriptor; `closes` says whether `deinit` closes it. Reads ahead when
    /// `fileSize` (a regular file's size) exceeds one chunk. `startOffset` is the descriptor's
    /// position (the absolute offset of the first byte read), for a stream over part of a file.
    init(descriptor: Int32, closes: Bool, fileSize: Int? = nil, chunkSize: Int = InputByteStream.defaultChunkSize,
         startOffset: Int = 0) {
        self.descriptor = descriptor
        self.closesDescriptor = closes
        self.chunkSize = max(chunkSize, 64)
        if let fileSize, fileSize > self.chunkSize {
            // Both buffers: room for a kept tail of up to one chunk, then one chunk of new data.
            allocationSize = 2 * self.chunkSize
            readAhead = InputReadAhead(descriptor: descriptor, headroom: self.chunkSize, chunkSize: self.chunkSize)
        } else {
            allocationSize = self.chunkSize
            readAhead = nil
        }
        allocation = .allocate(capacity: allocationSize)
        base = allocation
        bufferOffset = startOffset
    }

    deinit {
        readAhead?.finish()
        allocation.deallocate()
        if closesDescriptor { _ = close(descriptor) }
    }

    /// Absolute offset just past the last valid byte.
    var endOffset: Int { bufferOffset + count }

    /// The byte at absolute `offset`, which must be held.
    @inline(__always)
    subscript(offset: Int) -> UInt8 { base[offset - bufferOffset] }

    /// Reads the next chunk, keeping the bytes from absolute offset `keep` on (earlier ones may be
    /// dropped). Returns false at end of file or on a read error, when nothing was added.
    @discardableResult
    func fill(keepingFrom keep: Int) -> Bool {
        if atEOF { return false }
        let drop = min(max(keep - bufferOffset, 0), count)
        base += drop
        count -= drop
        bufferOffset += drop
        guard let readAhead else { return readHere() }

        let (got, errorCode) = readAhead.collect()
        guard got > 0 else { return endOfInput(errorCode) }
        if count <= readAhead.headroom {
            // The usual case: put the tail in front of the new chunk and swap buffers.
            let newBase = readAhead.buffer + (readAhead.headroom - count)
            newBase.update(from: base, count: count)
            swap(&allocation, &readAhead.buffer)
            swap(&allocationSize, &readAhead.bufferSize)
            base = newBase
        } else {
            // A record larger than the headroom: keep it here and append the chunk to it.
            reserve(count + got)
            (base + count).update(from: readAhead.buffer + readAhead.headroom, count: got)
        }
        count += got
        readAhead.start()
        return true
    }

    /// Moves the held bytes to the start of the allocation and grows it to hold `needed` bytes.
    private func reserve(_ needed: Int) {
        if needed > allocationSize {
            let newSize = max(allocationSize * 2, needed + chunkSize)
            let newAllocation = UnsafeMutablePointer<UInt8>.allocate(capacity: newSize)
            newAllocation.update(from: base, count: count)
            allocation.deallocate()
            allocation = newAllocation
            allocationSize = newSize
        } else if base != allocation {
            memmove(allocation, base, count)
        }
        base = allocation
    }

    /// Reads in this thread (pipes, small files), after moving the held bytes to the front.
    private func readHere() -> Bool {
        if allocationSize - (base - allocation) - count < chunkSize / 2 { reserve(count + chunkSize) }
        while true {
            let room = allocationSize - (base - allocation) - count
            let got = read(descriptor, base + count, room)
            if got > 0 {
                count += got
                return true
            }
            let code = got == 0 ? 0 : errno
            if code == EINTR { continue }
            return endOfInput(code)
        }
    }

    private func endOfInput(_ errorCode: Int32) -> Bool {
        atEOF = true
        if errorCode != 0 { readError = String(cString: strerror(errorCode)) }
        return false
    }

    /// Reads until at least `minimum` bytes are held or the input ends (for sniffing a pipe,
    /// which returns data in small pieces).
    func prefill(minimum: Int) {
        while count < minimum, fill(keepingFrom: bufferOffset) {}
    }

    /// Copies the held bytes `[start, end)` (absolute offsets) into an array.
    func bytes(from start: Int, to end: Int) -> [UInt8] {
        Array(UnsafeBufferPointer(start: base + (start - bufferOffset), count: end - start))
    }
}

/// The background half of `InputByteStream`'s read-ahead: reads one chunk into `buffer` after
/// `headroom` bytes, on a Dispatch worker, while the caller scans the previous chunk. The
/// semaphore orders the worker's writes before the caller's reads.
final class InputReadAhead: @unchecked Sendable {
    let descriptor: Int32
    let headroom: Int
    let chunkSize: Int
    var buffer: UnsafeMutablePointer<UInt8>
    var bufferSize: Int
    private var inFlight = false
    private var got = 0
    private var errorCode: Int32 = 0
    private let finished = DispatchSemaphore(value: 0)

    init(descriptor: Int32, headroom: Int, chunkSize: Int) {
        self.descriptor = descriptor
        self.headroom = headroom
        self.chunkSize = chunkSize
        self.bufferSize = headroom + chunkSize
        self.buffer = .allocate(capacity: bufferSize)
    }

    deinit { buffer.deallocate() }

    /// Starts reading the next chunk in the background.
    func start() {
        inFlight = true
        DispatchQueue.global(qos: .userInitiated).async { self.readChunk() }
    }

    /// Waits for the chunk being read (reading it now if none was started) and returns its
    /// length (0 at end of file) and `errno` (0 if none).
    func collect() -> (got: Int, errorCode: Int32) {
        if !inFlight { readChunk() }
        finished.wait()
        inFlight = false
        return (got, errorCode)
    }

    /// Waits for a read in flight, so that the buffer and descriptor can be released.
    func finish() {
        if inFlight { finished.wait(); inFlight = false }
    }

    private func readChunk() {
        while true {
            let result = read(descriptor, buffer + headroom, chunkSize)
            if result < 0, errno == EINTR { continue }
            got = max(result, 0)
            errorCode = result < 0 ? errno : 0
            break
        }
        finished.signal()
    }
}
