import Foundation
import SondeCore
import SondeInstruments
import Testing
import _SondeTestSupport

/// Command devices with real subprocesses: the samples equal the raw reader's, every way a
/// command can fail gives one clear line, and no child is left behind.
@Suite struct CommandCaptureTests {
    /// The process is gone and reaped: signalling it finds no such process (a zombie would
    /// still answer).
    static func isReaped(_ pid: Int32) -> Bool {
        kill(pid, 0) == -1 && errno == ESRCH
    }

    @Test(arguments: [SampleFormat.i16le, .i32le, .f32le, .f64le])
    func samplesEqualTheRawReaderOfTheSameFile(type: SampleFormat) throws {
        let folder = try TestScratch.folder("command")
        let path = folder.appendingPathComponent("in.raw").path
        try Data(InstrumentTestSignals.bytes(type, frames: 30_000, channels: 3)).write(to: URL(fileURLWithPath: path))
        let source = try CommandCaptureSource(
            command: "cat '\(path)'", sampleRate: 48_000, channels: 3, sampleType: type)
        let captured = try InstrumentTestSignals.readAll(source, frames: Int.max)
        let expected = try InstrumentTestSignals.rawReaderSamples(path, type: type, channels: 3, rate: 48_000)
        #expect(captured.count == 90_000)
        #expect(captured.map(\.bitPattern) == expected.map(\.bitPattern))
        #expect(Self.isReaped(source.processIdentifier))
    }

    @Test func aCommandThatExitsEarlyQuotesItsStderr() throws {
        let source = try CommandCaptureSource(
            command: "printf 'abcd'; echo 'first' >&2; echo 'arecord: device lost' >&2; exit 3", sampleRate: 100,
            channels: 2, sampleType: .i16le)
        var block = [Double](repeating: 0, count: 20)
        // The whole frame before the exit is delivered first.
        let first = try block.withUnsafeMutableBufferPointer { try source.read(into: $0) }
        #expect(first == 1)
        #expect {
            _ = try block.withUnsafeMutableBufferPointer { try source.read(into: $0) }
        } throws: { error in
            "\(error)" == "the command `printf 'abcd'; echo 'first' >&2; echo 'arecord: device lost' >&2; exit 3` "
                + "exited with status 3 before the capture ended; its stderr's last line: arecord: device lost"
        }
        #expect(Self.isReaped(source.processIdentifier))
    }

    @Test func aCommandThatWritesNothingIsEndedAfterTheTimeout() throws {
        let started = Date()
        let source = try CommandCaptureSource(
            command: "echo waiting >&2; exec sleep 30", sampleRate: 100, channels: 1, sampleType: .i16le,
            noOutputTimeout: 0.3)
        #expect {
            _ = try InstrumentTestSignals.readAll(source, frames: 1)
        } throws: { error in
            "\(error)" == "the command `echo waiting >&2; exec sleep 30` wrote no samples for 0.3 s, so sonde ended it "
                + "(hung?); its stderr's last line: waiting"
        }
        #expect(Date().timeIntervalSince(started) < 5)
        #expect(Self.isReaped(source.processIdentifier))
    }

    @Test func aPartialLastFrameIsAnError() throws {
        let source = try CommandCaptureSource(
            command: "printf 'abcdefg'", sampleRate: 100, channels: 2, sampleType: .i16le)
        var block = [Double](repeating: 0, count: 20)
        let first = try block.withUnsafeMutableBufferPointer { try source.read(into: $0) }
        #expect(first == 1)
        #expect {
            _ = try block.withUnsafeMutableBufferPointer { try source.read(into: $0) }
        } throws: { error in
            "\(error)" == "the command `printf 'abcdefg'` ended within a frame: 3 of 4 bytes left over "
                + "(2 channels of i16le); it exited with status 0; it wrote nothing to stderr"
        }
        #expect(Self.isReaped(source.processIdentifier))
    }

    /// A command that would run forever ends at `close()`: SIGTERM, and it is reaped.
    @Test func closeEndsAnEndlessCommand() throws {
        let source = try CommandCaptureSource(
            command: "cat /dev/zero", sampleRate: 48_000, channels: 2, sampleType: .f32le)
        let samples = try InstrumentTestSignals.readAll(source, frames: 10_000)
        #expect(samples.count == 20_000 && samples.allSatisfy { $0 == 0 })
        let pid = source.processIdentifier
        let started = Date()
        source.close()
        #expect(Date().timeIntervalSince(started) < 1.5)
        #expect(Self.isReaped(pid))
        #expect(try InstrumentTestSignals.readAll(source, frames: 1).isEmpty)
    }

    /// A command that ignores SIGTERM is killed after the grace period.
    @Test func aCommandIgnoringSIGTERMIsKilled() throws {
        let source = try CommandCaptureSource(
            command: "trap '' TERM; while :; do printf 'ab'; sleep 0.01; done", sampleRate: 100, channels: 1,
            sampleType: .i16le, terminationGrace: 0.2)
        _ = try InstrumentTestSignals.readAll(source, frames: 2)
        let pid = source.processIdentifier
        source.close()
        #expect(Self.isReaped(pid))
    }

    @Test func invalidValuesAreRefused() {
        #expect(throws: SondeError.self) {
            _ = try CommandCaptureSource(command: "true", sampleRate: 100, channels: 0, sampleType: .i16le)
        }
        #expect(throws: SondeError.self) {
            _ = try CommandCaptureSource(command: "true", sampleRate: 0, channels: 1, sampleType: .i16le)
        }
    }
}
