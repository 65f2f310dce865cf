import SondeCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Interleaved little-endian samples without a header (`.f32le`, `.i16`, `--sample-type`).
///
/// Integers become Doubles scaled by exactly 2^-15 (i16) or 2^-31 (i32), so -32768 reads
/// as -1.0; f32 is widened, which is exact. A file whose size is not a whole number of
/// frames delivers its complete frames and says so in `notes`. Non-finite float samples
/// (NaN, infinity) are rejected: they would poison every filter state after them; so are
/// f64 samples beyond `SampleLimits.largestMagnitude`, whose features could overflow.
final class RawSampleSource: SampleSource {
    let format: StreamFormat
    private(set) var notes: [String] = []
    let expectedFrames: Int?

    private let input: ChunkedInput
    private let sampleFormat: SampleFormat
    private let frameBytes: Int
    /// Samples delivered so far (from the file's start), for messages about a bad one.
    private var samplesDelivered: Int
    private var finished = false
    /// The file sonde opened by its path, when it is a regular one: it can then be opened
    /// again at any frame (`reopening`).
    private let reopenable: (path: String, identity: FileIdentity)?

    /// - Parameters:
    ///   - channels: interleaved channels, >= 1 (validated by the caller).
    ///   - sampleRate: Hz, > 0 (validated by the caller).
    ///   - size: bytes from where reading starts to the end, for a regular file.
    ///   - path: the file's path when sonde opened it by name and it is a regular file.
    ///   - firstFrame: the frame reading starts at, for messages about a bad sample.
    init(
        _ input: ChunkedInput, sampleFormat: SampleFormat, channels: Int, sampleRate: Double, size: Int?,
        path: String? = nil, firstFrame: Int = 0
    ) {
        self.input = input
        self.sampleFormat = sampleFormat
        frameBytes = channels * sampleFormat.byteWidth
        format = StreamFormat(sampleRate: sampleRate, channelNames: (0..<channels).map { "ch\($0)" })
        expectedFrames = size.map { $0 / (channels * sampleFormat.byteWidth) }
        samplesDelivered = firstFrame * channels
        reopenable = path.flatMap { path in FileIdentity(descriptor: input.descriptor).map { (path, $0) } }
    }

    var reopening: SourceReopening? {
        guard let reopenable, let frames = expectedFrames, samplesDelivered == 0 else { return nil }
        let sampleFormat = sampleFormat, frameBytes = frameBytes
        let channels = format.channelCount, sampleRate = format.sampleRate
        return SourceReopening(frameCount: frames) { frame in
            var opened = try OpenedInput.open(path: reopenable.path)
            let offset = frame * frameBytes
            guard FileIdentity(descriptor: opened.descriptor) == reopenable.identity, let size = opened.size,
                size >= offset, lseek(opened.descriptor, off_t(offset), SEEK_SET) == off_t(offset)
            else {
                opened.closeIfOwned()
                throw SondeError(
                    .io,
                    "\(reopenable.path): the file was replaced or cut short while sonde read it; expected it unchanged until the run ends"
                )
            }
            opened.initialOffset = offset
            // A smaller chunk than a whole file's (1 MiB): malloc then reuses it segment after
            // segment instead of mapping fresh pages (a mono file's page faults 2.5x).
            return RawSampleSource(
                ChunkedInput(opened, chunkSize: 1 << 17), sampleFormat: sampleFormat, channels: channels,
                sampleRate: sampleRate,
                size: size - offset, firstFrame: frame)
        }
    }

    func read(into buffer: UnsafeMutableBufferPointer<Double>) throws -> Int {
        guard let destination = buffer.baseAddress, !finished else { return 0 }
        let channels = format.channelCount
        let maximumFrames = buffer.count / channels
        guard maximumFrames > 0 else { return 0 }
        while input.available < frameBytes {
            if try input.fill() == 0 {
                finish()
                return 0
            }
        }
        let frames = min(input.available / frameBytes, maximumFrames)
        let source = UnsafeRawPointer(input.bytes.advanced(by: input.start))
        let samples = frames * channels
        try convert(from: source, into: destination, count: samples)
        input.start += frames * frameBytes
        samplesDelivered += samples
        return frames
    }

    private func finish() {
        finished = true
        let leftover = input.available
        if leftover > 0 {
            notes.append("\(input.name): ignored a partial last frame (\(leftover) of \(frameBytes) bytes)")
        }
    }

    /// Converts `count` samples; the source may be unaligned (it follows a kept tail). The
    /// conversion is `SampleFormat.decode`, shared with the capture devices.
    private func convert(
        from source: UnsafeRawPointer, into destination: UnsafeMutablePointer<Double>, count: Int
    ) throws {
        if !sampleFormat.decode(source, into: destination, count: count) {
            try rejectNonFinite(in: destination, count: count)
        }
    }

    private func rejectNonFinite(in samples: UnsafeMutablePointer<Double>, count: Int) throws {
        for index in 0..<count where !SampleLimits.contains(samples[index]) {
            let sample = samplesDelivered + index
            let channels = format.channelCount
            let expected =
                samples[index].isFinite
                ? "a magnitude of at most 1e100 (larger samples would overflow the features)" : "a finite number"
            throw SondeError(
                .invalidInput,
                "\(input.name): sample \(sample) (frame \(sample / channels), channel ch\(sample % channels)) is "
                    + "\(samples[index]); expected \(expected)")
        }
    }
}
