/// Receives every measured frame's power spectrum, for averaged spectra, spectrograms and
/// a live page's latest spectrum, without a second FFT pass over the input.
///
/// The graph calls it from its exporter, one call at a time, in output order (input, then
/// block of frames, then channel), before that block's records go to the sink. So an
/// input's last call happens before the sink's `end` for that input. Keep it cheap: the
/// exporter waits for it. A graph without a tap computes and copies no extra spectrum.
public protocol SpectrumTap: AnyObject, Sendable {
    func receive(_ spectra: FrameSpectra)
}
