import SondeCore
import Testing

@testable import SondeLive

/// The feed keeps the last frame's values and folds every frame into min/max trend steps.
struct LiveFeedTests {
    /// `frames` frames of two channels, columns rms and peak: channel c, frame k has rms
    /// `k + c / 10` and peak `-k`.
    private func batch(firstFrame: Int, frames: Int, hop: Int = 100, rate: Double = 1000) -> RecordBatch {
        var values: [Double] = []
        for frame in firstFrame..<(firstFrame + frames) {
            for channel in 0..<2 { values += [Double(frame) + Double(channel) / 10, -Double(frame)] }
        }
        return RecordBatch(
            fileName: "device", channelNames: ["x", "y"], columnCount: 2, firstFrame: firstFrame, frameCount: frames,
            hop: hop,
            clock: .wallClock(sampleRate: rate, epochOfFirstSample: 1_000), values: values
        )
    }

    @Test func latestValuesAndRecordCount() throws {
        let feed = LiveFeed(columns: ["rms", "peak"], trendStep: 1, trendLength: 10)
        feed.publish(batch(firstFrame: 0, frames: 3))
        feed.publish(batch(firstFrame: 3, frames: 2))
        let snapshot = try #require(feed.snapshot())
        #expect(snapshot.records == 10)
        #expect(snapshot.value(channel: 1, column: 0) == 4.1)
        #expect(snapshot.value(channel: 0, column: 1) == -4)
        #expect(snapshot.latestTime == 1_000 + 0.4)
        #expect(feed.snapshot(after: snapshot.version) == nil)
    }

    /// Frames every 0.1 s into 1 s steps: each step spans ten frames, and only the last ten
    /// steps are kept.
    @Test func trendStepsKeepMinimumAndMaximum() throws {
        let feed = LiveFeed(columns: ["rms", "peak"], trendStep: 1, trendLength: 10)
        feed.publish(batch(firstFrame: 0, frames: 150))
        let snapshot = try #require(feed.snapshot())
        #expect(snapshot.trendColumns == ["rms", "peak"])
        #expect(snapshot.trend.count == 10)
        let first = try #require(snapshot.trend.first)
        #expect(abs(first.time - 1_005) < 1e-9)
        // rms: feature 0, channels x and y; peak: feature 1.
        #expect(first.minimum[0] == 50 && first.maximum[0] == 59)
        #expect(first.minimum[1] == 50.1 && first.maximum[1] == 59.1)
        #expect(first.minimum[2] == -59 && first.maximum[2] == -50)
        let last = try #require(snapshot.trend.last)
        #expect(last.last[0] == 149)
    }
}
