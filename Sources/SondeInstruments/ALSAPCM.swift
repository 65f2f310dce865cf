internal import CALSA
import SondeCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// An open capture PCM on libasound, configured for interleaved reads at an exact rate,
/// channel count and format; the one owner of the `snd_pcm_t`.
final class ALSAPCM: PCMStream {
    /// The name it was opened by (`hw:1,0`), for messages.
    let name: String
    /// The period and buffer the hardware chose.
    let buffering: ALSABuffering
    private var handle: OpaquePointer?
    /// The configuration tree it was opened from, when not libasound's global one; kept
    /// until the PCM is closed, since a plugin may hold on to its nodes.
    private var configuration: OpaquePointer?
    private let sampleRate: Int

    /// Opens `name` for capture and sets its hw params.
    ///
    /// - Parameters:
    ///   - configurationFile: an ALSA configuration file that replaces libasound's global one
    ///     for this PCM (`snd_pcm_open_lconf`); nil for the global configuration.
    /// - Throws: `SondeError` naming the device and, when a value is refused, what it accepts.
    init(
        name: String, sampleRate: Int, channels: Int, sampleType: SampleFormat, periodMicroseconds: Int,
        periodsPerBuffer: Int, configurationFile: String?
    ) throws {
        self.name = name
        self.sampleRate = sampleRate
        var pcm: OpaquePointer?
        let opened: Int32
        if let configurationFile {
            configuration = try Self.loadConfiguration(configurationFile, for: name)
            opened = snd_pcm_open_lconf(&pcm, name, SND_PCM_STREAM_CAPTURE, 0, configuration)
        } else {
            opened = snd_pcm_open(&pcm, name, SND_PCM_STREAM_CAPTURE, 0)
        }
        guard opened >= 0, let pcm else {
            if let configuration { snd_config_delete(configuration) }
            let hint = opened == -EBUSY ? " (another program is capturing from it)" : ""
            throw SondeError(
                .io, "the ALSA device \(name) cannot be opened for capture: \(ALSAFormat.describe(Int(opened)))\(hint)")
        }
        handle = pcm
        do {
            buffering = try Self.configure(
                pcm, name: name, sampleRate: sampleRate, channels: channels, sampleType: sampleType,
                periodMicroseconds: periodMicroseconds, periodsPerBuffer: periodsPerBuffer)
        } catch {
            snd_pcm_close(pcm)
            if let configuration { snd_config_delete(configuration) }
            handle = nil
            configuration = nil
            throw error
        }
    }

    deinit { close() }

    func available() -> Int {
        guard let handle else { return -Int(EBADFD) }
        return snd_pcm_avail_update(handle)
    }

    func readInterleaved(_ buffer: UnsafeMutableRawPointer, frames: Int) -> Int {
        guard let handle else { return -Int(EBADFD) }
        return snd_pcm_readi(handle, buffer, snd_pcm_uframes_t(frames))
    }

    /// Counts what the overrun lost before `snd_pcm_prepare` discards it: the frames left in
    /// the buffer (`snd_pcm_status_get_avail`) plus the time the stream stood stopped, from
    /// the xrun (its trigger timestamp) to now (the status timestamp), at the nominal rate.
    func recoverFromOverrun() -> Int {
        guard let handle else { return -Int(EBADFD) }
        var lost = 0
        var status: OpaquePointer?
        if snd_pcm_status_malloc(&status) == 0, let status {
            if snd_pcm_status(handle, status) == 0 {
                var stopped = snd_timestamp_t()
                var now = snd_timestamp_t()
                snd_pcm_status_get_trigger_tstamp(status, &stopped)
                snd_pcm_status_get_tstamp(status, &now)
                let seconds =
                    Double(now.tv_sec - stopped.tv_sec) + Double(now.tv_usec - stopped.tv_usec) / 1e6
                let stoppedFrames =
                    stopped.tv_sec > 0 && seconds > 0 ? Int((seconds * Double(sampleRate)).rounded()) : 0
                lost = Int(snd_pcm_status_get_avail(status)) + stoppedFrames
            }
            snd_pcm_status_free(status)
        }
        let prepared = snd_pcm_prepare(handle)
        return prepared < 0 ? Int(prepared) : lost
    }

    func resume() -> Int32 {
        guard let handle else { return -EBADFD }
        let resumed = snd_pcm_resume(handle)
        // A driver without resume support (-ENOSYS) starts again from prepare.
        return resumed == -ENOSYS ? snd_pcm_prepare(handle) : resumed
    }

    func close() {
        if let handle { snd_pcm_close(handle) }
        if let configuration { snd_config_delete(configuration) }
        handle = nil
        configuration = nil
    }

    /// Loads an ALSA configuration file into a tree of its own.
    private static func loadConfiguration(_ path: String, for name: String) throws -> OpaquePointer {
        var top: OpaquePointer?
        var input: OpaquePointer?
        guard snd_config_top(&top) >= 0, let top else {
            throw SondeError(.io, "the ALSA configuration for \(name) cannot be made")
        }
        let opened = snd_input_stdio_open(&input, path, "r")
        guard opened >= 0, let input else {
            snd_config_delete(top)
            throw SondeError(.io, "\(path): cannot read the ALSA configuration: \(ALSAFormat.describe(Int(opened)))")
        }
        let loaded = snd_config_load(top, input)
        snd_input_close(input)
        guard loaded >= 0 else {
            snd_config_delete(top)
            throw SondeError(
                .invalidInput, "\(path): not an ALSA configuration: \(ALSAFormat.describe(Int(loaded)))")
        }
        return top
    }

    /// Sets interleaved read access, the exact format, channels and rate (resampling off, so
    /// a plugin cannot fake a rate), and a period near `periodMicroseconds` with
    /// `periodsPerBuffer` of them in the buffer; returns what the hardware chose.
    private static func configure(
        _ pcm: OpaquePointer, name: String, sampleRate: Int, channels: Int, sampleType: SampleFormat,
        periodMicroseconds: Int, periodsPerBuffer: Int
    ) throws -> ALSABuffering {
        var allocated: OpaquePointer?
        guard snd_pcm_hw_params_malloc(&allocated) == 0, let params = allocated else {
            throw SondeError(.io, "the ALSA device \(name): out of memory for its hw params")
        }
        defer { snd_pcm_hw_params_free(params) }
        try check(snd_pcm_hw_params_any(pcm, params), name, "has no capture configuration")
        let accepts = ALSACapabilities.query(pcm).map { "; it accepts \($0)" } ?? ""
        func refuse(_ what: String) -> SondeError {
            SondeError(.unsupported, "the ALSA device \(name) does not accept \(what)\(accepts)")
        }
        guard snd_pcm_hw_params_set_access(pcm, params, SND_PCM_ACCESS_RW_INTERLEAVED) >= 0 else {
            throw refuse("interleaved reads")
        }
        guard snd_pcm_hw_params_set_format(pcm, params, ALSAFormat.format(of: sampleType)) >= 0 else {
            throw refuse("the format \(ALSAFormat.name(of: sampleType))")
        }
        guard channels > 0, snd_pcm_hw_params_set_channels(pcm, params, UInt32(clamping: channels)) >= 0 else {
            throw refuse("\(channels) channels")
        }
        _ = snd_pcm_hw_params_set_rate_resample(pcm, params, 0)
        guard sampleRate > 0, snd_pcm_hw_params_set_rate(pcm, params, UInt32(clamping: sampleRate), 0) >= 0 else {
            throw refuse("a rate of \(sampleRate) Hz")
        }
        var period = UInt32(clamping: periodMicroseconds)
        var direction: Int32 = 0
        try check(
            snd_pcm_hw_params_set_period_time_near(pcm, params, &period, &direction), name,
            "refused every period near \(periodMicroseconds) µs")
        var periodFrames: snd_pcm_uframes_t = 0
        try check(snd_pcm_hw_params_get_period_size(params, &periodFrames, &direction), name, "has no period size")
        var bufferFrames = periodFrames * snd_pcm_uframes_t(Swift.max(2, periodsPerBuffer))
        try check(
            snd_pcm_hw_params_set_buffer_size_near(pcm, params, &bufferFrames), name,
            "refused a buffer of \(periodsPerBuffer) periods")
        try check(snd_pcm_hw_params(pcm, params), name, "refused its hw params")
        // Read back what was installed: the near-setters may have moved.
        try check(snd_pcm_hw_params_get_period_size(params, &periodFrames, &direction), name, "has no period size")
        try check(snd_pcm_hw_params_get_buffer_size(params, &bufferFrames), name, "has no buffer size")
        return ALSABuffering(periodFrames: Int(periodFrames), bufferFrames: Int(bufferFrames), sampleRate: sampleRate)
    }

    private static func check(_ result: Int32, _ name: String, _ what: String) throws {
        guard result < 0 else { return }
        throw SondeError(.io, "the ALSA device \(name) \(what): \(ALSAFormat.describe(Int(result)))")
    }
}
