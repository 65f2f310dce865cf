/// A minimal PNG encoder for palette images (colour type 3, 8 bits a pixel).
///
/// Stored (uncompressed) deflate blocks: with a 256-colour palette a 512 x 256 spectrogram
/// is 131 KB, well inside a report's budget, and the encoder stays forty lines with no
/// zlib to link.
public enum PNGEncoder {
    /// The PNG file of an image whose pixels are indices into `palette`.
    /// - Parameters:
    ///   - width, height: in pixels, >= 1.
    ///   - palette: RGB triples, 1 to 256 colours.
    ///   - pixels: `width * height` indices, row after row from the top.
    public static func indexed(width: Int, height: Int, palette: [(UInt8, UInt8, UInt8)], pixels: [UInt8]) -> [UInt8] {
        precondition(width >= 1 && height >= 1 && pixels.count == width * height)
        precondition((1...256).contains(palette.count))
        var png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        var header: [UInt8] = []
        header.appendBigEndian(UInt32(width))
        header.appendBigEndian(UInt32(height))
        header += [8, 3, 0, 0, 0]  // bit depth, colour type (palette), compression, filter, interlace
        appendChunk("IHDR", header, to: &png)
        appendChunk("PLTE", palette.flatMap { [$0.0, $0.1, $0.2] }, to: &png)
        // Each row starts with filter type 0 (none).
        var raw: [UInt8] = []
        raw.reserveCapacity((width + 1) * height)
        for row in 0..<height {
            raw.append(0)
            raw += pixels[(row * width)..<((row + 1) * width)]
        }
        appendChunk("IDAT", zlibStored(raw), to: &png)
        appendChunk("IEND", [], to: &png)
        return png
    }

    /// A zlib stream of stored deflate blocks (RFC 1950/1951), at most 65535 bytes each.
    static func zlibStored(_ data: [UInt8]) -> [UInt8] {
        var out: [UInt8] = [0x78, 0x01]
        var start = 0
        repeat {
            let end = Swift.min(start + 65_535, data.count)
            let length = UInt16(end - start)
            out.append(end == data.count ? 1 : 0)  // BFINAL, BTYPE = 00
            out += [UInt8(length & 0xFF), UInt8(length >> 8), UInt8(~length & 0xFF), UInt8(~length >> 8)]
            out += data[start..<end]
            start = end
        } while start < data.count
        out.appendBigEndian(adler32(data))
        return out
    }

    static func adler32(_ data: [UInt8]) -> UInt32 {
        var a: UInt32 = 1, b: UInt32 = 0
        // 5552 bytes is the most that cannot overflow before the modulo (zlib's NMAX).
        var index = 0
        while index < data.count {
            let end = Swift.min(index + 5552, data.count)
            for byte in data[index..<end] {
                a &+= UInt32(byte)
                b &+= a
            }
            a %= 65_521
            b %= 65_521
            index = end
        }
        return b << 16 | a
    }

    private static let crcTable: [UInt32] = (0..<256).map { n in
        var c = UInt32(n)
        for _ in 0..<8 { c = c & 1 != 0 ? 0xEDB8_8320 ^ (c >> 1) : c >> 1 }
        return c
    }

    static func crc32(_ bytes: some Sequence<UInt8>) -> UInt32 {
        var c: UInt32 = 0xFFFF_FFFF
        for byte in bytes { c = crcTable[Int((c ^ UInt32(byte)) & 0xFF)] ^ (c >> 8) }
        return c ^ 0xFFFF_FFFF
    }

    private static func appendChunk(_ type: String, _ data: [UInt8], to png: inout [UInt8]) {
        png.appendBigEndian(UInt32(data.count))
        let typeBytes = Array(type.utf8)
        png += typeBytes
        png += data
        png.appendBigEndian(crc32(typeBytes + data))
    }
}

extension [UInt8] {
    fileprivate mutating func appendBigEndian(_ value: UInt32) {
        append(contentsOf: [
            UInt8(value >> 24), UInt8((value >> 16) & 0xFF), UInt8((value >> 8) & 0xFF), UInt8(value & 0xFF),
        ])
    }
}
