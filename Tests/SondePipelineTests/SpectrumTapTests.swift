import Foundation
import SondeCore
import SondeDSP
import Synchronization
import Testing
import _SondeTestSupport

@testable import SondePipeline

/// Records what the tap receives: order, and each frame's first bins.
private final class RecordingTap: SpectrumTap {
    struct Call: Equatable {
        var input: Int
        var channel: Int
        var firstFrame: Int
        var frameCount: Int
    }

    let calls = Mutex<[Call]>([])
    /// (input, channel, frame) -> that frame's P[k].
    let spectra = Mutex<[String: [Double]]>([:])

    func receive(_ spectra: FrameSpectra) {
        calls.withLock {
            $0.append(
                Call(
                    input: spectra.input, channel: spectra.channel, firstFrame: spectra.firstFrame,
                    frameCount: spectra.frameCount))
        }
        self.spectra.withLock { stored in
            for offset in 0..<spectra.frameCount {
                stored["\(spectra.input)/\(spectra.channel)/\(spectra.firstFrame + offset)"] = Array(
                    spectra.frame(offset))
            }
        }
    }
}

@Suite struct SpectrumTapTests {
    /// Calls come in output order whatever the workers' timing, cover every frame once, and
    /// carry docs/features.md section 5's P[k] of each frame (checked by a direct DFT), even when
    /// no requested feature needs the spectrum.
    @Test(arguments: [1, 3])
    func tapSeesEveryFrameInOutputOrder(jobs: Int) async throws {
        let tap = RecordingTap()
        let settings = try PipelineSettings(frameLength: 64, hop: 24, features: [.rms])
        let graph = PipelineGraph(settings: settings, options: .init(jobs: jobs, framesPerJob: 5, spectrumTap: tap))
        let inputs = [
            PipelineGraph.Input(name: "a", source: SyntheticSource(frames: 3000, channels: 2)),
            PipelineGraph.Input(name: "b", source: SyntheticSource(frames: 700, channels: 3)),
        ]
        let summary = try await graph.run(inputs: inputs) { _ in }
        let calls = tap.calls.withLock { $0 }
        // Input by input, block by block, channel by channel; frames contiguous.
        var expected: [RecordingTap.Call] = []
        for (input, channels) in [(0, 2), (1, 3)] {
            var first = 0
            while first < summary.frames[input] {
                let count = Swift.min(5, summary.frames[input] - first)
                for channel in 0..<channels {
                    expected.append(.init(input: input, channel: channel, firstFrame: first, frameCount: count))
                }
                first += count
            }
        }
        #expect(calls == expected)
        #expect(summary.frames == [(3000 - 64) / 24 + 1, (700 - 64) / 24 + 1])
        // A frame of each input against the direct DFT.
        for (input, channel, frame) in [(0, 1, 7), (1, 2, (700 - 64) / 24)] {
            let samples = (0..<64).map { SyntheticSource.sample(frame * 24 + $0, channel: channel) }
            let want = Periodogram.density(samples, sampleRate: 8000)
            let got = try #require(tap.spectra.withLock { $0["\(input)/\(channel)/\(frame)"] })
            let total = want.reduce(0, +)
            for k in want.indices { #expect(abs(got[k] - want[k]) <= 1e-9 * total, "bin \(k)") }
        }
    }
}
