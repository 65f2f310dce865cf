public import SondeCore

/// A simulated sensor: samples computed from a `DeviceProfile` and a seed, as fast as they
/// are asked for. Pacing to the sample clock is `LiveClockSource`'s job.
///
/// Same profile and seed, same samples on any machine: the math is `DeterministicMath`,
/// and every sample is rounded to a 32-bit float, as a real sensor's ADC would deliver it,
/// so a recording in `f32le` holds exactly what was measured.
public final class SimulatedDevice: SampleSource {
    public let profile: DeviceProfile
    public let seed: UInt64
    public let format: StreamFormat
    public let notes: [String] = []
    public var expectedFrames: Int? { nil }
    private var position = 0
    private var channels: [ChannelState]

    private struct ChannelState {
        var random: Xoshiro256StarStar
        /// Current height of the decaying ring that an impulse fault starts.
        var impulseEnvelope = 0.0
        var impulseSign = 1.0
    }

    public init(profile: DeviceProfile, seed: UInt64) {
        self.profile = profile
        self.seed = seed
        format = StreamFormat(sampleRate: profile.sampleRate, channelNames: profile.channels.map(\.name))
        channels = profile.channels.indices.map {
            ChannelState(random: Xoshiro256StarStar(seed: seed &+ UInt64($0) &* 0x9E37_79B9))
        }
    }

    /// A stable id naming the profile and seed, as a paired device reports it.
    public var deviceID: String {
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325  // FNV-1a of the name, mixed with the seed
        for byte in profile.name.utf8 { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01B3 }
        hash ^= seed
        let hex = String(hash & 0xFFFF_FFFF, radix: 16)
        return "sim-\(profile.name)-\(String(repeating: "0", count: 8 - hex.count))\(hex)"
    }

    public func read(into buffer: UnsafeMutableBufferPointer<Double>) throws -> Int {
        let channelCount = profile.channels.count
        let frames = buffer.count / channelCount
        let rate = profile.sampleRate
        // Channel by channel, with each channel's settings hoisted out of the sample loop
        // (perf: reading them per sample cost a retain and release each).
        for c in 0..<channelCount {
            let settings = profile.channels[c]
            var state = channels[c]
            let decay = 1 - 1 / Swift.max(1, 0.002 * rate)
            let impulseProbability = settings.impulseRate / rate
            settings.tones.withUnsafeBufferPointer { tones in
                for frame in 0..<frames {
                    let n = Double(position + frame)
                    var value = settings.offset
                    for tone in tones {
                        let cycles = tone.frequency * n / rate
                        value += tone.amplitude * DeterministicMath.sinOfCycles(cycles)
                        var order = 2.0
                        for amplitude in tone.harmonics {
                            value += amplitude * DeterministicMath.sinOfCycles(order * cycles)
                            order += 1
                        }
                    }
                    if settings.driftAmplitude != 0 {
                        value +=
                            settings.driftAmplitude * DeterministicMath.sinOfCycles(n / (rate * settings.driftPeriod))
                    }
                    if settings.noise != 0 {
                        value += settings.noise * state.random.nextGaussian()
                    }
                    if impulseProbability > 0 {
                        if state.random.nextUnit() < impulseProbability {
                            state.impulseEnvelope = settings.impulseAmplitude
                        }
                        if state.impulseEnvelope != 0 {
                            // An alternating ring decaying over about 2 ms, like a struck bearing race.
                            state.impulseSign = -state.impulseSign
                            value += state.impulseEnvelope * state.impulseSign
                            state.impulseEnvelope *= decay
                            if abs(state.impulseEnvelope) < 1e-9 { state.impulseEnvelope = 0 }
                        }
                    }
                    // Rounded to a 32-bit float, as an ADC delivers it.
                    buffer[frame * channelCount + c] = Double(Float(value))
                }
            }
            channels[c] = state
        }
        position += frames
        return frames
    }
}
