/// One or two channels' share of a block, handed to a child task.
struct ChannelAppend: @unchecked Sendable {
    // @unchecked: the block is only read, and each child task gets different channels; the
    // framer waits for all of them before it touches the block or the channels again.
    let channels: [ChannelProcessor]
    /// The first of the (up to) two channels.
    let first: Int
    let block: UnsafeBufferPointer<Double>
    let times: StageTimes

    func run() {
        let count = channels.count
        times.time(.filter) {
            if first + 1 < count {
                ChannelProcessor.append(
                    channels[first], channels[first + 1], channel: first, interleaved: block, channelCount: count)
            } else {
                channels[first].append(interleaved: block, channel: first, channelCount: count)
            }
        }
    }
}
