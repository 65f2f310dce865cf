import Foundation
import Testing
import _SondeTestSupport

/// `sonde stream` and `sonde device` as a user runs them.
@Suite(.serialized) struct StreamTests {
    private let sampleData = Fixtures.packageRoot.appendingPathComponent("sample-data")

    private func temporaryDirectory() throws -> URL {
        try TestScratch.folder("sonde-stream")
    }

    /// A profile at `rate` Hz with two channels, written to a temporary file.
    private func profile(rate: Int, in directory: URL) throws -> String {
        let text = """
            name = "test-device"
            rate = \(rate)
            [[channels]]
            name = "x"
            tones = [{ frequency = \(Double(rate) / 21), amplitude = 1, harmonics = [0.2] }]
            noise = 0.05
            impulses = { rate = 3, amplitude = 2 }
            [[channels]]
            name = "y"
            tones = [{ frequency = \(Double(rate) / 13), amplitude = 0.5 }]
            noise = 0.01
            offset = 9.81
            """
        let path = directory.appendingPathComponent("test.toml").path
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    /// Starts sonde with pipes; the caller reads, signals and waits.
    private func start(_ arguments: [String], environment: [String: String] = [:]) throws -> (Process, Pipe, Pipe) {
        let process = Process()
        process.executableURL = SondeBinary.url
        process.arguments = arguments
        var env = ProcessInfo.processInfo.environment
        for (key, value) in environment { env[key] = value }
        process.environment = env
        let output = Pipe(), errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        process.standardInput = FileHandle.nullDevice
        try process.run()
        return (process, output, errors)
    }

    private func wait(_ process: Process, seconds: Double) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while process.isRunning, Date() < deadline { Thread.sleep(forTimeInterval: 0.02) }
        if process.isRunning {
            process.terminate()
            process.waitUntilExit()
            return false
        }
        process.waitUntilExit()
        return true
    }

    @Test func recordedSamplesGiveTheSameFeaturesThroughProcess() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let raw = dir.appendingPathComponent("raw.f32").path
        let profile = sampleData.appendingPathComponent("faulty-pump.toml").path
        let streamed = try SondeBinary.run([
            "stream", "--profile", profile, "--seed", "7", "--as-fast-as-possible", "--frames", "100", "--record", raw,
            "--bands", "0-1000,1000-5000", "--filter", "highpass:10",
        ])
        #expect(streamed.status == 0, "\(streamed.stderr)")
        let processed = try SondeBinary.run([
            "process", raw, "--rate", "25600", "--channels", "2", "--bands", "0-1000,1000-5000", "--filter",
            "highpass:10", "--format", "ndjson",
        ])
        #expect(processed.status == 0, "\(processed.stderr)")
        let live = try JSONRecord.decodeLines(streamed.stdout)
        let replayed = try JSONRecord.decodeLines(processed.stdout)
        #expect(live.count == 200 && replayed.count == 200)
        for (a, b) in zip(live, replayed) {
            for (key, value) in a.fields where key != "time" && key != "channel" {
                #expect(b[key] == value, "\(key)")
            }
        }
        // Live records carry wall-clock time; the channels keep the device's names.
        #expect(live.first?["time"]?.text?.hasSuffix("Z") == true)
        #expect(live.first?["channel"] == .text("accel_x"))
    }

    @Test func sameSeedSameSamples() throws {
        let profile = sampleData.appendingPathComponent("faulty-pump.toml").path
        let arguments = [
            "stream", "--profile", profile, "--seed", "3", "--as-fast-as-possible", "--frames", "20", "--format", "csv",
            "--features", "rms,kurtosis,peak",
        ]
        let first = try SondeBinary.run(arguments)
        let second = try SondeBinary.run(arguments)
        let other = try SondeBinary.run([
            "stream", "--profile", profile, "--seed", "4", "--as-fast-as-possible", "--frames", "20", "--format", "csv",
            "--features", "rms,kurtosis,peak",
        ])
        func values(_ text: String) -> [[String]] { RecordTable(csv: text).rows.map { Array($0.dropFirst(4)) } }
        #expect(values(first.stdout) == values(second.stdout))
        #expect(values(first.stdout) != values(other.stdout))
    }

    /// A 1 kHz device with N=64, H=32 emits one record per channel every 32 ms.
    @Test func recordsArePacedByTheSampleClock() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let (process, output, _) = try start([
            "stream", "--profile", try profile(rate: 1000, in: dir), "--window", "64", "--hop", "32", "--frames", "12",
            "--features", "rms",
        ])
        var arrivals: [Date] = []
        var buffer = Data()
        let handle = output.fileHandleForReading
        while true {
            let chunk = handle.availableData
            if chunk.isEmpty { break }
            buffer.append(chunk)
            let lines = buffer.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).count - 1
            while arrivals.count < lines { arrivals.append(Date()) }
        }
        #expect(wait(process, seconds: 10))
        #expect(arrivals.count == 24)
        // Frame 0 needs 64 samples (64 ms), each later frame 32 ms more: 11 × 32 ms from
        // the first record to the last.
        let span = (arrivals.last ?? Date()).timeIntervalSince(arrivals.first ?? Date())
        #expect(span > 0.28 && span < 0.6, "first to last record took \(span) s, expected about 0.352 s")
    }

    @Test func closedStdoutEndsQuietlyWithSuccess() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let command =
            "set -o pipefail; '\(SondeBinary.url.path)' stream --profile '\(try profile(rate: 8000, in: dir))' --window 256 | head -n 3"
        let started = Date()
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/bash")
        process.arguments = ["-c", command]
        let output = Pipe(), errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        #expect(wait(process, seconds: 10), "sonde did not end after head closed the pipe")
        #expect(process.terminationStatus == 0)
        #expect(
            String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self).split(separator: "\n")
                .count == 3)
        #expect(errors.fileHandleForReading.readDataToEndOfFile().isEmpty)
        #expect(Date().timeIntervalSince(started) < 5)
    }

    @Test(arguments: [(SIGINT, Int32(130)), (SIGTERM, Int32(143))])
    func signalFlushesAndSummarizes(signal: Int32, status: Int32) throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let (process, output, errors) = try start([
            "stream", "--profile", try profile(rate: 8000, in: dir), "--window", "256", "--format", "csv", "--features",
            "rms",
        ])
        // Signalled once records flow (the handlers are installed by then): a fixed delay
        // was too short for a debug binary on a loaded machine.
        var received = Data()
        let deadline = Date().addingTimeInterval(30)
        while received.filter({ $0 == 10 }).count < 3, Date() < deadline {
            let chunk = output.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            received.append(chunk)
        }
        kill(process.processIdentifier, signal)
        #expect(wait(process, seconds: 10))
        #expect(process.terminationStatus == status)
        received.append(output.fileHandleForReading.readDataToEndOfFile())
        let text = String(decoding: received, as: UTF8.self)
        let summary = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.count > 3 && lines.last == "", "complete records only")
        #expect(summary.contains("records") && summary.contains("dropped"), "\(summary)")
        #expect(summary.split(separator: "\n").count == 1)
    }

    /// stdout stalls for 1.5 s: a live device drops its oldest blocks (and says how many);
    /// with --on-overrun block nothing is lost.
    @Test(arguments: ["drop-oldest", "block"])
    func overrunPolicy(_ policy: String) throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let (process, output, errors) = try start([
            "stream", "--profile", try profile(rate: 200_000, in: dir), "--window", "64", "--hop", "64", "--on-overrun",
            policy, "--duration", "2.5s",
        ])
        Thread.sleep(forTimeInterval: 1.5)  // nobody reads: the 64 KiB pipe fills within milliseconds
        let drained = output.fileHandleForReading.readDataToEndOfFile()
        #expect(wait(process, seconds: 20))
        #expect(process.terminationStatus == 0)
        let summary = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        let dropped =
            summary.split(separator: ",").first { $0.contains("dropped") }.flatMap {
                Int($0.split(separator: " ").first ?? "")
            } ?? -1
        let records = String(decoding: drained, as: UTF8.self).split(separator: "\n").count
        if policy == "drop-oldest" {
            #expect(dropped > 0, "\(summary)")
            #expect(records < 2 * 500_000 / 64)
        } else {
            #expect(dropped == 0, "\(summary)")
            #expect(records == 2 * (500_000 / 64), "block loses nothing: \(summary)")
        }
    }

    @Test func devicePairingIsRememberedAndForgotten() throws {
        let home = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: home) }
        let env = ["SONDE_HOME": home.path]
        #expect(try SondeBinary.run(["device", "status"], environment: env).stdout == "Device not connected\n")
        let withoutDevice = try SondeBinary.run(["stream", "--frames", "1"], environment: env)
        #expect(withoutDevice.status != 0 && withoutDevice.stderr.contains("sonde device pair"))
        let started = Date()
        let paired = try SondeBinary.run(
            [
                "device", "pair", "--profile", sampleData.appendingPathComponent("healthy-pump.toml").path, "--seed",
                "9",
            ], environment: env)
        let took = Date().timeIntervalSince(started)
        #expect(paired.status == 0)
        #expect(took >= 0.3, "pairing is a handshake of 300–800 ms, took \(took) s")
        let id = paired.stdout.trimmingCharacters(in: .newlines)
        #expect(id.hasPrefix("Device connected: sim-healthy-pump-"))
        #expect(try SondeBinary.run(["device", "status"], environment: env).stdout == id + "\n")
        let streamed = try SondeBinary.run(
            ["stream", "--frames", "2", "--as-fast-as-possible", "--features", "rms"], environment: env)
        #expect(streamed.status == 0)
        #expect(try JSONRecord.decodeLines(streamed.stdout).count == 4)
        // The paired device sets its own rate and channels: an option that would be ignored is refused.
        for options in [
            ["--rate", "1000"], ["--channels", "1"], ["--rate", "1000", "--channels", "1"], ["--sample-type", "f32le"],
        ] {
            let refused = try SondeBinary.run(
                ["stream", "--frames", "1", "--as-fast-as-possible"] + options, environment: env)
            #expect(refused.status == 1 && refused.stdout.isEmpty, "\(options)")
            #expect(
                refused.stderr.contains(options[0]) && refused.stderr.contains("paired device"), "\(refused.stderr)")
        }
        #expect(try SondeBinary.run(["device", "unpair"], environment: env).status == 0)
        #expect(try SondeBinary.run(["device", "status"], environment: env).stdout == "Device not connected\n")
    }

    /// A profile sets the device's rate and channels; options that would be ignored are refused.
    @Test func optionsAProfileWouldIgnoreAreRefused() throws {
        let profile = sampleData.appendingPathComponent("healthy-pump.toml").path
        for options in [["--rate", "1000"], ["--channels", "3"], ["--sample-type", "i16le"]] {
            let refused = try SondeBinary.run(
                ["stream", "--profile", profile, "--frames", "1", "--as-fast-as-possible"] + options)
            #expect(refused.status == 1 && refused.stdout.isEmpty, "\(options): \(refused.stderr)")
            #expect(refused.stderr.contains(options[0]), "\(refused.stderr)")
        }
        // With flags describing the device, --rate and --channels shape it.
        let described = try SondeBinary.run(
            [
                "stream", "--tone", "50:1", "--rate", "1000", "--channels", "3", "--frames", "1",
                "--as-fast-as-possible", "--window", "64",
                "--format", "ndjson",
            ])
        #expect(described.status == 0, "\(described.stderr)")
        #expect(
            try JSONRecord.decodeLines(described.stdout).compactMap { $0["channel"]?.text } == ["ch0", "ch1", "ch2"])
    }

    @Test func badProfileNamesFileAndLine() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("bad.toml").path
        try "rate = 1000\n[[channels]]\ntones = [{ frequency = 50, amplitude = }]\n".write(
            toFile: path, atomically: true, encoding: .utf8)
        let result = try SondeBinary.run(["stream", "--profile", path, "--frames", "1"])
        #expect(result.status == 1)
        #expect(result.stderr.contains("bad.toml, line 3"), "\(result.stderr)")
    }

    @Test func badProfileValueNamesFileAndSetting() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("bad.toml").path
        let text =
            "rate = 1000\n[[channels]]\nname = \"a\"\n[[channels]]\ntones = [{ frequency = 50, amplitude = 1 }, { frequency = -1, amplitude = 1 }]\n"
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        let result = try SondeBinary.run(["stream", "--profile", path, "--frames", "1"])
        #expect(result.status == 1)
        #expect(
            result.stderr.contains("bad.toml") && result.stderr.contains("channels[2].tones[2].frequency"),
            "\(result.stderr)")
        try "rate = 1000\n[[channels]]\nnoize = 1\n".write(toFile: path, atomically: true, encoding: .utf8)
        let misspelt = try SondeBinary.run(["stream", "--profile", path, "--frames", "1"])
        #expect(misspelt.status == 1)
        #expect(misspelt.stderr.contains("unknown setting 'noize' in channels[1]"), "\(misspelt.stderr)")
    }

    /// A profile in the format before 0.8 still streams, with a note naming the converter;
    /// the converted TOML streams the same records.
    @Test func legacyProfileIsReadWithANoteAndConvertsToTheSameDevice() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let legacy = Fixtures.url("profiles/faulty-pump-legacy.profile").path
        let arguments = ["--seed", "7", "--as-fast-as-possible", "--frames", "6", "--format", "ndjson"]
        let old = try SondeBinary.run(["stream", "--profile", legacy] + arguments)
        #expect(old.status == 0, "\(old.stderr)")
        #expect(old.stderr.contains("sonde device convert-profile"), "\(old.stderr)")
        let converted = dir.appendingPathComponent("converted.toml").path
        let conversion = try SondeBinary.run(["device", "convert-profile", legacy, "-o", converted])
        #expect(conversion.status == 0, "\(conversion.stderr)")
        let new = try SondeBinary.run(["stream", "--profile", converted] + arguments)
        #expect(new.status == 0 && !new.stderr.contains("convert-profile"), "\(new.stderr)")
        let sample = try SondeBinary.run(
            ["stream", "--profile", sampleData.appendingPathComponent("faulty-pump.toml").path] + arguments)
        #expect(sample.status == 0, "\(sample.stderr)")
        func values(_ text: String) throws -> [[String: Double]] {
            try JSONRecord.decodeLines(text).map { $0.fields.compactMapValues(\.number).filter { $0.key != "time" } }
        }
        // Times are wall-clock; the measured values depend only on the profile and seed.
        #expect(try values(old.stdout) == values(new.stdout))
        #expect(try values(old.stdout) == values(sample.stdout))
    }

    /// `--serve` takes [ADDR:]PORT with a port up to 65535; an address that cannot be bound
    /// is an error before any record.
    @Test(arguments: ["70000", "-1", "host:", ":80", "abc"])
    func serveRejectsBadAddresses(address: String) throws {
        let profile = sampleData.appendingPathComponent("faulty-pump.toml").path
        let result = try SondeBinary.run(["stream", "--profile", profile, "--frames", "1", "--serve", address])
        #expect(result.status == 64, "\(address): \(result.stderr)")
        #expect(result.stderr.contains("--serve"), "\(result.stderr)")
        #expect(result.stdout.isEmpty)
    }

    @Test func serveOnAnAddressNotOfThisMachineFailsBeforeAnyRecord() throws {
        let profile = sampleData.appendingPathComponent("faulty-pump.toml").path
        let result = try SondeBinary.run(["stream", "--profile", profile, "--frames", "5", "--serve", "192.0.2.1:8080"])
        #expect(result.status != 0)
        #expect(result.stderr.contains("--serve 192.0.2.1:8080"), "\(result.stderr)")
        #expect(result.stdout.isEmpty)
    }

    /// With the live page served, stdout carries the same records as without it.
    @Test func serveLeavesTheRecordsOnStdoutAsTheyWere() throws {
        let profile = sampleData.appendingPathComponent("faulty-pump.toml").path
        let arguments = ["stream", "--profile", profile, "--seed", "7", "--as-fast-as-possible", "--frames", "200"]
        let plain = try SondeBinary.run(arguments)
        let served = try SondeBinary.run(arguments + ["--serve", "127.0.0.1:0"])
        #expect(plain.status == 0 && served.status == 0, "\(served.stderr)")
        #expect(served.stderr.contains("live page at http://127.0.0.1:"), "\(served.stderr)")
        let expected = try JSONRecord.decodeLines(plain.stdout)
        let records = try JSONRecord.decodeLines(served.stdout)
        #expect(records.count == 400 && expected.count == 400)
        for (record, reference) in zip(records, expected) {
            #expect(record.fields.keys.sorted() == reference.fields.keys.sorted())
            for (key, value) in reference.fields where key != "time" { #expect(record[key] == value, "\(key)") }
        }
    }
}
