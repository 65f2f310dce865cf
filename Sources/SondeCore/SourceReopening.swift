/// How to open a source's input again at any frame, independently of the source itself:
/// the graph reads a long file's segments side by side through it (issue 30). Only a
/// regular file whose frames can be found without decoding those before them offers it.
public struct SourceReopening: Sendable {
    /// Interleaved frames in the whole input when it was opened.
    public var frameCount: Int
    /// A new source over the same input whose first frame is `frame`, read to the input's
    /// end; it shares nothing with the original and may be read on another thread.
    /// - Throws: `SondeError` naming the file when it cannot be opened again, or has changed.
    public var open: @Sendable (_ frame: Int) throws -> any SampleSource

    public init(frameCount: Int, open: @escaping @Sendable (_ frame: Int) throws -> any SampleSource) {
        self.frameCount = frameCount
        self.open = open
    }
}
