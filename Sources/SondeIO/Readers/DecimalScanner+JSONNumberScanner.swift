import SondeCore

/// The JSON reader's numbers are the CSV reader's: the same grammar (wider than JSON's,
/// which nothing sonde writes leaves) and strtod's exact results.
extension DecimalScanner: JSONNumberScanner {
    package func number(at start: UnsafePointer<UInt8>) -> (value: Double, end: UnsafePointer<UInt8>)? {
        guard case .number(let value, let end) = scan(start) else { return nil }
        return (value, end)
    }
}
