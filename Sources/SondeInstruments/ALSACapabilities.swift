internal import CALSA
public import SondeCore

/// What a capture PCM accepts: the channel and rate ranges and the sample types sonde
/// reads, from `snd_pcm_hw_params_get_*_min/max` on a fresh configuration space.
public struct ALSACapabilities: Sendable, Equatable, CustomStringConvertible {
    /// Channel counts the hardware accepts, e.g. 1...2.
    public var channels: ClosedRange<Int>
    /// Sample rates in Hz the hardware accepts (a range; a card may accept only some rates
    /// inside it).
    public var rates: ClosedRange<Int>
    /// The sample types among S16_LE, S32_LE, FLOAT_LE and FLOAT64_LE it accepts.
    public var sampleTypes: [SampleFormat]

    public init(channels: ClosedRange<Int>, rates: ClosedRange<Int>, sampleTypes: [SampleFormat]) {
        self.channels = channels
        self.rates = rates
        self.sampleTypes = sampleTypes
    }

    /// "1-2 channels, 8000-192000 Hz, S16_LE S32_LE".
    public var description: String {
        let channelText =
            channels.lowerBound == channels.upperBound
            ? "\(channels.lowerBound)" : "\(channels.lowerBound)-\(channels.upperBound)"
        let rateText =
            rates.lowerBound == rates.upperBound ? "\(rates.lowerBound)" : "\(rates.lowerBound)-\(rates.upperBound)"
        let types =
            sampleTypes.isEmpty ? "no format sonde reads" : sampleTypes.map(ALSAFormat.name).joined(separator: " ")
        return "\(channelText) channels, \(rateText) Hz, \(types)"
    }

    /// Reads the ranges of an open PCM (in any state before its hw params are set);
    /// nil when libasound cannot give them.
    static func query(_ pcm: OpaquePointer) -> ALSACapabilities? {
        var params: OpaquePointer?
        guard snd_pcm_hw_params_malloc(&params) == 0, let params else { return nil }
        defer { snd_pcm_hw_params_free(params) }
        guard snd_pcm_hw_params_any(pcm, params) >= 0 else { return nil }
        _ = snd_pcm_hw_params_set_access(pcm, params, SND_PCM_ACCESS_RW_INTERLEAVED)
        var direction: Int32 = 0
        var channelsLow: UInt32 = 0
        var channelsHigh: UInt32 = 0
        var ratesLow: UInt32 = 0
        var ratesHigh: UInt32 = 0
        guard snd_pcm_hw_params_get_channels_min(params, &channelsLow) >= 0,
            snd_pcm_hw_params_get_channels_max(params, &channelsHigh) >= 0,
            snd_pcm_hw_params_get_rate_min(params, &ratesLow, &direction) >= 0,
            snd_pcm_hw_params_get_rate_max(params, &ratesHigh, &direction) >= 0
        else { return nil }
        let types = SampleFormat.allCases.filter { type in
            snd_pcm_hw_params_test_format(pcm, params, ALSAFormat.format(of: type)) == 0
        }
        return ALSACapabilities(
            channels: Int(channelsLow)...Int(Swift.max(channelsLow, channelsHigh)),
            rates: Int(ratesLow)...Int(Swift.max(ratesLow, ratesHigh)), sampleTypes: types)
    }
}
