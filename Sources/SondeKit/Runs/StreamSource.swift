public import SondeCapture
import SondeCore
public import SondeIO
import SondeInstruments
public import SondePipeline

/// The live source of `sonde stream`: a recording (or raw standard input), a one-off
/// simulated device, or the paired device, put through the one `LiveSourceChain` that
/// `sonde measure` and the app's captures use too.
public struct StreamSource {
    /// What the records are named by: the input's path or the device's identifier.
    public let name: String
    public let chain: LiveSourceChain
    /// Whether the graph runs as for a live device (paced, or a real instrument).
    public let paced: Bool

    /// Where the samples come from and how they are paced and bounded.
    public struct Request {
        /// `--input FILE` (or `-`); nil: a device.
        public var inputPath: String?
        public var sourceOptions: SampleSourceOptions
        /// The simulated device's seed.
        public var seed: UInt64 = 1
        /// `--realtime`: replay the recording at its sample rate.
        public var realtime = false
        /// `--as-fast-as-possible`: do not pace a device.
        public var asFastAsPossible = false
        /// `--on-overrun`; nil: drop-oldest for a device, block for files and stdin.
        public var overrun: LiveClockSource.OverrunPolicy?
        /// Stop after this many frames per channel (`--frames`).
        public var frames: Int?
        /// Stop after this much signal (`--duration`).
        public var seconds: Double?
        /// `--record FILE`: a raw copy of what was measured.
        public var recording: String?
        /// When each read returned, for latencies.
        public var arrivals: ArrivalLog?

        public init(inputPath: String?, sourceOptions: SampleSourceOptions) {
            self.inputPath = inputPath
            self.sourceOptions = sourceOptions
        }
    }

    /// Opens the source.
    /// - Parameters:
    ///   - profile: the simulated device's profile text, asked for only without an input.
    ///   - connection: the pairing, asked for only without an input or a profile.
    /// - Throws: `SondeError` when the input cannot be opened, no device is paired, or the
    ///   input's shape options cannot apply to the paired device.
    public static func open(
        _ request: Request, settings: PipelineSettings,
        profile: () throws -> (text: String, source: String)?,
        connection: () throws -> any DeviceConnectionService
    ) throws -> StreamSource {
        let base: any SampleSource
        let name: String
        let isDevice: Bool
        // A real instrument paces itself: no clock on top, and its own losses (ALSA xruns).
        var instrumentLosses: (@Sendable () -> Int)?
        if let inputPath = request.inputPath {
            base = try SampleSources.open(path: inputPath, options: request.sourceOptions)
            name = inputPath
            isDevice = false
        } else {
            if let profile = try profile() {
                let device = SimulatedDevice(
                    profile: try DeviceProfile.parse(profile.text, source: profile.source), seed: request.seed)
                base = device
                name = device.deviceID
            } else if let paired = try connection().current() {
                try SimulatedProfile.refuseInputShape(request.sourceOptions, device: "the paired device \(paired.id)")
                let opened = try InstrumentSources.open(paired)
                base = opened.source
                name = paired.id
                if !opened.needsPacing { instrumentLosses = opened.lostFrames ?? { 0 } }
            } else {
                throw SondeError(
                    .invalidArgument,
                    "Device not connected — run sonde device pair (or pass --profile FILE or --input FILE)")
            }
            isDevice = true
        }
        let paced = instrumentLosses == nil && (isDevice ? !request.asFastAsPossible : request.realtime)
        // Unpaced, the clock only notes when each read returns, for --stats: for a real
        // instrument that is when its samples reached sonde (a PCM period, a command's write
        // taken from the pipe), the start of each record's latency.
        let clock =
            paced || request.arrivals != nil
            ? LiveSourceChain.Clock(
                policy: request.overrun ?? (isDevice ? .dropOldest : .block), paced: paced,
                arrivals: request.arrivals) : nil
        var limit: Int?
        if let frames = request.frames { limit = (frames - 1) * settings.hop + settings.frameLength }
        if let seconds = request.seconds {
            let durationFrames = LiveSourceChain.frameCount(seconds: seconds, rate: base.format.sampleRate)
            limit = min(limit ?? durationFrames, durationFrames)
        }
        let chain = try LiveSourceChain(
            base: base, clock: clock, limit: limit, recording: request.recording, instrumentLosses: instrumentLosses)
        return StreamSource(name: name, chain: chain, paced: paced || instrumentLosses != nil)
    }
}
