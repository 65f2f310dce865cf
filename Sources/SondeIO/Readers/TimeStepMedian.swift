/// The median of a CSV time column's steps (`diff(time)`), exactly as numpy's
/// `np.median(np.diff(t))` computes it, in bounded memory.
///
/// Steps are counted per distinct value in a dictionary (a regularly sampled column has
/// a handful of distinct steps, however long it is), with runs of equal steps counted
/// before they touch the dictionary. Only if more than `distinctLimit` distinct steps
/// turn up (jittery timestamps) is the dictionary dropped, and the median is then
/// selected exactly by radix selection over the steps' ordered bit patterns: four more
/// passes over the steps with a 2^16-bucket histogram (16 bits per pass), plus at
/// most one to find the upper middle value of an even count.
struct TimeStepCounter {
    /// Distinct steps kept before switching to radix selection: 2^20 (about 40 MiB of
    /// dictionary at most).
    static let defaultDistinctLimit = 1 << 20

    let distinctLimit: Int
    private(set) var count = 0
    private(set) var overflowed = false
    private var counts: [Double: Int] = [:]
    private var runValue = 0.0
    private var runLength = 0

    init(distinctLimit: Int = Self.defaultDistinctLimit) {
        self.distinctLimit = distinctLimit
    }

    mutating func add(_ step: Double) {
        count += 1
        if runLength > 0 && step == runValue {
            runLength += 1
            return
        }
        flushRun()
        runValue = step
        runLength = 1
    }

    private mutating func flushRun() {
        defer { runLength = 0 }
        guard runLength > 0, !overflowed else { return }
        counts[runValue, default: 0] += runLength
        if counts.count > distinctLimit {
            overflowed = true
            counts = [:]
        }
    }

    /// The median, or nil if there were no steps or too many distinct ones (then use
    /// `TimeStepCounter.select`).
    mutating func median() -> Double? {
        flushRun()
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
