/// One channel of a TDMS file: its name, type, length, properties, and where its values lie.
struct TDMSChannel: Equatable, Sendable {
    let group: String
    let name: String
    /// The raw data's type; `.void` for a channel that never has data.
    var dataType: TDMSDataType = .void
    /// Values in the whole file, as npTDMS counts them.
    var count = 0
    /// The channel's properties, a later segment's value replacing an earlier one's.
    var properties: [String: TDMSPropertyValue] = [:]
    /// Where the values lie, in the file's order; memory grows with segments, not samples.
    var runs: [TDMSRun] = []

    init(group: String, name: String) {
        self.group = group
        self.name = name
    }

    /// "group/channel", how sonde names a TDMS channel.
    var path: String { group + "/" + name }

    /// The `wf_increment` property: seconds between samples, when the channel has it.
    var waveformIncrement: Double? { properties["wf_increment"]?.number }

    /// The `wf_start_time` property: the first sample's time, when the channel has it.
    var waveformStartTime: TDMSTimestamp? {
        if case .timestamp(let time) = properties["wf_start_time"] { time } else { nil }
    }
}

/// A run of one channel's values inside one segment, read without looking at the metadata again.
///
/// Value `i` of the run (0 ..< count) lies at
/// `offset + (i / valuesPerChunk) * chunkBytes + (i % valuesPerChunk) * valueStride`: contiguous
/// chunks repeat the segment's layout every `chunkBytes`; interleaved data is one run of frames
/// (`valuesPerChunk == count`, `valueStride` the frame's width).
struct TDMSRun: Equatable, Sendable {
    /// The segment's number, from 0, for messages.
    let segment: Int
    /// The channel's index of the run's first value.
    let firstValue: Int
    let count: Int
    /// The byte of the run's first value, from the file's start.
    let offset: Int
    let valuesPerChunk: Int
    let chunkBytes: Int
    let valueStride: Int
    let bigEndian: Bool
}

/// A property's value. Integers stay integers; SGL and DBL become `number`.
enum TDMSPropertyValue: Equatable, Sendable {
    case integer(Int64)
    case unsigned(UInt64)
    case number(Double)
    case boolean(Bool)
    case string(String)
    case timestamp(TDMSTimestamp)

    /// The value as a Double when it is a number (integers round to nearest).
    var number: Double? {
        switch self {
        case .integer(let value): Double(value)
        case .unsigned(let value): Double(value)
        case .number(let value): value
        case .boolean, .string, .timestamp: nil
        }
    }
}

/// A TDMS time stamp: whole seconds since 1904-01-01 00:00 UTC and 2^-64 fractions of a second.
struct TDMSTimestamp: Equatable, Hashable, Sendable {
    let seconds: Int64
    let fractions: UInt64

    /// Seconds from 1904-01-01 to 1970-01-01.
    static let unixEpochOffset: Int64 = 2_082_844_800

    /// Seconds since 1970-01-01 00:00 UTC (to a Double's precision).
    var unixTime: Double { Double(seconds - Self.unixEpochOffset) + Double(fractions) * 0x1p-64 }
}
