import Foundation

/// Maps inputs to outputs on `jobs` threads and hands the outputs back in input order.
///
/// The caller submits inputs one by one; `submit` blocks while `limit` inputs are in
/// flight, which bounds memory whatever the input size. Outputs are delivered on the
/// caller's thread, in order, as soon as the next one is ready. Each thread builds its
/// own work function (with its own per-thread state, such as a rule engine worker).
final class OrderedParallelMap<Input: Sendable, Output: Sendable>: @unchecked Sendable {
    // Everything below is guarded by `condition`.
    private let condition = NSCondition()
    private var queue: [(index: Int, input: Input)?] = []
    private var queueHead = 0
    private var done: [Int: Output] = [:]
    private var submitted = 0
    private var delivered = 0
    private var closed = false
    private var running = 0

    private let limit: Int

    /// Starts `jobs` threads; `makeWork` runs once on each to build its work function.
    init(jobs: Int, limit: Int, makeWork: @escaping @Sendable () -> (Input) -> Output) {
        self.limit = max(limit, jobs)
        running = jobs
        for number in 0..<jobs {
            let thread = Thread { [self] in
                let work = makeWork()
                while let (index, input) = take() {
                    let output = work(input)
                    condition.lock()
                    done[index] = output
                    condition.broadcast()
                    condition.unlock()
                }
                condition.lock()
                running -= 1
                condition.broadcast()
                condition.unlock()
            }
            thread.name = "spendlex-worker-\(number + 1)"
            thread.stackSize = 8 << 20
            thread.start()
        }
    }

    private func take() -> (Int, Input)? {
        condition.lock()
        defer { condition.unlock() }
        while queueHead == queue.count && !closed { condition.wait() }
        guard queueHead < queue.count, let item = queue[queueHead] else { return nil }
        // Release the input as soon as it is taken: memory stays bounded by `limit`.
        queue[queueHead] = nil
        queueHead += 1
        // Compact now and then so the queue does not grow for the whole run.
        if queueHead > 64 && queueHead * 2 > queue.count {
            queue.removeFirst(queueHead)
            queueHead = 0
        }
        return item
    }

    /// Queues an input; delivers every output that is ready, in order, meanwhile.
    func submit(_ input: Input, deliver: (Output) -> Void) {
        condition.lock()
        queue.append((submitted, input))
        submitted += 1
        condition.broadcast()
        while true {
            let ready = takeReady()
            if !ready.isEmpty {
                condition.unlock()
                ready.forEach(deliver)
                condition.lock()
                continue
            }
            if submitted - delivered < limit { break }
            condition.wait()
        }
        condition.unlock()
    }

    /// Delivers every remaining output in order and stops the threads.
    func finish(deliver: (Output) -> Void) {
        condition.lock()
        closed = true
        condition.broadcast()
        while delivered < submitted || running > 0 {
            let ready = takeReady()
            if ready.isEmpty {
                condition.wait()
                continue
            }
            condition.unlock()
            ready.forEach(deliver)
            condition.lock()
        }
        condition.unlock()
    }

    /// Outputs ready to deliver in order; call with the lock held.
    private func takeReady() -> [Output] {
        var ready: [Output] = []
        while let output = done.removeValue(forKey: delivered) {
            ready.append(output)
            delivered += 1
        }
        return ready
    }
}
