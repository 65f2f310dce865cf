import SondeCore

/// Reading each kind of manifest line back from the keys its `json` writes (keys in any
/// order, unknown keys skipped, an absent or `null` optional read as nil), through
/// SondeCore's `JSONText`, the reader of every JSON file sonde keeps.
extension DatasetManifest {
    typealias Reader = JSONReader<StrtodNumbers>

    /// The `type` of a line, or nil when the line is not a whole JSON object with one
    /// (torn by a kill).
    static func lineType(_ line: some Collection<UInt8>) -> String? {
        try? JSONText.read(line, what: "manifest line") { reader in
            var type: String?
            try reader.object { key, reader in
                if case "type" = key { type = try reader.string() } else { try reader.skipValue() }
            }
            return type
        }
    }
}

extension DatasetSettings {
    init(reading reader: inout DatasetManifest.Reader) throws {
        var window: Int?
        var hop: Int?
        var filters: [String]?
        var columns: [String]?
        var rate: Double?
        var channels: Int?
        var sampleType: String?
        var format: String?
        var containerOptions: String?
        try reader.object { key, reader in
            switch key {
            case "window": window = try reader.integer()
            case "hop": hop = try reader.integer()
            case "filters": filters = try reader.strings()
            case "columns": columns = try reader.strings()
            case "rate": rate = reader.takeNull() ? nil : try reader.number()
            case "channels": channels = reader.takeNull() ? nil : try reader.integer()
            case "sample_type": sampleType = reader.takeNull() ? nil : try reader.string()
            case "format": format = try reader.string()
            case "container_options": containerOptions = reader.takeNull() ? nil : try reader.string()
            default: try reader.skipValue()
            }
        }
        guard let window, let hop, let filters, let columns, let format else {
            throw reader.failure("settings without window, hop, filters, columns or format")
        }
        self.init(
            window: window, hop: hop, filters: filters, columns: columns, rate: rate, channels: channels,
            sampleType: sampleType, format: format, containerOptions: containerOptions)
    }
}

extension DatasetManifest.Run {
    init(reading reader: inout DatasetManifest.Reader) throws {
        var sonde: String?
        var build: String?
        var settings: DatasetSettings?
        var shard: String?
        var inputs: Int?
        var allInputs: Int?
        var sameInputs: Bool?
        try reader.object { key, reader in
            switch key {
            case "sonde": sonde = try reader.string()
            case "build": build = try reader.string()
            case "settings": settings = try DatasetSettings(reading: &reader)
            case "shard": shard = try reader.string()
            case "inputs": inputs = try reader.integer()
            case "all_inputs": allInputs = try reader.integer()
            case "same_inputs": sameInputs = reader.takeNull() ? nil : try reader.bool()
            default: try reader.skipValue()
            }
        }
        guard let sonde, let build, let settings, let shard, let inputs, let allInputs else {
            throw reader.failure("a run line without sonde, build, settings, shard or input counts")
        }
        self.init(
            sonde: sonde, build: build, settings: settings, shard: shard, inputs: inputs, allInputs: allInputs,
            sameInputs: sameInputs)
    }
}

extension DatasetManifest.Input {
    init(reading reader: inout DatasetManifest.Reader) throws {
        var index: Int?
        var input: String?
        var path: String?
        var output: String?
        var size: Int?
        var mtime: Int?
        var crc32c: String?
        try reader.object { key, reader in
            switch key {
            case "index": index = try reader.integer()
            case "input": input = try reader.string()
            case "path": path = try reader.string()
            case "output": output = try reader.string()
            case "size": size = reader.takeNull() ? nil : try reader.integer()
            case "mtime": mtime = reader.takeNull() ? nil : try reader.integer()
            case "crc32c": crc32c = reader.takeNull() ? nil : try reader.string()
            default: try reader.skipValue()
            }
        }
        guard let index, let input, let path, let output else {
            throw reader.failure("an input line without index, input, path or output")
        }
        self.init(index: index, input: input, path: path, output: output, size: size, mtime: mtime, crc32c: crc32c)
    }
}

extension DatasetManifest.Result {
    init(reading reader: inout DatasetManifest.Reader) throws {
        var index: Int?
        var status: DatasetManifest.Status?
        var output: String?
        var samplesPerChannel: Int?
        var frames: Int?
        var records: Int?
        var bytes: Int?
        var crc32c: String?
        var error: String?
        try reader.object { key, reader in
            switch key {
            case "index": index = try reader.integer()
            case "status": status = DatasetManifest.Status(rawValue: try reader.string())
            case "output": output = reader.takeNull() ? nil : try reader.string()
            case "samples_per_channel": samplesPerChannel = reader.takeNull() ? nil : try reader.integer()
            case "frames": frames = reader.takeNull() ? nil : try reader.integer()
            case "records": records = reader.takeNull() ? nil : try reader.integer()
            case "bytes": bytes = reader.takeNull() ? nil : try reader.integer()
            case "crc32c": crc32c = reader.takeNull() ? nil : try reader.string()
            case "error": error = reader.takeNull() ? nil : try reader.string()
            default: try reader.skipValue()
            }
        }
        guard let index, let status else { throw reader.failure("a result line without index or a known status") }
        self.init(
            index: index, status: status, output: output, samplesPerChannel: samplesPerChannel, frames: frames,
            records: records, bytes: bytes, crc32c: crc32c, error: error)
    }
}
