import SondeCore

/// Every feature of one frame, stored in `Feature.allCases` order so that the requested
/// columns are picked by index. Degenerate cases stay at their defined value 0.
struct FrameFeatures {
    private var storage = InlineArray<19, Double>(repeating: 0)

    init() {
        assert(Feature.allCases.count == 19, "FrameFeatures' storage must hold every Feature")
    }

    func withUnsafeValues<R>(_ body: (UnsafeBufferPointer<Double>) -> R) -> R {
        var copy = storage
        return withUnsafeMutableBytes(of: &copy) { raw in
            body(UnsafeBufferPointer(raw.bindMemory(to: Double.self)))
        }
    }

    var mean: Double { get { storage[0] } set { storage[0] = newValue } }
    var rms: Double { get { storage[1] } set { storage[1] = newValue } }
    var std: Double { get { storage[2] } set { storage[2] = newValue } }
    var peak: Double { get { storage[3] } set { storage[3] = newValue } }
    var peakToPeak: Double { get { storage[4] } set { storage[4] = newValue } }
    var crestFactor: Double { get { storage[5] } set { storage[5] = newValue } }
    var skewness: Double { get { storage[6] } set { storage[6] = newValue } }
    var kurtosis: Double { get { storage[7] } set { storage[7] = newValue } }
    var zeroCrossingRate: Double { get { storage[8] } set { storage[8] = newValue } }
    var totalPower: Double { get { storage[9] } set { storage[9] = newValue } }
    var dominantFrequency: Double { get { storage[10] } set { storage[10] = newValue } }
    var dominantAmplitude: Double { get { storage[11] } set { storage[11] = newValue } }
    var spectralCentroid: Double { get { storage[12] } set { storage[12] = newValue } }
    var spectralBandwidth: Double { get { storage[13] } set { storage[13] = newValue } }
    var spectralRolloff: Double { get { storage[14] } set { storage[14] = newValue } }
    var spectralFlatness: Double { get { storage[15] } set { storage[15] = newValue } }
    var spectralEntropy: Double { get { storage[16] } set { storage[16] = newValue } }
    var thd: Double { get { storage[17] } set { storage[17] = newValue } }
    var snrDB: Double { get { storage[18] } set { storage[18] = newValue } }
}
