#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Numbers by the C library's `strtod` (correctly rounded in glibc): the scanner of
/// `JSONText`, for the small files sonde reads whole (a manifest, a pairing, a draft's
/// header). Listings read by the thousand use SondeIO's faster `DecimalScanner`, which
/// gives the same values.
package struct StrtodNumbers: JSONNumberScanner {
    package init() {}

    package func number(at start: UnsafePointer<UInt8>) -> (value: Double, end: UnsafePointer<UInt8>)? {
        var end: UnsafeMutablePointer<CChar>?
        let value = start.withMemoryRebound(to: CChar.self, capacity: 1) { strtod($0, &end) }
        guard let end, UnsafeRawPointer(end) != UnsafeRawPointer(start) else { return nil }
        return (value, UnsafeRawPointer(end).assumingMemoryBound(to: UInt8.self))
    }
}
