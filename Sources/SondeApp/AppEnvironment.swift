/// The services every screen reaches the world through, made once at start-up and
/// handed to each screen's routes.
struct AppEnvironment: Sendable {
    let accounts: WebAccounts
    let measurements: WebMeasurements
    let captures: any CaptureService
    let configuration: AppConfiguration
}
