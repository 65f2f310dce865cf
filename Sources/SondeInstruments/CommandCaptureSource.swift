public import SondeCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// Captures raw interleaved samples from a command's stdout (a vendor's DAQ tool,
/// `arecord -t raw`, a script reading a serial port), as a `SampleSource`.
///
/// The bytes become Doubles with `SampleFormat.decode`, the raw reader's conversion, so the
/// samples equal `sonde process --sample-type` of the same bytes, bit for bit. The command
/// ending with status 0 ends the capture, as the end of a file would; a command that exits
/// otherwise, writes nothing for `noOutputTimeout`, or ends within a frame is an error of one
/// line with the last line of its stderr, thrown after every whole frame before it was
/// returned. `close()` (or deinit) ends the command: SIGTERM to its process group, SIGKILL
/// after `terminationGrace`, and it is always reaped.
public final class CommandCaptureSource: SampleSource {
    public let format: StreamFormat
    public let notes: [String] = []
    /// The command line, as given.
    public let command: String
    /// The command's process id while it runs (the shell's), for tests and diagnostics.
    public var processIdentifier: Int32 { child.pid }

    private let child: ChildProcess
    private let sampleType: SampleFormat
    private let frameBytes: Int
    private let noOutputTimeout: Double
    private let terminationGrace: Double
    private var tail = StandardErrorTail()
    /// Bytes read and not yet delivered: `pending` bytes at the start of `bytes`.
    private var bytes: UnsafeMutableRawBufferPointer
    private var pending = 0
    private var samplesDelivered = 0
    private var finished = false
    /// Set by `close()`: reads return 0, as at the end of a file.
    private var closed = false
    private var failure: SondeError?

    /// Starts `command` with `/bin/sh -c`.
    ///
    /// - Parameters:
    ///   - sampleRate: Hz, > 0: the rate the command writes at (it cannot say).
    ///   - channels: interleaved channels, >= 1.
    ///   - noOutputTimeout: seconds without a byte on stdout after which the command counts
    ///     as hung and is ended (> 0; 5 s by default, longer than any device's start).
    ///   - terminationGrace: seconds between SIGTERM and SIGKILL (2 s by default).
    /// - Throws: `SondeError` when the values are invalid or the command cannot be started.
    public init(
        command: String, sampleRate: Double, channels: Int, sampleType: SampleFormat,
        noOutputTimeout: Double = 5, terminationGrace: Double = 2
    ) throws {
        guard channels >= 1 else {
            throw SondeError(.invalidArgument, "--channels \(channels): expected 1 or more")
        }
        guard SampleLimits.rates.contains(sampleRate) else {
            throw SondeError(
                .invalidArgument,
                "--rate \(sampleRate.compactDescription): expected a sample rate from \(SampleLimits.ratesText)")
        }
        guard noOutputTimeout > 0, terminationGrace >= 0 else {
            throw SondeError(.invalidArgument, "the command's timeouts must be positive")
        }
        self.command = command
        self.sampleType = sampleType
        self.noOutputTimeout = noOutputTimeout
        self.terminationGrace = terminationGrace
        frameBytes = channels * sampleType.byteWidth
        format = StreamFormat(sampleRate: sampleRate, channelNames: (0..<channels).map { "ch\($0)" })
        bytes = UnsafeMutableRawBufferPointer.allocate(byteCount: Swift.max(1 << 16, frameBytes), alignment: 16)
        child = try ChildProcess(command: command)
    }

    deinit {
        child.terminate(grace: terminationGrace)
        child.closePipes()
        bytes.deallocate()
    }

    /// Ends the command (SIGTERM, SIGKILL after the grace period) and reaps it; later reads
    /// return 0.
    public func close() {
        child.terminate(grace: terminationGrace)
        child.closePipes()
        finished = true
        pending = 0
        closed = true
    }

    /// Returns the whole frames that arrived, waiting (at most `noOutputTimeout`) for one.
    public func read(into buffer: UnsafeMutableBufferPointer<Double>) throws -> Int {
        if closed { return 0 }
        if let failure { throw failure }
        guard let destination = buffer.baseAddress else { return 0 }
        let capacity = buffer.count / format.channelCount
        guard capacity > 0 else { return 0 }
        var lastOutput = MonotonicSeconds.now()
        while pending < frameBytes {
            if finished { return try end() }
            let waited = MonotonicSeconds.now() - lastOutput
            if waited >= noOutputTimeout { throw hung() }
            switch try waitForOutput(timeout: noOutputTimeout - waited) {
            case .data: lastOutput = MonotonicSeconds.now()
            case .ended: finished = true
            case .nothing: break
            }
        }
        let frames = Swift.min(pending / frameBytes, capacity)
        try deliver(frames, into: destination)
        return frames
    }

    private enum Wait { case data, ended, nothing }

    /// Polls stdout and stderr; reads what stdout has into `bytes` (after `pending`).
    private func waitForOutput(timeout: Double) throws -> Wait {
        var descriptors = [
            pollfd(fd: child.standardOutput, events: Int16(POLLIN), revents: 0),
            pollfd(fd: child.standardError, events: Int16(POLLIN), revents: 0),
        ]
        let milliseconds = Int32(clamping: Int((timeout * 1000).rounded(.up)))
        let ready = poll(&descriptors, nfds_t(descriptors.count), Swift.max(1, milliseconds))
        if ready < 0 {
            if errno == EINTR { return .nothing }
            throw SondeError(.io, "the command `\(command)`: poll failed: \(SystemCall.describe(errno))")
        }
        if descriptors[1].revents != 0 { child.drainStandardError(into: &tail) }
        guard descriptors[0].revents != 0 else { return .nothing }
        if pending == bytes.count { return .data }
        guard let base = bytes.baseAddress else { return .nothing }
        let got = Glibc.read(child.standardOutput, base + pending, bytes.count - pending)
        if got > 0 {
            pending += got
            return .data
        }
        if got < 0, errno == EINTR || errno == EAGAIN { return .nothing }
        if got < 0 {
            throw SondeError(.io, "the command `\(command)`: reading its output failed: \(SystemCall.describe(errno))")
        }
        return .ended
    }

    /// Converts `frames` whole frames from the front of `bytes` and keeps the rest.
    private func deliver(_ frames: Int, into destination: UnsafeMutablePointer<Double>) throws {
        guard let base = bytes.baseAddress else { return }
        let count = frames * format.channelCount
        if !sampleType.decode(base, into: destination, count: count) {
            for index in 0..<count where !SampleLimits.contains(destination[index]) {
                let sample = samplesDelivered + index
                let channels = format.channelCount
                throw remember(
                    SondeError(
                        .invalidInput,
                        "the command `\(command)`: sample \(sample) (frame \(sample / channels), channel "
                            + "ch\(sample % channels)) is \(destination[index]); expected a finite number"))
            }
        }
        let used = frames * frameBytes
        pending -= used
        if pending > 0 { base.copyMemory(from: base + used, byteCount: pending) }
        samplesDelivered += count
    }

    /// The command's stdout ended: 0 when it exited with status 0 on a frame boundary, or
    /// the error that says what went wrong.
    private func end() throws -> Int {
        if let failure { throw failure }
        let ending = child.finish(grace: terminationGrace)
        child.drainStandardError(into: &tail)
        child.closePipes()
        if pending > 0 {
            throw remember(
                SondeError(
                    .invalidInput,
                    "the command `\(command)` ended within a frame: \(pending) of \(frameBytes) bytes left over "
                        + "(\(format.channelCount) channels of \(sampleType.rawValue)); it \(ending.description)"
                        + tail.quoted))
        }
        guard ending == .exited(0) else {
            throw remember(
                SondeError(.io, "the command `\(command)` \(ending.description) before the capture ended\(tail.quoted)")
            )
        }
        return 0
    }

    private func hung() -> SondeError {
        child.terminate(grace: terminationGrace)
        child.drainStandardError(into: &tail)
        child.closePipes()
        finished = true
        return remember(
            SondeError(
                .io,
                "the command `\(command)` wrote no samples for \(noOutputTimeout.compactDescription) s, so sonde "
                    + "ended it (hung?)\(tail.quoted)"))
    }

    private func remember(_ error: SondeError) -> SondeError {
        failure = error
        return error
    }
}
