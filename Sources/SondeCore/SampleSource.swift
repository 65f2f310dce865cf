/// A producer of interleaved multichannel samples, already converted to Double.
///
/// Sources are pulled by one consumer at a time (the pipeline's source stage), so they
/// are reference types with mutable state but need not be thread-safe.
public protocol SampleSource: AnyObject {
    /// Rate, channel names and time offset; known once the source is opened.
    var format: StreamFormat { get }

    /// Fills `buffer` with whole interleaved frames and returns how many frames it wrote;
    /// 0 means the end of the input. `buffer.count` is a multiple of the channel count.
    ///
    /// - Throws: `SondeError` with the file, line and column of bad input.
    func read(into buffer: UnsafeMutableBufferPointer<Double>) throws -> Int

    /// Notes for the user that are not errors (a partial last frame that was dropped...),
    /// available once `read(into:)` has returned 0.
    var notes: [String] { get }

    /// Interleaved frames the source expects to deliver, when it knows (for progress bars).
    var expectedFrames: Int? { get }

    /// How to open the input again at any frame, when it can be (`SourceReopening`);
    /// read once, before the first `read(into:)`.
    var reopening: SourceReopening? { get }
}

extension SampleSource {
    public var expectedFrames: Int? { nil }
    public var reopening: SourceReopening? { nil }
}
