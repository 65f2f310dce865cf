import Hummingbird
import HummingbirdTesting
import SondeCore
import SondeLive
import Testing

/// Issue 29: the live page's routes are a collection another server (the web app) mounts
/// under a prefix, with its own request context.
struct LiveRoutesTests {
    @Test func theRoutesServeUnderAPrefixOfAnotherRouter() async throws {
        let live = LiveRoutes(columns: ["rms", "peak"])
        live.publish(
            RecordBatch(
                fileName: "device", channelNames: ["x", "y"], columnCount: 2, firstFrame: 0, frameCount: 3, hop: 100,
                clock: .wallClock(sampleRate: 1000, epochOfFirstSample: 1_000),
                values: [1, -1, 1.5, -1.5, 2, -2, 2.5, -2.5, 3, -3, 3.5, -3.5]))
        let router = Router(context: BasicRequestContext.self)
        router.get("/") { _, _ in "the app's own main page" }
        router.addRoutes(live.routes(context: BasicRequestContext.self), atPath: "/measurements/live")
        let application = Application(router: router)
        try await application.test(.router) { client in
            try await client.execute(uri: "/measurements/live", method: .get) { response in
                #expect(response.status == .ok)
                #expect(response.headers[.contentType] == "text/html; charset=utf-8")
                let page = String(buffer: response.body)
                #expect(page.contains("<title>sonde live</title>"))
                #expect(page.contains("new EventSource(base + \"events\")"), "events are found beside the page")
            }
            try await client.execute(uri: "/measurements/live/metrics", method: .get) { response in
                #expect(response.status == .ok)
                let lines = String(buffer: response.body).split(separator: "\n")
                #expect(lines.contains("sonde_records_total 6"), "\(lines.filter { $0.hasPrefix("sonde_records") })")
                #expect(lines.contains { $0.hasPrefix("sonde_feature_value{") && $0.hasSuffix(" 3.5") })
            }
            try await client.execute(uri: "/", method: .get) { response in
                #expect(String(buffer: response.body) == "the app's own main page")
            }
        }
        await live.finish()
    }
}
