/// The calls `ALSACaptureSource` makes on an open capture PCM. `ALSAPCM` makes them on
/// libasound; the tests hand in scripted results, the one way to reach the overrun and
/// unplug paths without hardware (the `file` plugin over `null` never overruns).
protocol PCMStream: AnyObject {
    /// Frames ready to read now, or a negative errno (-EPIPE after an overrun).
    func available() -> Int

    /// Reads up to `frames` interleaved frames into `buffer`, blocking until they came;
    /// the frames read (fewer when an error followed them), or a negative errno.
    func readInterleaved(_ buffer: UnsafeMutableRawPointer, frames: Int) -> Int

    /// After -EPIPE: the frames the overrun lost (an estimate, see
    /// `ALSACaptureSource.overruns`), and the stream prepared to start again; or a negative
    /// errno when it cannot be prepared.
    func recoverFromOverrun() -> Int

    /// After -ESTRPIPE: 0 when resumed, -EAGAIN while the device is still waking, another
    /// negative errno when it cannot resume.
    func resume() -> Int32

    /// Closes the PCM; later calls fail with -EBADFD.
    func close()
}
