import Foundation
import SondeCore
import Testing

@testable import SondeInstruments

/// The overrun, suspend and unplug paths of `ALSACaptureSource`, on a scripted stream.
///
/// Why not through libasound: its `file` plugin over `null` is always ready (null's
/// avail_update answers a full buffer), so a reader stalled for 10 buffers still sees no
/// xrun (`stallingTheFilePluginNeverOverruns` in this suite shows it), and no plugin
/// unplugs. The scripted stream answers `snd_pcm_readi`'s codes in the order a card does.
@Suite struct ALSARecoveryTests {
    /// One `readInterleaved` answer: frames of i16 samples, or a negative errno.
    enum Step {
        case frames([Int16])
        case error(Int32)
    }

    final class ScriptedPCM: PCMStream {
        var steps: [Step]
        var lostPerOverrun: Int
        var resumeAnswers: [Int32]
        var channels: Int
        var closed = false

        init(_ steps: [Step], channels: Int, lostPerOverrun: Int = 0, resumeAnswers: [Int32] = []) {
            self.steps = steps
            self.channels = channels
            self.lostPerOverrun = lostPerOverrun
            self.resumeAnswers = resumeAnswers
        }

        func available() -> Int { 0 }

        func readInterleaved(_ buffer: UnsafeMutableRawPointer, frames: Int) -> Int {
            guard !steps.isEmpty else { return -Int(EIO) }
            switch steps.removeFirst() {
            case .frames(let samples):
                let count = Swift.min(samples.count / channels, frames)
                for index in 0..<(count * channels) {
                    buffer.storeBytes(of: samples[index].littleEndian, toByteOffset: 2 * index, as: Int16.self)
                }
                return count
            case .error(let code):
                return -Int(code)
            }
        }

        func recoverFromOverrun() -> Int { lostPerOverrun }

        func resume() -> Int32 { resumeAnswers.isEmpty ? -ENOSYS : resumeAnswers.removeFirst() }

        func close() { closed = true }
    }

    static func source(_ pcm: ScriptedPCM) -> ALSACaptureSource {
        ALSACaptureSource(
            stream: pcm, device: "hw:9,0", sampleRate: 48_000, channels: pcm.channels, sampleType: .i16le,
            buffering: ALSABuffering(periodFrames: 4, bufferFrames: 16, sampleRate: 48_000))
    }

    @Test func anOverrunIsCountedAndTheSamplesStayContiguous() throws {
        let pcm = ScriptedPCM(
            [.frames([1, 2, 3, 4]), .error(EPIPE), .frames([5, 6, 7, 8]), .error(EPIPE), .frames([9, 10])],
            channels: 2, lostPerOverrun: 960)
        let source = Self.source(pcm)
        let samples = try InstrumentTestSignals.readAll(source, frames: 5)
        #expect(samples == [1, 2, 3, 4, 5, 6, 7, 8, 9, 10].map { Double($0) / 32768 })
        #expect(source.overruns.events == 2)
        #expect(source.overruns.value == 1920)
        #expect(source.droppedFrames == 1920)
        #expect(
            source.notes == [
                "the ALSA device hw:9,0 overran 2 times (xrun); about 1920 frames were lost, not filled in"
            ])
    }

    @Test func anUnpluggedDeviceKeepsWhatCameBeforeAndSaysSoOnTheNextRead() throws {
        let pcm = ScriptedPCM([.frames([1, 2, 3, 4]), .error(ENODEV)], channels: 2)
        let source = Self.source(pcm)
        var block = [Double](repeating: 0, count: 8)
        let first = try block.withUnsafeMutableBufferPointer { try source.read(into: $0) }
        #expect(first == 2)
        #expect(block[0..<4].map { $0 * 32768 } == [1, 2, 3, 4])
        let message = "the ALSA device hw:9,0 stopped: no such device (unplugged?)"
        for _ in 0..<2 {
            #expect {
                _ = try block.withUnsafeMutableBufferPointer { try source.read(into: $0) }
            } throws: { error in
                (error as? SondeError)?.code == .io && "\(error)" == message
            }
        }
    }

    @Test func anIOErrorNamesTheDevice() throws {
        let source = Self.source(ScriptedPCM([.error(EIO)], channels: 1))
        #expect {
            _ = try InstrumentTestSignals.readAll(source, frames: 1)
        } throws: { error in
            "\(error)" == "the ALSA device hw:9,0 stopped: input/output error"
        }
    }

    @Test func aSuspendedDeviceResumes() throws {
        let pcm = ScriptedPCM(
            [.frames([1]), .error(ESTRPIPE), .frames([2])], channels: 1, resumeAnswers: [-EAGAIN, -EAGAIN, 0])
        let samples = try InstrumentTestSignals.readAll(Self.source(pcm), frames: 2)
        #expect(samples == [1, 2].map { Double($0) / 32768 })
    }

    @Test func aSuspendedDeviceThatCannotResumeFails() throws {
        let pcm = ScriptedPCM([.error(ESTRPIPE)], channels: 1, resumeAnswers: [-ENODEV])
        #expect {
            _ = try InstrumentTestSignals.readAll(Self.source(pcm), frames: 1)
        } throws: { error in
            "\(error)" == "the ALSA device hw:9,0 was suspended and did not resume: no such device (unplugged?)"
        }
    }

    /// The evidence for the scripted stream: a reader of the file plugin stalled for ten
    /// buffers' time sees no xrun, so no overrun can be forced through it.
    @Test func stallingTheFilePluginNeverOverruns() throws {
        let frames = 48_000
        let device = try ALSACaptureTests.fileDevice(InstrumentTestSignals.bytes(.i16le, frames: frames, channels: 1))
        let source = try ALSACaptureSource(
            device: "sondetest", sampleRate: 48_000, channels: 1, sampleType: .i16le,
            configurationFile: device.configuration)
        defer { source.close() }
        _ = try InstrumentTestSignals.readAll(source, frames: 100)
        usleep(UInt32(source.buffering.bufferSeconds * 10 * 1e6))
        let rest = try InstrumentTestSignals.readAll(source, frames: frames - 100)
        #expect(rest.count == frames - 100)
        #expect(source.overruns.events == 0)
    }
}
