import Foundation
import SondeCore
import Testing
import _SondeTestSupport

@testable import SondeIO

/// A file that is another kind of container is never read as raw samples, with or without
/// `--sample-type`, and the first error does not suggest `--sample-type` for it (issue 43).
@Suite struct ContainerSignatureTests {
    static let matFile = Fixtures.directory.appendingPathComponent("containers/bearing.mat").path

    /// A MATLAB file scipy wrote: named for what it is by its extension-less name too.
    @Test func aMatFileIsNamedNotRead() throws {
        let directory = try ReaderTest.makeDirectory()
        defer { ReaderTest.remove(directory) }
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: Self.matFile)))
        for name in ["bearing.mat", "bearing.bin", "bearing"] {
            let path = try ReaderTest.makeFile(bytes, named: name, in: directory)
            let error = #expect(throws: SondeError.self) { _ = try SampleSources.open(path: path) }
            #expect(error?.message.contains("is a MATLAB 5.0 MAT-file") == true, "\(error?.message ?? "")")
            #expect(error?.message.contains("--sample-type") == false, "\(error?.message ?? "")")
            // What the first error used to suggest: refused too, naming the container.
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
