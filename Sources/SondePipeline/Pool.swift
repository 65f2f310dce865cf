import Synchronization

/// Buffers handed back after use and handed out again, so a running pipeline stops calling
/// the allocator once it has as many as it keeps in flight: arrays, sample blocks and result
/// slots alike.
///
/// Why: every job carries its frames' samples, values and encoded records (tens of kilobytes
/// for 128 frames) and a result slot, and the exporter interleaves them into a batch. Fresh
/// buffers per job meant malloc and page faults again and again, and growing byte arrays
/// meant copies (perf: page faults and clearing pages were a tenth of a run's kernel time).
final class Pool<Item: Sendable>: Sendable {
    private let items = Mutex<[Item]>([])
    /// Items kept at most; more are freed. The queues bound what is in flight, so a pool
    /// this size never frees in steady state.
    private let limit: Int
    private let make: @Sendable () -> Item
    private let reset: @Sendable (inout Item) -> Void

    /// - Parameters:
    ///   - make: a new item, when none is waiting.
    ///   - reset: readies a returned item for its next user (empties an array, keeping
    ///     its capacity).
    init(limit: Int, make: @escaping @Sendable () -> Item, reset: @escaping @Sendable (inout Item) -> Void = { _ in }) {
        self.limit = limit
        self.make = make
        self.reset = reset
    }

    /// An item returned earlier, or a new one.
    func take() -> Item {
        items.withLock { $0.popLast() } ?? make()
    }

    /// Keeps `item` for a later `take()`. Pass an array's last reference (`consume`), or
    /// emptying it here copies it.
    func recycle(_ item: consuming Item) {
        var item = item
        reset(&item)
        items.withLock { items in
            if items.count < limit { items.append(item) }
        }
    }
}

extension Pool {
    /// Empty arrays, with the capacity of earlier ones when there are any.
    static func arrays<Element>(limit: Int) -> Pool<[Element]> where Item == [Element] {
        Pool(limit: limit, make: { [] }, reset: { $0.removeAll(keepingCapacity: true) })
    }
}
