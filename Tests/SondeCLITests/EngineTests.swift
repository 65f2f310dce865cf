import Foundation
import Testing
import _SondeTestSupport

/// The streaming engine seen from the command line: determinism across workers and ring
/// sizes, and clean endings.
@Suite struct EngineTests {
    private let sampleData = Fixtures.packageRoot.appendingPathComponent("sample-data")

    /// Same bytes for every --jobs and --ring-capacity, and from one process to the next.
    @Test func outputIsByteIdenticalAcrossJobsAndRingSizes() throws {
        let arguments = [
            "process", "bearing.f32le", "pump-vibration.csv", "motor.wav", "bearing.f32le",
            "--rate", "25600", "--filter", "highpass:10", "--bands", "0-1000,1000-5000", "--window", "512", "--hop",
            "200",
        ]
        // --rate applies to every input; the CSV and WAV rates are overridden on purpose so
        // one command covers all three readers. --sample-type is implied by .f32le.
        var outputs: [String: String] = [:]
        for jobs in ["1", "2", "3"] {
            for ring in ["64", "4096", "1048576"] {
                let result = try SondeBinary.run(
                    arguments + ["--channels", "2", "--jobs", jobs, "--ring-capacity", ring], in: sampleData)
                #expect(result.status == 0, "stderr: \(result.stderr)")
                outputs["jobs \(jobs), ring \(ring)"] = result.stdout
            }
        }
        let again = try SondeBinary.run(arguments + ["--channels", "2", "--jobs", "2"], in: sampleData)
        outputs["second process"] = again.stdout
        let reference = try #require(outputs["jobs 1, ring 64"])
        #expect(reference.split(separator: "\n").count > 1000)
        for (name, output) in outputs {
            #expect(output == reference, "\(name) differs from jobs 1, ring 64")
        }
    }

    /// SIGINT while input is still arriving: the records already complete are written,
    /// nothing half-written, exit status 130.
    @Test func interruptFlushesCompleteRecordsAndExits130() throws {
        let process = Process()
        process.executableURL = SondeBinary.url
        process.arguments = [
            "process", "-", "--rate", "1000", "--sample-type", "f64le", "--window", "64", "--hop", "32", "--features",
            "rms,peak",
        ]
        let input = Pipe(), output = Pipe(), errors = Pipe()
        process.standardInput = input
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        // 1000 samples: (1000 - 64) / 32 + 1 = 30 complete frames; the pipe stays open.
        var samples = (0..<1000).map { sin(Double($0) * 0.3) }
        let bytes = Data(bytes: &samples, count: samples.count * 8)
        input.fileHandleForWriting.write(bytes)
        Thread.sleep(forTimeInterval: 1.0)
        #expect(process.isRunning, "sonde must still be waiting for input")
        kill(process.processIdentifier, SIGINT)
        let deadline = Date().addingTimeInterval(10)
        while process.isRunning, Date() < deadline { Thread.sleep(forTimeInterval: 0.05) }
        #expect(!process.isRunning, "sonde did not stop after SIGINT")
        if process.isRunning { process.terminate() }
        process.waitUntilExit()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(process.terminationStatus == 130)
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.first == "time,channel,frame,start,rms,peak")
        #expect(lines.last == "", "output ends with a complete line")
        #expect(lines.count == 1 + 30 + 1)
        try? input.fileHandleForWriting.close()
    }
}
