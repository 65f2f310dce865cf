import Synchronization

/// A single-producer, single-consumer ring of samples between two pipeline stages.
///
/// Capacity is a power of two so positions wrap with a mask. The two positions grow
/// without bound (wrapping `Int` arithmetic) and are the only shared state touched per
/// batch: the producer owns `writePosition`, the consumer owns `readPosition`, and each
/// publishes its progress with one atomic store per batch, never per sample.
///
/// A side that finds the ring full (or empty) can `await` without spinning a core: it
/// parks a continuation that the other side resumes once there is room (or data). The
/// lock is taken only by a side that has to wait and by the side that wakes it.
///
/// Parked continuations are `CheckedContinuation`s in debug builds and unsafe ones in
/// release builds. The tests, and the ring's stress tests under ThreadSanitizer, run the
/// checked kind, which traps on a missed or double resume; TSan also cannot see `Mutex`'s
/// futex and, with unsafe continuations, reported the waiter bookkeeping inside the lock
/// as racing (a false positive). Release builds skip the checked kind's allocation per
/// wait, about one per pipeline job (perf's malloc probe).
public final class RingBuffer: @unchecked Sendable {
    // @unchecked: `storage` is shared, but the SPSC protocol gives each slot to exactly one
    // side at a time; ownership changes hands only through the acquire/release positions.

    public let capacity: Int
    private let mask: Int
    private let storage: UnsafeMutablePointer<Double>
    /// Samples written so far (the producer's position).
    private let writePosition = Atomic<Int>(0)
    /// Samples consumed so far (the consumer's position).
    private let readPosition = Atomic<Int>(0)
    private let closed = Atomic<Bool>(false)
    private let cancelled = Atomic<Bool>(false)
    /// True while a continuation is parked, so the other side knows to look.
    private let hasWaiter = Atomic<Bool>(false)
    private let waiters = Mutex<Waiters>(Waiters())

    private struct Waiters {
        var producer: (continuation: Waiter, needed: Int)?
        var consumer: (continuation: Waiter, needed: Int)?
    }

    /// - Parameter capacity: samples the ring holds; rounded up to a power of two (at least 2).
    public init(capacity: Int) {
        var size = 2
        while size < capacity { size <<= 1 }
        self.capacity = size
        mask = size - 1
        storage = .allocate(capacity: size)
        storage.initialize(repeating: 0, count: size)
    }

    deinit { storage.deallocate() }

    /// Samples ready for the consumer.
    public var readableCount: Int {
        // Sequentially consistent: the wait protocol below relies on these loads being
        // ordered after the store of `hasWaiter` (free on x86, where loads are plain moves).
        writePosition.load(ordering: .sequentiallyConsistent) &- readPosition.load(ordering: .sequentiallyConsistent)
    }

    /// Room left for the producer.
    public var writableCount: Int { capacity - readableCount }

    /// True once the producer has called `close()`; data written before stays readable.
    public var isClosed: Bool { closed.load(ordering: .sequentiallyConsistent) }

    // MARK: Producer

    /// Copies as many of `samples` as fit and returns how many that was (0 when full).
    @discardableResult
    public func write(_ samples: UnsafeBufferPointer<Double>) -> Int {
        let write = writePosition.load(ordering: .relaxed)
        let read = readPosition.load(ordering: .acquiring)
        let count = Swift.min(samples.count, capacity - (write &- read))
        guard count > 0, let source = samples.baseAddress else { return 0 }
        let start = write & mask
        let firstPart = Swift.min(count, capacity - start)
        (storage + start).update(from: source, count: firstPart)
        if firstPart < count {
            storage.update(from: source + firstPart, count: count - firstPart)
        }
        writePosition.store(write &+ count, ordering: .sequentiallyConsistent)
        wakeWaiter(consumerSide: true)
        return count
    }

    /// Writes all of `samples`, waiting for room as often as needed; returns early (with
    /// the rest unwritten) if the ring is cancelled.
    public func writeAll(_ samples: UnsafeBufferPointer<Double>) async {
        var offset = 0
        while offset < samples.count, !isCancelled {
            let written = write(UnsafeBufferPointer(rebasing: samples[offset...]))
            offset += written
            // Wait for any room at all: a consumer that takes whole multichannel frames may
            // leave a few samples behind, so waiting for a full ring's worth could deadlock.
            if written == 0 { await waitForSpace(1) }
        }
    }

    /// Calls `body` with the free slots as at most two contiguous regions (the second is
    /// empty unless the free space wraps); publishes nothing. The producer fills them in
    /// place and then `commit`s what it wrote: a reader that decodes straight into the ring
    /// saves a copy of every sample (perf: 4.5% of a run was that copy).
    public func withWritableRegions<R>(
        _ body: (UnsafeMutableBufferPointer<Double>, UnsafeMutableBufferPointer<Double>) throws -> R
    ) rethrows -> R {
        let write = writePosition.load(ordering: .relaxed)
        let (first, second) = regions(from: write, count: capacity - (write &- readPosition.load(ordering: .acquiring)))
        return try body(first, second)
    }

    /// Publishes the next `count` samples, written in place (see `withWritableRegions`).
    public func commit(_ count: Int) {
        precondition(count <= writableCount, "committed more than was writable")
        writePosition.store(writePosition.load(ordering: .relaxed) &+ count, ordering: .sequentiallyConsistent)
        wakeWaiter(consumerSide: true)
    }

    /// Suspends until at least `count` samples (at most `capacity`) can be written.
    public func waitForSpace(_ count: Int) async {
        await park(producer: true, needed: Swift.min(count, capacity))
    }

    /// Marks the end of the stream and wakes a waiting consumer.
    public func close() {
        closed.store(true, ordering: .sequentiallyConsistent)
        wakeWaiter(consumerSide: true, force: true)
    }

    /// Ends the ring for both sides at once (the pipeline failed or was cancelled): every
    /// waiter wakes, and waits return immediately from now on.
    public func cancel() {
        cancelled.store(true, ordering: .sequentiallyConsistent)
        closed.store(true, ordering: .sequentiallyConsistent)
        let parked = waiters.withLock { waiters in
            defer {
                waiters.producer = nil
                waiters.consumer = nil
            }
            return [waiters.producer?.continuation, waiters.consumer?.continuation].compactMap { $0 }
        }
        for continuation in parked { continuation.resume() }
    }

    public var isCancelled: Bool { cancelled.load(ordering: .sequentiallyConsistent) }

    /// Empties the ring for its next producer and consumer (the next input of a dataset),
    /// so its storage is allocated and faulted in once per run, not once per input. Only
    /// while neither side uses it.
    public func reset() {
        precondition(waiters.withLock { $0.producer == nil && $0.consumer == nil }, "reset while a side is waiting")
        writePosition.store(0, ordering: .sequentiallyConsistent)
        readPosition.store(0, ordering: .sequentiallyConsistent)
        closed.store(false, ordering: .sequentiallyConsistent)
        cancelled.store(false, ordering: .sequentiallyConsistent)
        hasWaiter.store(false, ordering: .sequentiallyConsistent)
    }

    // MARK: Consumer

    /// Copies up to `buffer.count` samples out and returns how many (0 when empty).
    @discardableResult
    public func read(into buffer: UnsafeMutableBufferPointer<Double>) -> Int {
        let count = peek(into: buffer)
        if count > 0 { consume(count) }
        return count
    }

    /// Copies up to `buffer.count` of the oldest samples without consuming them.
    public func peek(into buffer: UnsafeMutableBufferPointer<Double>) -> Int {
        let read = readPosition.load(ordering: .relaxed)
        let write = writePosition.load(ordering: .acquiring)
        let count = Swift.min(buffer.count, write &- read)
        guard count > 0, let destination = buffer.baseAddress else { return 0 }
        let start = read & mask
        let firstPart = Swift.min(count, capacity - start)
        destination.update(from: storage + start, count: firstPart)
        if firstPart < count {
            (destination + firstPart).update(from: storage, count: count - firstPart)
        }
        return count
    }

    /// Calls `body` with the readable samples as at most two contiguous regions (the second
    /// is empty unless the data wraps), without copying; consumes nothing. The regions stay
    /// valid, and unchanged, until the consumer `consume`s them: the producer writes only
    /// into free slots.
    public func withReadableRegions<R>(
        _ body: (UnsafeBufferPointer<Double>, UnsafeBufferPointer<Double>) throws -> R
    ) rethrows -> R {
        let read = readPosition.load(ordering: .relaxed)
        let (first, second) = regions(from: read, count: writePosition.load(ordering: .acquiring) &- read)
        return try body(UnsafeBufferPointer(first), UnsafeBufferPointer(second))
    }

    /// The `count` slots from `position` on, split where the storage wraps.
    private func regions(
        from position: Int, count: Int
    ) -> (UnsafeMutableBufferPointer<Double>, UnsafeMutableBufferPointer<Double>) {
        let start = position & mask
        let firstPart = Swift.min(count, capacity - start)
        return (
            UnsafeMutableBufferPointer(start: storage + start, count: firstPart),
            UnsafeMutableBufferPointer(start: storage, count: count - firstPart)
        )
    }

    /// Releases the oldest `count` samples (after `peek` or `withReadableRegions`).
    public func consume(_ count: Int) {
        precondition(count <= readableCount, "consumed more than was readable")
        readPosition.store(readPosition.load(ordering: .relaxed) &+ count, ordering: .sequentiallyConsistent)
        wakeWaiter(consumerSide: false)
    }

    /// Suspends until at least `count` samples (at most `capacity`) are readable, or the
    /// producer has closed the ring.
    public func waitForData(_ count: Int) async {
        await park(producer: false, needed: Swift.min(count, capacity))
    }

    // MARK: Waiting

    private func isSatisfied(producer: Bool, needed: Int) -> Bool {
        if isCancelled { return true }
        return producer ? writableCount >= needed : (readableCount >= needed || isClosed)
    }

    private func park(producer: Bool, needed: Int) async {
        if isSatisfied(producer: producer, needed: needed) { return }
        await withWaiter { (continuation: Waiter) in
            let resumeNow = waiters.withLock { waiters -> Bool in
                if producer {
                    waiters.producer = (continuation, needed)
                } else {
                    waiters.consumer = (continuation, needed)
                }
                // Publish the waiter before re-checking: the other side stores its position
                // before it loads `hasWaiter` (both sequentially consistent), so either it
                // sees the waiter or this re-check sees its progress. No wakeup is lost.
                hasWaiter.store(true, ordering: .sequentiallyConsistent)
                guard isSatisfied(producer: producer, needed: needed) else { return false }
                if producer { waiters.producer = nil } else { waiters.consumer = nil }
                hasWaiter.store(waiters.producer != nil || waiters.consumer != nil, ordering: .sequentiallyConsistent)
                return true
            }
            if resumeNow { continuation.resume() }
        }
    }

    /// Resumes the other side's parked continuation if its condition now holds.
    private func wakeWaiter(consumerSide: Bool, force: Bool = false) {
        guard hasWaiter.load(ordering: .sequentiallyConsistent) else { return }
        let continuation = waiters.withLock { waiters -> Waiter? in
            var taken: Waiter?
            if consumerSide, let waiter = waiters.consumer, force || isSatisfied(producer: false, needed: waiter.needed)
            {
                taken = waiter.continuation
                waiters.consumer = nil
            } else if !consumerSide, let waiter = waiters.producer, isSatisfied(producer: true, needed: waiter.needed) {
                taken = waiter.continuation
                waiters.producer = nil
            }
            hasWaiter.store(waiters.producer != nil || waiters.consumer != nil, ordering: .sequentiallyConsistent)
            return taken
        }
        continuation?.resume()
    }
}

#if DEBUG
    private typealias Waiter = CheckedContinuation<Void, Never>

    private func withWaiter(_ body: (Waiter) -> Void) async {
        await withCheckedContinuation(body)
    }
#else
    private typealias Waiter = UnsafeContinuation<Void, Never>

    private func withWaiter(_ body: (Waiter) -> Void) async {
        await withUnsafeContinuation(body)
    }
#endif
