import SondeCore

/// The check that keeps NaN and infinity out of every output (docs/features.md section 6):
/// run by the worker on a job's values right after extraction, before they are encoded.
///
/// Inside `SampleLimits` no feature of docs/features.md overflows, so this fires only where
/// something else does (an extreme filter or family option); the run then stops with an
/// error naming the input, channel, frame and column rather than writing `inf`.
enum FiniteValues {
    /// The error for the first value of `values` that is not finite, nil when all are.
    ///
    /// The block is scanned four lanes at a time (`x * 0` is 0 for a finite x, NaN
    /// otherwise), so the common all-finite case costs well under a nanosecond a value;
    /// only a failing block is searched again value by value.
    static func firstFailure(in values: [Double], of item: borrowing WorkItem) -> SondeError? {
        let allFinite = values.withUnsafeBufferPointer { values -> Bool in
            guard let base = values.baseAddress else { return true }
            var lanes = SIMD4<Double>(repeating: 0)
            var index = 0
            while index + 4 <= values.count {
                lanes += UnsafeRawPointer(base + index).loadUnaligned(as: SIMD4<Double>.self) * 0
                index &+= 4
            }
            var rest = 0.0
            while index < values.count {
                rest += base[index] * 0
                index &+= 1
            }
            return (lanes.sum() + rest) == 0
        }
        if allFinite { return nil }
        let columns = item.configuration.columnNames
        let columnCount = columns.count
        guard columnCount > 0, let offset = values.firstIndex(where: { !$0.isFinite }) else { return nil }
        let frame = item.firstFrame + offset / columnCount
        let start = frame * item.hop
        return SondeError(
            .invalidInput,
            "\(item.fileName), channel \(item.channelName), frame \(frame) (samples \(start)-\(start + item.configuration.frameLength - 1)): "
                + "\(columns[offset % columnCount]) is \(values[offset]); expected a finite value (the frame's values "
                + "overflow a 64-bit float: scale the samples down or check the filter and feature options)")
    }
}
