import Foundation
import SondeCore
import Testing
import _SondeTestSupport

@testable import SondeIO

#if canImport(Glibc)
    import Glibc
#endif

/// CSV input that is valid: headers, time columns, quoting, line ends, chunk boundaries.
@Suite struct ReaderCSVTests {
    /// Chunk sizes that cut rows everywhere, and the real one.
    static let chunkSizes = [1, 2, 3, 5, 16, 4096, ChunkedInput.defaultChunkSize]

    @Test(arguments: chunkSizes)
    func headerWithTimeColumnGivesRateOffsetAndNames(chunkSize: Int) throws {
        let text = "time,left,right\n10,1,-1\n10.25,2,-2\n10.5,3.5,-3.5\n10.75,4e-3,.5\n"
        let source = try ReaderTest.openCSV(text, chunkSize: chunkSize)
        #expect(source.format == StreamFormat(sampleRate: 4, channelNames: ["left", "right"], timeOffset: 10))
        #expect((source as? CSVSampleSource)?.expectedFrames == 4)
        #expect(try ReaderTest.readAll(source) == [1, -1, 2, -2, 3.5, -3.5, 4e-3, 0.5])
    }

    @Test func timeColumnNamesAreCaseInsensitiveAndTrimmed() throws {
        for name in ["time", "T", " Timestamp\t", "\"TIME\"", "t "] {
            let source = try ReaderTest.openCSV("a,\(name),b\n1,0,2\n3,0.5,4\n")
            #expect(source.format.channelNames == ["a", "b"], "\(name)")
            #expect(source.format.sampleRate == 2)
            #expect(try ReaderTest.readAll(source) == [1, 2, 3, 4])
        }
    }

    /// numpy: np.median(np.diff([0, 1, 3, 6, 10])) == 2.5 (mean of the middle two).
    @Test func rateIsTheReciprocalOfTheMedianStepWithNumpysEvenRule() throws {
        let even = try ReaderTest.openCSV("t,x\n0,0\n1,0\n3,0\n6,0\n10,0\n")
        #expect(even.format.sampleRate == 1 / 2.5)
        let odd = try ReaderTest.openCSV("t,x\n0,0\n1,0\n3,0\n6,0\n")
        #expect(odd.format.sampleRate == 1 / 2.0)
        // Steps of decimal times differ in the last bits; the median picks among them.
        let times = (0..<1001).map { Double($0) * 0.001 + 5 }
        let text = "time,x\n" + times.map { "\($0),1\n" }.joined()
        let steps = zip(times.dropFirst(), times).map { $0 - $1 }.sorted()
        let median = (steps[499] + steps[500]) / 2
        let source = try ReaderTest.openCSV(text)
        #expect(source.format.sampleRate == 1 / median)
        #expect(source.format.timeOffset == 5)
        #expect(try ReaderTest.readAll(source).count == 1001)
    }

    @Test(arguments: [1, 3, 1 << 20])
    func radixSelectionGivesTheSameMedianWhenStepsAreTooVaried(limit: Int) throws {
        var generator = SplitMix64(seed: 7)
        var time = 100.0
        var times: [Double] = []
        for _ in 0..<3001 {
            times.append(time)
            time += 0.01 + Double(generator.next() % 1000) * 1e-7
        }
        let text = "timestamp,x\n" + times.map { "\($0),0\n" }.joined()
        let directory = try ReaderTest.makeDirectory()
        defer { ReaderTest.remove(directory) }
        let path = try ReaderTest.makeFile(text, named: "jitter.csv", in: directory)
        let source = try CSVSampleSource(
            ChunkedInput(try OpenedInput.open(path: path), chunkSize: 4096), canReadTwice: true,
            options: SampleSourceOptions(), distinctStepLimit: limit)
        let steps = zip(times.dropFirst(), times).map { $0 - $1 }.sorted()
        #expect(source.format.sampleRate == 1 / ((steps[1499] + steps[1500]) / 2))
        #expect(source.format.timeOffset == 100)
        #expect(try ReaderTest.readAll(source).count == 3001)
    }

    @Test func rateOptionOverridesTheTimeColumnButKeepsItsOffset() throws {
        let source = try ReaderTest.openCSV(
            "\n\ntime,x\n\n2.5,1\n2.75,2\n", chunkSize: 2, options: SampleSourceOptions(sampleRate: 100))
        #expect(source.format == StreamFormat(sampleRate: 100, channelNames: ["x"], timeOffset: 2.5))
        #expect(try ReaderTest.readAll(source) == [1, 2])
    }

    @Test(arguments: chunkSizes)
    func withoutHeaderTheFirstRowIsDataAndChannelsAreNumbered(chunkSize: Int) throws {
        let source = try ReaderTest.openCSV(
            "\n1,2,3\n4,5,6\n", chunkSize: chunkSize, options: SampleSourceOptions(sampleRate: 8))
        #expect(source.format == StreamFormat(sampleRate: 8, channelNames: ["ch0", "ch1", "ch2"]))
        #expect(try ReaderTest.readAll(source, bufferFrames: 1) == [1, 2, 3, 4, 5, 6])
    }

    @Test func headerWithoutTimeColumnNamesChannels() throws {
        let source = try ReaderTest.openCSV("x, y ,,z\n1,2,3,4\n", options: SampleSourceOptions(sampleRate: 1))
        #expect(source.format.channelNames == ["x", "y", "ch2", "z"])
        #expect(try ReaderTest.readAll(source) == [1, 2, 3, 4])
    }

    @Test func oneNonNumberCellMakesTheFirstRowAHeader() throws {
        let source = try ReaderTest.openCSV("1,nan,3\n4,5,6\n", options: SampleSourceOptions(sampleRate: 1))
        #expect(source.format.channelNames == ["1", "nan", "3"])
        #expect(try ReaderTest.readAll(source) == [4, 5, 6])
    }

    @Test(arguments: chunkSizes)
    func quotedFieldsWithEscapesSeparatorsAndNewlines(chunkSize: Int) throws {
        let text = "\"time\",\"a \"\"x\"\", b\",\"multi\nline\"\r\n\"0\",\" 1.5 \",2\r\n1,\"-3\",\"4e1\"\r\n"
        let source = try ReaderTest.openCSV(text, chunkSize: chunkSize)
        #expect(source.format == StreamFormat(sampleRate: 1, channelNames: ["a \"x\", b", "multi\nline"]))
        #expect(try ReaderTest.readAll(source) == [1.5, 2, -3, 40])
    }

    @Test(arguments: chunkSizes)
    func lineEndsEmptyLinesBlanksAndByteOrderMark(chunkSize: Int) throws {
        let text = "\u{FEFF}a,b\r\n\r\n 1 ,\t2\t\n\n\n3,4\r\n5,6"
        let source = try ReaderTest.openCSV(text, chunkSize: chunkSize, options: SampleSourceOptions(sampleRate: 1))
        #expect(source.format.channelNames == ["a", "b"])
        #expect(try ReaderTest.readAll(source) == [1, 2, 3, 4, 5, 6])
    }

    @Test func headerOnlyGivesNoSamples() throws {
        let source = try ReaderTest.openCSV("time,x\n", options: SampleSourceOptions(sampleRate: 5))
        #expect(source.format.timeOffset == 0)
        #expect(try ReaderTest.readAll(source).isEmpty)
    }

    /// Rows across chunk boundaries, read with many chunk and buffer sizes, give the same
    /// samples as one big read.
    @Test func rowsStraddlingChunkBoundariesReadTheSameEverywhere() throws {
        var generator = SplitMix64(seed: 99)
        var text = "time,a,b\n"
        var expected: [Double] = []
        for row in 0..<5000 {
            let a = Double(Int64(bitPattern: generator.next()) % 1_000_000) / 997
            let b = Double(bitPattern: generator.next() >> 2)
            let quoted = row % 17 == 0
            text += "\(Double(row) / 100),\(quoted ? "\"\(a)\"" : "\(a)"),\(b)\(row % 5 == 0 ? "\r\n" : "\n")"
            expected += [a, b]
        }
        for chunkSize in [7, 64, 1000, 4096, 65_536, ChunkedInput.defaultChunkSize] {
            for bufferFrames in [1, 333, 8192] {
                let source = try ReaderTest.openCSV(text, chunkSize: chunkSize)
                #expect(source.format.timeOffset == 0)
                let samples = try ReaderTest.readAll(source, bufferFrames: bufferFrames)
                let same = samples.elementsEqual(expected) { $0.bitPattern == $1.bitPattern }
                #expect(same, "chunk \(chunkSize), buffer \(bufferFrames)")
            }
        }
    }

    /// The real chunk size: a file of several MiB so rows cross the 1 MiB boundaries.
    @Test func rowsStraddlingTheOneMebibyteBoundary() throws {
        var text = "x\n"
        text.reserveCapacity(3 << 20)
        var count = 0
        while text.utf8.count < 3 << 20 + 12345 {
            text += "\(count).\(count % 977)e-3\n"
            count += 1
        }
        let source = try ReaderTest.openCSV(text, options: SampleSourceOptions(sampleRate: 1))
        let samples = try ReaderTest.readAll(source, bufferFrames: 10_000)
        #expect(samples.count == count)
        let wrong = samples.enumerated().first { index, value in
            value != Double("\(index).\(index % 977)e-3")
        }
        #expect(wrong == nil)
    }

    @Test func standardInputReadsThroughAPipe() throws {
        let input = try ReaderTest.pipeInput(Array("time,x,y\n0.5,1,2\n0.75,3,4\n".utf8))
        let source = try SampleSources.open(
            input, kind: .csv, options: SampleSourceOptions(sampleRate: 4), chunkSize: 3)
        #expect(source.format == StreamFormat(sampleRate: 4, channelNames: ["x", "y"], timeOffset: 0.5))
        #expect(try ReaderTest.readAll(source) == [1, 2, 3, 4])
    }

    @Test func standardInputWithATimeColumnNeedsRate() throws {
        let input = try ReaderTest.pipeInput(Array("time,x\n0,1\n1,2\n".utf8))
        let error = ReaderTest.error { _ = try SampleSources.open(input, kind: .csv, options: SampleSourceOptions()) }
        #expect(error?.code == .invalidArgument)
        #expect(
            error?.description.hasPrefix("stdin: the rate of a time column is measured over the whole file") == true)
        #expect(error?.description.hasSuffix("pass --rate HZ, or give the file's path instead of a stream") == true)
    }

    /// `sonde - < data.csv`: stdin is a regular file, perhaps already partly read, and the
    /// time column's pre-pass reads it twice from where it started.
    @Test func redirectedStandardInputIsReadTwiceFromItsOffset() throws {
        let directory = try ReaderTest.makeDirectory()
        defer { ReaderTest.remove(directory) }
        let path = try ReaderTest.makeFile("skip\ntime,x\n3,1\n3.5,2\n", named: "in.csv", in: directory)
        let descriptor = open(path, O_RDONLY)
        #expect(lseek(descriptor, 5, SEEK_SET) == 5)
        let input = OpenedInput(
            descriptor: descriptor, name: OpenedInput.standardInputName, isRegularFile: true, size: 18,
            ownsDescriptor: true, initialOffset: 5)
        let source = try SampleSources.open(input, kind: .csv, options: SampleSourceOptions(), chunkSize: 4)
        #expect(source.format == StreamFormat(sampleRate: 2, channelNames: ["x"], timeOffset: 3))
        #expect(try ReaderTest.readAll(source) == [1, 2])
    }
}
