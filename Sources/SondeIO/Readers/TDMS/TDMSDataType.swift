/// A `tdsDataType` code of a channel's raw data or of a property's value.
enum TDMSDataType: Equatable, Hashable, Sendable {
    case void
    case int8, int16, int32, int64
    case uint8, uint16, uint32, uint64
    case float32, float64, extended
    case float32WithUnit, float64WithUnit, extendedWithUnit
    case string, boolean, timestamp
    case complex64, complex128
    case daqmxRawData
    case unknown(UInt32)

    init(code: UInt32) {
        switch code {
        case 0x00: self = .void
        case 0x01: self = .int8
        case 0x02: self = .int16
        case 0x03: self = .int32
        case 0x04: self = .int64
        case 0x05: self = .uint8
        case 0x06: self = .uint16
        case 0x07: self = .uint32
        case 0x08: self = .uint64
        case 0x09: self = .float32
        case 0x0A: self = .float64
        case 0x0B: self = .extended
        case 0x19: self = .float32WithUnit
        case 0x1A: self = .float64WithUnit
        case 0x1B: self = .extendedWithUnit
        case 0x20: self = .string
        case 0x21: self = .boolean
        case 0x44: self = .timestamp
        case 0x08_000C: self = .complex64
        case 0x10_000D: self = .complex128
        case 0xFFFF_FFFF: self = .daqmxRawData
        default: self = .unknown(code)
        }
    }

    /// NI's short name (LabVIEW's): I8..I64, U8..U64, SGL, DBL, EXT; the rest spelled out.
    var name: String {
        switch self {
        case .void: "Void"
        case .int8: "I8"
        case .int16: "I16"
        case .int32: "I32"
        case .int64: "I64"
        case .uint8: "U8"
        case .uint16: "U16"
        case .uint32: "U32"
        case .uint64: "U64"
        case .float32: "SGL"
        case .float64: "DBL"
        case .extended: "EXT"
        case .float32WithUnit: "SGL with unit"
        case .float64WithUnit: "DBL with unit"
        case .extendedWithUnit: "EXT with unit"
        case .string: "String"
        case .boolean: "Boolean"
        case .timestamp: "TimeStamp"
        case .complex64: "CSG"
        case .complex128: "CDB"
        case .daqmxRawData: "DAQmx raw data"
        case .unknown(let code): "type 0x\(String(code, radix: 16, uppercase: true))"
        }
    }

    /// Bytes per value in raw data; nil for strings (their index gives the bytes) and for the
    /// types whose width sonde, like npTDMS, does not know (EXT, DAQmx, unknown codes).
    var width: Int? {
        switch self {
        case .void: 0
        case .int8, .uint8, .boolean: 1
        case .int16, .uint16: 2
        case .int32, .uint32, .float32, .float32WithUnit: 4
        case .int64, .uint64, .float64, .float64WithUnit, .complex64: 8
        case .timestamp, .complex128: 16
        case .extended, .extendedWithUnit, .string, .daqmxRawData, .unknown: nil
        }
    }

    /// Whether sonde reads the values as samples (converted to Double as numpy's astype does).
    var isNumeric: Bool {
        switch self {
        case .int8, .int16, .int32, .int64, .uint8, .uint16, .uint32, .uint64: true
        case .float32, .float64, .float32WithUnit, .float64WithUnit: true
        default: false
        }
    }
}
