import Foundation
import SondeCore
import SondeInstruments
import Testing
import _SondeTestSupport

/// Capture through the real libasound, without a sound card: its `file` PCM plugin over a
/// `null` slave reads an input file through the same hw params and `snd_pcm_readi` a card
/// would, from a configuration of its own (`snd_pcm_open_lconf`), so no environment
/// variable and no global configuration is touched.
@Suite struct ALSACaptureTests {
    /// A folder with `in.raw` holding `bytes` and `asound.conf` defining `pcm.sondetest`.
    static func fileDevice(_ bytes: [UInt8]) throws -> (configuration: String, input: String) {
        let folder = try TestScratch.folder("alsa")
        let input = folder.appendingPathComponent("in.raw")
        try Data(bytes).write(to: input)
        let configuration = folder.appendingPathComponent("asound.conf")
        let text = """
            pcm.sondetest {
                type file
                slave { pcm { type null } }
                file "/dev/null"
                infile "\(input.path)"
                format "raw"
            }

            """
        try text.write(to: configuration, atomically: true, encoding: .utf8)
        return (configuration.path, input.path)
    }

    @Test(arguments: [SampleFormat.i16le, .i32le, .f32le])
    func captureEqualsTheRawReaderBitForBit(type: SampleFormat) throws {
        let frames = 4800
        let channels = 3
        let device = try Self.fileDevice(InstrumentTestSignals.bytes(type, frames: frames, channels: channels))
        let source = try ALSACaptureSource(
            device: "sondetest", sampleRate: 48_000, channels: channels, sampleType: type,
            configurationFile: device.configuration)
        defer { source.close() }
        #expect(source.format.channelCount == channels)
        #expect(source.format.sampleRate == 48_000)
        let captured = try InstrumentTestSignals.readAll(source, frames: frames)
        let expected = try InstrumentTestSignals.rawReaderSamples(
            device.input, type: type, channels: channels, rate: 48_000)
        #expect(expected.count == frames * channels)
        #expect(captured.map(\.bitPattern) == expected.map(\.bitPattern))
        #expect(source.overruns.events == 0)
        #expect(source.droppedFrames == 0)
        #expect(source.notes.isEmpty)
    }

    /// The period and buffer come back from the hw params: near 10 ms, 4 periods.
    @Test func choosesAPeriodNearTenMilliseconds() throws {
        let device = try Self.fileDevice(InstrumentTestSignals.bytes(.i16le, frames: 480, channels: 2))
        let source = try ALSACaptureSource(
            device: "sondetest", sampleRate: 48_000, channels: 2, sampleType: .i16le,
            configurationFile: device.configuration)
        defer { source.close() }
        let buffering = source.buffering
        #expect(buffering.periodFrames > 0 && buffering.periodFrames <= 960, "\(buffering)")
        #expect(buffering.bufferFrames >= 2 * buffering.periodFrames, "\(buffering)")
        #expect(buffering.description.hasPrefix("period \(buffering.periodFrames) frames"))
    }

    @Test func aPCMThatDoesNotExistNamesItself() throws {
        let device = try Self.fileDevice([])
        #expect {
            _ = try ALSACaptureSource(
                device: "nosuchpcm", sampleRate: 48_000, channels: 2, sampleType: .i16le,
                configurationFile: device.configuration)
        } throws: { error in
            "\(error)".hasPrefix("the ALSA device nosuchpcm cannot be opened for capture: ")
        }
    }

    @Test func anUnreadableConfigurationNamesItsPath() throws {
        #expect {
            _ = try ALSACaptureSource(
                device: "sondetest", sampleRate: 48_000, channels: 2, sampleType: .i16le,
                configurationFile: "/nonexistent/asound.conf")
        } throws: { error in
            "\(error)".hasPrefix("/nonexistent/asound.conf: cannot read the ALSA configuration")
        }
    }

    /// No sound card on a test machine is no failure: the list is then empty, and every
    /// entry it has names a card and device that exist.
    @Test func listingWorksWithOrWithoutCards() {
        for entry in ALSADevices.list() {
            #expect(entry.card >= 0 && entry.device >= 0)
            #expect(entry.pcm == "hw:\(entry.card),\(entry.device)")
        }
    }
}
