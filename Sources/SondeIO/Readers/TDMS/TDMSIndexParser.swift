#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Walks a TDMS file's segments and builds each channel's runs, applying incremental metadata
/// as npTDMS's `TdmsSegment.read_segment_objects` does.
///
/// A segment's object list is its metadata's objects when `kTocNewObjList` is set, else the
/// previous segment's list with the metadata's objects replaced or appended; a segment without
/// `kTocMetaData` repeats the previous list. A raw data index of 0x00000000 takes the object's
/// index from the last segment that had it; 0xFFFFFFFF keeps it but gives the object no data here.
struct TDMSIndexParser {
    /// An object's raw data index as one segment has it (npTDMS's `TdmsSegmentObject`).
    struct ObjectIndex {
        let path: String
        var dataType: TDMSDataType?
        var valuesPerChunk = 0
        /// Bytes per chunk: values times width, or a string index's total.
        var dataSize = 0
        var hasData = false
    }

    let path: String
    let descriptor: Int32
    let size: Int

    private(set) var channels: [TDMSChannel] = []
    private(set) var groups: [String] = []
    private(set) var groupProperties: [String: [String: TDMSPropertyValue]] = [:]
    private(set) var fileProperties: [String: TDMSPropertyValue] = [:]
    private(set) var notes: [String] = []
    private(set) var segmentCount = 0
    private(set) var version: Int32?

    private var channelNumbers: [String: Int] = [:]
    private var lastObjects: [String: ObjectIndex] = [:]
    private var previousList: [ObjectIndex]?

    init(path: String, descriptor: Int32, size: Int) {
        self.path = path
        self.descriptor = descriptor
        self.size = size
    }

    /// Parses every segment; afterwards `channels` lists them group by group in npTDMS's order.
    mutating func parse() throws(ContainerError) {
        guard size > 0 else {
            throw ContainerError(.corrupt, path, "the file is empty; expected a TDMS segment starting with \"TDSm\"")
        }
        var position = 0
        while position < size {
            guard let next = try parseSegment(at: position) else { break }
            position = next
            segmentCount += 1
        }
        let order = Dictionary(uniqueKeysWithValues: groups.enumerated().map { ($1, $0) })
        channels = channels.enumerated().sorted { left, right in
            let (a, b) = (order[left.element.group] ?? 0, order[right.element.group] ?? 0)
            return a != b ? a < b : left.offset < right.offset
        }.map(\.element)
    }

    /// Parses the segment at `position`; returns the next one's position, nil to stop.
    private mutating func parseSegment(at position: Int) throws(ContainerError) -> Int? {
        let segment = segmentCount
        func corrupt(_ message: String, at offset: Int = position) -> ContainerError {
            ContainerError(.corrupt, path, segment: segment, offset: offset, message)
        }
        let remaining = size - position
        guard remaining >= TDMSLeadIn.size else {
            throw corrupt(
                "the file ends \(remaining) bytes into a lead-in; expected 28 bytes (the file is truncated)")
        }
        let leadBytes = try readBytes(at: position, count: TDMSLeadIn.size, segment: segment)
        guard let leadIn = leadBytes.withUnsafeBytes({ TDMSLeadIn($0) }) else {
            let tag = leadBytes[0..<4].map { (32...126).contains($0) ? String(UnicodeScalar($0)) : "." }.joined()
            throw corrupt("expected a segment's tag \"TDSm\", found \"\(tag)\" (not a TDMS file, or a corrupt one)")
        }
        guard leadIn.version == 4712 || leadIn.version == 4713 else {
            throw corrupt("the lead-in's version is \(leadIn.version); expected 4712 or 4713 (TDMS 1.0 or 2.0)")
        }
        version = version ?? leadIn.version
        let contents = leadIn.tableOfContents
        guard !contents.contains(.daqmxRawData) else {
            throw ContainerError(
                .unsupported, path, segment: segment, offset: position,
                "the segment holds DAQmx raw data (kTocDAQmxRawData), which sonde does not read; "
                    + "expected plain numeric channels (I8..I64, U8..U64, SGL, DBL): export scaled values first")
        }
        let leadEnd = position + TDMSLeadIn.size
        let unterminated = leadIn.nextSegmentOffset == TDMSLeadIn.lengthUnknown
        let segmentEnd: Int
        if unterminated {
            segmentEnd = size
        } else {
            guard leadIn.nextSegmentOffset <= UInt64(size - leadEnd) else {
                throw corrupt(
                    "the lead-in says the segment runs \(leadIn.nextSegmentOffset) bytes past its lead-in, "
                        + "but only \(size - leadEnd) remain in the file; expected the whole segment "
                        + "(the file is truncated or the lead-in is corrupt)")
            }
            segmentEnd = leadEnd + Int(leadIn.nextSegmentOffset)
        }
        guard leadIn.rawDataOffset <= UInt64(segmentEnd - leadEnd) else {
            if unterminated {
                notes.append(
                    "\(path): segment \(segment) at byte \(position) was cut before its metadata was complete; "
                        + "ignored, as npTDMS does")
                return nil
            }
            throw corrupt(
                "the raw data offset (\(leadIn.rawDataOffset) bytes after the lead-in) lies past the segment's "
                    + "end (\(segmentEnd - leadEnd) bytes after it); expected the raw data inside the segment")
        }
        let dataStart = leadEnd + Int(leadIn.rawDataOffset)
        let bigEndian = contents.contains(.bigEndian)

        let list: [ObjectIndex]
        if contents.contains(.metaData) {
            let block = try readBytes(at: leadEnd, count: dataStart - leadEnd, segment: segment)
            var cursor = TDMSMetadataCursor(block, bigEndian: bigEndian)
            do {
                list = try parseObjects(
                    &cursor, newList: contents.contains(.newObjectList), segment: segment, blockStart: leadEnd)
            } catch let overrun as TDMSMetadataCursor.Overrun {
                throw corrupt(
                    "the metadata's \(overrun.what) needs \(overrun.needed) bytes, but the metadata ends "
                        + "\(block.count - overrun.position) bytes later (at the raw data offset); "
                        + "expected the metadata to fit before the raw data",
                    at: leadEnd + overrun.position)
            } catch let error as ContainerError {
                throw error
            } catch {
                throw corrupt("\(error)")
            }
        } else {
            guard let previousList else {
                throw corrupt("the segment has no metadata (kTocMetaData is clear) and no segment comes before it")
            }
            list = previousList
        }
        previousList = list
        for object in list {
            lastObjects[object.path] = object
            if let type = object.dataType, let number = channelNumbers[object.path] {
                let known = channels[number].dataType
                guard known == .void || known == type || type == .void else {
                    throw corrupt(
                        "channel '\(channels[number].path)' changes type from \(known.name) to \(type.name); "
                            + "expected one type in every segment")
                }
                if type != .void { channels[number].dataType = type }
            }
        }
        try addRuns(
            list: list, dataStart: dataStart, segmentEnd: segmentEnd,
            interleavedFlag: contents.contains(.interleavedData),
            bigEndian: bigEndian, unterminated: unterminated, segment: segment, position: position)
        return segmentEnd
    }

    /// Reads one segment's object list from its metadata block.
    private mutating func parseObjects(
        _ cursor: inout TDMSMetadataCursor, newList: Bool, segment: Int, blockStart: Int
    ) throws -> [ObjectIndex] {
        var list = newList ? [] : (previousList ?? [])
        var listed = Dictionary(list.enumerated().map { ($1.path, $0) }, uniquingKeysWith: { first, _ in first })
        let count = try cursor.uint32("object count")
        for _ in 0..<count {
            let objectStart = blockStart + cursor.position
            let objectPath = try cursor.string("object path")
            let components = try pathComponents(objectPath, segment: segment, offset: objectStart)
            let header = try cursor.uint32("raw data index of '\(objectPath)'")
            let existing = listed[objectPath].map { list[$0] } ?? lastObjects[objectPath]
            var object: ObjectIndex
            switch header {
            case 0xFFFF_FFFF:
                object = existing ?? ObjectIndex(path: objectPath)
                object.hasData = false
            case 0:
                guard let existing else {
                    throw ContainerError(
                        .corrupt, path, segment: segment, offset: objectStart,
                        "the raw data index of '\(objectPath)' is 0 (as in the previous segment), but no earlier "
                            + "segment has '\(objectPath)'; expected a full index")
                }
                object = existing
                object.hasData = true
            case 0x1269, 0x126A:
                throw ContainerError(
                    .unsupported, path, segment: segment, offset: objectStart,
                    "'\(objectPath)' holds DAQmx raw data (raw data index 0x\(String(header, radix: 16))), which sonde "
                        + "does not read; expected plain numeric channels (I8..I64, U8..U64, SGL, DBL): "
                        + "export scaled values first")
            default:
                object = try parseIndex(&cursor, objectPath: objectPath, segment: segment, offset: objectStart)
            }
            let properties = try parseProperties(&cursor, objectPath: objectPath, segment: segment, offset: objectStart)
            register(objectPath, components, properties: properties)
            if let index = listed[objectPath] {
                list[index] = object
            } else {
                listed[objectPath] = list.count
                list.append(object)
            }
        }
        return list
    }

    private func parseIndex(
        _ cursor: inout TDMSMetadataCursor, objectPath: String, segment: Int, offset: Int
    ) throws -> ObjectIndex {
        func refuse(_ kind: ContainerError.Kind, _ message: String) -> ContainerError {
            ContainerError(kind, path, segment: segment, offset: offset, message)
        }
        let type = TDMSDataType(code: try cursor.uint32("data type of '\(objectPath)'"))
        let dimension = try cursor.uint32("array dimension of '\(objectPath)'")
        let values = try cursor.uint64("value count of '\(objectPath)'")
        if type == .daqmxRawData {
            throw refuse(
                .unsupported,
                "'\(objectPath)' holds DAQmx raw data, which sonde does not read; expected plain numeric "
                    + "channels (I8..I64, U8..U64, SGL, DBL): export scaled values first")
        }
        guard dimension == 1 else {
            throw refuse(.corrupt, "'\(objectPath)' has array dimension \(dimension); expected 1")
        }
        guard values <= UInt64(size) else {
            throw refuse(.corrupt, "'\(objectPath)' claims \(values) values a chunk, more than the file's bytes")
        }
        var object = ObjectIndex(path: objectPath, dataType: type, valuesPerChunk: Int(values), hasData: true)
        if type == .string {
            let bytes = try cursor.uint64("string data size of '\(objectPath)'")
            guard bytes <= UInt64(size) else {
                throw refuse(.corrupt, "'\(objectPath)' claims \(bytes) bytes of strings, more than the file has")
            }
            object.dataSize = Int(bytes)
        } else if let width = type.width {
            guard type != .void || values == 0 else {
                throw refuse(.corrupt, "'\(objectPath)' has type Void but \(values) values; expected none")
            }
            object.dataSize = Int(values) * width
        } else {
            throw refuse(
                .unsupported,
                "'\(objectPath)' has data type \(type.name), whose layout sonde does not read (nor does npTDMS); "
                    + "expected I8..I64, U8..U64, SGL, DBL, or a type it can skip")
        }
        return object
    }

    private func parseProperties(
        _ cursor: inout TDMSMetadataCursor, objectPath: String, segment: Int, offset: Int
    ) throws -> [(String, TDMSPropertyValue)] {
        let count = try cursor.uint32("property count of '\(objectPath)'")
        var properties: [(String, TDMSPropertyValue)] = []
        for _ in 0..<count {
            let name = try cursor.string("property name of '\(objectPath)'")
            let what = "property '\(name)' of '\(objectPath)'"
            let type = TDMSDataType(code: try cursor.uint32(what + "'s type"))
            let value: TDMSPropertyValue
            switch type {
            case .int8: value = .integer(Int64(try cursor.load(Int8.self, what)))
            case .int16: value = .integer(Int64(try cursor.load(Int16.self, what)))
            case .int32: value = .integer(Int64(try cursor.load(Int32.self, what)))
            case .int64: value = .integer(try cursor.load(Int64.self, what))
            case .uint8: value = .integer(Int64(try cursor.load(UInt8.self, what)))
            case .uint16: value = .integer(Int64(try cursor.load(UInt16.self, what)))
            case .uint32: value = .integer(Int64(try cursor.load(UInt32.self, what)))
            case .uint64: value = .unsigned(try cursor.load(UInt64.self, what))
            case .float32, .float32WithUnit:
                value = .number(Double(Float(bitPattern: try cursor.load(UInt32.self, what))))
            case .float64, .float64WithUnit: value = .number(Double(bitPattern: try cursor.load(UInt64.self, what)))
            case .string: value = .string(try cursor.string(what))
            case .boolean: value = .boolean(try cursor.load(UInt8.self, what) != 0)
            case .timestamp:
                // Little-endian: fractions then seconds; big-endian: seconds then fractions.
                if cursor.bigEndian {
                    let seconds = try cursor.load(Int64.self, what)
                    value = .timestamp(TDMSTimestamp(seconds: seconds, fractions: try cursor.uint64(what)))
                } else {
                    let fractions = try cursor.uint64(what)
                    value = .timestamp(TDMSTimestamp(seconds: try cursor.load(Int64.self, what), fractions: fractions))
                }
            default:
                throw ContainerError(
                    .unsupported, path, segment: segment, offset: offset,
                    "\(what) has type \(type.name), which sonde does not read (nor does npTDMS)")
            }
            properties.append((name, value))
        }
        return properties
    }

    /// The group and channel names of an object's path: "/", "/'group'", "/'group'/'channel'",
    /// a quote inside a name doubled.
    private func pathComponents(_ objectPath: String, segment: Int, offset: Int) throws(ContainerError) -> [String] {
        var components: [String] = []
        var characters = objectPath.makeIterator()
        while let character = characters.next() {
            guard character == "/" else {
                throw ContainerError(
                    .corrupt, path, segment: segment, offset: offset,
                    "the object path \"\(objectPath)\" is not of the form /'group'/'channel'")
            }
            guard let quote = characters.next() else { break }
            guard quote == "'" else {
                throw ContainerError(
                    .corrupt, path, segment: segment, offset: offset,
                    "the object path \"\(objectPath)\" is not of the form /'group'/'channel'")
            }
            var name = ""
            var closed = false
            while let next = characters.next() {
                if next == "'" {
                    var lookahead = characters
                    if lookahead.next() == "'" {
                        name.append("'")
                        characters = lookahead
                        continue
                    }
                    closed = true
                    break
                }
                name.append(next)
            }
            guard closed, components.count < 2 else {
                throw ContainerError(
                    .corrupt, path, segment: segment, offset: offset,
                    "the object path \"\(objectPath)\" is not of the form /'group'/'channel'")
            }
            components.append(name)
        }
        return components
    }

    /// Records a group or channel the first time it appears, and its properties each time.
    private mutating func register(
        _ objectPath: String, _ components: [String], properties: [(String, TDMSPropertyValue)]
    ) {
        if let group = components.first, groupProperties[group] == nil {
            groups.append(group)
            groupProperties[group] = [:]
        }
        switch components.count {
        case 0:
            for (name, value) in properties { fileProperties[name] = value }
        case 1:
            for (name, value) in properties { groupProperties[components[0], default: [:]][name] = value }
        default:
            let number: Int
            if let known = channelNumbers[objectPath] {
                number = known
            } else {
                number = channels.count
                channelNumbers[objectPath] = number
                channels.append(TDMSChannel(group: components[0], name: components[1]))
            }
            for (name, value) in properties { channels[number].properties[name] = value }
        }
    }

    /// Works out the segment's chunks and appends each channel's run.
    private mutating func addRuns(
        list: [ObjectIndex], dataStart: Int, segmentEnd: Int, interleavedFlag: Bool, bigEndian: Bool,
        unterminated: Bool, segment: Int, position: Int
    ) throws(ContainerError) {
        func corrupt(_ message: String, kind: ContainerError.Kind = .corrupt) -> ContainerError {
            ContainerError(kind, path, segment: segment, offset: position, message)
        }
        let data = list.filter(\.hasData)
        let total = segmentEnd - dataStart
        var chunkBytes = 0
        for object in data {
            let (sum, overflow) = chunkBytes.addingReportingOverflow(object.dataSize)
            guard !overflow, sum <= size else {
                throw corrupt("the objects' raw data indexes give more bytes a chunk than the file has")
            }
            chunkBytes = sum
        }
        guard chunkBytes > 0 else {
            guard total == 0 else {
                throw corrupt(
                    "the lead-in gives \(total) bytes of raw data, but the objects' indexes give none; "
                        + "expected the two to agree")
            }
            return
        }
        var interleaved = interleavedFlag
        if interleaved, data.contains(where: { $0.dataType == .string }) {
            // npTDMS reads a lone string channel of an "interleaved" segment as contiguous.
            guard data.count == 1 else {
                throw corrupt("interleaved data with a string channel; expected sized types only", kind: .unsupported)
            }
            interleaved = false
        }
        if interleaved, let first = data.first,
            let other = data.first(where: { $0.valuesPerChunk != first.valuesPerChunk })
        {
            throw corrupt(
                "interleaved channels with different value counts ('\(first.path)' \(first.valuesPerChunk), "
                    + "'\(other.path)' \(other.valuesPerChunk)); expected one count for every channel")
        }
        let wholeChunks = total / chunkBytes
        let remainder = total % chunkBytes
        if remainder != 0, !unterminated {
            throw corrupt(
                "the lead-in gives \(total) bytes of raw data, not a whole number of \(chunkBytes)-byte chunks; "
                    + "expected the segment's length to match its metadata (the lead-in is corrupt)")
        }
        if unterminated {
            let partial = remainder == 0 ? "" : " and \(remainder) bytes of a partial one"
            notes.append(
                "\(path): segment \(segment) at byte \(position) has no recorded length (next-segment offset "
                    + "0xFFFFFFFFFFFFFFFF: its writer stopped); read \(wholeChunks) whole chunks\(partial) to the end "
                    + "of the file, as npTDMS does")
        }
        // Values of each data object in a partial last chunk (npTDMS's _compute_final_chunk_lengths).
        var lastValues = [Int](repeating: 0, count: data.count)
        if remainder != 0 {
            if interleaved {
                let frameWidth = data.reduce(0) { $0 + ($1.dataType?.width ?? 0) }
                lastValues = data.map { _ in remainder / frameWidth }
            } else if !data.contains(where: { $0.dataType == .string }) {
                var left = remainder
                for (index, object) in data.enumerated() {
                    let width = object.dataType?.width ?? 1
                    if left > object.dataSize {
                        lastValues[index] = object.valuesPerChunk
                        left -= object.dataSize
                    } else {
                        lastValues[index] = left / width
                        break
                    }
                }
            }
        }
        let frameWidth = interleaved ? data.reduce(0) { $0 + ($1.dataType?.width ?? 0) } : 0
        var within = 0
        for (index, object) in data.enumerated() {
            defer { within += interleaved ? (object.dataType?.width ?? 0) : object.dataSize }
            let count = object.valuesPerChunk * wholeChunks + lastValues[index]
            guard count > 0, let number = channelNumbers[object.path], let type = object.dataType else { continue }
            let first = channels[number].count
            channels[number].count += count
            guard type.isNumeric, let width = type.width else { continue }
            channels[number].runs.append(
                TDMSRun(
                    segment: segment, firstValue: first, count: count, offset: dataStart + within,
                    valuesPerChunk: interleaved ? count : object.valuesPerChunk,
                    chunkBytes: interleaved ? 0 : chunkBytes, valueStride: interleaved ? frameWidth : width,
                    bigEndian: bigEndian))
        }
    }

    private func readBytes(at offset: Int, count: Int, segment: Int) throws(ContainerError) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: count)
        let failure = bytes.withUnsafeMutableBytes { buffer -> ContainerError? in
            do throws(ContainerError) {
                try TDMSFile.readFully(descriptor, into: buffer, at: offset, path: path, segment: segment)
                return nil
            } catch {
                return error
            }
        }
        if let failure { throw failure }
        return bytes
    }
}
