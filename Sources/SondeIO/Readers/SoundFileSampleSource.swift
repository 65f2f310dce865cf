import CSndfile
import SondeCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// WAV, FLAC, AIFF and Ogg files, decoded by libsndfile as Doubles.
///
/// `sf_readf_double` normalises integer encodings to [-1, 1) (16-bit by 2^-15, as the
/// raw reader does) and passes float encodings through unscaled; clipping is switched
/// off so floats beyond ±1 stay as written. A file shorter than its header says
/// delivers what it holds, and `notes` says so.
final class SoundFileSampleSource: SampleSource {
    let format: StreamFormat
    private(set) var notes: [String] = []
    let expectedFrames: Int?

    private let name: String
    private let descriptor: Int32
    private let ownsDescriptor: Bool
    private let file: OpaquePointer
    /// Frames delivered so far, counted from the file's first (for messages).
    private var framesDelivered: Int
    /// Where reading started: 0, or the frame a reopened source was opened at.
    private let firstFrame: Int
    /// How to open the file again at any frame, for a long regular file whose frames
    /// libsndfile finds exactly (PCM and float WAV, AIFF, FLAC).
    let reopening: SourceReopening?
    private var finished = false
    /// 16-bit integer samples (most WAV and FLAC recordings): read as shorts.
    private let isPCM16: Bool
    /// The whole file, for a short one; libsndfile reads it through virtual I/O.
    private let memory: InMemorySoundFile?

    /// - Parameter firstFrame: the frame to start at (`reopening`'s sources); 0 otherwise.
    /// - Throws: `SondeError(.invalidInput)` with libsndfile's reason when it cannot
    ///   decode the file; `.invalidArgument` when `--channels` disagrees with the file.
    init(_ input: OpenedInput, options: SampleSourceOptions, firstFrame: Int = 0) throws {
        name = input.name
        self.firstFrame = firstFrame
        framesDelivered = firstFrame
        descriptor = input.descriptor
        ownsDescriptor = input.ownsDescriptor
        var info = SF_INFO()
        // A short regular file is read whole and decoded from memory.
        memory =
            input.isRegularFile ? input.size.flatMap { InMemorySoundFile(descriptor: input.descriptor, size: $0) } : nil
        // sonde closes the descriptor itself, whether or not libsndfile accepts the file.
        let opened = memory.map { $0.open(info: &info) } ?? sf_open_fd(input.descriptor, Int32(SFM_READ), &info, 0)
        guard let file = opened else {
            let reason = String(cString: sf_strerror(nil))
            input.closeIfOwned()
            throw SondeError(
                .invalidInput,
                "\(input.name): libsndfile cannot read it (\(reason)); expected a WAV, FLAC, AIFF "
                    + "or Ogg file")
        }
        self.file = file
        let channels = Int(info.channels)
        guard channels >= 1, info.samplerate > 0 || options.sampleRate != nil else {
            sf_close(file)
            input.closeIfOwned()
            throw SondeError(
                .invalidInput,
                "\(input.name): the header says \(channels) channels at \(info.samplerate) Hz; expected at least "
                    + "one channel and a positive rate (or pass --rate)")
        }
        if channels > SampleSourceOptions.maximumChannels {
            sf_close(file)
            input.closeIfOwned()
            throw SondeError(
                .invalidInput,
                "\(input.name): the header says \(channels) channels; expected at most \(SampleSourceOptions.maximumChannels)"
            )
        }
        if let wanted = options.channels, wanted != channels {
            sf_close(file)
            input.closeIfOwned()
            throw SondeError(
                .invalidArgument,
                "--channels \(wanted): \(input.name) has \(channels) channel\(channels == 1 ? "" : "s")")
        }
        sf_command(file, Int32(SFC_SET_CLIPPING), nil, Int32(SF_FALSE))
        isPCM16 = info.format & Int32(SF_FORMAT_SUBMASK) == Int32(SF_FORMAT_PCM_16)
        format = StreamFormat(
            sampleRate: options.sampleRate ?? Double(info.samplerate),
            channelNames: (0..<channels).map { "ch\($0)" })
        let frameCount = Self.plausibleFrameCount(Int(info.frames), channels: channels)
        if firstFrame > 0 {
            guard let frameCount, firstFrame <= frameCount,
                sf_seek(file, sf_count_t(firstFrame), SEEK_SET) == firstFrame
            else {
                sf_close(file)
                input.closeIfOwned()
                throw SondeError(
                    .io,
                    "\(input.name): cannot read it from frame \(firstFrame) again (it changed while sonde read it); expected it unchanged until the run ends"
                )
            }
        }
        expectedFrames = frameCount.map { $0 - firstFrame }
        reopening = Self.reopening(
            input, memory: memory, info: info, frameCount: firstFrame == 0 ? frameCount : nil, options: options)
    }

    /// Whether libsndfile, seeking a file of `format` (major | subtype) to a frame, then
    /// decodes exactly the samples a read from the start gives there: PCM and float samples
    /// in any container, FLAC's included; not the lossy codecs.
    static func seeksExactly(format: Int32) -> Bool {
        let subtype = Int(format & Int32(SF_FORMAT_SUBMASK))
        return [
            SF_FORMAT_PCM_S8, SF_FORMAT_PCM_U8, SF_FORMAT_PCM_16, SF_FORMAT_PCM_24, SF_FORMAT_PCM_32, SF_FORMAT_FLOAT,
            SF_FORMAT_DOUBLE,
        ].contains(subtype)
    }

    /// How to open the file again at a frame, when that gives exactly the samples a
    /// sequential read gives there: a regular file sonde opened by its path, not read into
    /// memory, whose encoding libsndfile seeks to the frame (PCM and float samples, FLAC),
    /// not a lossy one (Vorbis, Opus, MP3), whose decoder starts anew after a seek.
    private static func reopening(
        _ input: OpenedInput, memory: InMemorySoundFile?, info: SF_INFO, frameCount: Int?,
        options: SampleSourceOptions
    ) -> SourceReopening? {
        guard memory == nil, input.ownsDescriptor, input.isRegularFile, input.initialOffset == 0, info.seekable != 0,
            seeksExactly(format: info.format), let frameCount,
            let identity = FileIdentity(descriptor: input.descriptor)
        else { return nil }
        let path = input.name
        return SourceReopening(frameCount: frameCount) { frame in
            let opened = try OpenedInput.open(path: path)
            guard FileIdentity(descriptor: opened.descriptor) == identity else {
                opened.closeIfOwned()
                throw SondeError(
                    .io, "\(path): the file was replaced while sonde read it; expected it unchanged until the run ends")
            }
            return try SoundFileSampleSource(opened, options: options, firstFrame: frame)
        }
    }

    /// The header's frame count, or nil when it means "unknown": a FLAC whose STREAMINFO
    /// says 0 total samples (as streaming encoders write it) makes libsndfile report
    /// `SF_COUNT_MAX`, and a progress total of that times the channels overflows.
    /// Anything beyond 2^40 samples (8 TiB of Doubles) is taken as unknown too.
    static func plausibleFrameCount(_ frames: Int, channels: Int) -> Int? {
        guard frames > 0, channels > 0, frames <= (1 << 40) / channels else { return nil }
        return frames
    }

    deinit {
        sf_close(file)
        if ownsDescriptor { close(descriptor) }
    }

    func read(into buffer: UnsafeMutableBufferPointer<Double>) throws -> Int {
        guard let destination = buffer.baseAddress, !finished else { return 0 }
        let channels = format.channelCount
        let wanted = buffer.count / channels
        guard wanted > 0 else { return 0 }
        if isPCM16 { return try readPCM16(into: destination, frames: wanted) }
        let got = Int(sf_readf_double(file, destination, sf_count_t(wanted)))
        if got <= 0 {
            try checkDecoded()
            finish()
            return 0
        }
        for index in 0..<got * channels where !SampleLimits.contains(destination[index]) {
            let frame = framesDelivered + index / channels
            let expected =
                destination[index].isFinite
                ? "a magnitude of at most 1e100 (larger samples would overflow the features)" : "a finite number"
            throw SondeError(
                .invalidInput,
                "\(name): frame \(frame), channel ch\(index % channels) is \(destination[index]); expected \(expected)")
        }
        framesDelivered += got
        return got
    }

    /// 16-bit integer samples as shorts, widened here: the same Doubles as `sf_readf_double`
    /// gives (x / 32768, exact), for a fraction of the cost (libsndfile's conversion was 8%
    /// of a run over 2,000 short WAV clips, perf), and always within the sample limits.
    ///
    /// The shorts are read into the last quarter of the Doubles' own memory and widened
    /// front to back: Double i covers bytes 8i..<8i+8 and short j sits at 6n + 2j, so each
    /// write lands on shorts already read (8i + 8 <= 6n + 2i + 2 for every i < n).
    private func readPCM16(into destination: UnsafeMutablePointer<Double>, frames: Int) throws -> Int {
        let count = frames * format.channelCount
        let raw = UnsafeMutableRawPointer(destination)
        let shorts = (raw + 6 * count).bindMemory(to: Int16.self, capacity: count)
        let got = Int(sf_readf_short(file, shorts, sf_count_t(frames)))
        let samples = Swift.max(0, got) * format.channelCount
        for index in 0..<samples {
            let value = Double((raw + 6 * count + 2 * index).load(as: Int16.self)) * 0x1p-15
            raw.storeBytes(of: value, toByteOffset: 8 * index, as: Double.self)
        }
        raw.bindMemory(to: Double.self, capacity: count)
        if got <= 0 {
            try checkDecoded()
            finish()
            return 0
        }
        framesDelivered += got
        return got
    }

    /// At the end of the samples: a file libsndfile could not decode at all is an error,
    /// not an empty input. A byte-flipped FLAC decodes to no frame while its header
    /// announces thousands (libsndfile logs the lost sync and returns 0), which looked like
    /// an input shorter than one window.
    private func checkDecoded() throws {
        let code = sf_error(file)
        if code != 0 {
            throw SondeError(
                .invalidInput,
                "\(name): libsndfile cannot decode its samples after frame \(framesDelivered) "
                    + "(\(String(cString: sf_strerror(file)))); expected an undamaged WAV, FLAC, AIFF or Ogg file")
        }
        // A damaged frame (bad CRC, bad header, unparseable): libsndfile drops it quietly and
        // goes on. A lost sync alone is also what a file cut short gives (its log reads the
        // same), so that case keeps the "ends early" note.
        let damage = logLines(containing: "FLAC__STREAM_DECODER_ERROR_STATUS_").compactMap { line -> Substring? in
            guard let range = line.firstRange(of: "FLAC__STREAM_DECODER_ERROR_STATUS_") else { return nil }
            let status = line[range.upperBound...].prefix { $0.isLetter || $0 == "_" }
            return status == "LOST_SYNC" ? nil : status
        }
        if let status = damage.first {
            throw SondeError(
                .invalidInput,
                "\(name): libsndfile cannot decode the frames after frame \(framesDelivered) (FLAC \(status.lowercased())); "
                    + "expected an undamaged FLAC file")
        }
        if framesDelivered == firstFrame, let expectedFrames, expectedFrames > 0 {
            throw SondeError(
                .invalidInput,
                "\(name): libsndfile decodes none of the \(expectedFrames) frames its header announces; expected an "
                    + "undamaged WAV, FLAC, AIFF or Ogg file")
        }
    }

    private func finish() {
        finished = true
        // Counted from the file's first frame, also for a source opened again further on.
        let frames = framesDelivered
        if let expectedFrames, frames < firstFrame + expectedFrames {
            notes.append(
                "\(name): the file ends early (its header announces \(firstFrame + expectedFrames) frames); used the "
                    + "\(frames) complete frames")
        } else if headerAnnouncesMoreData() {
            notes.append(
                "\(name): the file is shorter than its header says (the sample data is cut short); used the "
                    + "\(frames) complete frames")
        }
    }

    /// libsndfile shortens a truncated WAV or AIFF data chunk silently, leaving only a
    /// `data : 4000 (should be 2999)` line in its log; that line is the only sign.
    private func headerAnnouncesMoreData() -> Bool {
        logLines(containing: "(should be").contains { line in
            let trimmed = line.drop { $0 == " " }
            return (trimmed.hasPrefix("data") || trimmed.hasPrefix("SSND")) && trimmed.contains("(should be")
        }
    }

    /// The lines of libsndfile's log of this file (its only report of decoding trouble),
    /// when the log holds `marker` at all; read on the stack and searched as bytes first,
    /// since a 16 KiB array and a String per input were 3% of a run over 2,000 short clips
    /// (perf), and almost every log holds no marker.
    private func logLines(containing marker: String) -> [Substring] {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 16_384) { log -> [Substring] in
            guard let base = log.baseAddress else { return [] }
            base.initialize(to: 0)
            (base + log.count - 1).initialize(to: 0)
            sf_command(file, Int32(SFC_GET_LOG_INFO), base, Int32(log.count - 1))
            let text = UnsafeBufferPointer(start: base, count: log.count).prefix { $0 != 0 }
            let pattern = Array(marker.utf8)
            guard let first = pattern.first,
                text.indices.contains(where: { text[$0] == first && text[$0...].starts(with: pattern) })
            else { return [] }
            return String(decoding: text, as: UTF8.self).split(separator: "\n")
        }
    }
}
