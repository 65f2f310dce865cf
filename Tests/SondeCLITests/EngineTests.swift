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

    /// Issue 30: a long raw or WAV file is read as segments side by side when there are
    /// several jobs; the records, notes and exit status are those of one sequential read.
    @Test func longFilesReadInSegmentsGiveTheBytesOfOneRead() throws {
        let directory = try TestScratch.folder("sonde-segments")
        defer { try? FileManager.default.removeItem(at: directory) }
        // 600,000 frames of four channels (past the size read whole, 4 MiB): with --window 16
        // a segment is 8,192 windows, so each file is cut into five; the raw file ends with
        // half a frame.
        let frames = 600_000
        var shorts = [Int16](repeating: 0, count: 4 * frames)
        var state: UInt32 = 12345
        for index in shorts.indices {
            state = state &* 1_664_525 &+ 1_013_904_223
            shorts[index] = Int16(truncatingIfNeeded: Int(state >> 16) / 4 + (index % 4) * 1000)
        }
        var floats = shorts.map { Float($0) / 32768 }
        var raw = Data(bytes: &floats, count: floats.count * 4)
        raw.append(contentsOf: [0, 0, 0, 0, 0, 0, 0, 0])
        try raw.write(to: directory.appendingPathComponent("long.f32"))
        let data = Data(bytes: &shorts, count: shorts.count * 2)
        var wav = Data("RIFF".utf8)
        func append<T: FixedWidthInteger>(_ value: T) {
            withUnsafeBytes(of: value.littleEndian) { wav.append(contentsOf: $0) }
        }
        append(UInt32(36 + data.count))
        wav.append(contentsOf: Data("WAVEfmt ".utf8))
        append(UInt32(16))
        append(UInt16(1))
        append(UInt16(4))
        append(UInt32(25600))
        append(UInt32(25600 * 8))
        append(UInt16(8))
        append(UInt16(16))
        wav.append(contentsOf: Data("data".utf8))
        append(UInt32(data.count))
        wav.append(data)
        try wav.write(to: directory.appendingPathComponent("long.wav"))
        for file in [["long.f32", "--rate", "25600", "--channels", "4"], ["long.wav"]] {
            let arguments = ["process"] + file + ["--window", "16", "--hop", "16", "--features", "rms,spectral_flux"]
            let one = try SondeBinary.run(arguments + ["--jobs", "1"], in: directory)
            #expect(one.status == 0, "stderr: \(one.stderr)")
            #expect(one.stdout.split(separator: "\n").count == 1 + 4 * (frames / 16))
            for jobs in ["3"] {
                let cut = try SondeBinary.run(arguments + ["--jobs", jobs], in: directory)
                #expect(cut.status == 0)
                #expect(cut.stdout == one.stdout, "\(file[0]) with --jobs \(jobs) differs from --jobs 1")
                #expect(cut.stderr == one.stderr)
            }
        }
    }

    /// Issue 49: a long filtered file is read as segments too, its filter cut into pieces of
    /// 65,536 frames from its first: the same bytes for every --jobs and --ring-capacity,
    /// and the same as the samples given on standard input (read whole, one pass).
    @Test func longFilteredFilesGiveTheSameBytesForAnyJobsAndFromStandardInput() throws {
        let directory = try TestScratch.folder("sonde-filtered-segments")
        defer { try? FileManager.default.removeItem(at: directory) }
        // 400,000 frames of four channels (6.4 MB, past the size read whole): with --window 16
        // a segment is two pieces, so the file is cut into four, on 101,325 + a tone.
        let frames = 400_000
        var floats = [Float](repeating: 0, count: 4 * frames)
        var state: UInt32 = 777
        for index in floats.indices {
            state = state &* 1_664_525 &+ 1_013_904_223
            let frame = Double(index / 4)
            floats[index] =
                Float(101_325 + 10 * sin(2 * .pi * 100 * frame / 25600) + Double(Int(state >> 16) - 32768) / 3e5)
                + Float(index % 4)
        }
        let raw = Data(bytes: &floats, count: floats.count * 4)
        try raw.write(to: directory.appendingPathComponent("long.f32"))
        let options = [
            "--rate", "25600", "--channels", "4", "--sample-type", "f32le", "--window", "16", "--hop", "16",
            "--features", "mean,rms,peak,spectral_flux", "--filter", "highpass:10:4", "--filter", "notch:50",
        ]
        let one = try SondeBinary.run(["process", "long.f32"] + options + ["--jobs", "1"], in: directory)
        #expect(one.status == 0, "stderr: \(one.stderr)")
        #expect(one.stdout.split(separator: "\n").count == 1 + 4 * (frames / 16))
        for (jobs, ring) in [("2", "64"), ("3", "4096"), ("8", "1048576"), ("1", "1048576")] {
            let cut = try SondeBinary.run(
                ["process", "long.f32"] + options + ["--jobs", jobs, "--ring-capacity", ring], in: directory)
            #expect(cut.status == 0)
            #expect(cut.stdout == one.stdout, "--jobs \(jobs) --ring-capacity \(ring) differs from --jobs 1")
        }
        let piped = try SondeBinary.run(["process", "-"] + options + ["--jobs", "3"], stdin: raw, in: directory)
        #expect(piped.status == 0, "stderr: \(piped.stderr)")
        #expect(piped.stdout == one.stdout, "standard input differs from the file")
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
