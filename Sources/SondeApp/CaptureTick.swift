import ServiceLifecycle

/// The app's background tick, a service of the server's service group: every `interval`
/// it adds the newest values to the trends of the New measurement screen and keeps every
/// capture that ended by itself (its limit, a device failure) as a draft. It starts with
/// the server and ends with it: at the group's graceful shutdown or its cancellation.
struct CaptureTick: Service {
    let captures: any CaptureService
    let interval: Duration

    func run() async throws {
        // Cancelled (or shut down gracefully) while it sleeps: it ends without an error, so
        // the group does not take it for a failed service.
        try? await cancelWhenGracefulShutdown {
            while true {
                try await Task.sleep(for: interval)
                await captures.tick()
            }
        }
    }
}
