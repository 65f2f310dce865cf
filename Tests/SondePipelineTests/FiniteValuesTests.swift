import SondeCore
import SondeIO
import Synchronization
import Testing

@testable import SondePipeline

/// A source that trusts nothing: constant samples with one spike, bypassing the readers'
/// magnitude check, so the graph's own check is what stops the run.
final class SpikeSource: SampleSource {
    let format: StreamFormat
    let notes: [String] = []
    private let frames: Int
    private let spikeFrame: Int
    private let spikeChannel: Int
    private let spike: Double
    private var position = 0

    init(frames: Int, channels: Int, spikeFrame: Int, spikeChannel: Int, spike: Double) {
        self.frames = frames
        self.spikeFrame = spikeFrame
        self.spikeChannel = spikeChannel
        self.spike = spike
        format = StreamFormat(sampleRate: 1000, channelNames: (0..<channels).map { "c\($0)" })
    }

    func read(into buffer: UnsafeMutableBufferPointer<Double>) throws -> Int {
        let channels = format.channelCount
        let wanted = min(buffer.count / channels, frames - position)
        for i in 0..<wanted {
            for c in 0..<channels {
                let isSpike = position + i == spikeFrame && c == spikeChannel
                buffer[i * channels + c] = isSpike ? spike : 0.25 * Double(c + 1)
            }
        }
        position += wanted
        return wanted
    }
}

@Suite struct FiniteValuesTests {
    struct Case: Sendable, CustomStringConvertible {
        var spike: Double
        var spikeSample: Int
        var channel: Int
        var encodes: Bool
        var description: String { "\(spike) at sample \(spikeSample) of c\(channel), encoder \(encodes)" }
    }

    /// Samples of 1e160 make |X|² overflow; the run must stop with an error naming the input,
    /// channel and first frame that holds the spike, and emit no record of that frame.
    @Test(arguments: [
        Case(spike: 1e160, spikeSample: 5, channel: 0, encodes: true),
        Case(spike: -1e200, spikeSample: 4000, channel: 1, encodes: true),
        Case(spike: 1e300, spikeSample: 777, channel: 1, encodes: false),
    ])
    func overflowingFeatureStopsTheRun(_ testCase: Case) async throws {
        let settings = try PipelineSettings(frameLength: 64, hop: 32)
        var options = PipelineGraph.Options(jobs: 2)
        if testCase.encodes {
            options.encoder = RecordWriters.encoder(
                format: .csv,
                layout: RecordLayout(valueColumns: try settings.valueColumns(sampleRate: 1000), includesFile: false))
        }
        let graph = PipelineGraph(settings: settings, options: options)
        let source = SpikeSource(
            frames: 8192, channels: 2, spikeFrame: testCase.spikeSample, spikeChannel: testCase.channel,
            spike: testCase.spike)
        // The first frame holding the spike: frames start every 32 samples and span 64.
        let firstFrame = max(0, (testCase.spikeSample - 64) / 32 + 1)
        let nonFinite = Atomic<Int>(0)
        var message = ""
        do {
            _ = try await graph.run(inputs: [PipelineGraph.Input(name: "spiky.f64", source: source)]) { batch in
                nonFinite.add(batch.values.filter { !$0.isFinite }.count, ordering: .relaxed)
            }
            Issue.record("the run ended without an error")
        } catch let error as SondeError {
            message = error.description
        }
        #expect(nonFinite.load(ordering: .relaxed) == 0, "a non-finite value reached the exporter")
        #expect(message.hasPrefix("spiky.f64, channel c\(testCase.channel), frame \(firstFrame) "), "\(message)")
        #expect(message.contains("expected a finite value"), "\(message)")
    }

    /// The same samples at 1e100 (the readers' limit) measure without error.
    @Test func samplesAtTheLimitMeasure() async throws {
        let settings = try PipelineSettings(frameLength: 1 << 16, hop: 1 << 15)
        let graph = PipelineGraph(settings: settings, options: PipelineGraph.Options(jobs: 1))
        let source = SpikeSource(
            frames: 1 << 17, channels: 1, spikeFrame: 40_000, spikeChannel: 0, spike: SampleLimits.largestMagnitude)
        let nonFinite = Atomic<Int>(0)
        let summary = try await graph.run(inputs: [PipelineGraph.Input(name: "x", source: source)]) { batch in
            nonFinite.add(batch.values.filter { !$0.isFinite }.count, ordering: .relaxed)
        }
        #expect(summary.records == 3)
        #expect(nonFinite.load(ordering: .relaxed) == 0)
    }
}
