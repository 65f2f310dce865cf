/// Turns one record into its bytes in an output format.
///
/// Formatting numbers is a large share of a run (a shortest round-trip Double costs about
/// as much as a feature), so the pipeline's workers encode the records they computed, in
/// parallel, and the exporter only copies bytes in order.
public protocol RecordEncoder: Sendable {
    /// The text around a record's time that is the same for every record of one input and
    /// channel (its file and channel fields, keys and separators): encoded once per input,
    /// not once per record.
    func fields(fileName: String, channel: String) -> RecordFields

    /// Appends one complete record: a CSV line, an NDJSON line, or one JSON object of an
    /// array (the writer adds the separators between objects).
    func encode(
        _ fields: RecordFields, frame: Int, start: Int, clock: RecordClock, values: UnsafeBufferPointer<Double>,
        into bytes: inout [UInt8]
    )
}
