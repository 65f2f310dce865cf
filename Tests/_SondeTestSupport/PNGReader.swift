import Foundation

/// Reads back the PNGs sonde writes (8-bit palette, stored deflate blocks, filter 0) as a
/// viewer would: chunk by chunk, checking each CRC, to RGB pixels. Anything else throws,
/// so a test fails rather than reading garbage.
public struct PNGReader: Sendable {
    public var width: Int
    public var height: Int
    /// RGB per pixel, row after row from the top.
    public var pixels: [(UInt8, UInt8, UInt8)]

    public struct Failure: Error, CustomStringConvertible {
        public var description: String
    }

    public init(_ bytes: [UInt8]) throws {
        guard bytes.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) else {
            throw Failure(description: "no PNG signature")
        }
        var offset = 8
        var width = 0, height = 0
        var palette: [(UInt8, UInt8, UInt8)] = []
        var compressed: [UInt8] = []
        func u32(_ at: Int) -> Int {
            Int(bytes[at]) << 24 | Int(bytes[at + 1]) << 16 | Int(bytes[at + 2]) << 8 | Int(bytes[at + 3])
        }
        while offset + 12 <= bytes.count {
            let length = u32(offset)
            let type = String(decoding: bytes[(offset + 4)..<(offset + 8)], as: UTF8.self)
            guard offset + 12 + length <= bytes.count else {
                throw Failure(description: "chunk \(type) runs past the end")
            }
            let data = Array(bytes[(offset + 8)..<(offset + 8 + length)])
            guard UInt32(u32(offset + 8 + length)) == Self.crc32(Array(bytes[(offset + 4)..<(offset + 8 + length)]))
            else {
                throw Failure(description: "bad CRC in \(type)")
            }
            switch type {
            case "IHDR":
                width = Int(data[0]) << 24 | Int(data[1]) << 16 | Int(data[2]) << 8 | Int(data[3])
                height = Int(data[4]) << 24 | Int(data[5]) << 16 | Int(data[6]) << 8 | Int(data[7])
                guard data[8] == 8, data[9] == 3 else { throw Failure(description: "not an 8-bit palette image") }
            case "PLTE":
                palette = stride(from: 0, to: data.count, by: 3).map { (data[$0], data[$0 + 1], data[$0 + 2]) }
            case "IDAT":
                compressed += data
            default:
                break
            }
            offset += 12 + length
        }
        // zlib header, then stored blocks: BFINAL/BTYPE byte, LEN, NLEN, data.
        var raw: [UInt8] = []
        var at = 2
        while true {
            let header = compressed[at]
            guard header & 0b110 == 0 else {
                throw Failure(description: "compressed deflate block: not what sonde writes")
            }
            let length = Int(compressed[at + 1]) | Int(compressed[at + 2]) << 8
            let check = Int(compressed[at + 3]) | Int(compressed[at + 4]) << 8
            guard length ^ check == 0xFFFF else { throw Failure(description: "bad stored-block length") }
            raw += compressed[(at + 5)..<(at + 5 + length)]
            at += 5 + length
            if header & 1 == 1 { break }
        }
        guard raw.count == (width + 1) * height else {
            throw Failure(description: "\(raw.count) bytes for \(width)x\(height)")
        }
        var pixels: [(UInt8, UInt8, UInt8)] = []
        pixels.reserveCapacity(width * height)
        for row in 0..<height {
            guard raw[row * (width + 1)] == 0 else {
                throw Failure(description: "row filter \(raw[row * (width + 1)])")
            }
            for column in 0..<width { pixels.append(palette[Int(raw[row * (width + 1) + 1 + column])]) }
        }
        self.width = width
        self.height = height
        self.pixels = pixels
    }

    /// The PNG inside a `data:image/png;base64,...` URI.
    public init(dataURI: String) throws {
        guard let comma = dataURI.firstIndex(of: ","),
            let data = Data(base64Encoded: String(dataURI[dataURI.index(after: comma)...]))
        else {
            throw Failure(description: "not a base64 data URI")
        }
        try self.init([UInt8](data))
    }

    /// Relative luminance (Rec. 709 weights) of the pixel at `column`, `row` (row 0 at the top).
    public func luminance(column: Int, row: Int) -> Double {
        let p = pixels[row * width + column]
        return 0.2126 * Double(p.0) + 0.7152 * Double(p.1) + 0.0722 * Double(p.2)
    }

    static func crc32(_ bytes: [UInt8]) -> UInt32 {
        var c: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            c ^= UInt32(byte)
            for _ in 0..<8 { c = c & 1 != 0 ? 0xEDB8_8320 ^ (c >> 1) : c >> 1 }
        }
        return c ^ 0xFFFF_FFFF
    }
}
