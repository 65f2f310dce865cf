public import SondeCore

extension MeasurementSummary {
    /// Means of every column per channel over `batches`, after checking that the batches
    /// form one series for `channelNames` and `columns`.
    ///
    /// Sums are compensated (Neumaier), so a long capture's mean does not drift with
    /// rounding. A window whose value means "not measured" (`UnmeasuredZero`) is left out of
    /// its column's mean, as the report leaves it out of its statistics; a column measured in
    /// no window has the mean 0, which reads "not measured" again.
    /// - Returns: the summary, and the series' hop and clock (nil for no batches).
    /// - Throws: `SondeError(.invalidArgument)` naming the first batch that does not fit.
    public static func checking(
        _ batches: [RecordBatch], channelNames: [String], columns: [String]
    ) throws -> (summary: MeasurementSummary, hop: Int?, clock: RecordClock?) {
        let channels = channelNames.count
        let width = columns.count
        var sums = [Double](repeating: 0, count: channels * width)
        var compensations = sums
        /// Windows counted in each slot's mean: all but the unmeasured ones.
        var counted = [Int](repeating: 0, count: channels * width)
        let zeroIsUnmeasured = (0..<(channels * width)).map { UnmeasuredZero.applies(to: columns[$0 % width]) }
        var frames = 0
        let first = batches.first
        for (index, batch) in batches.enumerated() {
            func mismatch(_ what: String) -> SondeError {
                SondeError(.invalidArgument, "measurement records, batch \(index): \(what)")
            }
            guard batch.channelNames == channelNames else {
                throw mismatch("channels \(batch.channelNames), expected \(channelNames)")
            }
            guard batch.columnCount == width else {
                throw mismatch(
                    "\(batch.columnCount) value columns, expected \(width) (\(columns.joined(separator: ",")))")
            }
            guard batch.values.count == batch.frameCount * channels * width, batch.frameCount >= 0 else {
                throw mismatch("\(batch.values.count) values for \(batch.frameCount) frames")
            }
            guard batch.hop == first?.hop, batch.clock == first?.clock else {
                throw mismatch("hop or clock differs from the first batch's")
            }
            guard batch.firstFrame == (first?.firstFrame ?? 0) + frames else {
                throw mismatch("starts at frame \(batch.firstFrame), expected \((first?.firstFrame ?? 0) + frames)")
            }
            for frame in 0..<batch.frameCount {
                let base = frame * channels * width
                for slot in 0..<(channels * width) {
                    let value = batch.values[base + slot]
                    if value == 0 && zeroIsUnmeasured[slot] { continue }
                    counted[slot] += 1
                    let total = sums[slot] + value
                    compensations[slot] +=
                        abs(sums[slot]) >= abs(value) ? (sums[slot] - total) + value : (value - total) + sums[slot]
                    sums[slot] = total
                }
            }
            frames += batch.frameCount
        }
        let summary = MeasurementSummary(
            columns: columns,
            channels: channelNames.enumerated().map { channel, name in
                Channel(
                    name: name,
                    means: frames == 0
                        ? []
                        : (0..<width).map { column in
                            let slot = channel * width + column
                            return counted[slot] == 0 ? 0 : (sums[slot] + compensations[slot]) / Double(counted[slot])
                        }
                )
            },
            frameCount: frames
        )
        return (summary, first?.hop, first?.clock)
    }
}
