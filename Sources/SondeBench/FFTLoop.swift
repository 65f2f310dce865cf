public import SondeCore
import SondeDSP
public import SondePipeline

/// The bare FFT loop `sonde bench --versus-fft` sets the pipeline against: the same frames'
/// magnitude spectra and nothing else, split over `jobs` tasks.
public enum FFTLoop {
    /// Seconds to take the spectra of `frames` frames per channel of one second of `device`'s
    /// signal (at least one window), reused.
    public static func seconds(
        settings: PipelineSettings, device: any SampleSource, frames: Int, jobs: Int
    ) async throws -> Double {
        let channels = device.format.channelCount
        let length = max(settings.frameLength, Int(device.format.sampleRate))
        let interleaved = UnsafeMutableBufferPointer<Double>.allocate(capacity: length * channels)
        defer { interleaved.deallocate() }
        _ = try device.read(into: interleaved)
        let signal = (0..<channels).map { c in (0..<length).map { interleaved[$0 * channels + c] } }
        let framesPerChannel = frames < settings.frameLength ? 0 : (frames - settings.frameLength) / settings.hop + 1
        let framesInSignal = (length - settings.frameLength) / settings.hop + 1
        let total = framesPerChannel * channels
        let started = MonotonicClock.seconds()
        let checksum = await withTaskGroup(of: Double.self) { group in
            for worker in 0..<jobs {
                group.addTask {
                    let spectrum = MagnitudeSpectrum(frameLength: settings.frameLength)
                    var sum = 0.0
                    var index = worker
                    while index < total {
                        let channel = index % channels
                        let start = (index / channels % framesInSignal) * settings.hop
                        sum += signal[channel].withUnsafeBufferPointer {
                            spectrum.sumOfMagnitudes(
                                UnsafeBufferPointer(rebasing: $0[start..<(start + settings.frameLength)]))
                        }
                        index += jobs
                    }
                    return sum
                }
            }
            return await group.reduce(0, +)
        }
        let elapsed = MonotonicClock.seconds() - started
        precondition(checksum.isFinite)
        return elapsed
    }
}
