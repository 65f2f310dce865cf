import Foundation
import SondeCore
import SondeDSP
import Synchronization
import Testing

@testable import SondePipeline

/// `SyntheticSource`'s samples from any frame on, as a file reopened there would give them,
/// failing on reading the frames in `failing`.
final class ReopenableSource: SampleSource {
    let format: StreamFormat
    private let frames: Int
    private var position: Int
    private let failing: Set<Int>
    /// How often the input was opened again, by every copy.
    let reopened: ReopenCount

    final class ReopenCount: Sendable {
        let count = Atomic<Int>(0)
    }

    init(frames: Int, channels: Int, start: Int = 0, failing: Set<Int> = [], reopened: ReopenCount = ReopenCount()) {
        self.frames = frames
        position = start
        self.failing = failing
        self.reopened = reopened
        format = StreamFormat(sampleRate: 8000, channelNames: (0..<channels).map { "c\($0)" })
    }

    var expectedFrames: Int? { frames - position }
    /// A note only the read that reaches the end gives, like a partial last frame's.
    var notes: [String] { position == frames ? ["read to frame \(frames)"] : [] }

    var reopening: SourceReopening? {
        let frames = frames, channels = format.channelCount, failing = failing, reopened = reopened
        return SourceReopening(frameCount: frames) { start in
            reopened.count.add(1, ordering: .relaxed)
            return ReopenableSource(
                frames: frames, channels: channels, start: start, failing: failing, reopened: reopened)
        }
    }

    func read(into buffer: UnsafeMutableBufferPointer<Double>) throws -> Int {
        let channels = format.channelCount
        let wanted = min(buffer.count / channels, 1 + (position * 7919) % 3001, frames - position)
        if let bad = failing.first(where: { $0 >= position && $0 < position + wanted }) {
            throw SondeError(.invalidInput, "bad frame \(bad)")
        }
        for i in 0..<wanted {
            for c in 0..<channels { buffer[i * channels + c] = SyntheticSource.sample(position + i, channel: c) }
        }
        position += wanted
        return wanted
    }
}

/// Each input's outcome, as a sink sees it.
final class OutcomeSink: PipelineSink, @unchecked Sendable {
    // @unchecked: the graph calls a sink from one thread at a time.
    var records: [String] = []
    var outcomes: [String] = []
    let collector = BatchCollector()

    func begin(input index: Int, name: String, format: StreamFormat) throws {}
    func write(_ batch: RecordBatch) throws { collector.append(batch) }
    func end(input index: Int, name: String, outcome: PipelineGraph.InputOutcome) throws {
        switch outcome {
        case .finished(let summary):
            outcomes.append("\(name) \(summary.samplesPerChannel) \(summary.frames) \(summary.notes)")
        case .failed(let error): outcomes.append("\(name) failed: \(error)")
        }
    }
}

@Suite struct InputSegmentTests {
    /// Every window in exactly one segment, each segment reading exactly its windows'
    /// samples, and the input's samples accounted for once.
    /// With a filter (a piece length; 0 for none), each segment also reads from the start of
    /// its piece, and drops what it reads before its first frame (less than a piece).
    @Test(
        arguments: [
            (100_000, 256, 100, false), (100_003, 1024, 1024, true), (5_000, 16, 1, true), (70_000, 512, 37, false),
        ], [0, 1000, 3001])
    func segmentsCoverEveryWindowOnce(shape: (Int, Int, Int, Bool), pieces: Int) throws {
        let (frameCount, frameLength, hop, flux) = shape
        let pieceLength = pieces == 0 ? nil : pieces
        let segments = try #require(
            InputSegments(
                frameCount: frameCount, channelCount: 2, frameLength: frameLength, hop: hop, needsPreviousFrame: flux,
                jobs: 2, pieceLength: pieceLength, segmentSamples: 2_000))
        let windows = (frameCount - frameLength) / hop + 1
        var nextWindow = 0
        var ownFrames = 0
        for ordinal in 0..<segments.count {
            let segment = segments.segment(ordinal)
            #expect(segment.firstWindow == nextWindow)
            #expect(segment.startFrame == segment.firstWindow * hop - segment.leadingFrames)
            #expect(segment.leadingFrames == (flux && ordinal > 0 ? hop : 0))
            if let pieceLength {
                #expect(segment.readStart % pieceLength == 0)
                #expect(segment.discardedFrames < pieceLength)
            } else {
                #expect(segment.discardedFrames == 0)
            }
            let read = segment.frameLimit ?? (frameCount - segment.readStart)
            let segmentWindows = (read - segment.discardedFrames - segment.leadingFrames - frameLength) / hop + 1
            #expect(segmentWindows >= 1)
            nextWindow += segmentWindows
            ownFrames += segment.ownFrames(read: read)
        }
        #expect(nextWindow == windows)
        #expect(ownFrames == frameCount)
        #expect(segments.count >= 2)
    }

    @Test func inputsAreNotCutForOneJobOrAShortInput() {
        // Mono, N = 1024, H = 512: 4096 windows a segment, about 2 M frames (32 pieces).
        func cut(jobs: Int = 2, filtered: Bool = false, frames: Int = 4_000_000) -> Bool {
            InputSegments(
                frameCount: frames, channelCount: 1, frameLength: 1024, hop: 512, needsPreviousFrame: false,
                jobs: jobs, pieceLength: filtered ? 65_536 : nil, segmentSamples: 1 << 21) != nil
        }
        #expect(cut())
        #expect(!cut(jobs: 1))
        #expect(cut(filtered: true))
        #expect(!cut(jobs: 1, filtered: true))
        #expect(!cut(frames: 4096 * 512 + 512))
        #expect(cut(frames: 4096 * 512 + 1024))
        #expect(!cut(filtered: true, frames: 32 * 65_536 + 512))
        #expect(cut(filtered: true, frames: 32 * 65_536 + 1024))
    }

    private func run(
        _ inputs: [(String, ReopenableSource)], settings: PipelineSettings, jobs: Int, segmentSamples: Int,
        keepGoing: Bool = false
    ) async throws -> (sink: OutcomeSink, summary: PipelineGraph.Summary) {
        let graph = PipelineGraph(
            settings: settings,
            options: .init(jobs: jobs, framesPerJob: 5, keepGoing: keepGoing, segmentSamples: segmentSamples))
        let sink = OutcomeSink()
        let summary = try await graph.run(
            PipelineGraph.Inputs(opened: inputs.map { PipelineGraph.Input(name: $0.0, source: $0.1) }), sink: sink)
        return (sink, summary)
    }

    /// Issue 30: a long input read as segments side by side gives the records, counts and
    /// notes of one sequential read, with and without the frame before (spectral flux).
    @Test(arguments: [1, 3], [false, true])
    func cutInputsGiveTheRecordsOfOneRead(channels: Int, flux: Bool) async throws {
        var families = FamilyOptions()
        if flux { families.names = ["spectral_flux"] }
        let settings = try PipelineSettings(frameLength: 256, hop: 100, families: families)
        let counter = ReopenableSource.ReopenCount()
        let make = {
            [
                ("long", ReopenableSource(frames: 60_037, channels: channels, reopened: counter)),
                ("short", ReopenableSource(frames: 700, channels: channels, reopened: counter)),
            ]
        }
        let (whole, wholeSummary) = try await run(make(), settings: settings, jobs: 1, segmentSamples: 3000)
        #expect(counter.count.load(ordering: .relaxed) == 0)
        for jobs in [2, 3] {
            let (cut, cutSummary) = try await run(make(), settings: settings, jobs: jobs, segmentSamples: 3000)
            #expect(counter.count.load(ordering: .relaxed) > 10)
            #expect(cut.collector.records == whole.collector.records)
            #expect(cut.outcomes == whole.outcomes)
            #expect(cutSummary.samplesPerChannel == wholeSummary.samplesPerChannel)
            #expect(cutSummary.frames == wholeSummary.frames)
            counter.count.store(0, ordering: .relaxed)
        }
        #expect(wholeSummary.samplesPerChannel == [60_037, 700])
        #expect(whole.collector.records.count == channels * ((60_037 - 256) / 100 + 1 + (700 - 256) / 100 + 1))
    }

    /// Issue 49: a filtered input is cut too, its segments and its pieces' zero-state pass
    /// read side by side, and gives the records of one sequential read for any number of
    /// jobs, with and without the frame before (spectral flux), one to three channels.
    @Test(arguments: [1, 2, 3], [false, true])
    func filteredCutInputsGiveTheRecordsOfOneRead(channels: Int, flux: Bool) async throws {
        var families = FamilyOptions()
        if flux { families.names = ["spectral_flux"] }
        let settings = try PipelineSettings(
            frameLength: 256, hop: 100, filters: ["highpass:10:4", "notch:50"].map(FilterSpec.init(parsing:)),
            families: families)
        let frames = 4 * PipelineSettings.filterPieceLength + 1_234
        let counter = ReopenableSource.ReopenCount()
        let make = {
            [
                ("long", ReopenableSource(frames: frames, channels: channels, reopened: counter)),
                ("short", ReopenableSource(frames: 700, channels: channels, reopened: counter)),
            ]
        }
        let (whole, wholeSummary) = try await run(make(), settings: settings, jobs: 1, segmentSamples: 3000)
        #expect(counter.count.load(ordering: .relaxed) == 0)
        for jobs in [2, 3, 4, 8] {
            let (cut, cutSummary) = try await run(make(), settings: settings, jobs: jobs, segmentSamples: 3000)
            // From `filteredCutMinimumJobs` on, four segments after the first (a piece each),
            // and the zero-state passes of pieces 0 to 3 (the last, short piece's final state
            // starts nothing); below it, one read of the whole input.
            let reopened = jobs >= PipelineSettings.filteredCutMinimumJobs ? 8 : 0
            #expect(counter.count.load(ordering: .relaxed) == reopened, "jobs \(jobs)")
            #expect(cut.collector.records == whole.collector.records, "jobs \(jobs)")
            #expect(cut.outcomes == whole.outcomes)
            #expect(cutSummary.samplesPerChannel == wholeSummary.samplesPerChannel)
            #expect(cutSummary.frames == wholeSummary.frames)
            counter.count.store(0, ordering: .relaxed)
        }
        #expect(wholeSummary.samplesPerChannel == [frames, 700])
    }

    /// A read error in a filtered cut input is reported in input order, as without a filter,
    /// although the pieces' zero-state pass may meet it first.
    @Test func theFirstErrorOfAFilteredInputEndsTheRun() async throws {
        let settings = try PipelineSettings(frameLength: 256, hop: 100, filters: [FilterSpec(parsing: "highpass:10")])
        let bad = PipelineSettings.filterPieceLength + 30_000
        for _ in 0..<3 {
            let source = ReopenableSource(frames: 5 * PipelineSettings.filterPieceLength, channels: 2, failing: [bad])
            let graph = PipelineGraph(
                settings: settings,
                options: .init(jobs: PipelineSettings.filteredCutMinimumJobs, segmentSamples: 3000))
            let sink = OutcomeSink()
            do {
                _ = try await graph.run(
                    PipelineGraph.Inputs(opened: [PipelineGraph.Input(name: "x", source: source)]), sink: sink)
                Issue.record("the run did not fail")
            } catch let error as SondeError {
                #expect(error.message.contains("bad frame \(bad)"))
            }
            let lastFrame = sink.collector.batches.withLock { $0.map { $0.firstFrame + $0.frameCount }.max() ?? 0 }
            #expect(lastFrame * 100 <= bad)
        }
    }

    /// The first bad frame in input order is the one reported, although a later segment,
    /// read at the same time, may find its bad frame first; nothing after it is written.
    @Test func theFirstErrorInInputOrderEndsTheRun() async throws {
        let settings = try PipelineSettings(frameLength: 256, hop: 100)
        for _ in 0..<5 {
            let source = ReopenableSource(frames: 80_000, channels: 2, failing: [30_000, 70_000])
            let graph = PipelineGraph(settings: settings, options: .init(jobs: 3, segmentSamples: 3000))
            let sink = OutcomeSink()
            do {
                _ = try await graph.run(
                    PipelineGraph.Inputs(opened: [PipelineGraph.Input(name: "x", source: source)]), sink: sink)
                Issue.record("the run did not fail")
            } catch let error as SondeError {
                #expect(error.message.contains("bad frame 30000"))
            }
            let lastFrame = sink.collector.batches.withLock { $0.map { $0.firstFrame + $0.frameCount }.max() ?? 0 }
            #expect(lastFrame * 100 <= 30_000)
        }
    }

    /// With `keepGoing`, a cut input's error fails that input only; the next is whole.
    @Test func keepGoingFailsTheCutInputOnly() async throws {
        let settings = try PipelineSettings(frameLength: 256, hop: 100)
        let (sink, summary) = try await run(
            [
                ("bad", ReopenableSource(frames: 80_000, channels: 2, failing: [50_000])),
                ("good", ReopenableSource(frames: 40_000, channels: 2)),
            ], settings: settings, jobs: 2, segmentSamples: 3000, keepGoing: true)
        #expect(sink.outcomes.count == 2)
        #expect(sink.outcomes.first?.contains("bad failed: ") == true)
        #expect(sink.outcomes.first?.contains("bad frame 50000") == true)
        #expect(sink.outcomes.last == "good 40000 \((40_000 - 256) / 100 + 1) [\"read to frame 40000\"]")
        #expect(summary.failedInputs == 1)
    }
}
