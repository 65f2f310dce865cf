/// The one way sonde reads a JSON text whole: `JSONReader` over a zero-terminated copy of
/// the bytes, the value read by `body`, then nothing but blanks. Manifests, pairings,
/// drafts and saved settings all read through it; listings, which read thousands of rows,
/// keep one reader of their own (`StoredJSONReader`) on the same `JSONReader`.
package enum JSONText {
    /// - Parameters:
    ///   - what: what the text is, for errors: "device.json" gives "device.json, byte 12: ...".
    /// - Throws: `SondeError(.invalidInput)` naming the byte where reading stopped.
    package static func read<T>(
        _ bytes: some Collection<UInt8>, what: String, _ body: (inout JSONReader<StrtodNumbers>) throws -> T
    ) throws -> T {
        var copy = [UInt8]()
        copy.reserveCapacity(bytes.count + 1)
        copy.append(contentsOf: bytes)
        copy.append(0)
        let count = copy.count - 1
        return try copy.withUnsafeBufferPointer { buffer in
            guard let start = buffer.baseAddress else { throw SondeError(.invalidInput, "\(what): empty") }
            var reader = JSONReader(start: start, end: start + count, numbers: StrtodNumbers(), what: what)
            let value = try body(&reader)
            reader.skipSpace()
            guard reader.position == reader.end else { throw reader.failure("text after the value") }
            return value
        }
    }

    /// Reads a text's one value as a tree (`JSONReader.value()`).
    package static func value(_ text: String, what: String) throws -> JSONValue {
        try read(text.utf8, what: what) { try $0.value() }
    }
}
