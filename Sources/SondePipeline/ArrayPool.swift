import Synchronization

/// Arrays handed back after use and handed out again, so a running pipeline stops calling
/// the allocator once it has as many buffers as it keeps in flight.
///
/// Why: every job carries its frames' values and encoded records (tens of kilobytes for
/// 128 frames), and the exporter interleaves them into a batch. Fresh arrays per job meant
/// malloc and page faults again and again, and growing byte arrays meant copies (perf:
/// page faults and clearing pages were a tenth of a run's kernel time, with the samples).
final class ArrayPool<Element: Sendable>: Sendable {
    private let arrays = Mutex<[[Element]]>([])
    /// Arrays kept at most; more are freed. The queues bound what is in flight, so a pool
    /// this size never frees in steady state.
    private let limit: Int

    init(limit: Int) {
        self.limit = limit
    }

    /// An empty array, with the capacity of an earlier one when there is one.
    func take() -> [Element] {
        arrays.withLock { $0.popLast() } ?? []
    }

    /// Keeps `array`'s storage for a later `take()`. Pass the last reference (`consume`)
    /// or the next user's first append copies it.
    func recycle(_ array: consuming [Element]) {
        var array = array
        array.removeAll(keepingCapacity: true)
        arrays.withLock { arrays in
            if arrays.count < limit { arrays.append(array) }
        }
    }
}

/// The pools of one input's jobs: samples go out to the workers, values and encoded
/// records come back to the exporter, and all return here once written.
final class JobBuffers: Sendable {
    let samples: SampleBlockPool
    let values: ArrayPool<Double>
    let bytes: ArrayPool<UInt8>
    let ends: ArrayPool<Int>
    /// The per-channel lists of a batch and of a ticket.
    let byteLists: ArrayPool<[UInt8]>
    let endLists: ArrayPool<[Int]>
    let results: ArrayPool<ResultSlot<MeasuredFrames>>
    let slots: ResultSlotPool<MeasuredFrames>

    /// - Parameters:
    ///   - jobsInFlight: buffers of each kind the queues can hold at once, all channels.
    ///   - blockCapacity: samples per channel block (`ChannelProcessor.blockCapacity`).
    init(jobsInFlight: Int, blockCapacity: Int) {
        samples = SampleBlockPool(blockCapacity: blockCapacity, limit: jobsInFlight)
        values = ArrayPool(limit: jobsInFlight)
        bytes = ArrayPool(limit: jobsInFlight)
        ends = ArrayPool(limit: jobsInFlight)
        byteLists = ArrayPool(limit: jobsInFlight)
        endLists = ArrayPool(limit: jobsInFlight)
        results = ArrayPool(limit: jobsInFlight)
        slots = ResultSlotPool(limit: jobsInFlight)
    }
}
