#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// An object's key as its bytes, matched by `switch` against the names a reader knows:
/// making a string of every key was a tenth of a listing's reading (perf). Valid only
/// inside the `object` body it is given to.
package struct JSONKey {
    package let bytes: UnsafeBufferPointer<UInt8>

    @inlinable
    package init(bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = bytes
    }

    @inlinable
    package static func ~= (name: StaticString, key: JSONKey) -> Bool {
        guard name.utf8CodeUnitCount == key.bytes.count, let base = key.bytes.baseAddress else {
            return name.utf8CodeUnitCount == key.bytes.count
        }
        return memcmp(name.utf8Start, base, key.bytes.count) == 0
    }
}
