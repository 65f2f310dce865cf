import Foundation
import SondeCore
import SondeDSP
import Synchronization
import Testing

@testable import SondePipeline

/// A deterministic in-memory source: a few tones and noise per channel, delivered in
/// reads of varying size, optionally failing after some frames.
final class SyntheticSource: SampleSource {
    let format: StreamFormat
    let notes: [String] = []
    private let frames: Int
    private var position = 0
    private let failAfter: Int?
    let reads = Atomic<Int>(0)

    init(frames: Int, channels: Int, sampleRate: Double = 8000, failAfter: Int? = nil) {
        self.frames = frames
        self.failAfter = failAfter
        format = StreamFormat(sampleRate: sampleRate, channelNames: (0..<channels).map { "c\($0)" })
    }

    static func sample(_ n: Int, channel: Int) -> Double {
        let t = Double(n) / 8000
        let tone = sin(2 * .pi * (300 + 70 * Double(channel)) * t) + 0.3 * sin(2 * .pi * 1234.5 * t)
        // Cheap deterministic "noise".
        let noise = Double((n &* 1_103_515_245 &+ 12345 &+ channel) & 0xFFFF) / 65536 - 0.5
        return tone + 0.05 * noise + Double(channel)
    }

    func read(into buffer: UnsafeMutableBufferPointer<Double>) throws -> Int {
        let channels = format.channelCount
        // Vary the read size so block boundaries fall everywhere.
        let wanted = min(buffer.count / channels, 1 + (position * 7919) % 3001, frames - position)
        if let failAfter, position + wanted > failAfter {
            throw SondeError(.invalidInput, "synthetic failure", at: SourceLocation(file: "synthetic", line: position))
        }
        for i in 0..<wanted {
            for c in 0..<channels { buffer[i * channels + c] = Self.sample(position + i, channel: c) }
        }
        position += wanted
        reads.add(1, ordering: .relaxed)
        return wanted
    }
}

/// Collects emitted batches from the exporter.
final class BatchCollector: Sendable {
    let batches = Mutex<[RecordBatch]>([])
    func append(_ batch: RecordBatch) { batches.withLock { $0.append(batch) } }
    /// (file, frame, channel, values) per record, in emission order.
    var records: [String] {
        batches.withLock { batches in
            batches.flatMap { batch in
                (0..<batch.recordCount).map { record in
                    let frame = batch.firstFrame + record / batch.channelNames.count
                    let channel = batch.channelNames[record % batch.channelNames.count]
                    let values = batch.values[(record * batch.columnCount)..<((record + 1) * batch.columnCount)]
                    return "\(batch.fileName) \(frame) \(channel) "
                        + values.map { String($0.bitPattern, radix: 16) }.joined(separator: ",")
                }
            }
        }
    }
}

@Suite struct PipelineGraphTests {
    let settings = try! PipelineSettings(frameLength: 256, hop: 100, bands: [Band(low: 0, high: 500)])

    /// The single-threaded path, as the reference for the graph's output.
    private func sequentialRecords(sources: [(String, SyntheticSource)]) throws -> [String] {
        let collector = BatchCollector()
        for (name, source) in sources {
            let processor = try SourceProcessor(
                format: source.format, settings: settings, fileName: name, maximumBlock: 4096)
            _ = try BatchRun.run(source: source, processor: processor) { collector.append($0) }
        }
        return collector.records
    }

    private func graphRecords(
        sources: [(String, SyntheticSource)], options: PipelineGraph.Options
    ) async throws -> (records: [String], summary: PipelineGraph.Summary) {
        let collector = BatchCollector()
        let graph = PipelineGraph(settings: settings, options: options)
        let summary = try await graph.run(inputs: sources.map { PipelineGraph.Input(name: $0.0, source: $0.1) }) {
            collector.append($0)
        }
        return (collector.records, summary)
    }

    @Test(arguments: [1, 2, 3], [64, 4096, 1 << 20])
    func graphOutputIsIdenticalToTheSequentialPath(jobs: Int, ringCapacity: Int) async throws {
        let make = {
            [
                ("a", SyntheticSource(frames: 20_000, channels: 2)), ("b", SyntheticSource(frames: 9_000, channels: 3)),
                ("c", SyntheticSource(frames: 100, channels: 1)),
            ]
        }
        let expected = try sequentialRecords(sources: make())
        let (records, summary) = try await graphRecords(
            sources: make(), options: .init(jobs: jobs, ringCapacity: ringCapacity, framesPerJob: 7))
        #expect(records.count == expected.count)
        #expect(records == expected)
        #expect(summary.samplesPerChannel == [20_000, 9_000, 100])
        #expect(summary.frames == [(20_000 - 256) / 100 + 1, (9_000 - 256) / 100 + 1, 0])
    }

    /// Issue 49: a filtered input longer than several pieces (`filterPieceLength`, counted
    /// from frame 0) gives the same records for any `--jobs` and ring capacity, and those of
    /// the sequential path, whose channels run the same pieces.
    @Test(arguments: [64, 4096, 1 << 20])
    func filteredRecordsAreTheSameBytesForAnyJobsAndRing(ringCapacity: Int) async throws {
        let settings = try PipelineSettings(
            frameLength: 256, hop: 100, filters: ["highpass:10:4", "notch:50"].map(FilterSpec.init(parsing:)))
        let frames = 3 * PipelineSettings.filterPieceLength + 12_345
        let make = {
            [
                ("stereo", SyntheticSource(frames: frames, channels: 2)),
                ("three", SyntheticSource(frames: frames / 2, channels: 3)),
                ("mono", SyntheticSource(frames: frames, channels: 1)),
            ]
        }
        let expected = BatchCollector()
        for (name, source) in make() {
            let processor = try SourceProcessor(
                format: source.format, settings: settings, fileName: name, maximumBlock: 4096)
            _ = try BatchRun.run(source: source, processor: processor) { expected.append($0) }
        }
        for jobs in [1, 2, 3, 8] {
            let graph = PipelineGraph(
                settings: settings, options: .init(jobs: jobs, ringCapacity: ringCapacity, framesPerJob: 37))
            let records = BatchCollector()
            _ = try await graph.run(inputs: make().map { PipelineGraph.Input(name: $0.0, source: $0.1) }) {
                records.append($0)
            }
            #expect(records.records == expected.records, "jobs \(jobs)")
        }
        let windows = (frames - 256) / 100 + 1
        #expect(expected.records.count == 3 * windows + 3 * ((frames / 2 - 256) / 100 + 1))
    }

    /// One channel's first read goes straight into its block of samples (no copy out of the
    /// ring): with and without a filter, for a clip that fits and for inputs whose first
    /// read already holds whole jobs, the records are the sequential path's.
    @Test(arguments: [false, true])
    func monoInputsReadStraightIntoTheirSamplesGiveTheSequentialRecords(filtered: Bool) async throws {
        let settings = try PipelineSettings(
            frameLength: 256, hop: 100, filters: filtered ? [FilterSpec(parsing: "highpass:200:2")] : [])
        let make = {
            [
                ("clip", SyntheticSource(frames: 3_000, channels: 1)),
                ("long", SyntheticSource(frames: 300_000, channels: 1)),
                ("exact", SyntheticSource(frames: 256, channels: 1)),
            ]
        }
        let collector = BatchCollector()
        for (name, source) in make() {
            let processor = try SourceProcessor(
                format: source.format, settings: settings, fileName: name, maximumBlock: 4096)
            _ = try BatchRun.run(source: source, processor: processor) { collector.append($0) }
        }
        for jobs in [1, 2] {
            let graph = PipelineGraph(settings: settings, options: .init(jobs: jobs, framesPerJob: 16))
            let records = BatchCollector()
            let summary = try await graph.run(inputs: make().map { PipelineGraph.Input(name: $0.0, source: $0.1) }) {
                records.append($0)
            }
            #expect(records.records == collector.records)
            #expect(summary.samplesPerChannel == [3_000, 300_000, 256])
            #expect(summary.frames == [(3_000 - 256) / 100 + 1, (300_000 - 256) / 100 + 1, 1])
        }
    }

    /// Issue 30: each kind of thread's CPU, read from its clock at the run's end, is part of
    /// the process's CPU over the run, and the workers did the measuring.
    @Test func threadTimesAddUpWithinTheProcessCPU() async throws {
        let graph = PipelineGraph(settings: settings, options: .init(jobs: 2))
        _ = try await graph.run(inputs: [
            PipelineGraph.Input(name: "a", source: SyntheticSource(frames: 400_000, channels: 2))
        ]) { _ in }
        let times = graph.threadTimes
        #expect(times.workers > 0 && times.readers > 0)
        // Each clock ticks in nanoseconds; the sum of some threads never exceeds the whole.
        #expect(times.workers + times.readers + times.writer <= times.process + 1e-6)
        #expect(abs(times.serialShare - (1 - times.workers / times.process)) < 1e-12)
        #expect(abs(ThreadTimes.amdahl(serialShare: 0.02, cores: 16) - 12.307_692_307_692_308) < 1e-9)
    }

    @Test func sourceErrorEndsTheRunAndIsThrownOnce() async throws {
        let sources = [
            ("ok", SyntheticSource(frames: 50_000, channels: 2)),
            ("bad", SyntheticSource(frames: 50_000, channels: 2, failAfter: 30_000)),
        ]
        let graph = PipelineGraph(settings: settings, options: .init(jobs: 2, ringCapacity: 4096))
        let collector = BatchCollector()
        await #expect(throws: SondeError.self) {
            _ = try await graph.run(inputs: sources.map { PipelineGraph.Input(name: $0.0, source: $0.1) }) {
                collector.append($0)
            }
        }
    }

    @Test func emitErrorEndsTheRun() async throws {
        struct Full: Error {}
        let source = SyntheticSource(frames: 200_000, channels: 2)
        let graph = PipelineGraph(settings: settings, options: .init(jobs: 2, ringCapacity: 4096))
        let emitted = Atomic<Int>(0)
        await #expect(throws: Full.self) {
            _ = try await graph.run(inputs: [PipelineGraph.Input(name: "x", source: source)]) { _ in
                if emitted.add(1, ordering: .relaxed).newValue == 3 { throw Full() }
            }
        }
        // The reader stopped long before the end of the input.
        #expect(source.reads.load(ordering: .relaxed) < 200)
    }

    /// A slow exporter holds the reader back: what has been read but not yet emitted stays
    /// under a bound set by the queue and ring sizes, not by the input length.
    @Test func slowExporterAppliesBackpressure() async throws {
        let source = SyntheticSource(frames: 400_000, channels: 1)
        let options = PipelineGraph.Options(
            jobs: 2, ringCapacity: 4096, framesPerJob: 4, readFrames: 1024, recordsPerWrite: 1024)
        let graph = PipelineGraph(settings: settings, options: options)
        let maximumLead = Mutex(0)
        _ = try await graph.run(inputs: [PipelineGraph.Input(name: "x", source: source)]) { batch in
            let emittedSamples = (batch.firstFrame + batch.frameCount) * 100
            maximumLead.withLock { $0 = max($0, graph.progress - emittedSamples) }
            usleep(200)
        }
        // Ring 4096 + read block 1024 + framer history and block + (4*jobs work items +
        // 4*jobs+4 tickets + one in hand) × 4 frames × hop 100, + the records gathered for
        // one trip to the writing thread (one per frame here) × hop 100.
        let bound = 4096 + 1024 + 256 + 4096 + (8 + 12 + 1) * 4 * 100 + options.recordsPerWrite * 100
        #expect(maximumLead.withLock { $0 } <= bound)
    }

    @Test func stopEndsTheRunWithCompleteRecords() async throws {
        let source = SyntheticSource(frames: 10_000_000, channels: 2)
        let graph = PipelineGraph(settings: settings, options: .init(jobs: 2, ringCapacity: 4096))
        let collector = BatchCollector()
        let summary = try await graph.run(inputs: [PipelineGraph.Input(name: "x", source: source)]) { batch in
            collector.append(batch)
            if batch.firstFrame > 50 { graph.stop() }
        }
        #expect(summary.stopped)
        #expect(summary.samplesPerChannel[0] < 10_000_000)
        // Records come out contiguous from frame 0, each frame with every channel.
        let frames = collector.batches.withLock { $0.map { ($0.firstFrame, $0.frameCount) } }
        var next = 0
        for (first, count) in frames {
            #expect(first == next)
            next = first + count
        }
        #expect(summary.frames[0] == next)
    }
}
