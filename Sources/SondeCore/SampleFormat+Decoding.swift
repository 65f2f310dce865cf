extension SampleFormat {
    /// Converts `count` little-endian samples of this encoding to Doubles, as docs/features.md
    /// section 1 says: integers scaled by exactly 2^-15 (i16) or 2^-31 (i32), so -32768 reads
    /// as -1.0; f32 widened, which is exact; f64 as is.
    ///
    /// Why here: the raw file reader and the capture devices (ALSA, a command's stdout) must
    /// turn the same bytes into the same Doubles, bit for bit, so they share this one loop.
    /// The source may be unaligned (a reader's kept tail).
    ///
    /// - Returns: false when a float sample is NaN, infinite or beyond
    ///   `SampleLimits.largestMagnitude`; the caller finds it and names it (every sample is
    ///   still written).
    public func decode(
        _ source: UnsafeRawPointer, into destination: UnsafeMutablePointer<Double>, count: Int
    ) -> Bool {
        switch self {
        case .i16le:
            let scale = 1.0 / 32768.0
            for index in 0..<count {
                let raw = Int16(littleEndian: source.loadUnaligned(fromByteOffset: index &* 2, as: Int16.self))
                destination[index] = Double(raw) * scale
            }
            return true
        case .i32le:
            let scale = 1.0 / 2_147_483_648.0
            for index in 0..<count {
                let raw = Int32(littleEndian: source.loadUnaligned(fromByteOffset: index &* 4, as: Int32.self))
                destination[index] = Double(raw) * scale
            }
            return true
        case .f32le:
            return Self.widenFloat32(from: source, into: destination, count: count)
        case .f64le:
            var allFinite = true
            for index in 0..<count {
                let bits = UInt64(littleEndian: source.loadUnaligned(fromByteOffset: index &* 8, as: UInt64.self))
                let value = Double(bitPattern: bits)
                allFinite = allFinite && SampleLimits.contains(value)
                destination[index] = value
            }
            return allFinite
        }
    }

    /// Widens little-endian f32 samples, eight at a time; false if any was NaN or infinite
    /// (an all-ones exponent), which the caller then finds and reports.
    ///
    /// Why by hand: the scalar loop with its finiteness flag did not vectorise and cost 6%
    /// of a run on raw f32 input (perf).
    public static func widenFloat32(
        from source: UnsafeRawPointer, into destination: UnsafeMutablePointer<Double>, count: Int
    ) -> Bool {
        let exponent = SIMD8<UInt32>(repeating: 0x7F80_0000)
        var nonFinite = SIMDMask<SIMD8<Int32>>(repeating: false)
        var index = 0
        while index + 8 <= count {
            var bits = source.loadUnaligned(fromByteOffset: index &* 4, as: SIMD8<UInt32>.self)
            #if _endian(big)
                for lane in 0..<8 { bits[lane] = UInt32(littleEndian: bits[lane]) }
            #endif
            nonFinite = nonFinite .| (bits & exponent .== exponent)
            let floats = unsafeBitCast(bits, to: SIMD8<Float>.self)
            let wide = UnsafeMutableRawPointer(destination + index)
            wide.storeBytes(of: SIMD4<Double>(floats.lowHalf), as: SIMD4<Double>.self)
            wide.storeBytes(of: SIMD4<Double>(floats.highHalf), toByteOffset: 32, as: SIMD4<Double>.self)
            index &+= 8
        }
        var allFinite = !any(nonFinite)
        while index < count {
            let bits = UInt32(littleEndian: source.loadUnaligned(fromByteOffset: index &* 4, as: UInt32.self))
            let value = Double(Float(bitPattern: bits))
            if !value.isFinite { allFinite = false }
            destination[index] = value
            index &+= 1
        }
        return allFinite
    }
}
