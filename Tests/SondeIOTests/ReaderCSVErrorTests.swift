import Foundation
import SondeCore
import Testing

@testable import SondeIO

/// Every way a CSV can be wrong: the error names file, line and column, and nothing is
/// silently zeroed or skipped.
@Suite struct ReaderCSVErrorTests {
    struct BadCase: CustomTestStringConvertible, Sendable {
        var text: String
        var line: Int
        var column: Int
        var message: String
        var testDescription: String { message }
    }

    static let cellCases: [BadCase] = [
        BadCase(text: "x,y\n1,2\n3,abc\n", line: 3, column: 2, message: "expected a number, found \"abc\""),
        BadCase(text: "x,y\n1,2\n3,\n", line: 3, column: 2, message: "expected a number, found an empty cell"),
        BadCase(text: "x,y\n1,2\n,4", line: 3, column: 1, message: "expected a number, found an empty cell"),
        BadCase(text: "x,y\n1,nan\n", line: 2, column: 2, message: "expected a number, found \"nan\""),
        BadCase(text: "x,y\n1,-inf\n", line: 2, column: 2, message: "expected a number, found \"-inf\""),
        BadCase(text: "x,y\n0x10,1\n", line: 2, column: 1, message: "expected a number, found \"0x10\""),
        BadCase(text: "x,y\n1e,1\n", line: 2, column: 1, message: "expected a number, found \"1e\""),
        BadCase(text: "x,y\n1.2.3,1\n", line: 2, column: 1, message: "expected a number, found \"1.2.3\""),
        BadCase(text: "x,y\n1,\"\"\n", line: 2, column: 2, message: "expected a number, found an empty cell"),
        BadCase(text: "x,y\n1, \"2\"\n", line: 2, column: 2, message: "expected a number, found \" \\\"2\\\"\""),
        BadCase(text: "x,y\n1,2\r3\n", line: 2, column: 2, message: "expected a number, found \"2\\r3\""),
        BadCase(
            text: "x,y\n1,1e400\n", line: 2, column: 2,
            message: "expected a number, found \"1e400\", which is out of the range of a 64-bit float"),
        BadCase(
            text: "x,y\n1,\(String(repeating: "9", count: 50))x\n", line: 2, column: 2,
            message: "expected a number, found \"\(String(repeating: "9", count: 40))\"..."),
        BadCase(
            text: "x,y\n1,2\n3\n", line: 3, column: 2, message: "expected 2 cells in every row, found 1"),
        BadCase(
            text: "x,y\n1,2\n3,4,5,6\n", line: 3, column: 3, message: "expected 2 cells in every row, found 4"),
        BadCase(text: "x,y\n1,2\n3,4,", line: 3, column: 3, message: "expected 2 cells in every row, found 3"),
        BadCase(
            text: "x,y\n1,2\n3,\"4\n", line: 3, column: 2,
            message: "a quoted cell is not closed: expected a closing \" before the end of the file"),
        BadCase(
            text: "x,y\n1,\"2\"3\n", line: 2, column: 2,
            message: "expected a comma or the end of the line after a closing quote, found \"3\""),
        // Lines are physical: a quoted line break moves the lines of what follows.
        BadCase(
            text: "\"x\ny\",z\n\n1,2\n3,oops\n", line: 5, column: 2, message: "expected a number, found \"oops\""),
        BadCase(text: "x,y\r\n\r\n1,2\r\n3,?\r\n", line: 4, column: 2, message: "expected a number, found \"?\""),
    ]

    @Test(arguments: cellCases)
    func badCellsAndRowsNameLineAndColumn(_ bad: BadCase) throws {
        for chunkSize in [1, 3, ChunkedInput.defaultChunkSize] {
            let error = ReaderTest.error {
                let source = try ReaderTest.openCSV(
                    bad.text, chunkSize: chunkSize, options: SampleSourceOptions(sampleRate: 10), name: "bad.csv")
                _ = try ReaderTest.readAll(source)
            }
            #expect(error?.code == .invalidInput)
            #expect(error?.location?.line == bad.line)
            #expect(error?.location?.column == bad.column)
            #expect(error?.location?.file.hasSuffix("bad.csv") == true)
            #expect(error?.message == bad.message)
        }
    }

    /// With a time column and no --rate the pre-pass reads every row, so a bad cell
    /// anywhere fails `open`, before any sample is delivered.
    @Test func preMeasuredFilesFailAtOpen() throws {
        let rows = (0..<5000).map { "\(Double($0) / 10),\($0)\n" }.joined()
        let error = ReaderTest.error {
            _ = try ReaderTest.openCSV("time,x\n" + rows + "500.0,x1\n", chunkSize: 4096, name: "late.csv")
        }
        #expect(error?.location?.line == 5002)
        #expect(error?.location?.column == 2)
        #expect(error?.message == "expected a number, found \"x1\"")
    }

    @Test func theMessageReadsAsOneLine() throws {
        let error = ReaderTest.error {
            let directory = try ReaderTest.makeDirectory()
            defer { ReaderTest.remove(directory) }
            let path = try ReaderTest.makeFile("a,b,c\n1,2,3\n4,5,abc\n", named: "data.csv", in: directory)
            let source = try SampleSources.open(path: path, options: SampleSourceOptions(sampleRate: 1))
            _ = try ReaderTest.readAll(source)
        }
        #expect(error?.description.hasSuffix("data.csv, line 3, column 3: expected a number, found \"abc\"") == true)
    }

    @Test func noTimeColumnAndNoRateSaysToPassRate() throws {
        for text in ["1,2\n3,4\n", "x,y\n1,2\n"] {
            let error = ReaderTest.error { _ = try ReaderTest.openCSV(text, name: "norate.csv") }
            #expect(error?.code == .invalidArgument)
            #expect(error?.message.hasSuffix("so the sample rate is unknown; pass --rate HZ") == true)
        }
    }

    @Test func timeThatDoesNotIncreaseIsAnError() throws {
        for text in ["t,x\n1,0\n1,0\n1,0\n", "t,x\n3,0\n2,0\n1,0\n"] {
            let error = ReaderTest.error { _ = try ReaderTest.openCSV(text) }
            #expect(error?.code == .invalidInput)
            #expect(error?.message.contains("the time column does not increase") == true)
        }
    }

    @Test func fewerThanTwoRowsCannotMeasureARate() throws {
        for text in ["t,x\n", "t,x\n1,0\n"] {
            let error = ReaderTest.error { _ = try ReaderTest.openCSV(text) }
            #expect(error?.message.hasSuffix("the file has fewer than two rows; pass --rate HZ") == true)
        }
    }

    @Test func emptyFileIsAnError() throws {
        for text in ["", "\n\r\n\n"] {
            let error = ReaderTest.error {
                _ = try ReaderTest.openCSV(text, options: SampleSourceOptions(sampleRate: 1))
            }
            #expect(error?.message.hasSuffix("the file has no rows; expected a header row or rows of numbers") == true)
        }
    }

    @Test func headerProblems() throws {
        let twoTimes = ReaderTest.error { _ = try ReaderTest.openCSV("time,x,T\n0,1,2\n1,1,2\n") }
        #expect(twoTimes?.location?.column == 3)
        #expect(twoTimes?.message.hasPrefix("two time columns, 1 (\"time\") and 3 (\"T\")") == true)
        let onlyTime = ReaderTest.error { _ = try ReaderTest.openCSV("time\n0\n1\n") }
        #expect(onlyTime?.message == "the header has no column besides the time column; expected channels")
        let badHeader = ReaderTest.error { _ = try ReaderTest.openCSV("\"x,y\n1,2\n") }
        #expect(badHeader?.location?.line == 1)
        #expect(badHeader?.location?.column == 1)
    }

    @Test func channelsOptionMustMatch() throws {
        let error = ReaderTest.error {
            _ = try ReaderTest.openCSV("x,y\n1,2\n", options: SampleSourceOptions(sampleRate: 1, channels: 3))
        }
        #expect(error?.code == .invalidArgument)
        #expect(error?.message.hasPrefix("--channels 3: ") == true)
        #expect(error?.message.hasSuffix("data.csv has 2 channels (x, y)") == true)
        let same = try ReaderTest.openCSV("x,y\n1,2\n", options: SampleSourceOptions(sampleRate: 1, channels: 2))
        #expect(same.format.channelCount == 2)
    }

    @Test func unclosedQuoteDoesNotBufferTheWholeFile() throws {
        // The limit is 64 MiB; a smaller file shows the error comes from the quote, not memory.
        let text = "x,y\n1,\"2\n" + String(repeating: "3,4\n", count: 100_000)
        let error = ReaderTest.error {
            _ = try ReaderTest.readAll(
                try ReaderTest.openCSV(text, chunkSize: 4096, options: SampleSourceOptions(sampleRate: 1)))
        }
        #expect(error?.location?.line == 2)
        #expect(error?.location?.column == 2)
    }
}
