import Foundation
import SondeCore
import Testing
import _SondeTestSupport

@testable import SondeIO

/// A file that is another kind of container is never read as raw samples, with or without
/// `--sample-type`, and the first error does not suggest `--sample-type` for it (issue 43).
@Suite struct ContainerSignatureTests {
    static let matFile = Fixtures.directory.appendingPathComponent("containers/bearing.mat").path

    /// A MATLAB file scipy wrote is read as one by its content, whatever its name; with
    /// `--sample-type` (what the first error used to suggest) it is refused, named.
    @Test func aMatFileIsReadByItsContentNeverAsRaw() throws {
        let directory = try ReaderTest.makeDirectory()
        defer { ReaderTest.remove(directory) }
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: Self.matFile)))
        for name in ["bearing.mat", "bearing.bin", "bearing"] {
            let path = try ReaderTest.makeFile(bytes, named: name, in: directory)
            let source = try SampleSources.open(path: path, options: SampleSourceOptions(sampleRate: 12000))
            #expect(source.format.channelNames == ["X105_DE_time", "X105_FE_time", "X105_BA_time"])
            let noRate = #expect(throws: SondeError.self) { _ = try SampleSources.open(path: path) }
            #expect(noRate?.message.contains("X105RPM = 1797") == true, "\(noRate?.message ?? "")")
            #expect(noRate?.message.contains("--sample-type") == false, "\(noRate?.message ?? "")")
            let raw = #expect(throws: SondeError.self) {
                _ = try SampleSources.open(
                    path: path, options: SampleSourceOptions(sampleRate: 12000, sampleType: .i16le))
            }
            #expect(raw?.message.hasPrefix("\(path): is a MATLAB 5.0 MAT-file") == true, "\(raw?.message ?? "")")
        }
    }

    /// Each signature, at its offset, built from its bytes; a raw file that only shares a
    /// prefix shorter than a signature is still read.
    @Test func everySignatureIsRecognised() throws {
        for known in ContainerSignature.known {
            var head = [UInt8](repeating: 0x41, count: ContainerSignature.headLength)
            head.replaceSubrange(known.offset..<(known.offset + known.bytes.count), with: known.bytes)
            #expect(ContainerSignature.container(head: head) != nil, "\(known.name)")
            #expect(ContainerSignature.container(head: Array(head.prefix(known.offset + known.bytes.count - 1))) == nil)
        }
        #expect(ContainerSignature.container(head: Array("RIFF....WAVE".utf8))?.hasPrefix("a sound file") == true)
        #expect(ContainerSignature.container(head: [0x1F, 0x8B, 0x00, 0x10]) == nil)
    }

    /// Raw samples are still read: f64 samples of ordinary values, and standard input
    /// redirected from a MAT file is refused as the path is.
    @Test func rawSamplesStillRead() throws {
        let directory = try ReaderTest.makeDirectory()
        defer { ReaderTest.remove(directory) }
        let values: [Double] = [0.25, -1.5, 3, 1e-3]
        let bytes = values.flatMap { value in withUnsafeBytes(of: value.bitPattern.littleEndian) { Array($0) } }
        let path = try ReaderTest.makeFile(bytes, named: "x.bin", in: directory)
        let source = try SampleSources.open(path: path, options: SampleSourceOptions(sampleRate: 8, sampleType: .f64le))
        #expect(try ReaderTest.readAll(source) == values)
        let mat = try OpenedInput.open(path: Self.matFile)
        #expect(throws: SondeError.self) {
            _ = try SampleSources.open(mat, kind: .raw(.f32le), options: SampleSourceOptions(sampleRate: 8))
        }
    }
}
