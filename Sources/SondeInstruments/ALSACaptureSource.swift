public import SondeCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// Captures interleaved frames from an ALSA PCM (`hw:1,0`, a USB microphone, an IEPE
/// interface) through libasound, as a `SampleSource` that never ends by itself.
///
/// Samples become Doubles with `SampleFormat.decode`, the raw reader's conversion, so a
/// capture is bit-identical to `sonde process --sample-type` of the same bytes. An overrun
/// (xrun) is recovered and counted in `overruns`, never filled with zeros; a device that
/// stops (unplugged, I/O error, a suspend that does not resume) throws one line naming it,
/// after every frame read before the failure was returned.
public final class ALSACaptureSource: SampleSource {
    public let format: StreamFormat
    /// The PCM name it captures from, as given (`hw:1,0`).
    public let device: String
    /// The period and buffer the hardware chose.
    public let buffering: ALSABuffering
    /// Overruns and the frames they lost, readable from any thread while the capture runs.
    ///
    /// What is counted, per xrun: the frames the buffer still held when the xrun was found
    /// (`snd_pcm_prepare` discards them) plus the frames due while the stream stood stopped
    /// (from the xrun's timestamp to its recovery, at the nominal rate). Both come from
    /// `snd_pcm_status`, so the count is the driver's estimate, exact to a period.
    public let overruns = CaptureOverrunCount()
    /// Frames lost to overruns so far (`overruns.value`), as `LiveClockSource.droppedFrames`.
    public var droppedFrames: Int { overruns.value }

    public var notes: [String] {
        let events = overruns.events
        guard events > 0 else { return [] }
        return [
            "the ALSA device \(device) overran \(events) time\(events == 1 ? "" : "s") (xrun); about "
                + "\(overruns.value) frames were lost, not filled in"
        ]
    }

    private let stream: any PCMStream
    private let sampleType: SampleFormat
    private let frameBytes: Int
    private var scratch: UnsafeMutableRawBufferPointer
    private var failure: SondeError?
    private var samplesDelivered = 0
    /// How long `read` waits for a suspended device to wake before giving up.
    private let resumeAttempts = 100

    /// Opens `device` for capture.
    ///
    /// - Parameters:
    ///   - sampleRate: Hz, exactly (no resampling); the device must accept it.
    ///   - channels: interleaved channels, exactly; the device must accept the count.
    ///   - sampleType: S16_LE (`.i16le`), S32_LE (`.i32le`), FLOAT_LE (`.f32le`) or
    ///     FLOAT64_LE (`.f64le`).
    ///   - periodMicroseconds: the wanted period (the device picks the nearest it has):
    ///     10 ms by default, so a sample reaches the reader within about 10 ms.
    ///   - periodsPerBuffer: periods the buffer holds, 2 or more: 4 by default (40 ms of
    ///     stall before an overrun).
    ///   - configurationFile: an ALSA configuration file used instead of libasound's global
    ///     one (the tests' `file` plugin); nil for the system's.
    /// - Throws: `SondeError` naming the device, and what it accepts when it refuses a value.
    public convenience init(
        device: String, sampleRate: Int, channels: Int, sampleType: SampleFormat, periodMicroseconds: Int = 10_000,
        periodsPerBuffer: Int = 4, configurationFile: String? = nil
    ) throws {
        let pcm = try ALSAPCM(
            name: device, sampleRate: sampleRate, channels: channels, sampleType: sampleType,
            periodMicroseconds: periodMicroseconds, periodsPerBuffer: periodsPerBuffer,
            configurationFile: configurationFile)
        self.init(
            stream: pcm, device: device, sampleRate: sampleRate, channels: channels, sampleType: sampleType,
            buffering: pcm.buffering)
    }

    /// Captures from an already open stream (the tests' scripted one).
    init(
        stream: any PCMStream, device: String, sampleRate: Int, channels: Int, sampleType: SampleFormat,
        buffering: ALSABuffering
    ) {
        self.stream = stream
        self.device = device
        self.sampleType = sampleType
        self.buffering = buffering
        frameBytes = channels * sampleType.byteWidth
        format = StreamFormat(sampleRate: Double(sampleRate), channelNames: (0..<channels).map { "ch\($0)" })
        scratch = UnsafeMutableRawBufferPointer.allocate(
            byteCount: Swift.max(1, buffering.periodFrames) * frameBytes, alignment: 16)
    }

    deinit {
        stream.close()
        scratch.deallocate()
    }

    /// Stops the capture and closes the device; later reads return 0.
    public func close() {
        stream.close()
        if failure == nil { failure = SondeError(.cancelled, "the ALSA device \(device) was closed") }
    }

    /// Waits for at least one period (or what is already buffered, up to `buffer`'s size)
    /// and returns it.
    public func read(into buffer: UnsafeMutableBufferPointer<Double>) throws -> Int {
        if let failure {
            if failure.code == .cancelled { return 0 }
            throw failure
        }
        guard let destination = buffer.baseAddress else { return 0 }
        let capacity = buffer.count / format.channelCount
        guard capacity > 0 else { return 0 }
        var resumeTries = 0
        while true {
            // One period when keeping up (latency), everything buffered when behind.
            let wanted = Swift.min(capacity, Swift.max(buffering.periodFrames, stream.available()))
            reserve(wanted)
            guard let bytes = scratch.baseAddress else { return 0 }
            let result = stream.readInterleaved(bytes, frames: wanted)
            if result > 0 {
                try deliver(result, into: destination)
                return result
            }
            switch Int32(clamping: -result) {
            case 0, EAGAIN, EINTR:
                continue
            case EPIPE:
                let lost = stream.recoverFromOverrun()
                if lost < 0 { throw fail(lost, "overran and could not be prepared again") }
                overruns.add(event: lost)
            case ESTRPIPE:
                let resumed = stream.resume()
                if resumed == -EAGAIN, resumeTries < resumeAttempts {
                    resumeTries += 1
                    usleep(10_000)
                } else if resumed < 0 {
                    throw fail(Int(resumed), "was suspended and did not resume")
                }
            default:
                throw fail(result, "stopped")
            }
        }
    }

    private func deliver(_ frames: Int, into destination: UnsafeMutablePointer<Double>) throws {
        let count = frames * format.channelCount
        guard let bytes = scratch.baseAddress else { return }
        if !sampleType.decode(bytes, into: destination, count: count) {
            for index in 0..<count where !SampleLimits.contains(destination[index]) {
                let sample = samplesDelivered + index
                let channels = format.channelCount
                let error = SondeError(
                    .invalidInput,
                    "the ALSA device \(device): sample \(sample) (frame \(sample / channels), channel "
                        + "ch\(sample % channels)) is \(destination[index]); expected a finite number")
                failure = error
                throw error
            }
        }
        samplesDelivered += count
    }

    /// Grows the byte buffer to `frames` frames; a read allocates only when asked for more
    /// than ever before.
    private func reserve(_ frames: Int) {
        let bytes = frames * frameBytes
        guard bytes > scratch.count else { return }
        scratch.deallocate()
        scratch = UnsafeMutableRawBufferPointer.allocate(byteCount: bytes, alignment: 16)
    }

    /// Remembers and returns the error a failed device gives on this read and every later one.
    private func fail(_ code: Int, _ what: String) -> SondeError {
        let hint = code == -Int(ENODEV) ? " (unplugged?)" : ""
        let error = SondeError(.io, "the ALSA device \(device) \(what): \(ALSAFormat.describe(code))\(hint)")
        failure = error
        return error
    }
}
