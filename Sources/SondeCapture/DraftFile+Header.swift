import SondeCore

extension DraftFile {
    /// A draft file's first line: the draft and its batches' shared fields, doubles as
    /// their bit patterns so nothing is rounded. Written with `JSONValue` (nil left out),
    /// read through `JSONText`; files written by `JSONEncoder` before read alike.
    struct Header {
        var format = 1
        var id: String
        var owner: Int64
        var deviceID: String
        var settings: String
        var channelNames: [String]
        var columns: [String]
        var recordedAtBits: UInt64?
        var frames: Int
        var endedAtBits: UInt64
        var reason: String
        var fileName: String
        var hop: Int
        /// "seconds" or "wallClock", with the clock's rate and offset or epoch.
        var clock: String
        var clockRateBits: UInt64
        var clockOffsetBits: UInt64
        var batches: Int

        var json: JSONValue {
            var members: [JSONValue.Member] = [
                .init("format", .integer(format)), .init("id", .string(id)), .init("owner", .integer(Int(owner))),
                .init("deviceID", .string(deviceID)), .init("settings", .string(settings)),
                .init("channelNames", .strings(channelNames)), .init("columns", .strings(columns)),
            ]
            if let recordedAtBits { members.append(.init("recordedAtBits", .verbatim(String(recordedAtBits)))) }
            members += [
                .init("frames", .integer(frames)), .init("endedAtBits", .verbatim(String(endedAtBits))),
                .init("reason", .string(reason)), .init("fileName", .string(fileName)), .init("hop", .integer(hop)),
                .init("clock", .string(clock)), .init("clockRateBits", .verbatim(String(clockRateBits))),
                .init("clockOffsetBits", .verbatim(String(clockOffsetBits))), .init("batches", .integer(batches)),
            ]
            return .object(members)
        }
    }
}

extension DraftFile.Header {
    init(reading reader: inout JSONReader<StrtodNumbers>) throws {
        var format: Int?
        var id: String?
        var owner: Int?
        var deviceID: String?
        var settings: String?
        var channelNames: [String]?
        var columns: [String]?
        var recordedAtBits: UInt64?
        var frames: Int?
        var endedAtBits: UInt64?
        var reason: String?
        var fileName: String?
        var hop: Int?
        var clock: String?
        var clockRateBits: UInt64?
        var clockOffsetBits: UInt64?
        var batches: Int?
        try reader.object { key, reader in
            switch key {
            case "format": format = try reader.integer()
            case "id": id = try reader.string()
            case "owner": owner = try reader.integer()
            case "deviceID": deviceID = try reader.string()
            case "settings": settings = try reader.string()
            case "channelNames": channelNames = try reader.strings()
            case "columns": columns = try reader.strings()
            case "recordedAtBits": recordedAtBits = reader.takeNull() ? nil : try reader.unsignedInteger()
            case "frames": frames = try reader.integer()
            case "endedAtBits": endedAtBits = try reader.unsignedInteger()
            case "reason": reason = try reader.string()
            case "fileName": fileName = try reader.string()
            case "hop": hop = try reader.integer()
            case "clock": clock = try reader.string()
            case "clockRateBits": clockRateBits = try reader.unsignedInteger()
            case "clockOffsetBits": clockOffsetBits = try reader.unsignedInteger()
            case "batches": batches = try reader.integer()
            default: try reader.skipValue()
            }
        }
        guard let format, let id, let owner, let deviceID, let settings, let channelNames, let columns, let frames,
            let endedAtBits, let reason, let fileName, let hop, let clock, let clockRateBits, let clockOffsetBits,
            let batches
        else { throw reader.failure("a draft header without one of its fields") }
        self.init(
            format: format, id: id, owner: Int64(owner), deviceID: deviceID, settings: settings,
            channelNames: channelNames, columns: columns, recordedAtBits: recordedAtBits, frames: frames,
            endedAtBits: endedAtBits, reason: reason, fileName: fileName, hop: hop, clock: clock,
            clockRateBits: clockRateBits, clockOffsetBits: clockOffsetBits, batches: batches)
    }
}
