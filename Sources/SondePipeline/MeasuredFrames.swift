import SondeCore

/// A worker's result for one channel's frames: the values, and their records' bytes when
/// the graph has an encoder.
struct MeasuredFrames: Sendable {
    var values: [Double]
    /// Each frame's `P[k]`, frame after frame, when the graph has a spectrum tap.
    var spectra: [Double] = []
    /// Records' bytes and where each ends: this channel's, then (`carriesRecords`) the whole
    /// ticket's in output order, from the channel that finished last (`RecordAssembly`).
    var bytes: [UInt8] = []
    var ends: [Int] = []
    /// `bytes` hold every channel's records of the ticket, in output order.
    var carriesRecords = false
    /// A value that is not finite (`FiniteValues`): the exporter throws it, which stops the run.
    var failure: SondeError?

    mutating func encode(_ item: WorkItem, with encoder: any RecordEncoder) {
        let columns = item.configuration.columnCount
        let fields = item.fields ?? encoder.fields(fileName: item.fileName, channel: item.channelName)
        ends.reserveCapacity(item.frameCount)
        values.withUnsafeBufferPointer { values in
            for offset in 0..<item.frameCount {
                let frame = item.firstFrame + offset
                encoder.encode(
                    fields, frame: frame, start: frame * item.hop, clock: item.clock,
                    values: UnsafeBufferPointer(rebasing: values[(offset * columns)..<((offset + 1) * columns)]),
                    into: &bytes
                )
                ends.append(bytes.count)
            }
        }
    }
}
