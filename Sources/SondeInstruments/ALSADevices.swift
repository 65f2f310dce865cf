internal import CALSA

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// The machine's ALSA capture devices, from the control interface of every card.
public enum ALSADevices {
    /// Every card's capture PCMs, in card then device order. Each is opened nonblocking for
    /// a moment to read what it accepts; one that another program holds is `.busy`. Empty
    /// on a machine without sound cards.
    public static func list() -> [ALSADeviceInfo] {
        var found: [ALSADeviceInfo] = []
        var card: Int32 = -1
        while snd_card_next(&card) >= 0, card >= 0 {
            found += devices(ofCard: card)
        }
        return found
    }

    private static func devices(ofCard card: Int32) -> [ALSADeviceInfo] {
        var control: OpaquePointer?
        guard snd_ctl_open(&control, "hw:\(card)", 0) >= 0, let control else { return [] }
        defer { snd_ctl_close(control) }
        var cardInfo: OpaquePointer?
        var pcmInfo: OpaquePointer?
        guard snd_ctl_card_info_malloc(&cardInfo) == 0, let cardInfo else { return [] }
        defer { snd_ctl_card_info_free(cardInfo) }
        guard snd_pcm_info_malloc(&pcmInfo) == 0, let pcmInfo else { return [] }
        defer { snd_pcm_info_free(pcmInfo) }
        let cardName =
            snd_ctl_card_info(control, cardInfo) >= 0
            ? String(cString: snd_ctl_card_info_get_name(cardInfo)) : "card \(card)"
        var found: [ALSADeviceInfo] = []
        var device: Int32 = -1
        while snd_ctl_pcm_next_device(control, &device) >= 0, device >= 0 {
            snd_pcm_info_set_device(pcmInfo, UInt32(device))
            snd_pcm_info_set_subdevice(pcmInfo, 0)
            snd_pcm_info_set_stream(pcmInfo, SND_PCM_STREAM_CAPTURE)
            // -ENOENT: a playback-only device.
            guard snd_ctl_pcm_info(control, pcmInfo) >= 0 else { continue }
            found.append(
                ALSADeviceInfo(
                    card: Int(card), device: Int(device), cardName: cardName,
                    pcmName: String(cString: snd_pcm_info_get_name(pcmInfo)),
                    availability: availability(of: "hw:\(card),\(device)")))
        }
        return found
    }

    private static func availability(of name: String) -> ALSADeviceInfo.Availability {
        var pcm: OpaquePointer?
        let opened = snd_pcm_open(&pcm, name, SND_PCM_STREAM_CAPTURE, SND_PCM_NONBLOCK)
        guard opened >= 0, let pcm else {
            return opened == -EBUSY ? .busy : .unavailable(ALSAFormat.describe(Int(opened)))
        }
        defer { snd_pcm_close(pcm) }
        guard let capabilities = ALSACapabilities.query(pcm) else {
            return .unavailable("it did not say what it accepts")
        }
        return .available(capabilities)
    }
}
