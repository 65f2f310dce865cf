import Foundation
import Testing
import _SondeTestSupport

/// The options of docs/features.md section 7 on the command line: byte-identical output
/// however frames are split, flux restarting at each input, and every invalid value refused
/// before output.
@Suite struct FamilyCommandTests {
    /// Two channels at 8 kHz, 12,000 samples: 184 frames of 256 per channel, two jobs each.
    static let input = [
        "families/inputs/am_8k_highpass.f32le", "--rate", "8000", "--channels", "2", "--sample-type", "f32le",
    ]
    static let everyFamily = [
        "--window", "256", "--hop", "64", "--mel", "40", "--mfcc", "13", "--bands", "0-1000,third-octave,octave",
        "--features", "spectral_flux,velocity_rms,envelope_rms,envelope_frequency,level_a,level_c", "--filter",
        "highpass:20:2",
    ]

    @Test(arguments: [
        ["--jobs", "2"], ["--jobs", "3"], ["--jobs", "2", "--ring-capacity", "2"],
        ["--jobs", "1", "--ring-capacity", "1000"],
    ])
    func everyFamilyIsByteIdenticalForAnySplit(_ engine: [String]) throws {
        let base = try SondeBinary.run(["process"] + Self.input + Self.everyFamily + ["--jobs", "1"])
        #expect(base.status == 0, "stderr: \(base.stderr)")
        let other = try SondeBinary.run(["process"] + Self.input + Self.everyFamily + engine)
        #expect(other.status == 0, "stderr: \(other.stderr)")
        #expect(RecordTable(csv: base.stdout).rows.count == 2 * 184)
        #expect(other.stdout == base.stdout)
    }

    /// Flux is 0 at each input's frame 0 and otherwise what the input gives alone.
    @Test func fluxRestartsAtEachInput() throws {
        let file = "families/inputs/am_8k_flat.f32le"
        let options = [
            "--rate", "8000", "--sample-type", "f32le", "--window", "512", "--features", "rms,spectral_flux",
        ]
        let alone = RecordTable(csv: try SondeBinary.run(["process", file] + options).stdout)
        let both = RecordTable(csv: try SondeBinary.run(["process", file, file] + options).stdout)
        let flux = try #require(both.columns.firstIndex(of: "spectral_flux"))
        #expect(both.rows.count == 2 * alone.rows.count)
        let second = Array(both.rows.suffix(alone.rows.count))
        #expect(second.map { Array($0.dropFirst()) } == alone.rows)
        #expect(second.first?[flux] == "0.0")
        #expect(alone.rows.dropFirst().contains { $0[flux - 1] != "0.0" })
    }

    /// The list is what is written (issue 43): names of docs/features.md section 7 alone are those columns,
    /// `default` brings the whole default set back, and a default feature with them is kept.
    @Test func featuresAreExactlyTheListed() throws {
        let alone = try SondeBinary.run(["process"] + Self.input + ["--features", "envelope_frequency"])
        #expect(alone.status == 0, "stderr: \(alone.stderr)")
        #expect(RecordTable(csv: alone.stdout).columns == ["time", "channel", "frame", "start", "envelope_frequency"])
        let added = RecordTable(
            csv: try SondeBinary.run(["process"] + Self.input + ["--features", "level_c,default,spectral_flux"]).stdout)
        #expect(added.columns.suffix(2) == ["spectral_flux", "level_c"])
        #expect(added.columns.contains("kurtosis") && added.columns.contains("rms"))
        let chosen = RecordTable(
            csv: try SondeBinary.run(["process"] + Self.input + ["--features", "level_a,rms", "--mel", "2"]).stdout)
        #expect(chosen.columns == ["time", "channel", "frame", "start", "rms", "mel_1", "mel_2", "level_a"])
        let twice = try SondeBinary.run(["process"] + Self.input + ["--features", "rms,default"])
        #expect(twice.status == 1 && twice.stderr.contains("'rms' is listed twice ('default' includes it)"))
    }

    @Test(arguments: [
        (["--mel", "0"], "--mel 0"), (["--mel", "257"], "--mel 257"), (["--mfcc", "0"], "--mfcc 0"),
        (["--mel", "20", "--mfcc", "21"], "--mfcc 21"), (["--mfcc", "129"], "--mfcc 129"),
        (["--velocity-band", "0-1000"], "--velocity-band 0-1000"),
        (["--velocity-band", "100-10"], "--velocity-band 100-10"),
        (["--velocity-band", "ten"], "--velocity-band 'ten'"), (["--reference", "0"], "--reference 0"),
        (["--reference=-2e-5"], "--reference -2e-05"), (["--reference", "inf"], "--reference inf"),
        (["--bands", "octave,octave"], "--bands: 'octave' is listed twice"),
        (["--features", "mel_1"], "unknown feature 'mel_1'"),
    ])
    func invalidValuesAreRefusedBeforeOutput(_ arguments: [String], _ message: String) throws {
        let result = try SondeBinary.run(["process"] + Self.input + arguments)
        #expect(result.status != 0)
        #expect(result.stdout.isEmpty)
        #expect(result.stderr.contains(message), "stderr: \(result.stderr)")
        #expect(result.stderr.split(separator: "\n").count == 1)
    }

    /// Every option and name of docs/features.md section 7 appears in `--help` of each
    /// command that measures.
    @Test(arguments: ["process", "stream", "bench"])
    func helpListsTheFamilies(_ command: String) throws {
        let help = try SondeBinary.run([command, "--help"]).stdout
        for text in [
            "--mel", "--mfcc", "--velocity-band", "--reference", "third-octave", "spectral_flux", "velocity_rms",
            "envelope_rms", "envelope_frequency", "level_a", "level_c", "bpfo_db", "--shaft-speed", "--bearing",
        ] {
            #expect(help.contains(text), "\(command) --help lacks \(text)")
        }
    }
}
