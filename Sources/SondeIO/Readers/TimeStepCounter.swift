/// The median of a CSV time column's steps (`diff(time)`), exactly as numpy's
/// `np.median(np.diff(t))` computes it, in bounded memory.
///
/// Steps are counted per distinct value (a regularly sampled column has a handful of
/// distinct steps, however long it is): first in eight slots compared as bit patterns,
/// which hold every step of a regular column without hashing (the dictionary alone cost
/// a third of the pre-pass, measured on 10 M rows of `%.4f` times), then, for steps
/// evicted from the slots, in a dictionary. Only if more than `distinctLimit` distinct
/// steps turn up (jittery timestamps) is the dictionary dropped, and the median is then
/// selected exactly by radix selection over the steps' ordered bit patterns: four more
/// passes over the steps with a 2^16-bucket histogram (16 bits per pass), plus at
/// most one to find the upper middle value of an even count.
final class TimeStepCounter {
    /// Distinct steps kept before switching to radix selection: 2^20 (about 40 MiB of
    /// dictionary at most).
    static let defaultDistinctLimit = 1 << 20
    static let slotCount = 8

    /// Marks an empty slot: a NaN, which no difference of two finite times is.
    private static let emptySlot: UInt64 = 0x7FF8_0000_0000_0001

    let distinctLimit: Int
    private(set) var count = 0
    private(set) var overflowed = false
    private var counts: [Double: Int] = [:]
    private let slotSteps: UnsafeMutablePointer<UInt64>
    private let slotCounts: UnsafeMutablePointer<Int>
    private var lastSlot = 0
    private var nextEviction = 0

    init(distinctLimit: Int = TimeStepCounter.defaultDistinctLimit) {
        self.distinctLimit = distinctLimit
        slotSteps = .allocate(capacity: Self.slotCount)
        slotSteps.initialize(repeating: Self.emptySlot, count: Self.slotCount)
        slotCounts = .allocate(capacity: Self.slotCount)
        slotCounts.initialize(repeating: 0, count: Self.slotCount)
    }

    deinit {
        slotSteps.deallocate()
        slotCounts.deallocate()
    }

    func add(_ step: Double) {
        count &+= 1
        let bits = step.bitPattern
        if slotSteps[lastSlot] == bits {
            slotCounts[lastSlot] &+= 1
            return
        }
        for slot in 0..<Self.slotCount where slotSteps[slot] == bits {
            slotCounts[slot] &+= 1
            lastSlot = slot
            return
        }
        let slot = nextEviction
        nextEviction = (nextEviction + 1) % Self.slotCount
        flush(slot)
        slotSteps[slot] = bits
        slotCounts[slot] = 1
        lastSlot = slot
    }

    /// Moves a slot's count into the dictionary and empties the slot.
    private func flush(_ slot: Int) {
        let here = slotCounts[slot]
        let step = Double(bitPattern: slotSteps[slot])
        slotCounts[slot] = 0
        slotSteps[slot] = Self.emptySlot
        guard here > 0, !overflowed else { return }
        counts[step, default: 0] += here
        if counts.count > distinctLimit {
            overflowed = true
            counts = [:]
        }
    }

    /// The median, or nil if there were no steps or too many distinct ones (then use
    /// `TimeStepCounter.select`).
    func median() -> Double? {
        for slot in 0..<8 { flush(slot) }
        guard count > 0, !overflowed else { return nil }
        let lowerRank = (count - 1) / 2
        let upperRank = count / 2
        var below = 0
        var lower: Double?
        for step in counts.keys.sorted() {
            let here = counts[step, default: 0]
            if lower == nil && lowerRank < below + here { lower = step }
            if let lower, upperRank < below + here { return lowerRank == upperRank ? lower : (lower + step) / 2 }
            below += here
        }
        return nil
    }

    /// The median of `count` values that `forEach` visits (the same values in the same
    /// order every time it is called), by radix selection in constant memory.
    static func select(count: Int, forEach: ((Double) -> Void) throws -> Void) rethrows -> Double {
        precondition(count > 0)
        let lowerRank = (count - 1) / 2
        var prefix: UInt64 = 0
        var rank = lowerRank
        var histogram = [Int](repeating: 0, count: 1 << 16)
        var bucket = 0
        for level in 0..<4 {
            let shift = UInt64(48 - 16 * level)
            let prefixShift = shift + 16  // 64 on the first pass: every key matches
            for index in histogram.indices { histogram[index] = 0 }
            let wanted = prefix >> prefixShift
            try forEach { value in
                let key = orderedKey(value)
                if key >> prefixShift == wanted {
                    histogram[Int(truncatingIfNeeded: (key >> shift) & 0xFFFF)] += 1
                }
            }
            bucket = 0
            while rank >= histogram[bucket] {
                rank -= histogram[bucket]
                bucket += 1
            }
            prefix |= UInt64(bucket) << shift
        }
        let lower = value(ofKey: prefix)
        if count % 2 == 1 { return lower }
        if rank + 1 < histogram[bucket] { return (lower + lower) / 2 }  // numpy's mean of the two
        // The upper middle value is the next larger key: in this histogram or beyond it.
        if let next = (bucket + 1..<histogram.count).first(where: { histogram[$0] > 0 }) {
            return (lower + value(ofKey: prefix & ~0xFFFF | UInt64(next))) / 2
        }
        var nextKey = UInt64.max
        try forEach { value in
            let key = orderedKey(value)
            if key > prefix && key < nextKey { nextKey = key }
        }
        return (lower + value(ofKey: nextKey)) / 2
    }

    /// A key whose unsigned order is the Doubles' numeric order (-0 just below +0).
    static func orderedKey(_ value: Double) -> UInt64 {
        let bits = value.bitPattern
        return bits >> 63 == 1 ? ~bits : bits | 1 << 63
    }

    static func value(ofKey key: UInt64) -> Double {
        key >> 63 == 1 ? Double(bitPattern: key & ~(1 << 63)) : Double(bitPattern: ~key)
    }
}
