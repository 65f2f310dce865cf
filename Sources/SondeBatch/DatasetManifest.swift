import Foundation
public import SondeCore

#if canImport(Glibc)
    import Glibc
#endif

/// Every setting that changes an output's numbers or bytes; a rerun into the same folder
/// must have the same, or its outputs would mix.
public struct DatasetSettings: Decodable, Equatable, Sendable {
    public var window: Int
    public var hop: Int
    public var filters: [String]
    /// Feature and band columns, in order.
    public var columns: [String]
    public var rate: Double?
    public var channels: Int?
    public var sampleType: String?
    public var format: String

    public init(
        window: Int, hop: Int, filters: [String], columns: [String], rate: Double?, channels: Int?, sampleType: String?,
        format: String
    ) {
        self.window = window
        self.hop = hop
        self.filters = filters
        self.columns = columns
        self.rate = rate
        self.channels = channels
        self.sampleType = sampleType
        self.format = format
    }

    /// Keys sorted, absent options left out.
    var json: JSONValue {
        var members: [JSONValue.Member] = [.init("channels", .optional(channels)), .init("columns", .strings(columns))]
        members += [.init("filters", .strings(filters)), .init("format", .string(format)), .init("hop", .integer(hop))]
        members += [
            .init("rate", .optional(rate)), .init("sample_type", .optional(sampleType)),
            .init("window", .integer(window)),
        ]
        return .object(members.filter { $0.value != .null })
    }
}

/// A line of the manifest, written with `JSONValue` (keys in snake case, sorted; absent
/// values left out) and read back with `JSONDecoder`.
public protocol ManifestLine {
    var json: JSONValue { get }
}

/// The record of a dataset run in its output folder, one JSON object per line, appended
/// as the run goes, so it survives a kill (a half-written last line is ignored):
///
/// - `{"type":"run", ...}` when a run starts: sonde version, build CPU target, settings,
///   shard, and how many inputs the shard and the whole dataset have;
/// - `{"type":"input", ...}` for each input of the shard, in output order: its index in
///   the whole dataset, name, path, output path and size;
/// - `{"type":"result", ...}` as each input ends: `ok` (samples per channel, frames,
///   records), `skipped` (its output was there already) or `failed` (with the error).
///
/// Each shard writes its own file (`manifest.jsonl`, or `manifest-K-of-N.jsonl`), so
/// shards sharing a folder never write the same file.
public struct DatasetManifest {
    public struct Run: Decodable, Equatable, Sendable, ManifestLine {
        public var type = "run"
        public var sonde: String
        public var build: String
        public var settings: DatasetSettings
        public var shard: String
        public var inputs: Int
        public var allInputs: Int

        public init(sonde: String, build: String, settings: DatasetSettings, shard: String, inputs: Int, allInputs: Int)
        {
            self.sonde = sonde
            self.build = build
            self.settings = settings
            self.shard = shard
            self.inputs = inputs
            self.allInputs = allInputs
        }

        public var json: JSONValue {
            .object([
                "all_inputs": .integer(allInputs), "build": .string(build), "inputs": .integer(inputs),
                "settings": settings.json,
                "shard": .string(shard), "sonde": .string(sonde), "type": .string(type),
            ])
        }

        /// The parts a rerun must share with the first run.
        func isCompatible(with other: Run) -> Bool {
            sonde == other.sonde && build == other.build && settings == other.settings
        }
    }

    public struct Input: Decodable, Equatable, Sendable, ManifestLine {
        public var type = "input"
        public var index: Int
        public var input: String
        public var path: String
        public var output: String
        public var size: Int?

        public init(index: Int, input: String, path: String, output: String, size: Int?) {
            self.index = index
            self.input = input
            self.path = path
            self.output = output
            self.size = size
        }

        public var json: JSONValue {
            let members: [JSONValue.Member] = [
                .init("index", .integer(index)), .init("input", .string(input)), .init("output", .string(output)),
                .init("path", .string(path)), .init("size", .optional(size)), .init("type", .string(type)),
            ]
            return .object(members.filter { $0.value != .null })
        }
    }

    public enum Status: String, Decodable, Sendable {
        case ok, skipped, failed
    }

    public struct Result: Decodable, Equatable, Sendable, ManifestLine {
        public var type = "result"
        public var index: Int
        public var status: Status
        /// The output's path in the folder, for `ok` results.
        public var output: String?
        public var samplesPerChannel: Int?
        public var frames: Int?
        public var records: Int?
        public var error: String?

        public init(
            index: Int, status: Status, output: String? = nil, samplesPerChannel: Int? = nil, frames: Int? = nil,
            records: Int? = nil, error: String? = nil
        ) {
            self.index = index
            self.status = status
            self.output = output
            self.samplesPerChannel = samplesPerChannel
            self.frames = frames
            self.records = records
            self.error = error
        }

        public var json: JSONValue {
            let members: [JSONValue.Member] = [
                .init("error", .optional(error)), .init("frames", .optional(frames)), .init("index", .integer(index)),
                .init("output", .optional(output)), .init("records", .optional(records)),
                .init("samples_per_channel", .optional(samplesPerChannel)), .init("status", .string(status.rawValue)),
                .init("type", .string(type)),
            ]
            return .object(members.filter { $0.value != .null })
        }
    }

    /// One run's section of a manifest file.
    public struct Section: Sendable {
        public var run: Run
        public var inputs: [Input] = []
        /// The last result of each input, by dataset index.
        public var results: [Int: Result] = [:]
    }

    /// The file name of a shard's manifest.
    public static func fileName(shard: Shard?) -> String {
        guard let shard, shard.count > 1 else { return "manifest.jsonl" }
        return "manifest-\(shard.index)-of-\(shard.count).jsonl"
    }

    /// The sections of a manifest file, oldest first.
    /// - Throws: `SondeError(.invalidInput)` when it is not a sonde manifest.
    public static func read(path: String) throws -> [Section] {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw SondeError(.io, "\(path): cannot read the manifest")
        }
        var sections: [Section] = []
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        struct Kind: Decodable { var type: String }
        for (number, line) in data.split(separator: 10).enumerated() {
            // A run killed while appending may leave a partial last line: skip what does not parse.
            guard let kind = try? decoder.decode(Kind.self, from: line) else { continue }
            switch kind.type {
            case "run":
                sections.append(Section(run: try decode(Run.self, line, decoder, path, number)))
            case "input" where !sections.isEmpty:
                sections[sections.count - 1].inputs.append(try decode(Input.self, line, decoder, path, number))
            case "result" where !sections.isEmpty:
                let result = try decode(Result.self, line, decoder, path, number)
                sections[sections.count - 1].results[result.index] = result
            default:
                throw SondeError(.invalidInput, "\(path), line \(number + 1): not a sonde manifest line")
            }
        }
        return sections
    }

    private static func decode<T: Decodable>(
        _ type: T.Type, _ line: Data.SubSequence, _ decoder: JSONDecoder, _ path: String, _ number: Int
    ) throws -> T {
        do {
            return try decoder.decode(type, from: line)
        } catch {
            throw SondeError(.invalidInput, "\(path), line \(number + 1): not a sonde manifest line")
        }
    }
}

/// Appends lines to a manifest, each with one `write(2)`.
public final class ManifestWriter {
    private let descriptor: Int32
    private let path: String

    /// Opens (creating) `path` for appending.
    public init(path: String) throws {
        self.path = path
        descriptor = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0o666)
        guard descriptor >= 0 else {
            throw SondeError(.io, "cannot write the manifest '\(path)': \(String(cString: strerror(errno)))")
        }
    }

    deinit { close(descriptor) }

    public func append(_ value: some ManifestLine) throws {
        var line: [UInt8] = []
        value.json.write(into: &line)
        line.append(10)
        let written = line.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
        guard written == line.count else {
            throw SondeError(.io, "cannot write the manifest '\(path)': \(String(cString: strerror(errno)))")
        }
    }
}
