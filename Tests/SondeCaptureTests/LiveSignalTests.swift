import SondeCapture
import SondePipeline
import Testing

/// `LiveSignal`'s thinning: a waveform of more than `maxPoints` samples becomes each run's
/// minimum and maximum (a tone's peaks survive), a spectrum of more than `maxBins` bins each
/// run's strongest, and the strongest component is read from the whole spectrum.
@Suite struct LiveSignalTests {
    @Test func aLongWaveformKeepsEachRunsExtremesInTimeOrder() {
        let samples = (0..<2048).map { index -> Double in index == 1000 ? 5 : index == 1500 ? -7 : Double(index % 3) }
        let points = LiveSignal.waveform(samples, maxPoints: 1000)
        #expect(points.count <= 1000 && points.count >= 800)
        #expect(points.max() == 5 && points.min() == -7)
        #expect(points.firstIndex(of: 5) ?? 0 < points.firstIndex(of: -7) ?? 0)
        #expect(LiveSignal.waveform([1, 2, 3], maxPoints: 1000) == [1, 2, 3])
    }

    @Test func aWideSpectrumKeepsEachRunsStrongestBin() {
        var power = [Double](repeating: 1e-6, count: 4097)
        power[0] = 100  // DC: not a component
        power[777] = 1
        let db = LiveSignal.spectrumDB(power, maxBins: 513)
        #expect(db.count <= 513 && db.count >= 500)
        // 20 dB at DC, 0 dB at bin 777's run, -60 dB elsewhere (log10 to the last bit or two).
        #expect(abs((db.first ?? 0) - 20) < 1e-9 && abs(db[777 / 8]) < 1e-9)
        #expect(db.enumerated().allSatisfy { $0.offset == 0 || $0.offset == 777 / 8 || abs($0.element + 60) < 1e-9 })
        let latest = LatestSpectra.Latest(channels: ["x"], sampleRate: 8192, frameLength: 8192, power: [power])
        let signal = LiveSignal(
            names: ["x"], sampleRate: 8192, samples: .init(channels: [[0, 1]], written: 2), spectra: latest)
        #expect(signal.channels[0].peakHz == 777)
        #expect(signal.frequencies.count == signal.channels[0].spectrumDB.count)
        #expect(signal.waveformSeconds == 2.0 / 8192)
    }

    /// An offset's lobe (DC and the falling bins after it, as a window spreads it) is not
    /// the strongest component: a 9.81 offset with a weaker 346.5 Hz tone reads the tone.
    @Test func theStrongestComponentSkipsTheOffsetsLobe() {
        var power = [Double](repeating: 1e-6, count: 513)
        power[0] = 96
        power[1] = 24  // the offset, spread by the window
        power[2] = 1e-3
        power[14] = 0.01  // 346.5 Hz at 25 Hz bins, weaker than bin 1
        let latest = LatestSpectra.Latest(channels: ["y"], sampleRate: 25600, frameLength: 1024, power: [power])
        let signal = LiveSignal(
            names: ["y"], sampleRate: 25600, samples: .init(channels: [[9.81, 9.8]], written: 2), spectra: latest)
        #expect(signal.channels[0].peakHz == 350)
        var flat = [Double](repeating: 0, count: 8)
        flat[0] = 1
        let none = LatestSpectra.Latest(channels: ["z"], sampleRate: 16, frameLength: 14, power: [flat])
        #expect(
            LiveSignal(names: ["z"], sampleRate: 16, samples: .init(channels: [[1]], written: 1), spectra: none)
                .channels[0].peakHz == nil, "an offset alone has no component")
    }
}
