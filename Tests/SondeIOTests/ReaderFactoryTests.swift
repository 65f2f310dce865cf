import Foundation
import SondeCore
import Testing

@testable import SondeIO

#if canImport(Glibc)
    import Glibc
#endif

/// `SampleSources.open`: which reader a name picks, and the one-line errors before any data.
@Suite struct ReaderFactoryTests {
    @Test(arguments: [
        ("a.csv", SampleSources.Kind.csv), ("dir.v1/A.TXT", .csv), ("a.wav", .soundFile), ("a.FLAC", .soundFile),
        ("a.aif", .soundFile), ("a.aiff", .soundFile), ("a.ogg", .soundFile), ("a.f32", .raw(.f32le)),
        ("a.f32le", .raw(.f32le)), ("a.f64", .raw(.f64le)), ("a.f64le", .raw(.f64le)), ("a.i16", .raw(.i16le)),
        ("a.i16le", .raw(.i16le)), ("a.s16", .raw(.i16le)), ("a.i32", .raw(.i32le)), ("a.i32le", .raw(.i32le)),
        ("-", .csv),
    ])
    func kindFromTheName(_ path: String, _ kind: SampleSources.Kind) throws {
        #expect(try SampleSources.kind(of: path, options: SampleSourceOptions()) == kind)
        #expect(try SampleSources.kind(of: path, options: SampleSourceOptions(sampleType: .f64le)) == .raw(.f64le))
    }

    /// The extension is the text after the last dot of the last path component, lower-cased;
    /// trailing slashes aside, and "" without a dot (the rule `split` gave before, pinned).
    @Test(arguments: [
        ("a/b/c.WAV", "wav"), ("c", ""), (".bashrc", "bashrc"), ("a.", ""), ("dir/", ""), ("dir.x/", "x"),
        ("/", ""), ("", ""), ("a/b.c/d", ""), ("a.tar.Gz", "gz"), ("x/.hidden.wav", "wav"), ("ü.FLAC", "flac"),
        ("a//b.wav//", "wav"), ("./a", ""), ("../x.f32", "f32"), ("dir.d/file", ""),
    ])
    func extensionIsTheLastComponentsLastDot(_ path: String, _ expected: String) {
        #expect(SampleSources.fileExtension(of: path) == expected)
    }

    @Test(arguments: ["a.raw", "a.bin", "noextension", "dir.d/file", "a.dat"])
    func unknownNamesNeedSampleType(_ name: String) throws {
        let directory = try ReaderTest.makeDirectory()
        defer { ReaderTest.remove(directory) }
        try FileManager.default.createDirectory(
            at: directory.appendingPathComponent("dir.d"), withIntermediateDirectories: true)
        let path = try ReaderTest.makeFile([0, 0, 0, 0], named: name, in: directory)
        let error = ReaderTest.error { _ = try SampleSources.kind(of: path, options: SampleSourceOptions()) }
        #expect(
            error?.description
                == "\(path): cannot tell how its samples are encoded from the name; "
                + "pass --sample-type f32le|f64le|i16le|i32le"
        )
    }

    /// A mistyped folder or file without an extension is missing, not of an unknown kind.
    @Test(arguments: ["recordngs", "recordngs/", "a.raw"])
    func missingUnknownNamesSaySo(_ name: String) throws {
        let directory = try ReaderTest.makeDirectory()
        defer { ReaderTest.remove(directory) }
        let path = directory.path + "/" + name
        let error = ReaderTest.error { _ = try SampleSources.open(path: path, options: SampleSourceOptions()) }
        #expect(error?.code == .io)
        #expect(
            error?.description
                == "\(path): no such file; expected a sample file (CSV, WAV, FLAC, AIFF, Ogg, Opus, MP3 or raw samples)"
        )
    }

    @Test func tabSeparatedIsUnsupported() {
        let error = ReaderTest.error { _ = try SampleSources.kind(of: "a.tsv", options: SampleSourceOptions()) }
        #expect(error?.code == .unsupported)
    }

    @Test func rawNeedsRate() throws {
        let directory = try ReaderTest.makeDirectory()
        defer { ReaderTest.remove(directory) }
        let path = try ReaderTest.makeFile([0, 0], named: "x.i16", in: directory)
        let error = ReaderTest.error { _ = try SampleSources.open(path: path, options: SampleSourceOptions()) }
        #expect(error?.description == "\(path): raw samples carry no sample rate; pass --rate HZ")
        let stdin = ReaderTest.error {
            _ = try SampleSources.open(path: "-", options: SampleSourceOptions(sampleType: .f32le))
        }
        #expect(stdin?.description == "stdin: raw samples carry no sample rate; pass --rate HZ")
    }

    @Test func missingFileAndDirectory() throws {
        let directory = try ReaderTest.makeDirectory()
        defer { ReaderTest.remove(directory) }
        let missing = directory.appendingPathComponent("nope.csv").path
        let error = ReaderTest.error { _ = try SampleSources.open(path: missing, options: SampleSourceOptions()) }
        #expect(error?.code == .io)
        #expect(
            error?.description
                == "\(missing): no such file; expected a sample file (CSV, WAV, FLAC, AIFF, Ogg, Opus, MP3 or raw samples)"
        )
        let folder = directory.appendingPathComponent("folder.wav").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: false)
        let isDirectory = ReaderTest.error { _ = try SampleSources.open(path: folder, options: SampleSourceOptions()) }
        #expect(
            isDirectory?.description
                == "\(folder): is a directory; expected a sample file (CSV, WAV, FLAC, AIFF, Ogg, Opus, MP3 or raw samples)"
        )
    }

    /// root reads any file whatever its mode, so this runs only for other users.
    @Test(.enabled(if: geteuid() != 0, "root may read files without read permission"))
    func unreadableFile() throws {
        let directory = try ReaderTest.makeDirectory()
        defer { ReaderTest.remove(directory) }
        let path = try ReaderTest.makeFile("x\n1\n", named: "secret.csv", in: directory)
        #expect(chmod(path, 0) == 0)
        let error = ReaderTest.error {
            _ = try SampleSources.open(path: path, options: SampleSourceOptions(sampleRate: 1))
        }
        #expect(error?.description == "\(path): permission denied; expected a file sonde may read")
    }

    @Test(arguments: [
        (SampleSourceOptions(sampleRate: 0), "--rate 0: expected a sample rate from 1e-9 to 1e12 Hz"),
        (SampleSourceOptions(sampleRate: -5), "--rate -5: expected a sample rate from 1e-9 to 1e12 Hz"),
        (SampleSourceOptions(sampleRate: .nan), "--rate nan: expected a sample rate from 1e-9 to 1e12 Hz"),
        (SampleSourceOptions(sampleRate: .infinity), "--rate inf: expected a sample rate from 1e-9 to 1e12 Hz"),
        (SampleSourceOptions(sampleRate: 1e-10), "--rate 1e-10: expected a sample rate from 1e-9 to 1e12 Hz"),
        (SampleSourceOptions(sampleRate: 2e12), "--rate 2000000000000: expected a sample rate from 1e-9 to 1e12 Hz"),
        (SampleSourceOptions(sampleRate: 1, channels: 0), "--channels 0: expected a count from 1 to 1024"),
        (SampleSourceOptions(sampleRate: 1, channels: 1025), "--channels 1025: expected a count from 1 to 1024"),
    ])
    func invalidOptions(_ options: SampleSourceOptions, _ message: String) {
        let error = ReaderTest.error { _ = try SampleSources.open(path: "whatever.f32", options: options) }
        #expect(error?.code == .invalidArgument)
        #expect(error?.description == message)
    }

    @Test func opensEveryKindByPath() throws {
        let directory = try ReaderTest.makeDirectory()
        defer { ReaderTest.remove(directory) }
        let csv = try ReaderTest.makeFile("time,x\n0,1\n0.5,2\n", named: "a.csv", in: directory)
        let source = try SampleSources.open(path: csv)
        #expect(source.format == StreamFormat(sampleRate: 2, channelNames: ["x"]))
        #expect(try ReaderTest.readAll(source) == [1, 2])
        let raw = try ReaderTest.makeFile([0, 0x80], named: "a.raw", in: directory)
        let rawSource = try SampleSources.open(
            path: raw, options: SampleSourceOptions(sampleRate: 3, sampleType: .i16le))
        #expect(try ReaderTest.readAll(rawSource) == [-1])
    }
}
