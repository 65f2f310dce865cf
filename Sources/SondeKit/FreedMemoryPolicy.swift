import CSystemCalls

/// How a short command that reads whole channels asks the C allocator to keep memory it
/// frees. The kurtogram and the envelope spectrum allocate and free channel-sized buffers
/// (23-46 MB for a minute at 48 kHz) several times per channel; glibc maps every block over
/// 32 MB afresh and unmaps it on free, so each reuse pays its page faults again: 1.1 s of
/// system time in `sonde diagnose` of 60 s × 2 channels, 1.6 s wall. Keeping freed blocks
/// in the heap made it 0.3 s and 0.9 s wall (peak 348 -> 390-435 MB; docs/performance.md).
/// Only for commands that run one analysis and exit: a server would keep its peak.
public enum FreedMemoryPolicy {
    /// Serve blocks of up to 1 GiB from the heap and never give its top back to the system.
    public static func keepForReuse() {
        _ = sonde_keep_freed_memory(1 << 30)
    }
}
