/// Converts the number that starts at a byte, for `JSONReader`: SondeIO's `DecimalScanner`
/// (strtod's exact results, Eisel-Lemire), which SondeCore cannot hold, as its hot CSV loop
/// inlines it (10-15% on 100 MB CSVs).
package protocol JSONNumberScanner {
    /// The value and the byte after it (and after any blanks that follow it), or nil where
    /// no number starts. `start`'s text ends in a zero byte.
    func number(at start: UnsafePointer<UInt8>) -> (value: Double, end: UnsafePointer<UInt8>)?
}
