/// Where an `OutputFile(sink:)` hands its bytes: an HTTP response body, a zip entry, a
/// buffer. The whole-or-nothing rule of files holds here too: `finish()` after the last
/// byte of a complete output, `abandon()` instead when the writer failed part-way.
public protocol ByteSink: AnyObject {
    /// Takes one flushed chunk (about 1 MiB, or one record with `.everyRecord`); the bytes
    /// are valid only during the call.
    func write(_ bytes: UnsafeRawBufferPointer) throws
    /// The output is complete.
    func finish() throws
    /// The output failed part-way: whatever was received must not pass for a whole one.
    func abandon()
}
