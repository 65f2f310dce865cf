import Foundation
import Testing
import _SondeTestSupport

/// Real instruments from the command line (issue 46): a command device and an ALSA PCM
/// (libasound's `file` plugin, no sound card) paired with `device pair`, streamed with
/// `sonde stream`, give the records `sonde process` gives for the same samples.
@Suite(.serialized) struct InstrumentDeviceTests {
    /// 2 channels of i16le at 8 kHz: a tone and a chirp-like ramp, 4,000 frames.
    private func writeSamples(in folder: URL) throws -> URL {
        var bytes: [UInt8] = []
        for frame in 0..<4000 {
            let t = Double(frame) / 8000
            let left = Int16(12_000 * sin(2 * Double.pi * 440 * t))
            let right = Int16(truncatingIfNeeded: (frame * 37) % 30_000 - 15_000)
            for value in [left, right] {
                let bits = UInt16(bitPattern: value)
                bytes += [UInt8(bits & 0xFF), UInt8(bits >> 8)]
            }
        }
        let url = folder.appendingPathComponent("in.i16")
        try Data(bytes).write(to: url)
        return url
    }

    /// Each record's feature values, in order, without the times a live stream stamps.
    private func values(_ output: String) throws -> [[String: Double]] {
        try JSONRecord.decodeLines(output).map { record in
            var values: [String: Double] = [:]
            for name in ["rms", "peak", "kurtosis"] { values[name] = record[name]?.number }
            values["channel"] = record["channel"]?.number
            return values
        }
    }

    private func processed(_ file: URL, frames: Int) throws -> [[String: Double]] {
        let run = try SondeBinary.run([
            "process", file.path, "--rate", "8000", "--channels", "2", "--sample-type", "i16le", "--window", "256",
            "--hop", "128", "--features", "rms,peak,kurtosis", "--format", "ndjson",
        ])
        #expect(run.status == 0, "\(run.stderr)")
        return Array(try values(run.stdout).prefix(2 * frames))
    }

    @Test func aCommandDeviceGivesTheRecordsOfItsSamples() throws {
        let home = try TestScratch.folder("sonde-instrument")
        defer { try? FileManager.default.removeItem(at: home) }
        let env = ["SONDE_HOME": home.path]
        let file = try writeSamples(in: home)
        let paired = try SondeBinary.run(
            [
                "device", "pair", "--command", "cat '\(file.path)'", "--rate", "8000", "--channels", "2",
                "--sample-type", "i16le",
            ], environment: env)
        #expect(paired.status == 0, "\(paired.stderr)")
        #expect(paired.stdout.hasPrefix("Device connected: command-"), "\(paired.stdout)")
        #expect(paired.stdout.contains("2 channels at 8 kHz, i16le"))
        let status = try SondeBinary.run(["device", "status"], environment: env)
        #expect(status.stdout == paired.stdout)
        let streamed = try SondeBinary.run(
            ["stream", "--window", "256", "--hop", "128", "--features", "rms,peak,kurtosis"], environment: env)
        #expect(streamed.status == 0, "\(streamed.stderr)")
        let expected = try processed(file, frames: 1000)
        #expect(!expected.isEmpty)
        #expect(try values(streamed.stdout) == expected, "the command's records differ from process's")
        // --stats times every record from its window's last sample read from the command.
        let timed = try SondeBinary.run(
            ["stream", "--window", "256", "--hop", "128", "--features", "rms,peak,kurtosis", "--stats"],
            environment: env)
        #expect(timed.status == 0, "\(timed.stderr)")
        #expect(try values(timed.stdout) == expected, "--stats changed the records")
        #expect(
            timed.stderr.contains("0 dropped") && timed.stderr.contains("; latency p50 ")
                && timed.stderr.contains("over \(expected.count) records"), "\(timed.stderr)")
        // Options a command device cannot use, and a command that fails.
        let missing = try SondeBinary.run(
            ["device", "pair", "--command", "cat x", "--rate", "8000", "--channels", "2"], environment: env)
        #expect(missing.status != 0 && missing.stderr.contains("--sample-type"))
        let failing = try SondeBinary.run(
            [
                "device", "pair", "--command", "echo the probe is unplugged >&2; exit 3", "--rate", "8000",
                "--channels", "1", "--sample-type", "f32le",
            ], environment: env)
        #expect(failing.status == 0)
        let failed = try SondeBinary.run(["stream", "--features", "rms"], environment: env)
        #expect(failed.status != 0)
        #expect(
            failed.stderr.contains("status 3") && failed.stderr.contains("the probe is unplugged"), "\(failed.stderr)")
    }

    /// The file plugin reads `in.i16` through the real libasound; it never ends (past its
    /// file it repeats), so the stream takes a number of windows.
    @Test func anALSADeviceGivesTheRecordsOfItsSamples() throws {
        let home = try TestScratch.folder("sonde-instrument-alsa")
        defer { try? FileManager.default.removeItem(at: home) }
        let file = try writeSamples(in: home)
        let configuration = home.appendingPathComponent("asoundrc")
        try """
        pcm.sondetest { type file; slave.pcm "null"; file "/dev/null"; infile "\(file.path)"; format "raw" }
        """.write(to: configuration, atomically: true, encoding: .utf8)
        let env = [
            "SONDE_HOME": home.path, "ALSA_CONFIG_PATH": "/usr/share/alsa/alsa.conf:\(configuration.path)",
        ]
        let paired = try SondeBinary.run(
            ["device", "pair", "--alsa", "sondetest", "--rate", "8000", "--channels", "2", "--format", "S16_LE"],
            environment: env)
        #expect(paired.status == 0, "\(paired.stderr)")
        #expect(paired.stdout.hasPrefix("Device connected: alsa-sondetest (ALSA sondetest, 2 channels at 8 kHz"))
        #expect(paired.stdout.contains("Captures read period"), "\(paired.stdout)")
        let frames = 20
        let streamed = try SondeBinary.run(
            [
                "stream", "--window", "256", "--hop", "128", "--features", "rms,peak,kurtosis", "--frames",
                "\(frames)",
            ], environment: env)
        #expect(streamed.status == 0, "\(streamed.stderr)")
        #expect(try values(streamed.stdout) == (try processed(file, frames: frames)))
        // A rate the PCM refuses is refused at pairing, naming the device.
        let refused = try SondeBinary.run(
            ["device", "pair", "--alsa", "no-such-pcm", "--rate", "8000", "--channels", "2"], environment: env)
        #expect(refused.status != 0 && refused.stderr.contains("no-such-pcm"), "\(refused.stderr)")
        let listed = try SondeBinary.run(["device", "list"], environment: env)
        #expect(listed.status == 0, "\(listed.stderr)")
    }
}
