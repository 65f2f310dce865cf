/// The filter stages of docs/features.md section 2, applied in order to one continuous stream.
///
/// The stages are run as one cascade of all their sections: feeding stage 1's output into
/// stage 2 sample by sample is exactly what running the concatenated sections does, so the
/// output is identical to applying each stage's `sosfilt` in turn, with one pass per section
/// and no intermediate buffers.
public struct FilterChain: Sendable {
    /// The designs, in the order they are applied.
    public let stages: [SecondOrderSections]
    /// nil when there are no stages: processing then leaves the samples alone.
    private var cascade: SOSFilter?

    /// - Parameter stages: designs applied first to last; may be empty.
    public init(_ stages: [SecondOrderSections]) {
        self.stages = stages
        if stages.isEmpty {
            cascade = nil
        } else {
            cascade = SOSFilter(SecondOrderSections(uncheckedCoefficients: stages.flatMap(\.coefficients)))
        }
    }

    /// Designs every stage for `sampleRate` and chains them.
    /// - Throws: the first stage's design error (`SondeError` `.invalidArgument`, naming the stage).
    public init(specs: [FilterSpec], sampleRate: Double) throws {
        self.init(try specs.map { try $0.design(sampleRate: sampleRate) })
    }

    /// True when the chain has no stages.
    public var isEmpty: Bool { stages.isEmpty }

    /// Clears every stage's state and keeps the designs.
    public mutating func reset() {
        cascade?.reset()
    }

    /// Filters `samples` in place, continuing from the previous call. Allocates nothing.
    public mutating func process(_ samples: UnsafeMutableBufferPointer<Double>) {
        cascade?.process(samples)
    }

    /// Filters `input` into `output` (which may be the same memory), continuing from the
    /// previous call. Allocates nothing.
    /// - Precondition: `output.count == input.count`.
    public mutating func process(_ input: UnsafeBufferPointer<Double>, into output: UnsafeMutableBufferPointer<Double>)
    {
        precondition(
            output.count == input.count, "FilterChain.process: output has \(output.count) samples, input \(input.count)"
        )
        if cascade != nil {
            cascade?.process(input, into: output)
        } else if let source = input.baseAddress, let destination = output.baseAddress, source != destination {
            destination.update(from: source, count: input.count)
        }
    }

    /// Filters two adjacent channels of an interleaved block into two outputs, each
    /// continuing from its own previous call (see `SOSFilter.process(_:_:interleaved:...)`);
    /// without stages, this only de-interleaves.
    /// - Precondition: the same stages, `stride >= 2`, outputs of equal length.
    public static func process(
        _ first: inout FilterChain, _ second: inout FilterChain, interleaved: UnsafePointer<Double>, stride: Int,
        into firstOutput: UnsafeMutableBufferPointer<Double>, _ secondOutput: UnsafeMutableBufferPointer<Double>
    ) {
        guard var a = first.cascade, var b = second.cascade else {
            precondition(
                first.cascade == nil && second.cascade == nil, "FilterChain.process: channels with different stages")
            precondition(firstOutput.count == secondOutput.count, "FilterChain.process: outputs of different lengths")
            var n = 0
            if stride == 2, let a = firstOutput.baseAddress, let b = secondOutput.baseAddress {
                // Two channels without a filter: four frames a step, split into their even and
                // odd halves. The scalar loop was the framer's whole cost and 17% of a two-channel
                // `--features rms` run (perf); the values are copies either way.
                let source = UnsafeRawPointer(interleaved)
                while n + 4 <= firstOutput.count {
                    let frames = source.loadUnaligned(fromByteOffset: n &* 16, as: SIMD8<Double>.self)
                    UnsafeMutableRawPointer(a + n).storeBytes(of: frames.evenHalf, as: SIMD4<Double>.self)
                    UnsafeMutableRawPointer(b + n).storeBytes(of: frames.oddHalf, as: SIMD4<Double>.self)
                    n &+= 4
                }
            }
            while n < firstOutput.count {
                firstOutput[n] = interleaved[n * stride]
                secondOutput[n] = interleaved[n * stride + 1]
                n += 1
            }
            return
        }
        // Moved out and back so each cascade's state stays uniquely referenced (no copy).
        first.cascade = nil
        second.cascade = nil
        SOSFilter.process(&a, &b, interleaved: interleaved, stride: stride, into: firstOutput, secondOutput)
        first.cascade = a
        second.cascade = b
    }

    /// Filters `samples` in place; a convenience for arrays.
    public mutating func process(_ samples: inout [Double]) {
        cascade?.process(&samples)
    }
}
