import SondeCore

extension RecordBatch {
    /// Calls `body` with each record's bytes in output order (frame by frame, channels in
    /// order): the workers' pre-encoded bytes when the batch has them, else encoded here.
    /// Appends every record the workers encoded, in output order, to `buffer`: for one
    /// channel its bytes at once, else frame by frame. Nil when the batch carries no bytes.
    ///
    /// Why: the writing thread is serial, and a closure and two checks per record were
    /// most of its 2% of a run's CPU (issue 30's serial share).
    func appendEncodedRecords(to buffer: inout [UInt8]) -> Bool {
        guard let encoded else { return false }
        let channels = channelNames.count
        if channels == 1, let ends = encoded.ends.first, let bytes = encoded.bytes.first {
            buffer.append(contentsOf: bytes[0..<(ends.last ?? 0)])
            return true
        }
        for frame in 0..<frameCount {
            for channel in 0..<channels {
                let start = frame == 0 ? 0 : encoded.ends[channel][frame - 1]
                encoded.bytes[channel].withUnsafeBufferPointer { bytes in
                    buffer.append(
                        contentsOf: UnsafeBufferPointer(rebasing: bytes[start..<encoded.ends[channel][frame]]))
                }
            }
        }
        return true
    }

    func forEachRecord(encoder: any RecordEncoder, _ body: (ArraySlice<UInt8>) throws -> Void) throws {
        let channels = channelNames.count
        if let encoded {
            for frame in 0..<frameCount {
                for channel in 0..<channels { try body(encoded.record(frame: frame, channel: channel)) }
            }
            return
        }
        var scratch: [UInt8] = []
        let fields = channelNames.map { encoder.fields(fileName: fileName, channel: $0) }
        try values.withUnsafeBufferPointer { values in
            for frameOffset in 0..<frameCount {
                let frame = firstFrame + frameOffset
                for channel in 0..<channels {
                    let base = (frameOffset * channels + channel) * columnCount
                    scratch.removeAll(keepingCapacity: true)
                    encoder.encode(
                        fields[channel], frame: frame, start: frame * hop, clock: clock,
                        values: UnsafeBufferPointer(rebasing: values[base..<(base + columnCount)]), into: &scratch
                    )
                    try body(scratch[...])
                }
            }
        }
    }
}
