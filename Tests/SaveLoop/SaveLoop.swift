import Foundation
import SondeCore
import SondeKit
import SondeMeasurements

/// A test tool, not part of `sonde`: saves synthetic measurements for the logged-in user,
/// for the store's multi-process and crash tests (AccountFlowCrashTests). Prints
/// `saved ID` after each save; with `--pause-at-batch K` it prints `mid-save` inside the
/// first save's transaction, after batch K, and waits there to be killed.
///
///     sonde-save-loop [--count N] [--batches N] [--frames-per-batch N] [--pause-at-batch K] [--comment TEXT]
@main
struct SaveLoop {
    static let channels = ["x", "y"]
    static let columns = ["rms", "peak", "dominant_frequency"]

    static func main() async {
        do {
            let options = try Options(CommandLine.arguments.dropFirst())
            let pause = options.pauseAtBatch
            let services = try LocalServices.open(
                environment: ProcessInfo.processInfo.environment,
                afterBatchInserted: { sequence in
                    guard sequence == pause else { return }
                    line("mid-save")
                    Thread.sleep(forTimeInterval: 120)
                })
            let owner = try await services.session.requireAccount()
            for index in 0..<options.count {
                let records = Self.records(
                    batches: options.batches, framesPerBatch: options.framesPerBatch, seed: index)
                let capture = MeasurementCapture(
                    deviceID: "debug-device", settings: #"{"window":1024,"hop":512}"#,
                    comment: "\(options.comment) \(index)",
                    channelNames: channels, columns: columns
                )
                let saved = try await services.measurements.save(capture, records: records, for: owner)
                line("saved \(saved.id)")
            }
        } catch {
            FileHandle.standardError.write(Data("sonde-save-loop: \(error)\n".utf8))
            exit(1)
        }
    }

    /// One line on standard output, written at once: a killed process has said what it did.
    static func line(_ text: String) {
        FileHandle.standardOutput.write(Data((text + "\n").utf8))
    }

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

/// `--name value` pairs; an unknown name or a bad number is an error.
struct Options {
    var count = 10
    var batches = 4
    var framesPerBatch = 16
    var pauseAtBatch: Int?
    var comment = "debug"

    init(_ arguments: ArraySlice<String>) throws {
        var rest = arguments
        while let name = rest.popFirst() {
            guard let value = rest.popFirst() else { throw UsageError("\(name) needs a value") }
            func number() throws -> Int {
                guard let number = Int(value), number >= 0 else { throw UsageError("\(name): not a count: \(value)") }
                return number
            }
            switch name {
            case "--count": count = try number()
            case "--batches": batches = try number()
            case "--frames-per-batch": framesPerBatch = try number()
            case "--pause-at-batch": pauseAtBatch = try number()
            case "--comment": comment = value
            default: throw UsageError("unknown option \(name)")
            }
        }
    }
}

struct UsageError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
