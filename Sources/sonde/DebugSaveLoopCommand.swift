import ArgumentParser
import Foundation
import SondeCore
import SondeMeasurements

/// Saves synthetic measurements for the logged-in user, for the store's multi-process and
/// crash tests (hidden from --help). Prints `saved ID` after each save; with
/// `--pause-at-batch K` it prints `mid-save` inside the first save's transaction, after
/// batch K, and waits there to be killed.
struct DebugSaveLoopCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "_debug-save-loop",
        abstract: "Test helper: save synthetic measurements in a loop.",
        shouldDisplay: false
    )

    @Option var count = 10
    @Option var batches = 4
    @Option var framesPerBatch = 16
    @Option var pauseAtBatch: Int?
    @Option var comment = "debug"

    func run() async throws {
        try await reportingAccountErrors {
            let pause = pauseAtBatch
            let services = try Services.live(afterBatchInserted: { sequence in
                guard sequence == pause else { return }
                AccountOutput.line("mid-save")
                Thread.sleep(forTimeInterval: 120)
            })
            for index in 0..<count {
                let records = Self.records(batches: batches, framesPerBatch: framesPerBatch, seed: index)
                let capture = MeasurementCapture(
                    deviceID: "debug-device", settings: #"{"window":1024,"hop":512}"#, comment: "\(comment) \(index)",
                    channelNames: Self.channels, columns: Self.columns
                )
                let saved = try await services.measurements.save(capture, records: records)
                AccountOutput.line("saved \(saved.id)")
            }
        }
    }

    static let channels = ["x", "y"]
    static let columns = ["rms", "peak", "dominant_frequency"]

    /// Values that depend on frame, channel, column and seed, so a torn save would show.
    static func records(batches: Int, framesPerBatch: Int, seed: Int) -> [RecordBatch] {
        (0..<batches).map { batch in
            let first = batch * framesPerBatch
            var values: [Double] = []
            for frame in first..<(first + framesPerBatch) {
                for channel in 0..<channels.count {
                    for column in 0..<columns.count {
                        values.append(Double(seed) + Double(frame) / 1000 + Double(channel * 10 + column))
                    }
                }
            }
            return RecordBatch(
                fileName: "debug", channelNames: channels, columnCount: columns.count, firstFrame: first,
                frameCount: framesPerBatch, hop: 512, clock: .seconds(sampleRate: 25_600, offset: 0), values: values
            )
        }
    }
}
