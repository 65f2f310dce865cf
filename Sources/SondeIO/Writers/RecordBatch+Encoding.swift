import SondeCore

extension RecordBatch {
    /// Appends every record the workers encoded, in output order, to `buffer`; false when
    /// the batch carries no bytes.
    func appendEncodedRecords(to buffer: inout [UInt8]) -> Bool {
        guard let encoded else { return false }
        buffer.append(contentsOf: encoded.bytes[0..<(encoded.ends.last ?? 0)])
        return true
    }

    /// The bytes `appendEncodedRecords` appends (0 without encoded records).
    var encodedByteCount: Int { encoded?.ends.last ?? 0 }

    /// Calls `body` with each record's bytes in output order (frame by frame, channels in
    /// order): the workers' pre-encoded bytes when the batch has them, else encoded here.
    func forEachRecord(encoder: any RecordEncoder, _ body: (ArraySlice<UInt8>) throws -> Void) throws {
        let channels = channelNames.count
        if let encoded {
            for index in 0..<(frameCount * channels) { try body(encoded.record(index)) }
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
