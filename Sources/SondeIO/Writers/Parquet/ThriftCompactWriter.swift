/// Serialises Thrift structs in the compact protocol, the encoding of Parquet's footer and
/// page headers (Thrift's `doc/specs/thrift-compact-protocol.md`).
///
/// Only what Parquet's metadata needs is here: structs, unions (a struct with one field),
/// lists, i32/i64/enums, booleans and binary. Callers write fields in increasing id order,
/// so each field header is one byte (a delta of 1...15 from the previous id).
struct ThriftCompactWriter {
    /// The compact protocol's type codes, as they appear in field and list headers.
    enum FieldType: UInt8 {
        case booleanTrue = 1
        case booleanFalse = 2
        case byte = 3
        case i16 = 4
        case i32 = 5
        case i64 = 6
        case double = 7
        case binary = 8
        case list = 9
        case set = 10
        case map = 11
        case `struct` = 12
    }

    private(set) var bytes: [UInt8] = []
    /// The id of the last field written in the current struct (0 at its start).
    private var lastFieldID: Int16 = 0
    /// `lastFieldID` of each enclosing struct, restored when a nested struct ends.
    private var enclosingFieldIDs: [Int16] = []

    init() {}

    // MARK: Fields

    mutating func writeI16(field: Int16, _ value: Int16) {
        writeFieldHeader(field, .i16)
        writeVarint(zigzag(Int64(value)))
    }

    mutating func writeI32(field: Int16, _ value: Int32) {
        writeFieldHeader(field, .i32)
        writeVarint(zigzag(Int64(value)))
    }

    mutating func writeI64(field: Int16, _ value: Int64) {
        writeFieldHeader(field, .i64)
        writeVarint(zigzag(value))
    }

    /// A boolean field carries its value in the field header's type: no payload byte.
    mutating func writeBool(field: Int16, _ value: Bool) {
        writeFieldHeader(field, value ? .booleanTrue : .booleanFalse)
    }

    mutating func writeBinary(field: Int16, _ value: some Collection<UInt8>) {
        writeFieldHeader(field, .binary)
        writeVarint(UInt64(value.count))
        bytes.append(contentsOf: value)
    }

    mutating func writeString(field: Int16, _ value: String) {
        writeBinary(field: field, Array(value.utf8))
    }

    /// A nested struct (or union) field; `body` writes its fields, the stop byte follows.
    mutating func writeStruct(field: Int16, _ body: (inout ThriftCompactWriter) -> Void) {
        writeFieldHeader(field, .struct)
        writeStructBody(body)
    }

    /// A field holding an empty struct, as Parquet's marker types (`StringType`, `MilliSeconds`).
    mutating func writeEmptyStruct(field: Int16) {
        writeStruct(field: field) { _ in }
    }

    mutating func writeI32List(field: Int16, _ values: [Int32]) {
        writeFieldHeader(field, .list)
        writeListHeader(count: values.count, elementType: .i32)
        for value in values { writeVarint(zigzag(Int64(value))) }
    }

    mutating func writeStringList(field: Int16, _ values: [String]) {
        writeFieldHeader(field, .list)
        writeListHeader(count: values.count, elementType: .binary)
        for value in values {
            let utf8 = Array(value.utf8)
            writeVarint(UInt64(utf8.count))
            bytes.append(contentsOf: utf8)
        }
    }

    /// A list of structs; `body` writes the fields of one element.
    mutating func writeStructList<Element>(
        field: Int16, _ elements: [Element], _ body: (inout ThriftCompactWriter, Element) -> Void
    ) {
        writeFieldHeader(field, .list)
        writeListHeader(count: elements.count, elementType: .struct)
        for element in elements { writeStructBody { body(&$0, element) } }
    }

    /// Ends the outermost struct (nested ones end by themselves).
    mutating func writeStop() {
        bytes.append(0)
    }

    // MARK: Wire encoding

    /// Field header: `delta << 4 | type` when the id is 1...15 above the previous one,
    /// else the type alone followed by the id as a zigzag varint.
    mutating func writeFieldHeader(_ field: Int16, _ type: FieldType) {
        let delta = Int(field) - Int(lastFieldID)
        if delta > 0 && delta <= 15 {
            bytes.append(UInt8(delta) << 4 | type.rawValue)
        } else {
            bytes.append(type.rawValue)
            writeVarint(zigzag(Int64(field)))
        }
        lastFieldID = field
    }

    /// List header: `size << 4 | type` for fewer than 15 elements, else `0xF0 | type` and
    /// the size as a varint.
    mutating func writeListHeader(count: Int, elementType: FieldType) {
        if count < 15 {
            bytes.append(UInt8(count) << 4 | elementType.rawValue)
        } else {
            bytes.append(0xF0 | elementType.rawValue)
            writeVarint(UInt64(count))
        }
    }

    /// ULEB-128: seven bits a byte, least significant first, high bit set on all but the last.
    mutating func writeVarint(_ value: UInt64) {
        var rest = value
        while rest >= 0x80 {
            bytes.append(UInt8(truncatingIfNeeded: rest) | 0x80)
            rest >>= 7
        }
        bytes.append(UInt8(rest))
    }

    /// Zigzag maps signed to unsigned so small magnitudes stay short: 0, -1, 1, -2 -> 0, 1, 2, 3.
    func zigzag(_ value: Int64) -> UInt64 {
        UInt64(bitPattern: (value << 1) ^ (value >> 63))
    }

    private mutating func writeStructBody(_ body: (inout ThriftCompactWriter) -> Void) {
        enclosingFieldIDs.append(lastFieldID)
        lastFieldID = 0
        body(&self)
        bytes.append(0)
        lastFieldID = enclosingFieldIDs.removeLast()
    }
}
