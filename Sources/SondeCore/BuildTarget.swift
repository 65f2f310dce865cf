import CKernelSupport

/// The CPU this build's numbers come from: an AVX2 build's values differ from the portable
/// build's in the last bits, so manifests record it and a run refuses a CPU that lacks it.
public enum BuildTarget {
    /// `avx2` for `make build` on an AVX2 machine, else `portable` (x86-64 baseline).
    public static var name: String { needsAVX2 ? "avx2" : "portable" }

    /// The commit `make build` built from ("unknown" for a plain `swift build`).
    public static var commit: String { String(cString: sonde_build_commit()) }

    static var needsAVX2: Bool { SONDE_BUILD_NEEDS_AVX2 == 1 }

    /// Nil when this CPU runs this build; else a one-line error naming what is missing.
    /// Call it before any other work: the first AVX2 instruction on an older CPU is a
    /// SIGILL with no message.
    public static func unsupportedCPUMessage() -> String? {
        guard needsAVX2, sonde_cpu_has_avx2_build_features() == 0 else { return nil }
        return "this sonde was built for CPUs with AVX2, FMA, BMI2, MOVBE and F16C (x86-64-v3), which this CPU lacks; "
            + "build the portable binary with `SONDE_PORTABLE=1 make build` for every node of a cluster"
    }
}
