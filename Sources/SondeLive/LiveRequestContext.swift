import Hummingbird
import NIOCore

/// Hummingbird's request context plus the connection, so the event stream can bound the
/// kernel's send buffer of its client.
struct LiveRequestContext: LiveStreamingContext {
    var coreContext: CoreRequestContextStorage
    let channel: any Channel

    init(source: ApplicationRequestContextSource) {
        coreContext = CoreRequestContextStorage(source: source)
        channel = source.channel
    }
}
