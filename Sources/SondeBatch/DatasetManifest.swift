import Foundation
public import SondeCore
import SondeIO

#if canImport(Glibc)
    import Glibc
#endif

/// Every setting that changes an output's numbers or bytes; a rerun into the same folder
/// must have the same, or its outputs would mix.
public struct DatasetSettings: Equatable, Sendable {
    public var window: Int
    public var hop: Int
    public var filters: [String]
    /// Feature and band columns, in order.
    public var columns: [String]
    public var rate: Double?
    public var channels: Int?
    public var sampleType: String?
    public var format: String
    /// How MATLAB, HDF5 and TDMS inputs were read (`--variables`, `--orientation`,
    /// `--rate-variable`, `--rate-attribute`), when any was given: a rerun choosing other
    /// arrays must not mix its outputs with these.
    public var containerOptions: String?

    public init(
        window: Int, hop: Int, filters: [String], columns: [String], rate: Double?, channels: Int?, sampleType: String?,
        format: String, containerOptions: String? = nil
    ) {
        self.window = window
        self.hop = hop
        self.filters = filters
        self.columns = columns
        self.rate = rate
        self.channels = channels
        self.sampleType = sampleType
        self.format = format
        self.containerOptions = containerOptions
    }

    /// Keys sorted, absent options left out.
    var json: JSONValue {
        var members: [JSONValue.Member] = [
            .init("channels", .optional(channels)), .init("columns", .strings(columns)),
            .init("container_options", containerOptions.map(JSONValue.string) ?? .null),
        ]
        members += [.init("filters", .strings(filters)), .init("format", .string(format)), .init("hop", .integer(hop))]
        members += [
            .init("rate", .optional(rate)), .init("sample_type", .optional(sampleType)),
            .init("window", .integer(window)),
        ]
        return .object(members.filter { $0.value != .null })
    }
}

/// A line of the manifest, written with `JSONValue` (keys in snake case, sorted; absent
/// values left out) and read back by `DatasetManifest+Lines`.
public protocol ManifestLine {
    var json: JSONValue { get }
}

/// The record of a dataset run in its output folder, one JSON object per line, appended
/// as the run goes, so it survives a kill (a torn last line is ignored with a warning):
///
/// - `{"type":"run", ...}` when a run starts: sonde version, build CPU target, settings,
///   shard, and how many inputs the shard and the whole dataset have; `same_inputs` when
///   the shard's inputs are those of the previous run, whose `input` lines then stand;
/// - `{"type":"input", ...}` for each input of the shard, in output order: its index in
///   the whole dataset, name, path, output path, size and modification time (and its
///   CRC-32C with `--verify-inputs`);
/// - `{"type":"result", ...}` as each input ends: `ok` (samples per channel, frames,
///   records, the output's size in bytes and CRC-32C) or `failed` (with the error).
///   Inputs skipped because their output is verified get no line.
///
/// Each shard writes its own file (`manifest.jsonl`, or `manifest-K-of-N.jsonl`), so
/// shards sharing a folder never write the same file.
public struct DatasetManifest {
    public struct Run: Equatable, Sendable, ManifestLine {
        public var type = "run"
        public var sonde: String
        public var build: String
        public var settings: DatasetSettings
        public var shard: String
        public var inputs: Int
        public var allInputs: Int
        /// The shard's inputs are the previous run's (same names, sizes and times): its
        /// `input` lines and results stand, and this run appends only what it redoes.
        public var sameInputs: Bool?

        public init(
            sonde: String, build: String, settings: DatasetSettings, shard: String, inputs: Int, allInputs: Int,
            sameInputs: Bool? = nil
        ) {
            self.sonde = sonde
            self.build = build
            self.settings = settings
            self.shard = shard
            self.inputs = inputs
            self.allInputs = allInputs
            self.sameInputs = sameInputs
        }

        public var json: JSONValue {
            let members: [JSONValue.Member] = [
                .init("all_inputs", .integer(allInputs)), .init("build", .string(build)),
                .init("inputs", .integer(inputs)), .init("same_inputs", sameInputs == true ? .bool(true) : .null),
                .init("settings", settings.json), .init("shard", .string(shard)), .init("sonde", .string(sonde)),
                .init("type", .string(type)),
            ]
            return .object(members.filter { $0.value != .null })
        }

        /// The parts a rerun must share with the first run.
        func isCompatible(with other: Run) -> Bool {
            sonde == other.sonde && build == other.build && settings == other.settings
        }
    }

    public struct Input: Equatable, Sendable, ManifestLine {
        public var type = "input"
        public var index: Int
        /// The `file` column, with bytes that are not UTF-8 written `\xHH`.
        public var input: String
        public var path: String
        public var output: String
        public var size: Int?
        /// Modification time in nanoseconds since 1970 (absent in manifests before issue 28).
        public var mtime: Int?
        /// The input's CRC-32C, 8 hexadecimal digits, with `--verify-inputs`.
        public var crc32c: String?

        public init(
            index: Int, input: String, path: String, output: String, size: Int?, mtime: Int? = nil,
            crc32c: String? = nil
        ) {
            self.index = index
            self.input = input
            self.path = path
            self.output = output
            self.size = size
            self.mtime = mtime
            self.crc32c = crc32c
        }

        public var json: JSONValue {
            let members: [JSONValue.Member] = [
                .init("crc32c", .optional(crc32c)), .init("index", .integer(index)), .init("input", .string(input)),
                .init("mtime", .optional(mtime)), .init("output", .string(output)), .init("path", .string(path)),
                .init("size", .optional(size)), .init("type", .string(type)),
            ]
            return .object(members.filter { $0.value != .null })
        }

        /// Whether `other` describes the same file contents as far as the manifest can
        /// tell: same size and time, and same checksum when both have one. A line without
        /// a time (an older sonde's) never matches, so its output is made again.
        func isUnchanged(comparedWith other: Input) -> Bool {
            guard let mtime, let size, mtime == other.mtime, size == other.size else { return false }
            // `other` is checked with `--verify-inputs`: a line without a checksum cannot vouch for it.
            if let otherCRC = other.crc32c { return crc32c == otherCRC }
            return true
        }
    }

    public enum Status: String, Sendable {
        case ok, skipped, failed
    }

    public struct Result: Equatable, Sendable, ManifestLine {
        public var type = "result"
        public var index: Int
        public var status: Status
        /// The output's path in the folder, for `ok` results.
        public var output: String?
        public var samplesPerChannel: Int?
        public var frames: Int?
        public var records: Int?
        /// The output's size in bytes and CRC-32C (8 hexadecimal digits), for `ok` results.
        public var bytes: Int?
        public var crc32c: String?
        public var error: String?

        public init(
            index: Int, status: Status, output: String? = nil, samplesPerChannel: Int? = nil, frames: Int? = nil,
            records: Int? = nil, bytes: Int? = nil, crc32c: String? = nil, error: String? = nil
        ) {
            self.index = index
            self.status = status
            self.output = output
            self.samplesPerChannel = samplesPerChannel
            self.frames = frames
            self.records = records
            self.bytes = bytes
            self.crc32c = crc32c
            self.error = error
        }

        public var json: JSONValue {
            let members: [JSONValue.Member] = [
                .init("bytes", .optional(bytes)), .init("crc32c", .optional(crc32c)),
                .init("error", .optional(error)), .init("frames", .optional(frames)), .init("index", .integer(index)),
                .init("output", .optional(output)), .init("records", .optional(records)),
                .init("samples_per_channel", .optional(samplesPerChannel)), .init("status", .string(status.rawValue)),
                .init("type", .string(type)),
            ]
            return .object(members.filter { $0.value != .null })
        }

        /// Why the file at `path` is not the output this line records, or nil when its
        /// size and checksum match. A line without a checksum (an older sonde's) is
        /// never trusted.
        func mismatch(_ checksum: FileChecksum?) -> String? {
            guard let checksum else { return "missing" }
            guard let bytes, let crc32c else { return "recorded without a checksum (by an older sonde)" }
            if checksum.size != bytes { return "damaged: \(checksum.size) bytes where the manifest says \(bytes)" }
            if CRC32C.hex(checksum.crc32c) != crc32c { return "damaged: its checksum differs from the manifest's" }
            return nil
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
}
