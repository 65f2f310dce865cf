import SondeCore

/// `spectral_flux`: the L2 distance between this frame's |X| and the same channel's
/// previous frame's (Essentia's `Flux`, not rectified); 0 for an input's first frame.
///
/// The previous |X| is this instance's state. Workers keep no state between jobs: a job
/// that does not start an input carries the samples of the frame before its first
/// (`ChannelProcessor`), and the worker primes the family with that frame's spectrum, so
/// the value does not depend on how frames are split between jobs or workers.
final class FluxFamily: FeatureFamily {
    static let declaration = FamilyDeclaration(
        name: "flux",
        summary: "change of the magnitude spectrum from the channel's previous frame",
        columns: [
            FeatureDeclaration(
                .name("spectral_flux"), unit: "|X| (input unit · samples)",
                definition:
                    "sqrt(Σ_k (|X_t[k]| - |X_t-1[k]|)²), X_t-1 the same channel's previous frame; 0 for frame 0 of each input",
                reference: "numpy (Essentia's Flux, L2, not rectified)", input: .previousSpectrum, request: .byName,
                tolerance: .flux)
        ],
        options: []
    )

    static func columnNames(for configuration: FeatureConfiguration) -> [String] {
        configuration.families.names.contains("spectral_flux") ? ["spectral_flux"] : []
    }

    private let binCount: Int
    private let previous: UnsafeMutableBufferPointer<Double>
    private var hasPrevious = false

    init(configuration: FeatureConfiguration) {
        binCount = configuration.frameLength / 2 + 1
        previous = .allocate(capacity: binCount)
        previous.initialize(repeating: 0)
    }

    deinit { previous.deallocate() }

    func measure(_ frame: FrameSpectrum, into values: UnsafeMutableBufferPointer<Double>) {
        guard let previousBase = previous.baseAddress else { return }
        let sum = hasPrevious ? FrameKernels.squaredDistance(frame.magnitude, previousBase, count: binCount) : 0
        values[0] = sum.squareRoot()
        prime(frame)
    }

    func prime(_ frame: FrameSpectrum) {
        guard let base = previous.baseAddress else { return }
        base.update(from: frame.magnitude, count: binCount)
        hasPrevious = true
    }

    func reset() { hasPrevious = false }
}
