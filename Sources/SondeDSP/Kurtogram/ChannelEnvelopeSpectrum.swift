/// One channel's squared-envelope spectrum and the band it demodulates: what
/// `sonde spectrum --envelope` prints, computed by the same code as `sonde diagnose`
/// (`FastKurtogram.computeKeepingBest`, `SquaredEnvelopeSpectrum`), only the band and the segment
/// length chosen differently.
public struct ChannelEnvelopeSpectrum: Sendable, Equatable {
    /// The band demodulated, Hz.
    public let low: Double
    public let high: Double
    /// The kurtogram cell of `EnvelopeBand.auto`; nil for a band given.
    public let cell: Kurtogram.Cell?
    public let spectrum: SquaredEnvelopeSpectrum

    /// The Welch segment length for a band signal at `bandRate` Hz: the smallest power of two
    /// P ≥ 8 whose resolution bandRate/P is at most sampleRate/window, the resolution of
    /// `sonde spectrum --window N` on the input, so that a band and the whole input read at the
    /// same bin spacing (exactly the same when the band rate divides the input's by a power of two).
    public static func segmentLength(bandRate: Double, sampleRate: Double, window: Int) -> Int {
        let resolution = sampleRate / Double(window)
        var length = 8
        while bandRate / Double(length) > resolution {
            length *= 2
        }
        return length
    }

    /// - Parameters:
    ///   - samples: the channel, finite samples; for `.auto`, at least
    ///     `FastKurtogram.minimumLength(levels:)`.
    ///   - sampleRate: Hz, > 0.
    ///   - band: the kurtogram's best band or one given (0 ≤ LO < HI ≤ sampleRate/2).
    ///   - window: N of the resolution sampleRate/N, ≥ 1.
    /// - Throws: `KurtogramError`: too short a channel for the kurtogram or for three
    ///   half-overlapping segments of the envelope spectrum, a band outside 0...fs/2, a
    ///   non-finite sample.
    public init(
        _ samples: UnsafeBufferPointer<Double>, sampleRate: Double, band: EnvelopeBand, window: Int
    ) throws {
        let signal: KurtogramBandSignal
        switch band {
        case .auto(let levels):
            let best: Kurtogram.Cell
            (_, best, signal) = try FastKurtogram.computeKeepingBest(
                samples, sampleRate: sampleRate, levels: levels, envelopeNyquistAtLeast: 0)
            cell = best
            low = best.centre - best.bandwidth / 2
            high = best.centre + best.bandwidth / 2
        case .range(let lo, let hi):
            signal = try KurtogramBandSignal.brickWall(samples, sampleRate: sampleRate, low: lo, high: hi)
            cell = nil
            low = lo
            high = hi
        }
        let length = Self.segmentLength(bandRate: signal.sampleRate, sampleRate: sampleRate, window: window)
        guard 2 * length <= signal.samples.count else {
            throw KurtogramError.tooShortForEnvelope(count: signal.samples.count, segmentLength: length)
        }
        spectrum = try SquaredEnvelopeSpectrum(signal, segmentLength: length)
    }

    /// Every channel, at most `jobs` at once (a kurtogram of a minute at 48 kHz is 0.5 s of one
    /// core), in channel order.
    /// - Throws: `ChannelError` for the lowest channel that failed, whichever finished first.
    public static func compute(
        _ channels: [[Double]], sampleRate: Double, band: EnvelopeBand, window: Int, jobs: Int
    ) async throws -> [ChannelEnvelopeSpectrum] {
        let outcome = await withTaskGroup(of: (Int, Result<ChannelEnvelopeSpectrum, any Error>).self) { group in
            var results = [Result<ChannelEnvelopeSpectrum, any Error>?](repeating: nil, count: channels.count)
            var next = 0
            func add() {
                let index = next
                next += 1
                group.addTask {
                    let result = Result {
                        try channels[index].withUnsafeBufferPointer {
                            try ChannelEnvelopeSpectrum($0, sampleRate: sampleRate, band: band, window: window)
                        }
                    }
                    return (index, result)
                }
            }
            while next < min(max(1, jobs), channels.count) {
                add()
            }
            for await (index, result) in group {
                results[index] = result
                if next < channels.count { add() }
            }
            return results
        }
        var spectra: [ChannelEnvelopeSpectrum] = []
        for (index, result) in outcome.enumerated() {
            switch result {
            case .success(let spectrum)?:
                spectra.append(spectrum)
            case .failure(let error as KurtogramError)?:
                throw ChannelError(channel: index, error: error)
            case .failure(let error)?:
                throw error
            case nil:
                preconditionFailure("channel \(index) was never computed")
            }
        }
        return spectra
    }

    /// A channel's failure: its index (0-based) and why.
    public struct ChannelError: Error, Sendable, Equatable {
        public let channel: Int
        public let error: KurtogramError
    }
}
