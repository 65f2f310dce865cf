import CFFTW

/// A SIMD-aligned buffer from `fftw_malloc`, freed when its owner goes away.
///
/// Non-copyable so that exactly one owner frees it: FFTW's plans assume the alignment
/// `fftw_malloc` gives, and a copied pointer freed twice would be a crash, not a bug report.
struct FFTWBuffer: ~Copyable {
    let base: UnsafeMutablePointer<Double>
    let count: Int

    /// - Parameter count: number of Doubles (a complex bin takes two).
    init(count: Int) {
        let bytes = max(count, 1) * MemoryLayout<Double>.stride
        // fftw_malloc only fails when the process is out of memory; there is no recovery
        // from that here, so trapping with a message is the honest answer.
        guard let raw = fftw_malloc(bytes) else { fatalError("fftw_malloc(\(bytes)) failed: out of memory") }
        base = raw.bindMemory(to: Double.self, capacity: max(count, 1))
        base.initialize(repeating: 0, count: max(count, 1))
        self.count = count
    }

    var buffer: UnsafeMutableBufferPointer<Double> { UnsafeMutableBufferPointer(start: base, count: count) }

    deinit { fftw_free(base) }
}
