public import SondeCore
public import SondePipeline

/// Opens the paired device, whatever its kind, as a sample source: the one place where
/// `sonde stream`, `sonde measure` and the app's captures turn a pairing into samples.
public enum InstrumentSources {
    /// A device opened for one capture.
    public struct Opened {
        public var source: any SampleSource
        /// True for the simulated device, which computes samples as fast as they are asked
        /// for and must be paced to its clock; a real instrument paces itself.
        public var needsPacing: Bool
        /// Frames the instrument itself lost (ALSA overruns, counted, never filled in); nil
        /// where the pacing layer counts what it drops. The device is released (a PCM
        /// closed, a command ended and reaped) when the source is freed, at the graph's end.
        public var lostFrames: (@Sendable () -> Int)?
    }

    /// Opens `device` for a capture.
    /// - Throws: `SondeError` naming the device: a PCM that refuses the pairing's settings or
    ///   is gone, a command that cannot start, a damaged profile.
    public static func open(_ device: PairedDevice) throws -> Opened {
        guard let instrument = device.instrument else {
            return Opened(source: try device.makeDevice(), needsPacing: true, lostFrames: nil)
        }
        switch instrument.kind {
        case .alsa:
            let pcm = try ALSACaptureSource(
                device: instrument.address, sampleRate: instrument.sampleRate, channels: instrument.channels,
                sampleType: instrument.sampleType)
            let overruns = pcm.overruns
            return Opened(source: pcm, needsPacing: false, lostFrames: { overruns.value })
        case .command:
            let command = try CommandCaptureSource(
                command: instrument.address, sampleRate: Double(instrument.sampleRate),
                channels: instrument.channels, sampleType: instrument.sampleType)
            return Opened(source: command, needsPacing: false, lostFrames: nil)
        }
    }

    /// Checks a real instrument before it is remembered: an ALSA PCM is opened with the
    /// settings and closed (it refuses a rate, channel count or format it lacks, naming
    /// what it accepts); a command is only started by a capture, so it is not run here.
    /// - Returns: what the CLI tells the user (the PCM's period and buffer).
    public static func check(_ instrument: InstrumentSettings) throws -> String? {
        guard instrument.kind == .alsa else { return nil }
        let pcm = try ALSACaptureSource(
            device: instrument.address, sampleRate: instrument.sampleRate, channels: instrument.channels,
            sampleType: instrument.sampleType)
        defer { pcm.close() }
        return pcm.buffering.description
    }
}
